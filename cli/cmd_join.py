"""Join a game through any peer already in it, or rejoin after a drop with --resume LOG.

ADDRESS is the invite `HOST:PORT/GAMEID/FINGERPRINT` printed by `asv host` (the leading
"asv join" may be pasted too). With --resume the game id comes from the log; the peer
replays its own log and secrets, then catches up from the others (SPEC §29.7).
Exit 0: finished; 2: aborted (a silent peer was named); 1: error.
"""
from __future__ import annotations

from cli.cmd_host import finish
from cli.net_args import add_common
from cli.net_peer import Printer, join_game, run_peer


def add_arguments(parser) -> None:
    parser.add_argument("address", help="HOST:PORT/GAMEID[/FINGERPRINT] of any peer in the game")
    parser.add_argument("--resume", metavar="LOG", default=None,
                        help="rejoin from this peer's own .asvlog (+ .secrets) and catch up")
    add_common(parser)


def run(args) -> int:
    if args.bot is None:
        from cli.net_driver import play_networked  # the REPL seat
        return play_networked(args, host=False)
    printer = Printer(turns=not args.quiet)
    node = run_peer("join", lambda: join_game(args, printer=printer))
    return node if isinstance(node, int) else finish(node, args, printer)
