"""Play Amazing Space Venture in the terminal: your seat against bots (the REPL seat)."""
from __future__ import annotations

from cli.errors import UserError
import secrets

from p2p_asv.bots import BOTS
from p2p_asv.geometry import COLOURS, seat_colours
from p2p_asv.search import DEFAULT_THINK

from cli.games import add_game_argument, game_of
from cli.repl.local import LocalGame
from cli.commands.variant_args import add_variant_arguments, config_from
from cli.repl.loop import Repl, default_history, use_colour


def add_arguments(parser) -> None:
    add_game_argument(parser)
    parser.add_argument("--players", type=int, default=2, metavar="N",
                        help="seats in the game, 1-4; space-walk 2-5 (default 2)")
    parser.add_argument("--seat", default="0", metavar="K",
                        help="your seat: 0..N-1 (0 moves first) or a colour (default 0)")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="seed of the deals and the bots (default: random, printed)")
    parser.add_argument("--bots", "--bot", default="greedy",
                        help=f"bot kind for the other seats ({', '.join(BOTS)}); "
                             "or a comma-separated list, one per other seat")
    parser.add_argument("--think", type=float, default=DEFAULT_THINK, metavar="S",
                        help=f"seconds a search bot thinks a decision (default {DEFAULT_THINK:g})")
    parser.add_argument("--no-color", action="store_true", help="plain text, no colours")
    add_variant_arguments(parser)


def seat_number(text: str, players: int) -> int:
    colours = seat_colours(players)
    if text.lower() in colours:
        return colours.index(text.lower())
    if text.isascii() and text.isdigit() and int(text) < players:
        return int(text)
    if text.lower() in COLOURS:
        raise UserError(f"asv play: {text} is not at the table with {players} players "
                         f"(colours: {', '.join(colours)})")
    raise UserError(f"asv play: --seat must be 0..{players - 1} or one of {', '.join(colours)}")


def bot_kinds(text: str, players: int, seat: int) -> list[str | None]:
    names = text.split(",")
    if len(names) == 1:
        names = names * (players - 1)
    if len(names) != players - 1:
        raise UserError(f"asv play: {len(names)} bots named for {players - 1} other seats")
    for name in names:
        if name not in BOTS:
            raise UserError(f"asv play: unknown bot {name!r}; choose from {', '.join(BOTS)}")
    kinds: list[str | None] = list(names)
    kinds.insert(seat, None)
    return kinds


def run(args) -> int:
    game_of(args).check_players(args.players, "asv play")
    if game_of(args).key == "space-walk":
        from cli.games.space_walk.commands import play_local
        return play_local(args)
    seat = seat_number(args.seat, args.players)
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    if not args.think > 0:
        raise UserError(f"asv play: --think must be a positive number of seconds, not {args.think:g}")
    driver = LocalGame(args.players, seat, seed, bot_kinds(args.bots, args.players, seat),
                       config_from(args), think=args.think)
    print(f"seed {seed} (replay this game with --seed {seed})")
    repl = Repl(driver, color=use_colour(args.no_color), history=default_history())
    return repl.run()
