"""The 88 tiles of Amazing Space Venture as designed for this implementation (SPEC §3).

The rulebook gives only counts; the faces below are a design that meets every count
(SPEC §3.3) and the decisions in SPEC §3.4. Sides are listed N, E, S, W before rotation.
"""
from __future__ import annotations

from collections import Counter

from .geometry import CORNERS, CENTRE, HOME_SQUARE, Square
from .tile_model import (
    DEEP, END_BLACK_HOLE, END_GALAXY, END_MID, END_PLANET, GALAXY, KINDS, PATH,
    PATH_SHAPES, SUN, PathSegment, Tile,
)

__all__ = [
    "TILES", "TILE_BY_ID", "START_LAYOUT", "SPACE_TILES", "START_TILE_IDS", "QUEST_TILE_ID",
    "TileSetError", "check_tile", "check_tile_set", "tile_counts", "shown_sides",
    "distinct_rotations",
]

D, G, P, S = DEEP, GALAXY, PATH, SUN


def _to_planet(side: int, planet: int = 0) -> PathSegment:
    return PathSegment((side,), END_PLANET, planet)


def _through(a: int, b: int) -> PathSegment:
    return PathSegment((a, b))


# --- start tiles (SPEC §3.2) -------------------------------------------------------------

_START = (
    *(Tile(f"home-{c}", "start", 1, (D, D, D, D), planets=(4,), home_colour=c,
           note=f"{c} 4-point home planet in open deep space")
      for c in ("blue", "yellow", "green", "red")),
    # One physical design, turned at setup so both paths point into the board.
    Tile("corner", "start", 4, (P, P, D, D), paths=(_to_planet(0), _to_planet(1)),
         planets=(5,), note="grey 5-point planet; paths leave it north and east"),
    Tile("centre", "start", 1, (D, D, D, D), planets=(5,),
         note="earth-like 5-point planet, no paths"),
)

# --- planet tiles: 20 tiles, 21 planets (SPEC §3.3) -------------------------------------

_PLANET = (
    # eleven 1-point planets
    Tile("p1-a", "planet", 3, (P, D, D, D), paths=(_to_planet(0),), planets=(1,),
         note="path from the north ends at the planet"),
    Tile("p1-b", "planet", 2, (P, P, D, D), paths=(_to_planet(0), _to_planet(1)), planets=(1,),
         note="paths from north and east end at the planet"),
    Tile("p1-c", "planet", 1, (P, D, P, D), paths=(_to_planet(0), _to_planet(2)), planets=(1,),
         note="paths from north and south end at the planet"),
    Tile("p1-d", "planet", 2, (P, D, G, D), galaxies=((2,),), paths=(_to_planet(0),),
         planets=(1,), note="path from the north; galaxy edge on the south"),
    Tile("p1-e", "planet", 1, (G, D, D, D), galaxies=((0,),), planets=(1,),
         note="planet beside a galaxy edge on the north"),
    Tile("p1-f", "planet", 1, (D, D, D, D), planets=(1,),
         note="lone planet in deep space"),
    Tile("p1-g", "planet", 1, (P, P, P, D),
         paths=(_to_planet(0), _to_planet(1), _to_planet(2)), planets=(1,),
         note="paths from north, east and south end at the planet"),
    # six tiles with seven 2-point planets
    Tile("p2-twin", "planet", 1, (P, D, P, D), paths=(_to_planet(0, 0), _to_planet(2, 1)),
         planets=(2, 2), note="two planets: the north path reaches one, the south path the other"),
    Tile("p2-a", "planet", 2, (P, D, D, D), paths=(_to_planet(0),), planets=(2,),
         note="path from the north ends at the planet"),
    Tile("p2-b", "planet", 1, (P, P, D, D), paths=(_to_planet(0), _to_planet(1)), planets=(2,),
         note="paths from north and east end at the planet"),
    Tile("p2-c", "planet", 1, (P, D, G, D), galaxies=((2,),), paths=(_to_planet(0),),
         planets=(2,), note="path from the north; galaxy edge on the south"),
    Tile("p2-d", "planet", 1, (G, G, D, D), galaxies=((0, 1),), planets=(2,),
         note="planet inside a galaxy corner reaching north and east"),
    # three 3-point planets
    Tile("p3-a", "planet", 1, (P, D, D, D), paths=(_to_planet(0),), planets=(3,),
         note="path from the north ends at the planet"),
    Tile("p3-b", "planet", 1, (P, D, P, D), paths=(_to_planet(0), _to_planet(2)), planets=(3,),
         note="paths from north and south end at the planet"),
    Tile("p3-c", "planet", 1, (G, D, D, D), galaxies=((0,),), planets=(3,),
         note="planet beside a galaxy edge on the north"),
)

# --- path tiles: 25 (9 straight, 12 right angle, 3 dead end, 1 double) (SPEC §3.3) -------

_PATH = (
    Tile("path-straight", "path", 4, (P, D, P, D), paths=(_through(0, 2),),
         path_shape="straight", note="north-south path"),
    Tile("path-straight-worm", "path", 1, (P, D, P, D), paths=(_through(0, 2),),
         wormhole=True, path_shape="straight",
         note="north-south path; worm hole in the deep space east of it"),
    Tile("black-hole", "path", 1, (P, D, P, D),
         paths=(PathSegment((0,), END_BLACK_HOLE), PathSegment((2,), END_BLACK_HOLE)),
         black_hole=True, path_shape="straight",
         note="paths from north and south both end in the black hole at the centre"),
    Tile("path-straight-gal", "path", 2, (P, G, P, D), galaxies=((1,),),
         paths=(_through(0, 2),), path_shape="straight",
         note="north-south path; galaxy edge on the east"),
    Tile("path-straight-gal2", "path", 1, (P, G, P, G), galaxies=((1,), (3,)),
         paths=(_through(0, 2),), path_shape="straight",
         note="north-south path splitting two galaxy edges, east and west"),
    Tile("path-bend", "path", 5, (P, P, D, D), paths=(_through(0, 1),),
         path_shape="right_angle", note="path turning from north to east"),
    Tile("path-bend-gal-sw", "path", 3, (P, P, G, G), galaxies=((2, 3),),
         paths=(_through(0, 1),), path_shape="right_angle",
         note="north-east path round a galaxy corner reaching south and west"),
    Tile("path-bend-gal-s", "path", 2, (P, P, G, D), galaxies=((2,),),
         paths=(_through(0, 1),), path_shape="right_angle",
         note="north-east path; galaxy edge on the south"),
    Tile("path-bend-gal-w", "path", 2, (P, P, D, G), galaxies=((3,),),
         paths=(_through(0, 1),), path_shape="right_angle",
         note="north-east path; galaxy edge on the west"),
    Tile("path-end-gal", "path", 2, (P, D, G, D), galaxies=((2,),),
         paths=(PathSegment((0,), END_GALAXY),), path_shape="dead_end",
         note="path from the north disappears into a galaxy reaching south"),
    Tile("path-end-mid", "path", 1, (P, D, D, D), paths=(PathSegment((0,), END_MID),),
         path_shape="dead_end", note="path from the north stops in the middle of deep space"),
    Tile("path-double-bend", "path", 1, (P, P, P, P), paths=(_through(0, 1), _through(2, 3)),
         path_shape="double_right_angle",
         note="two paths: north to east and south to west, not joined"),
)

# --- galaxy tiles: 23 (SPEC §3.3) ---------------------------------------------------------

_GALAXY = (
    Tile("gal-cap", "galaxy", 6, (G, D, D, D), galaxies=((0,),), note="galaxy edge on the north"),
    Tile("gal-corner", "galaxy", 4, (G, G, D, D), galaxies=((0, 1),),
         note="galaxy reaching north and east"),
    Tile("gal-band", "galaxy", 3, (G, D, G, D), galaxies=((0, 2),),
         note="galaxy band from north to south"),
    Tile("gal-tee", "galaxy", 3, (G, G, G, D), galaxies=((0, 1, 2),),
         note="galaxy reaching north, east and south"),
    Tile("gal-full", "galaxy", 2, (G, G, G, G), galaxies=((0, 1, 2, 3),),
         note="galaxy filling the tile"),
    Tile("gal-two-caps", "galaxy", 2, (G, D, G, D), galaxies=((0,), (2,)),
         note="two separate galaxy edges, north and south, deep space between"),
    Tile("gal-two-caps-corner", "galaxy", 1, (G, G, D, D), galaxies=((0,), (1,)),
         note="two separate galaxy edges, north and east"),
    Tile("gal-two-corners", "galaxy", 1, (G, G, G, G), galaxies=((0, 1), (2, 3)),
         note="two separate galaxies: north-east and south-west"),
    Tile("gal-worm", "galaxy", 1, (G, G, D, D), galaxies=((0, 1),), wormhole=True,
         note="galaxy reaching north and east; worm hole in the deep space south-west"),
)

_OTHER = (
    Tile("deep", "deep_space", 4, (D, D, D, D), note="empty deep space"),
    Tile("sun", "sun", 4, (S, S, S, S), note="a quarter of a sun"),
    # Never placed: kept face down; the quest itself comes from the hidden quest deck (§3.4).
    Tile("quest", "quest", 3, (D, D, D, D), note="special quest (drawn and kept face down)"),
)

TILES: tuple[Tile, ...] = (*_START, *_PLANET, *_PATH, *_GALAXY, *_OTHER)
TILE_BY_ID: dict[str, Tile] = {t.id: t for t in TILES}
START_TILE_IDS: tuple[str, ...] = tuple(t.id for t in _START)
QUEST_TILE_ID = "quest"

# The shuffled deck before shuffling: copies expanded, in TILES order (SPEC §3.3).
SPACE_TILES: tuple[str, ...] = tuple(t.id for t in TILES if t.kind != "start"
                                     for _ in range(t.copies))

# (tile id, square, rotation) for the nine starting squares (SPEC §3.2). The corner tile
# has its paths north and east unrotated; each turn points both paths into the board.
START_LAYOUT: tuple[tuple[str, Square, int], ...] = (
    ("home-blue", HOME_SQUARE["blue"], 0),
    ("home-yellow", HOME_SQUARE["yellow"], 0),
    ("home-green", HOME_SQUARE["green"], 0),
    ("home-red", HOME_SQUARE["red"], 0),
    ("corner", CORNERS[0], 1),  # paths E and S
    ("corner", CORNERS[1], 2),  # M-1: paths S and W
    ("corner", CORNERS[2], 0),  # paths N and E
    ("corner", CORNERS[3], 3),  # M-13: paths W and N
    ("centre", CENTRE, 0),
)


class TileSetError(ValueError):
    """A tile (or the tile set) breaks the tile model of SPEC §3.1."""


def check_tile(t: Tile) -> None:
    """Raise TileSetError naming the tile and the broken rule of SPEC §3.1."""
    def bad(why: str) -> TileSetError:
        return TileSetError(f"tile {t.id!r}: {why}")

    if t.kind not in KINDS:
        raise bad(f"unknown kind {t.kind!r}")
    if t.copies < 1:
        raise bad("copies must be at least 1")
    if len(t.sides) != 4 or any(c not in (D, G, P, S) for c in t.sides):
        raise bad(f"sides must be four of D/G/P/S, got {t.sides!r}")
    if t.kind == "sun":
        if t.sides != (S, S, S, S) or t.galaxies or t.paths or t.planets or t.wormhole \
                or t.black_hole or t.path_shape:
            raise bad("a sun tile is SSSS and carries nothing else")
        return
    if S in t.sides:
        raise bad("only sun tiles have sun sides")
    if t.kind == "quest" and (t.sides != (D, D, D, D) or t.galaxies or t.paths or t.planets
                              or t.wormhole or t.black_hole or t.path_shape):
        raise bad("a quest tile is DDDD and carries nothing else")
    gal_sides = [s for part in t.galaxies for s in part]
    if not all(part for part in t.galaxies):
        raise bad("a galaxy part must reach at least one side")
    if sorted(gal_sides) != [s for s in range(4) if t.sides[s] == G]:
        raise bad("every G side must belong to exactly one galaxy part, and only G sides")
    path_sides = [s for seg in t.paths for s in seg.sides]
    if sorted(path_sides) != [s for s in range(4) if t.sides[s] == P]:
        raise bad("every P side must belong to exactly one path segment, and only P sides")
    for seg in t.paths:
        if len(seg.sides) == 2:
            if seg.end is not None or seg.planet is not None:
                raise bad(f"through path {seg.sides} must have no end")
        elif len(seg.sides) == 1:
            if seg.end not in (END_PLANET, END_BLACK_HOLE, END_GALAXY, END_MID):
                raise bad(f"path {seg.sides} reaches one side and needs an end")
            if (seg.end == END_PLANET) != (seg.planet is not None):
                raise bad(f"path {seg.sides}: a planet index goes with end 'planet' only")
            if seg.planet is not None and not 0 <= seg.planet < len(t.planets):
                raise bad(f"path {seg.sides} ends at missing planet {seg.planet}")
            if seg.end == END_BLACK_HOLE and not t.black_hole:
                raise bad("a path ends in a black hole on a tile without one")
            if seg.end == END_GALAXY and not t.galaxies:
                raise bad("a path ends in a galaxy on a tile without one")
        else:
            raise bad(f"a path segment reaches one or two sides, not {seg.sides}")
    if t.path_shape is not None and t.path_shape not in PATH_SHAPES:
        raise bad(f"unknown path shape {t.path_shape!r}")
    if (t.kind == "path") != (t.path_shape is not None):
        raise bad("path tiles, and only path tiles, have a path shape")
    if t.kind in ("path", "galaxy", "deep_space") and t.planets:
        raise bad(f"a {t.kind} tile has no planets")
    if t.kind in ("planet", "start") and not t.planets:
        raise bad(f"a {t.kind} tile needs a planet")
    if t.home_colour is not None and (t.kind != "start" or t.planets != (4,)):
        raise bad("a home colour goes on a 4-point start tile only")
    if t.kind == "galaxy" and (t.paths or not t.galaxies):
        raise bad("a galaxy tile has galaxy parts and no paths")
    if t.kind == "deep_space" and (t.sides != (D, D, D, D) or t.wormhole or t.black_hole):
        raise bad("a deep space tile is DDDD with nothing on it")


def check_tile_set(tiles: tuple[Tile, ...] = TILES) -> None:
    """Check every tile and that ids are unique (SPEC §3.1)."""
    seen: set[str] = set()
    for t in tiles:
        if t.id in seen:
            raise TileSetError(f"duplicate tile id {t.id!r}")
        seen.add(t.id)
        check_tile(t)


def tile_counts(tiles: tuple[Tile, ...] = TILES) -> dict[str, int]:
    """Physical tiles per kind, in KINDS order (SPEC §3.3)."""
    c: Counter[str] = Counter()
    for t in tiles:
        c[t.kind] += t.copies
    return {k: c[k] for k in KINDS}


def shown_sides(t: Tile, rotation: int) -> tuple[str, str, str, str]:
    """What the tile shows on board sides N, E, S, W after `rotation` quarter turns (§3.1)."""
    return (t.side(0, rotation), t.side(1, rotation), t.side(2, rotation), t.side(3, rotation))


def _face(t: Tile, r: int) -> tuple:
    """Everything a rotation changes, on board sides, in a canonical order."""
    def turn(sides: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted((s + r) % 4 for s in sides))
    return (shown_sides(t, r),
            tuple(sorted(turn(p) for p in t.galaxies)),
            # planet value, not index: the twin's two 2-point planets look alike
            tuple(sorted((turn(seg.sides), seg.end or "",
                          0 if seg.planet is None else t.planets[seg.planet])
                         for seg in t.paths)))


def distinct_rotations(t: Tile) -> tuple[int, ...]:
    """The rotations 0..3 giving different faces as modelled; e.g. (0,) for DDDD tiles."""
    out: list[int] = []
    faces: list[tuple] = []
    for r in range(4):
        f = _face(t, r)
        if f not in faces:
            faces.append(f)
            out.append(r)
    return tuple(out)
