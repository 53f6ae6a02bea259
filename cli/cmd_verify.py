"""Verify a game log: framing, signatures, chain, proofs, audit; replays the game and scores it.

Exit 0: a valid, finished and audited game. Exit 2: a valid prefix of an unfinished game.
Exit 1: invalid; the first bad record is named (seq, author fingerprint, reason). SPEC §27.6.
"""
from __future__ import annotations

import json

from cli.asv_adapter import AsvRules
from protocol.verify import verify_log


def add_arguments(parser) -> None:
    parser.add_argument("log", help="an .asvlog file")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args) -> int:
    report, _ = verify_log(args.log, AsvRules())
    if args.json:
        print(json.dumps(report.to_json(), sort_keys=True))
        return report.exit_code
    if report.valid:
        state = "finished" if report.finished else "unfinished (valid prefix)"
        print(f"valid: {report.events} events, {state}, audit {report.audit}")
        print(f"game {report.game_id}  head {report.head}")
        if report.players:
            print("players (seat order): " + "  ".join(report.players))
        if report.aborted:
            print(f"game aborted: {report.aborted[len('abort: '):]}")
        if report.scores is not None:
            print(f"scores {report.scores}  winners {report.winners}")
    else:
        where = "?" if report.seq is None else report.seq
        print(f"INVALID at seq {where} by {report.author or '?'}: {report.reason}")
        print(f"{report.events} events accepted before it; head {report.head}")
    return report.exit_code
