"""Fixed facts of Space Walk: the two orbits, the ships, the tokens and the action cards (SPEC §40-§41).

The rulebook does not print the board; the orbits here are the project's design (SPEC §40.2).
Squares are 0-based inside the engine and 1-based in notation and on screen.
"""
from __future__ import annotations

from dataclasses import dataclass

MIN_PLAYERS, MAX_PLAYERS = 2, 5

# Seat colours in seat order (SPEC §40.4): the Amazing Space Venture four, then purple.
COLOURS = ("blue", "yellow", "green", "red", "purple")
INITIALS = tuple(c[0].upper() for c in COLOURS)          # B Y G R P

# Ship sizes, largest first: the order a group moves in (SPEC §42.2). Index = size rank.
SIZES = ("L", "M", "S")
SIZE_NAMES = ("large", "medium", "small")
POINTS = (4, 3, 1)                                       # per ship still in orbit (SPEC §45)
SHIPS_PER_SIZE = 3                                       # nine ships: 3 large, 3 medium, 3 small

TOKEN_POINTS = 2                                         # per unused token (SPEC §45)

# The action-card variant (SPEC §44): each player's eight cards, in this fixed order.
CARD_KINDS = ("move", "twice", "copy", "step", "skip")
CARD_COUNTS = (4, 1, 1, 1, 1)
CARD_TEXT = {
    "move": "move every ship on one square that holds one of yours, by the basic rules",
    "twice": "do that twice: two group moves, one after the other",
    "copy": "do what the card the previous player used last did",
    "step": "move one of your own ships exactly one square forward",
    "skip": "move nothing",
}

# A game that never ends would never sign off its log: it is cut after this many regular
# turns per seat (SPEC §45.3); real games end long before.
MAX_ROUNDS = 100


@dataclass(frozen=True)
class Orbit:
    name: str
    length: int                 # squares, black holes included
    holes: tuple[int, ...]      # 0-based squares that are black holes

    def is_hole(self, square: int) -> bool:
        return square in self.holes

    def free_squares(self) -> int:
        return self.length - len(self.holes)


# Every seventh square is a black hole (SPEC §40.2): six safe squares between two holes on
# both orbits; the large orbit is the small one with one more stretch.
SMALL_ORBIT = Orbit("small", 14, (6, 13))
LARGE_ORBIT = Orbit("large", 21, (6, 13, 20))


def orbit_for(players: int) -> Orbit:
    return SMALL_ORBIT if players == 2 else LARGE_ORBIT


def tokens_for(players: int) -> int:
    return 3 if players == 5 else 4


def ship_code(rank: int, seat: int) -> str:
    """Notation of one ship: colour initial then size letter, e.g. "BL" (blue large)."""
    return INITIALS[seat] + SIZES[rank]


def parse_ship_code(code: str) -> tuple[int, int] | None:
    if len(code) != 2 or code[0] not in INITIALS or code[1] not in SIZES:
        return None
    return SIZES.index(code[1]), INITIALS.index(code[0])
