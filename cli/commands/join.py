"""Join a game through any peer already in it, or rejoin after a drop with --resume LOG.

ADDRESS is the invite `HOST:PORT/GAMEID/FINGERPRINT` printed by `asv host` (the leading
"asv join" may be pasted too). Without it, `asv join` lists the games announced on the LAN
(`asv host --announce`, SPEC §32) and joins the one chosen. With --resume the game id
comes from the log; the peer replays its own log and secrets, then reaches the game
through any peer it knows (SPEC §29.12), or, when everyone has left, waits for the others to
come back (SPEC §29.15). Exit 0: finished (or a resumed game that had
already finished); 2: aborted; 1: error.
"""
from __future__ import annotations

import sys

from cli.arg_checks import positive_seconds
from cli.commands.host import finish
from cli.netplay.lan import browse, mdns_interfaces
from cli.netplay.net_args import add_common, listen_host
from cli.netplay.regather import DEFAULT_RESUME_WAIT
from cli.netplay.join import join_game
from cli.netplay.outcome import run_peer, GameOver
from cli.netplay.printer import scoreboard, Printer
from cli.netplay.resume_checks import take_recorded_bot

BROWSE_SECONDS = 3.0


def add_arguments(parser) -> None:
    parser.add_argument("address", nargs="?", default=None,
                        help="HOST:PORT/GAMEID/FINGERPRINT of any peer in the game; leave it out to "
                             "pick a game announced on the LAN (with --resume: HOST:PORT, optional)")
    parser.add_argument("--resume", metavar="LOG", default=None,
                        help="rejoin from this peer's own .asvlog (+ .secrets) and catch up")
    parser.add_argument("--resume-wait", type=positive_seconds, default=DEFAULT_RESUME_WAIT, metavar="S",
                        help="with --resume, when no other player is in the game: how long to wait for "
                             f"one to come back (default {DEFAULT_RESUME_WAIT:g})")
    parser.add_argument("--browse-seconds", type=float, default=BROWSE_SECONDS, metavar="S",
                        help=f"how long to listen for announced games (default {BROWSE_SECONDS:g})")
    add_common(parser)


def run(args) -> int:
    if args.address is None and args.resume is None:
        chosen = pick_announced(args)
        if chosen is None:
            return 1
        args.address = chosen
    take_recorded_bot(args)   # a seat a bot played goes on with it (SPEC §23.4)
    try:
        if args.bot is None:
            from cli.netplay.seat import play_networked  # the REPL seat
            return play_networked(args, host=False)
        printer = Printer(turns=not args.quiet, verbose=args.verbose)
        node = run_peer("join", lambda: join_game(args, printer=printer))
        return node if isinstance(node, int) else finish(node, args, printer)
    except GameOver as over:
        return game_over(over)


def game_over(over: GameOver) -> int:
    """--resume of a log that already ends: say how it ended; 0 finished, 2 aborted."""
    s = over.peer
    if s.finished:
        print(f"the game of {over.log} is already over; nothing to rejoin.")
        print(scoreboard(s))
        return 0
    print(f"the game of {over.log} was aborted; nothing to rejoin. {s.notes[-1] if s.notes else ''}".rstrip())
    return 2


def pick_announced(args) -> str | None:
    """List the games announced on the LAN and return the chosen invite (SPEC §32.3)."""
    if args.browse_seconds <= 0:
        print("asv join: --browse-seconds must be positive", file=sys.stderr)
        return None
    print(f"looking for games on the LAN ({args.browse_seconds:g} s)...", flush=True)
    games = browse(args.browse_seconds, interfaces=mdns_interfaces(listen_host(args)))
    if not games:
        print("asv join: no game announced on the LAN (the host starts one with `asv host --announce`); "
              "or paste an invite: asv join HOST:PORT/GAMEID/FINGERPRINT", file=sys.stderr)
        return None
    for i, game in enumerate(games, 1):
        print(f"  {i}. {game.line()}")
    if len(games) == 1 and not sys.stdin.isatty():
        choice = "1"
    else:
        print(f"join which? 1-{len(games)} (Enter: 1, q: none) ", end="", flush=True)
        choice = (sys.stdin.readline() or "q").strip() or "1"
    if not choice.isdigit() or not 1 <= int(choice) <= len(games):
        why = "" if choice.lower() == "q" else f"{choice!r} is not a number of the list (1-{len(games)}); "
        print(f"asv join: no game chosen; {why}run asv join again to pick one, or paste an invite: "
              "asv join HOST:PORT/GAMEID/FINGERPRINT", file=sys.stderr)
        return None
    game = games[int(choice) - 1]
    print(f"joining {game.host_name}'s game: asv join {game.invite}", flush=True)
    return game.invite
