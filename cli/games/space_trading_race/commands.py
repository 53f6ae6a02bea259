"""Space Trading Race's parts of the `asv` commands (SPEC §34.1, §59): a selfplay game's summary
and the catalogue, which its kit offers to `asv selfplay` and `asv catalog`."""
from __future__ import annotations

import json

from space_trading_race.catalog import catalog
from space_trading_race.selfplay import play_game

from .outcome import result_of

SELFPLAY_KEYS = ("seed", "players", "rounds", "turns", "events", "scores", "cash", "deeds", "alive", "out",
                 "winner", "winners", "end", "missions", "state_hash", "bots")


def selfplay_summary(players: int, seed: int, kinds: list[str], config: dict) -> dict:
    """One whole game between bots: the keys `asv selfplay` prints."""
    state, summary = play_game(players, seed, kinds, config)
    summary["scores"] = result_of(state)["scores"]
    return {k: summary[k] for k in SELFPLAY_KEYS}


def catalog_lines() -> list[str]:
    data = catalog()
    lines = ["Space Trading Race", ""]
    for system in data["systems"]:
        orbit = "no orbit" if system["orbit"] is None else f"orbit ring {system['orbit'][0]}-{system['orbit'][-1]}"
        lines.append(f"{system['system']:8s} {orbit}, {system['black_dots']} black dots")
    lines.append("")
    lines.append("deeds (price; rent with 1, 2, ... of the group):")
    for d in data["deeds"]:
        rents = ", ".join(map(str, d.get("rents", d.get("fee_multipliers", []))))
        unit = "" if "rents" in d else " x the second roll"
        lines.append(f"  {d['name']:<13s} {d['group']:<8s} ${d['price']:<4d} {rents}{unit}")
    lines.append("")
    lines.append("missions:")
    lines += [f"  {m['mission']:<14s} {m['title']}: {m['condition']}" for m in data["missions"]]
    money = data["money"]
    lines.append("")
    lines.append(f"start ${money['starting_cash']} and {money['starting_tokens']} laser token; Earth pays "
                 f"${money['earth_pay']}, doubles ${money['doubles_pay']}; time limit "
                 f"{data['time_limit']['default']} rounds")
    return lines


def catalog_json() -> str:
    return json.dumps(catalog(), sort_keys=True, separators=(",", ":"))
