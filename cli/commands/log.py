"""Inspect game logs: `asv log show LOG` prints one event per line; `asv log export LOG`
writes every event as one JSON object per line (SPEC §27.7)."""
from __future__ import annotations

import json

from cli.games import game_of_log
from cli.commands.log_tools import EXIT_UNREADABLE, cannot_read, other_rules, unreadable
from protocol.log import parse_event, scan_log
from protocol.crypto import fingerprint
from protocol.session import verify_log


def add_arguments(parser) -> None:
    sub = parser.add_subparsers(dest="log_command", required=True)
    show = sub.add_parser("show", help="one line per event: seq, author, kind, action or summary")
    show.add_argument("log", help="an .asvlog file")
    export = sub.add_parser("export", help="one JSON object per event (bytes as hex), for other tools")
    export.add_argument("log", help="an .asvlog file")


def _raw_summary(wire: bytes) -> tuple[str, str, str]:
    """Author and kind of a record the replay did not reach (after an invalid one)."""
    try:
        ev = parse_event(wire)
    except Exception as exc:  # noqa: BLE001 - shown, never trusted
        return "?", "?", f"unreadable: {exc}"
    return fingerprint(ev.author), ev.kind, "(not verified)"


def plain(value):
    """Codec values to JSON: bytes become hex strings; lists and maps recurse."""
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def export(args) -> int:
    """Every record that verifies, in order, with its envelope fields and the replay's note;
    then one last object with the verdict. Nothing unverified is exported as if it were valid."""
    report, session = verify_log(args.log, game_of_log(args.log).session_rules())
    if unreadable(args.log, session):
        print(json.dumps({"verdict": {"valid": None, "events": 0, "exit_code": EXIT_UNREADABLE,
                                      "reason": report.reason}}, sort_keys=True))
        return EXIT_UNREADABLE
    events = session.chain.events
    for seq, ev in enumerate(events):
        print(json.dumps({"seq": ev.seq, "hash": ev.hash.hex(), "prev": ev.prev.hex(),
                          "author": ev.author.hex(), "fingerprint": fingerprint(ev.author),
                          "kind": ev.kind, "body": plain(ev.body), "note": session.notes[seq]},
                         sort_keys=True))
    print(json.dumps({"verdict": {"valid": report.valid, "events": len(events),
                                  "exit_code": report.exit_code, "reason": report.reason}},
                     sort_keys=True))
    return report.exit_code


def run(args) -> int:
    why_not = other_rules(args.log)     # another asv version's log: nothing can be checked
    if why_not is not None:
        print(why_not if args.log_command == "show" else
              json.dumps({"verdict": {"valid": None, "events": 0, "exit_code": EXIT_UNREADABLE,
                                      "reason": why_not}}, sort_keys=True))
        return EXIT_UNREADABLE
    if args.log_command == "export":
        return export(args)
    report, session = verify_log(args.log, game_of_log(args.log).session_rules())
    if unreadable(args.log, session):
        print(cannot_read(args.log, report.reason))
        return EXIT_UNREADABLE
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
