"""Play complete games between bots in one process and print one JSON line per game."""
from __future__ import annotations

import json
import time

from cli.arg_checks import at_least_one, writable_folder
from cli.errors import UserError
from cli.games import add_game_argument, default_kit, game_of, player_ranges
from cli.games.options import add_variant_arguments, config_from


def add_arguments(parser) -> None:
    add_game_argument(parser)
    parser.add_argument("--players", type=int, default=4, metavar="N",
                        help=f"seats: {player_ranges()} (default 4)")
    parser.add_argument("--games", type=at_least_one, default=1, metavar="G", help="games to play (default 1)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="seed of the first game; game i uses S+i")
    parser.add_argument("--bots", default="greedy",
                        help=f"comma-separated bot kinds by seat ({', '.join(default_kit().bot_kinds)}); "
                             "one name fills every seat")
    parser.add_argument("--iterations", type=int, default=None, metavar="N",
                        help=f"search bot iterations a decision (default {default_kit().default_iterations}; "
                             "reproducible, unlike --think)")
    parser.add_argument("--think", type=float, default=None, metavar="S",
                        help="search bot seconds a decision instead (results then depend on the machine)")
    parser.add_argument("--json", action="store_true", help="one JSON object per game (default)")
    parser.add_argument("--log-dir", metavar="DIR", default=None,
                        help="play each game among peers with identities and mental-poker decks, "
                             "writing one signed .asvlog per peer into DIR (SPEC §27.5)")
    add_variant_arguments(parser)


def bot_list(text: str, players: int, bots=None) -> list[str]:
    bots = default_kit().bot_kinds if bots is None else bots
    kinds = text.split(",")
    if len(kinds) == 1:
        kinds = kinds * players
    for kind in kinds:
        if kind not in bots:
            raise UserError(f"asv selfplay: unknown bot {kind!r}; choose from {', '.join(bots)}")
    if len(kinds) != players:
        raise UserError(f"asv selfplay: {len(kinds)} bots named for {players} seats")
    return kinds


def bot_options(args) -> dict:
    """The search bot's budget (SPEC §12.3): iterations by default, seconds with --think."""
    if args.iterations is not None and args.iterations < 1:
        raise UserError("asv selfplay: --iterations must be at least 1")
    if args.think is not None and not args.think > 0:
        raise UserError(f"asv selfplay: --think must be a positive number of seconds, not {args.think:g}")
    if args.think is None:
        return {"iterations": args.iterations}
    return {"think": args.think, "iterations": args.iterations, "clock": time.monotonic}


def run(args) -> int:
    game = game_of(args)
    game.check_players(args.players, "asv selfplay")
    kinds = bot_list(args.bots, args.players, game.bot_kinds)
    config = config_from(args)
    options = bot_options(args)
    if args.log_dir is not None:
        writable_folder(args.log_dir, "selfplay", "--log-dir")
        from cli.netplay.local_peers import play_logged_game  # only this mode needs the protocol
        for i in range(args.games):
            print(json.dumps(play_logged_game(args.players, args.seed + i, kinds, args.log_dir, config,
                                              which=game, think=args.think, iterations=args.iterations),
                             sort_keys=True), flush=True)
        return 0
    for i in range(args.games):
        print(json.dumps(game.selfplay(args.players, args.seed + i, kinds, config, options), sort_keys=True),
              flush=True)
    return 0
