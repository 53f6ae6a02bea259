"""Watch a running game as a read-only auditor, checking every event as it arrives.

INVITE is the spectator invite `HOST:PORT/WATCHID/FINGERPRINT` that `asv host` prints
(the leading "asv watch" may be pasted too). The spectator holds no seat and no key share:
it catches up from the game's first event through that peer, checks every signature,
proof and share with the verifier's replay, and prints the public feed and the board. It
stops when the game ends or an event is refused, with the verdict `asv verify` gives on
that log prefix. Exit 0: finished; 2: unfinished, aborted or halted; 1: invalid (the
culprit is named); 3: the peer cannot be reached. SPEC §29.16.
"""
from __future__ import annotations

import json
import sys

import trio

from cli.arg_checks import positive_seconds
from cli.netplay.invite import parse_invite
from cli.netplay.printer import Printer
from cli.netplay.watch import Watcher, WatchTimes
from protocol.net import TransportError

EXIT_UNREACHABLE = 3


def add_arguments(parser) -> None:
    parser.add_argument("invite", help="HOST:PORT/WATCHID/FINGERPRINT, the spectator invite asv host prints")
    parser.add_argument("--json", action="store_true",
                        help="print only the verdict, one JSON object as asv verify --json")
    parser.add_argument("--no-board", action="store_true", help="print the feed without the board")
    parser.add_argument("--grace", type=positive_seconds, default=15.0, metavar="SECONDS",
                        help="how long a refused event waits for the players' halt (default 15)")
    parser.add_argument("--idle", type=positive_seconds, default=None, metavar="SECONDS",
                        help="stop after this long without a new event (default: while a peer is connected)")


def run(args) -> int:
    try:
        invite = parse_invite(args.invite)
    except ValueError as exc:
        print(f"asv watch: {exc}", file=sys.stderr)
        return 2
    if invite.game is None:
        print("asv watch: the invite names no game (HOST:PORT/WATCHID/FINGERPRINT)", file=sys.stderr)
        return 2
    printer = Printer(None if args.json else sys.stdout)
    watcher = Watcher(invite, printer, board=not args.no_board,
                      times=WatchTimes(grace=args.grace, idle=args.idle))
    try:
        report = trio.run(watcher.run)
    except (TransportError, ValueError) as exc:
        print(f"asv watch: cannot watch through {invite.host}:{invite.port}: {exc}", file=sys.stderr)
        return EXIT_UNREACHABLE
    if args.json:
        print(json.dumps(report.to_json(), sort_keys=True))
        return report.exit_code
    if report.valid:
        state = "finished" if report.finished else "unfinished"
        print(f"valid: {report.events} events, {state}, every proof checked as it arrived")
    else:
        print(f"INVALID at seq {report.seq} by {report.author or '?'}: {report.reason}")
    print(f"game {report.game_id}  head {report.head}")
    if report.aborted:
        print(f"game aborted: {report.aborted}")
    if report.culprit:
        c = report.culprit
        print(f"game halted: {c['author']} signed a refused event at seq {c['seq']}: {c['reason']}")
    if report.valid and report.scores is not None:
        print("scores (seat order): " + ", ".join(f"{who} {points}" for who, points in
                                                  zip(report.players, report.scores)))
        print("winner: " + " and ".join(report.players[s] for s in report.winners) if report.winners else "no winner")
    return report.exit_code
