"""Every fixed fact of Space Walk as data (SPEC §47.5): `asv catalog --game space-walk --json`."""
from __future__ import annotations

from .orbit import (CARD_COUNTS, CARD_KINDS, CARD_TEXT, COLOURS, INITIALS, LARGE_ORBIT, MAX_PLAYERS,
                    MAX_ROUNDS, MIN_PLAYERS, POINTS, SHIPS_PER_SIZE, SIZE_NAMES, SIZES, SMALL_ORBIT,
                    TOKEN_POINTS, tokens_for)


def catalog() -> dict:
    return {
        "game": "space-walk",
        "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
        "orbits": [{"name": o.name, "players": players, "squares": o.length,
                    "black_holes": [h + 1 for h in o.holes]}
                   for o, players in ((SMALL_ORBIT, [2]), (LARGE_ORBIT, [3, 4, 5]))],
        "colours": [{"seat": seat, "colour": c, "initial": INITIALS[seat]} for seat, c in enumerate(COLOURS)],
        "ships": [{"size": SIZES[r], "name": SIZE_NAMES[r], "points": POINTS[r], "per_player": SHIPS_PER_SIZE}
                  for r in range(len(SIZES))],
        "tokens": {"per_player": {str(n): tokens_for(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)},
                   "points_each_unused": TOKEN_POINTS, "per_round": 1},
        "action_cards": [{"card": k, "copies": c, "effect": CARD_TEXT[k]} for k, c in zip(CARD_KINDS, CARD_COUNTS)],
        "max_rounds": MAX_ROUNDS,
    }
