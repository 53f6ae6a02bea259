"""Show the board and scores of a logged game after event SEQ (SPEC §27.8)."""
from __future__ import annotations

from cli.asv_adapter import AsvRules, render_board
from protocol.verify import verify_log


def add_arguments(parser) -> None:
    parser.add_argument("log", help="an .asvlog file")
    parser.add_argument("--to", type=int, default=None, metavar="SEQ",
                        help="stop after the event at this height (default: the whole log)")


def run(args) -> int:
    report, session = verify_log(args.log, AsvRules(), upto=args.to)
    if session is None or session.state is None:
        if not report.valid:
            print(f"INVALID at seq {report.seq if report.seq is not None else '?'} by "
                  f"{report.author or '?'}: {report.reason}")
            return 1
        print(f"no game state yet ({report.events} events: the game starts once every key share is in)")
        return 0
    print(f"after seq {report.events - 1} ({session.notes[-1]})")
    print(render_board(session.state))
    if not report.valid:
        print(f"INVALID at seq {report.seq} by {report.author or '?'}: {report.reason}")
        return 1
    return 0
