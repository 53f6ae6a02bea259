"""Space Walk's own parts of the `asv` commands (SPEC §47.4-§47.5): a selfplay game's summary
and the catalogue, which its kit offers to `asv selfplay` and `asv catalog`."""
from __future__ import annotations

import json

from space_walk.catalog import catalog
from space_walk.selfplay import play_game

SELFPLAY_KEYS = ("seed", "players", "turns", "events", "scores", "winner", "winners", "end",
                 "variant", "state_hash", "bots")


def selfplay_summary(players: int, seed: int, kinds: list[str], config: dict) -> dict:
    """One whole game between bots: the keys `asv selfplay` prints."""
    _, summary = play_game(players, seed, kinds, config)
    return {k: summary[k] for k in SELFPLAY_KEYS}


def catalog_lines() -> list[str]:
    data = catalog()
    lines = ["Space Walk", ""]
    for o in data["orbits"]:
        players = ", ".join(map(str, o["players"]))
        lines.append(f"{o['name']} orbit ({players} players): {o['squares']} squares, black holes on "
                     + ", ".join(map(str, o["black_holes"])))
    lines.append("")
    lines.append("ships per player: " + ", ".join(f"{s['per_player']} {s['name']} ({s['size']}, {s['points']} pts)"
                                                 for s in data["ships"]))
    lines.append("colours: " + ", ".join(f"{c['colour']} ({c['initial']})" for c in data["colours"]))
    per = data["tokens"]["per_player"]
    lines.append(f"tokens: {per['2']} each ({per['5']} with five players), one a round, "
                 f"{data['tokens']['points_each_unused']} pts each unused")
    lines.append("")
    lines.append("action cards (variant), per player:")
    lines += [f"  {c['copies']}x {c['card']:<6} {c['effect']}" for c in data["action_cards"]]
    return lines


def catalog_json() -> str:
    return json.dumps(catalog(), sort_keys=True, separators=(",", ":"))
