"""Open a game on this machine: print an invite, wait for players (or bots), play.

The invite line (`asv join HOST:PORT/GAMEID/FINGERPRINT`) is what the others paste. The
game starts when the seats are full; the seats are then fixed by commit-reveal and the
creator has no more say than anyone (SPEC §29.2-§29.3). Exit 0: finished;
2: aborted because a peer went silent; 1: error.
"""
from __future__ import annotations

from cli.games import all_bot_kinds, player_ranges

from cli.arg_checks import seconds_from_zero
from cli.games import add_game_argument
from cli.netplay.net_args import add_common
from cli.games.options import add_variant_arguments
from cli.netplay.host import host_game
from cli.netplay.outcome import exit_code, run_peer, write_timings
from cli.netplay.printer import scoreboard, Printer


def add_arguments(parser) -> None:
    add_game_argument(parser)
    parser.add_argument("--seats", type=int, default=2, metavar="N",
                        help=f"players in the game, bots included: {player_ranges()} (default 2)")
    parser.add_argument("--bots", type=int, default=0, metavar="N",
                        help="seats filled by bot peers started in this process (default 0)")
    parser.add_argument("--bot-kind", choices=sorted(all_bot_kinds()), default="greedy",
                        help="kind of the --bots peers (default greedy; search thinks --think s a move)")
    parser.add_argument("--start-after", type=seconds_from_zero, default=None, metavar="SECONDS",
                        help="start with the players present once this long has passed, even if "
                             "seats are still free (a human host may also type 'start')")
    parser.add_argument("--turn-clock", type=int, default=None, metavar="S",
                        help="seconds a seat has for its own decisions in a turn, shown to everyone as a "
                             "countdown (default: none); what zero does: --on-clock")
    parser.add_argument("--on-clock", choices=("pass", "abort"), default=None,
                        help="when a seat's turn clock runs out: pass (the others play the game's pass "
                             "move for it, by a co-signed vote) or abort (it counts as gone: aborted after "
                             "--timeout more) (default pass)")
    parser.add_argument("--announce", action="store_true",
                        help="announce the game on the LAN (mDNS) until it starts: `asv join` with no "
                             "address finds it")
    add_variant_arguments(parser)
    add_common(parser)


def run(args) -> int:
    if args.bot is None:
        from cli.netplay.seat import play_networked  # the REPL seat
        return play_networked(args, host=True)
    printer = Printer(prefix="", turns=not args.quiet, verbose=args.verbose)
    node = run_peer("host", lambda: host_game(args, printer=printer))
    return node if isinstance(node, int) else finish(node, args, printer)


def finish(node, args, printer: Printer) -> int:
    s = node.session
    if s is not None and s.finished:
        printer.say(scoreboard(s))
    if node.log_path is not None:
        printer.say(f"log {node.log_path}  ({s.chain.height if s else 0} events, head {s.chain.head.hex() if s else '-'})")
    write_timings(node, args.timings)
    return exit_code(node)
