"""`asv verify`'s check of a log's chat sidecar (SPEC §29.18): every line a sound, signed
chat line of this game by one of its seats, no number used twice by one author. Reported
beside the game's verdict, never changing it: table talk is not the game."""
from __future__ import annotations

from pathlib import Path

from protocol.crypto import fingerprint
from protocol.errors import EventError, LogError
from protocol.log import parse_event
from protocol.log.chatfile import chat_path, scan_chat
from protocol.session.chat import ChatBook

__all__ = ["check_chat"]


def check_chat(log_path: str | Path, game: bytes, seats: list[bytes]) -> dict | None:
    """{"lines": records read, "valid": no problem, "problems": [{"line", "author", "reason"}]},
    or None when the log has no sidecar. `line` counts from 0; `author` is the fingerprint the
    line names (it signed it unless the reason says the signature fails), or None."""
    if not chat_path(log_path).exists():
        return None
    problems: list[dict] = []
    try:
        scan = scan_chat(log_path)
    except (LogError, OSError) as exc:
        return {"lines": 0, "valid": False, "problems": [{"line": None, "author": None, "reason": str(exc)}]}
    if scan.game != bytes(game):
        problems.append({"line": None, "author": None, "reason": f"the chat file is for game {scan.game.hex()}"})
    book = ChatBook(bytes(game), set(seats))
    for i, wire in enumerate(scan.records):
        try:
            ev = parse_event(wire, expected_game=bytes(game))
        except EventError as exc:
            who = fingerprint(exc.author) if exc.author is not None and len(exc.author) == 32 else None
            problems.append({"line": i, "author": who, "reason": f"{type(exc).__name__}: {exc.reason}"})
            continue
        problem = book.problem(ev)
        if problem is not None:
            problems.append({"line": i, "author": fingerprint(ev.author),
                             "reason": problem or "the same line twice"})
            continue
        book.keep(ev)
    if scan.problem is not None:
        problems.append({"line": scan.problem.record_index, "author": None, "reason": str(scan.problem)})
    return {"lines": len(scan.records), "valid": not problems, "problems": problems}
