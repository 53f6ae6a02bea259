"""Every fixed fact of Space Trading Race as plain data (SPEC §57.7): the board, the deeds, the
missions, the laser table and the numbers of the rulebook, for a catalog command or a board
picture to read without knowing the engine's modules."""
from __future__ import annotations

from .board import DOT_COUNT, NO_ORBIT, RINGS, SPACES
from .deeds import DEEDS, DOCK_MULTIPLIERS, GROUP_COLOURS, GROUPS, RENT_LADDER
from .lasers import DAMAGE_PER_PIP, DISABLING_TOTAL, SHOTS_PER_TOKEN
from .missions import MISSIONS
from .state import (DEFAULT_TIME_LIMIT, LASER_TOKENS, MAX_OFFERS_PER_TURN, MAX_PLAYERS, MAX_TIME_LIMIT,
                    MIN_PLAYERS, MISSION_CARDS, STARTING_CASH, STARTING_TOKENS)
from .turn import ALL_OWNED_PAY, AMALTHEA_ESCAPE, DOUBLES_PAY, EARTH_PAY


def _space(s) -> dict:
    out = {"space": s.index, "kind": s.kind, "name": s.name, "system": s.system}
    if s.deed is not None:
        out["deed"] = DEEDS[s.deed].slug
    if s.kind == "blue":
        out["order"] = {"kind": s.order[0], "amount": s.order[1]}
    if s.kind == "station":
        out["collect"] = {"federons": s.order[0], "laser_tokens": s.order[1]}
    return out


def catalog() -> dict:
    return {
        "game": "space-trading-race",
        "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
        "spaces": [_space(s) for s in SPACES],
        "systems": [{"system": name, "orbit": None if name in NO_ORBIT else list(ring), "black_dots": DOT_COUNT[name]}
                    for name, ring in RINGS.items()],
        "groups": [{"group": g, "colour": GROUP_COLOURS[g]} for g in GROUPS],
        "deeds": [{"deed": d.slug, "name": d.name, "group": d.group, "kind": d.kind, "price": d.price,
                   "rents" if d.kind != "dock" else "fee_multipliers": list(d.rents)} for d in DEEDS],
        "rent_ladder_percent": list(RENT_LADDER), "dock_multipliers": list(DOCK_MULTIPLIERS),
        "missions": [{"mission": m.slug, "title": m.title, "condition": m.text} for m in MISSIONS],
        "lasers": {"shots_per_token": {str(k): v for k, v in SHOTS_PER_TOKEN.items()},
                   "damage_per_pip": DAMAGE_PER_PIP, "disabling_total": DISABLING_TOTAL, "tokens": LASER_TOKENS},
        "money": {"starting_cash": STARTING_CASH, "starting_tokens": STARTING_TOKENS, "earth_pay": EARTH_PAY,
                  "doubles_pay": DOUBLES_PAY, "all_owned_pay": ALL_OWNED_PAY},
        "amalthea_escape": AMALTHEA_ESCAPE, "mission_cards": MISSION_CARDS,
        "time_limit": {"default": DEFAULT_TIME_LIMIT, "max": MAX_TIME_LIMIT},
        "offers_per_turn": MAX_OFFERS_PER_TURN,
    }
