"""Verify a game log: framing, signatures, chain, every shuffle proof and decryption share
as it is read; replays the game and scores it.

Exit 0: a valid, finished game. Exit 2: a valid prefix of an unfinished (or
aborted) game. Exit 1: invalid; the first bad record is named (seq, author fingerprint,
reason). Exit 3: the file cannot be read (missing, no permission, not a log). SPEC §27.6.
"""
from __future__ import annotations

import json

from cli.games import game_of_log
from cli.commands.log_tools import EXIT_UNREADABLE, cannot_read, other_rules, players, unreadable
from protocol.session import verify_log


def add_arguments(parser) -> None:
    parser.add_argument("log", help="an .asvlog file")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args) -> int:
    game = game_of_log(args.log)  # the log's first hello names the game (SPEC §47.6)
    why_not = other_rules(args.log)     # another asv version's log: nothing can be checked
    report, session = verify_log(args.log, game.session_rules()) if why_not is None else (None, None)
    if why_not is not None or unreadable(args.log, session):
        reason = why_not or cannot_read(args.log, report.reason)
        if args.json:
            print(json.dumps({"valid": None, "readable": False, "reason": why_not or report.reason,
                              "exit_code": EXIT_UNREADABLE}, sort_keys=True))
        else:
            print(reason)
        return EXIT_UNREADABLE
    if args.json:
        out = report.to_json()
        out["names"] = players(session, game.seat_colours)
        print(json.dumps(out, sort_keys=True))
        return report.exit_code
    if report.valid:
        state = "finished" if report.finished else "unfinished (valid prefix)"
        print(f"valid: {report.events} events, {state}, every proof checked")
        print(f"game {report.game_id}  head {report.head}")
    else:
        where = "?" if report.seq is None else report.seq
        print(f"INVALID at seq {where} by {report.author or '?'}: {report.reason}"
              + (f" (SPEC {report.spec})" if report.spec else ""))
        print(f"{report.events} events accepted before it; head {report.head}")
    print(f"written by: {report.program}" if report.program is not None else
          f"written by: not named (log format {report.log_format}, from before logs named their program)"
          if report.log_format is not None else "written by: not known (no header read)")
    if report.players:
        print("players (seat order): " + ", ".join(players(session, game.seat_colours)))
    if report.chat is not None:      # beside the verdict, never changing it (SPEC §29.18)
        print(chat_line(report.chat))
    if report.valid and report.aborted:
        print(f"game aborted: {report.aborted[len('abort: '):]}")
    if report.valid and report.culprit:
        c = report.culprit
        print(f"game halted: {c['author']} signed a refused event at seq {c['seq']}: {c['reason']}"
              + (f" (SPEC {c['spec']})" if c.get("spec") else ""))
    if report.valid and report.scores is not None:
        named = players(session, game.seat_colours)
        if len(named) == len(report.scores):      # 'scores: blue alice 62, green bob 101'
            who = lambda seat: named[seat].split(" (")[0]   # noqa: E731 - colour and name
            print("scores: " + ", ".join(f"{who(s)} {points}" for s, points in enumerate(report.scores)))
            print("winner: " + " and ".join(who(s) for s in report.winners) if report.winners else "no winner")
        else:
            print(f"scores {report.scores}  winners {report.winners}")
    return report.exit_code


def chat_line(chat: dict) -> str:
    """The chat sidecar's line: its lines all sound, or every one that is not, named."""
    if chat["valid"]:
        return f"chat: {chat['lines']} line(s) beside the log, every signature checked"
    bad = "; ".join(f"line {p['line'] if p['line'] is not None else '?'}"
                    + (f" by {p['author']}" if p["author"] else "") + f": {p['reason']}" for p in chat["problems"])
    return f"chat: TAMPERED OR FORGED ({bad}); the game's verdict above does not rest on the chat"
