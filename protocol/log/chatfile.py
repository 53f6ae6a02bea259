"""The chat sidecar of a log (SPEC §29.18): `<log>.chat`, the chat lines this peer saw or
said, in the order it took them. Same framing as a log (SPEC §23.2-§23.4), magic b"ASVCHT";
each payload is one chat line's exact wire (a signed event, SPEC §22.2). Append-only, and
apart from the log: nothing in it is in the game's chain or changes a state hash."""
from __future__ import annotations

import os
from pathlib import Path

from protocol.log.logfile import LogScan, _RecordFile, _scan

__all__ = ["CHAT_MAGIC", "ChatFile", "chat_path", "scan_chat"]

CHAT_MAGIC = b"ASVCHT"


def chat_path(log_path: str | os.PathLike) -> Path:
    """The chat sidecar of a log: the log path + ".chat"."""
    return Path(str(log_path) + ".chat")


class ChatFile(_RecordFile):
    """Append chat line wires beside a log; opening repairs a torn tail like a log (§23.4)."""

    magic = CHAT_MAGIC

    def __init__(self, log_path: str | os.PathLike, game: bytes | None = None) -> None:
        super().__init__(chat_path(log_path), game)

    def append(self, wire: bytes) -> None:
        self._append_payload(bytes(wire), sync=False)   # table talk: a power cut may lose the last lines


def scan_chat(log_path: str | os.PathLike) -> LogScan:
    """Lenient read of a log's chat sidecar (raises BadHeader, OSError)."""
    path = chat_path(log_path)
    return _scan(path.read_bytes(), CHAT_MAGIC, str(path))
