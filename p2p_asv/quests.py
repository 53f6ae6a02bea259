"""The three Special Quests as data (SPEC §5.8).

A Special Quest tile, when drawn, is kept secret by its drawer; this module only says
what each quest asks and what it is worth. Checking a quest against the board is the
engine's job (SPEC §8).
"""
from __future__ import annotations

from dataclasses import dataclass

PEACE_MISSION, STRONG_EMPIRE, TRADE_MISSION = "Peace Mission", "Strong Empire", "Trade Mission"


class UnknownQuest(KeyError):
    """A quest name that is not one of the three Special Quests."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown quest"


@dataclass(frozen=True)
class Quest:
    """One Special Quest.

    points: fixed points for completing it, or the points per tile when per_path_tile.
    sector_planets: for Strong Empire, the Planets (the original Home Planet included) its
    owner must hold inside the own sector.
    """
    name: str
    points: int
    per_path_tile: bool
    description: str
    sector_planets: int | None = None

    def score(self, path_tiles: int = 0) -> int:
        """Points for completing the quest; Trade Mission needs the number of path tiles."""
        if not self.per_path_tile:
            return self.points
        if path_tiles < 2:  # both end tiles count, so a connection spans at least two
            raise ValueError(f"{self.name} needs at least 2 path tiles, got {path_tiles}")
        return self.points * path_tiles

    def to_dict(self) -> dict:
        return {"name": self.name, "points": self.points, "per_path_tile": self.per_path_tile,
                "sector_planets": self.sector_planets, "description": self.description}


QUESTS: tuple[Quest, ...] = (
    Quest(PEACE_MISSION, 5, False,
          "At some moment of your own turn have one of your ships on an opponent's Planet "
          "that lies outside your home sector (moving there or being moved there both count)."),
    Quest(STRONG_EMPIRE, 5, False,
          "Hold six Planets inside your home sector, your original Home Planet included. "
          "Planets lost before you score no longer count.", sector_planets=6),
    Quest(TRADE_MISSION, 1, True,
          "Join one of your Planets to an opponent's Planet by a Space Path with no other "
          "Planet between them; score 1 per tile of that path, both Planet tiles included. "
          "You may wait for a longer route; a Planet lost before you score spoils it."),
)
QUEST_BY_NAME: dict[str, Quest] = {q.name: q for q in QUESTS}
QUEST_DECK: tuple[str, ...] = tuple(q.name for q in QUESTS)


def quest(name: str) -> Quest:
    """The quest with this exact name, or UnknownQuest."""
    try:
        return QUEST_BY_NAME[name]
    except KeyError:
        raise UnknownQuest(f"no Special Quest named {name!r}; expected one of {QUEST_DECK}") from None
