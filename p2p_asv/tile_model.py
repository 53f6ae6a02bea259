"""The tile model (SPEC §3.1): what each side of a tile carries and how its features join inside it."""
from __future__ import annotations

from dataclasses import dataclass

# What a side carries. Adjacent sides must carry the same thing, except that a sun
# side matches anything and blocks whatever faces it (SPEC §3.1, §2.5).
DEEP, GALAXY, PATH, SUN = "D", "G", "P", "S"

# Where a path segment stops inside its tile.
END_PLANET, END_BLACK_HOLE, END_GALAXY, END_MID = "planet", "black_hole", "galaxy", "mid"

KINDS = ("start", "planet", "path", "galaxy", "deep_space", "sun", "quest")
PATH_SHAPES = ("straight", "right_angle", "dead_end", "double_right_angle")


@dataclass(frozen=True)
class PathSegment:
    """One red path inside a tile.

    sides: the tile sides (unrotated, 0=N 1=E 2=S 3=W) the segment reaches: two for a path
    running through, one for a path that stops inside the tile at `end`.
    """
    sides: tuple[int, ...]
    end: str | None = None
    planet: int | None = None  # index into Tile.planets when end == "planet"


@dataclass(frozen=True)
class Tile:
    """A tile type. `copies` physical tiles of this type exist in the game."""
    id: str
    kind: str
    copies: int
    sides: tuple[str, str, str, str]          # N, E, S, W before rotation
    galaxies: tuple[tuple[int, ...], ...] = ()  # each galaxy part: the sides it reaches
    paths: tuple[PathSegment, ...] = ()
    planets: tuple[int, ...] = ()             # planet values on the tile
    wormhole: bool = False
    black_hole: bool = False
    path_shape: str | None = None
    home_colour: str | None = None            # start tiles holding a home planet
    note: str = ""

    def side(self, board_side: int, rotation: int) -> str:
        """What the tile shows on board_side when rotated `rotation` quarter turns clockwise."""
        return self.sides[(board_side - rotation) % 4]
