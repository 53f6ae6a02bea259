"""Show the board and scores of a logged game after event SEQ (SPEC §27.8); `--svg FILE`
draws that position as a picture instead (SPEC §31.7)."""
from __future__ import annotations

import sys
from pathlib import Path

from cli.games import game_of_log
from cli.commands.log_tools import EXIT_UNREADABLE, cannot_read, other_rules, seat_names, seq_number, unreadable
from cli.picture.svg_doc import PictureError, check_target, write_svg
from protocol.log import scan_log
from protocol.session import verify_log

EXIT_USAGE = 2  # argparse's code for a bad option value


def add_arguments(parser) -> None:
    parser.add_argument("log", help="an .asvlog file")
    parser.add_argument("--to", type=seq_number, default=None, metavar="SEQ",
                        help="stop after the event at this height (default: the whole log)")
    parser.add_argument("--svg", default=None, metavar="FILE",
                        help="write the position as an SVG picture to FILE instead of printing the board")


def run(args) -> int:
    if args.svg is not None:
        try:
            check_target(args.svg)   # before the replay, which may take a while
        except PictureError as exc:
            print(f"asv replay: {exc}", file=sys.stderr)
            return EXIT_USAGE
    if args.to is not None:
        try:
            height = len(scan_log(args.log).records)
        except Exception:  # noqa: BLE001 - verify_log below names the problem
            height = None
        if height is not None and args.to >= height:
            print(f"asv replay: --to {args.to} is past the end: the log holds seq 0..{height - 1}",
                  file=sys.stderr)
            return EXIT_USAGE
    why_not = other_rules(args.log)     # another asv version's log: nothing can be replayed
    if why_not is not None:
        print(why_not)
        return EXIT_UNREADABLE
    game = game_of_log(args.log)  # the log's first hello names the game (SPEC §47.6)
    report, session = verify_log(args.log, game.session_rules(), upto=args.to)
    if unreadable(args.log, session):
        print(cannot_read(args.log, report.reason))
        return EXIT_UNREADABLE
    if session is None or session.state is None:
        if not report.valid:
            print(f"INVALID at seq {report.seq if report.seq is not None else '?'} by "
                  f"{report.author or '?'}: {report.reason}")
            return 1
        print(f"no game state yet ({report.events} events: the game starts once every key share is in)"
              + ("; no picture written" if args.svg is not None else ""))
        return 0
    seq = report.events - 1
    print(f"after seq {seq} ({session.notes[-1]})")
    if args.svg is not None:
        picture = game.picture(session.state, caption=f"after seq {seq} of {Path(args.log).name}",
                               labels=seat_names(session))
        try:
            write_svg(args.svg, picture)
        except PictureError as exc:
            print(f"asv replay: {exc}", file=sys.stderr)
            return EXIT_USAGE
        print(f"board picture written to {args.svg}")
    else:
        print(game.render_board(session.state))
    if not report.valid:
        print(f"INVALID at seq {report.seq} by {report.author or '?'}: {report.reason}")
        return 1
    return 0
