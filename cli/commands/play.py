"""Play in the terminal: your seat against bots (the REPL seat), in any of the games."""
from __future__ import annotations

import secrets

from cli.errors import UserError
from cli.games import GameKit, add_game_argument, default_kit, game_of, player_ranges
from cli.games.options import add_variant_arguments, config_from
from cli.repl.local import LocalGame
from cli.repl.fullscreen import ScreenRepl, add_plain, wants_screen
from cli.repl.loop import Repl, add_auto_pass, default_history, use_colour


def add_arguments(parser) -> None:
    add_game_argument(parser)
    parser.add_argument("--players", type=int, default=2, metavar="N",
                        help=f"seats in the game, {player_ranges()} (default 2)")
    parser.add_argument("--seat", default="0", metavar="K",
                        help="your seat: 0..N-1 (0 moves first) or a colour (default 0)")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="seed of the deals and the bots (default: random, printed)")
    parser.add_argument("--bots", "--bot", default="greedy",
                        help=f"bot kind for the other seats ({', '.join(default_kit().bot_kinds)}); "
                             "or a comma-separated list, one per other seat")
    think = default_kit().default_think
    parser.add_argument("--think", type=float, default=think, metavar="S",
                        help=f"seconds a search bot thinks a decision (default {think:g})")
    parser.add_argument("--no-color", action="store_true", help="plain text, no colours")
    add_auto_pass(parser)
    add_plain(parser)
    add_variant_arguments(parser)


def seat_number(text: str, players: int, kit: GameKit | None = None) -> int:
    kit = kit or default_kit()
    colours = kit.seat_colours(players)
    if text.lower() in colours:
        return colours.index(text.lower())
    if text.isascii() and text.isdigit() and int(text) < players:
        return int(text)
    if text.lower() in kit.seat_colours(kit.max_players):
        raise UserError(f"asv play: {text} is not at the table with {players} players "
                        f"(colours: {', '.join(colours)})")
    raise UserError(f"asv play: --seat must be 0..{players - 1} or one of {', '.join(colours)}")


def bot_kinds(text: str, players: int, seat: int, kit: GameKit | None = None) -> list[str | None]:
    known = (kit or default_kit()).bot_kinds
    names = text.split(",")
    if len(names) == 1:
        names = names * (players - 1)
    if len(names) != players - 1:
        raise UserError(f"asv play: {len(names)} bots named for {players - 1} other seats")
    for name in names:
        if name not in known:
            raise UserError(f"asv play: unknown bot {name!r}; choose from {', '.join(known)}")
    kinds: list[str | None] = list(names)
    kinds.insert(seat, None)
    return kinds


def run(args, *, input=None, output=None, history=None) -> int:
    kit = game_of(args)
    kit.check_players(args.players, "asv play")
    seat = seat_number(args.seat, args.players, kit)
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    if not args.think > 0:
        raise UserError(f"asv play: --think must be a positive number of seconds, not {args.think:g}")
    driver = LocalGame(args.players, seat, seed, bot_kinds(args.bots, args.players, seat, kit),
                       config_from(args), think=args.think, kit=kit)
    print(f"seed {seed} (replay this game with --seed {seed})")
    color = use_colour(args.no_color) and output is None
    kind = ScreenRepl if wants_screen(args, input, output) else Repl   # SPEC §31.9
    repl = kind(driver, color=color if kind is Repl else use_colour(args.no_color), input=input, output=output,
                history=history or default_history(), auto_pass=getattr(args, "auto_pass", True))
    run.last_repl = repl      # for tests: the transcript
    return repl.run()
