"""Inspect game logs: `asv log show LOG` prints one event per line (SPEC §27.7)."""
from __future__ import annotations

from cli.asv_adapter import AsvRules
from protocol.events import parse_event
from protocol.identity import fingerprint
from protocol.logfile import scan_log
from protocol.verify import verify_log


def add_arguments(parser) -> None:
    sub = parser.add_subparsers(dest="log_command", required=True)
    show = sub.add_parser("show", help="one line per event: seq, author, kind, action or summary")
    show.add_argument("log", help="an .asvlog file")


def _raw_summary(wire: bytes) -> tuple[str, str, str]:
    """Author and kind of a record the replay did not reach (after an invalid one)."""
    try:
        ev = parse_event(wire)
    except Exception as exc:  # noqa: BLE001 - shown, never trusted
        return "?", "?", f"unreadable: {exc}"
    return fingerprint(ev.author), ev.kind, "(not verified)"


def run(args) -> int:
    report, session = verify_log(args.log, AsvRules())
    if session is None:
        print(f"cannot read {args.log}: {report.reason}")
        return 1
    records = scan_log(args.log).records
    for seq, wire in enumerate(records):
        if seq < len(session.chain.events):
            ev = session.chain.events[seq]
            print(f"{seq:5d}  {fingerprint(ev.author)}  {ev.kind:<11} {session.notes[seq]}")
        else:
            author, kind, text = _raw_summary(wire)
            print(f"{seq:5d}  {author}  {kind:<11} {text}")
    if not report.valid:
        print(f"INVALID at seq {report.seq} by {report.author or '?'}: {report.reason}")
    return report.exit_code
