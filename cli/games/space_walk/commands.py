"""Space Walk's own parts of the `asv` commands (SPEC §47.4-§47.5): selfplay lines and the
catalogue table; the commands call these behind `--game space-walk`."""
from __future__ import annotations

from cli.errors import UserError
import json

from space_walk.catalog import catalog
from space_walk.selfplay import play_game

SELFPLAY_KEYS = ("seed", "players", "turns", "events", "scores", "winner", "winners", "end",
                 "variant", "state_hash", "bots")


def selfplay_lines(players: int, seed: int, games: int, kinds: list[str], config: dict):
    """One JSON line per game, keys sorted; seeds seed, seed+1, ..."""
    for i in range(games):
        _, summary = play_game(players, seed + i, kinds, config)
        yield json.dumps({k: summary[k] for k in SELFPLAY_KEYS}, sort_keys=True)


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


def seat_of(text: str, players: int) -> int:
    """--seat as a number 0..N-1 or a Space Walk colour."""
    from space_walk.orbit import COLOURS
    colours = COLOURS[:players]
    if text.lower() in colours:
        return colours.index(text.lower())
    if text.isascii() and text.isdigit() and int(text) < players:
        return int(text)
    raise UserError(f"asv play: --seat must be 0..{players - 1} or one of {', '.join(colours)}")


def play_local(args, *, input=None, output=None, history=None) -> int:
    """`asv play --game space-walk`: your seat against bots in the Space Walk REPL."""
    import secrets
    import sys

    from space_walk.bots import BOTS

    from cli.repl.loop import default_history
    from cli.sw_local import SwLocalGame
    from cli.games.space_walk.screen import SwRepl
    from cli.commands.variant_args import config_from

    seat = seat_of(args.seat, args.players)
    names = args.bots.split(",")
    if len(names) == 1:
        names = names * (args.players - 1)
    if len(names) != args.players - 1 or any(n not in BOTS for n in names):
        raise UserError(f"asv play: name {args.players - 1} bots from {', '.join(BOTS)}")
    kinds: list[str | None] = list(names)
    kinds.insert(seat, None)
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    driver = SwLocalGame(args.players, seat, seed, kinds, config_from(args))
    print(f"seed {seed} (replay this game with --seed {seed})")
    color = not args.no_color and sys.stdout.isatty() and output is None
    repl = SwRepl(driver, color=color, input=input, output=output, history=history or default_history())
    play_local.last_repl = repl
    return repl.run()
