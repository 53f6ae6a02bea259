"""Table talk (SPEC §29.18): signed chat lines, never part of the game's chain.

A chat line is a signed event (SPEC §22) of kind `chat`, with seq CHAT_BASE + n (n counts
its author's lines from 0), `prev` 32 zero bytes and body {"text": TEXT}. The signature
binds it to its author, the game id and n, so a line cannot be moved to another game, and
a second line under one number (a replay with other words) is refused naming its author.
It changes no state hash and is kept beside the log (`<log>.chat`, protocol/log/chatfile.py).

`ChatBook` is what a peer (or a checker of a sidecar file) knows of the lines seen: the
numbers per author, and the bounds that keep a flooding seat from filling screens and disks.
"""
from __future__ import annotations

import unicodedata
from collections import deque
from dataclasses import dataclass, field

from protocol.crypto import Identity, fingerprint
from protocol.log import ZERO_HASH, SignedEvent, sign_event
from protocol.session.errors import SessionError
from protocol.session.phases import EventKind, SeqBase

__all__ = ["CHAT_KIND", "CHAT_BASE", "MAX_CHAT_CHARS", "MAX_CHAT_LINES", "CHAT_BURST", "CHAT_WINDOW",
           "ChatRefused", "is_chat", "text_problem", "line_problem", "make_line", "ChatBook"]

CHAT_KIND = EventKind.CHAT
CHAT_BASE = int(SeqBase.CHAT)   # seq of line n: CHAT_BASE + n; no chain or statement reaches it
MAX_CHAT_CHARS = 200                # characters of one line
MAX_CHAT_LINES = 1000               # lines one author may say in one game
CHAT_BURST = 5                      # at most this many lines of one author ...
CHAT_WINDOW = 10.0                  # ... in any window of this many seconds
# formatting characters that reorder or hide text on a terminal (bidi overrides and isolates)
_BIDI = set(map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C]))


class ChatRefused(SessionError):
    """A chat line this peer will not send or take (the reason says why, in words)."""
    spec = "§29.18"


def is_chat(ev: SignedEvent) -> bool:
    return ev.kind == CHAT_KIND and ev.seq >= CHAT_BASE


def text_problem(text: object) -> str | None:
    """Why `text` cannot be a chat line, in words, or None."""
    if not isinstance(text, str):
        return "a chat line is text"
    if not text.strip():
        return "say what? the line is empty"
    if len(text) > MAX_CHAT_CHARS:
        return f"a chat line is at most {MAX_CHAT_CHARS} characters (this one has {len(text)})"
    bad = next((c for c in text if unicodedata.category(c) in ("Cc", "Zl", "Zp") or c in _BIDI), None)
    if bad is not None:
        return f"a chat line holds no control characters (U+{ord(bad):04X} is one)"
    return None


def line_problem(ev: SignedEvent, game: bytes, seats: list[bytes] | set[bytes]) -> str | None:
    """Why a signed event is not a sound chat line of this game by a seat, or None (its
    signature was checked when it was parsed)."""
    if ev.game != game:
        return "a chat line of another game"
    if not is_chat(ev) or ev.prev != ZERO_HASH or set(ev.body) != {"text"}:
        return "not a chat line (kind, number, prev or fields)"
    if ev.author not in seats:
        return f"{fingerprint(ev.author)} holds no seat in this game"
    return text_problem(ev.body["text"])


def make_line(identity: Identity, game: bytes, n: int, text: str) -> SignedEvent:
    problem = text_problem(text)
    if problem is not None:
        raise ChatRefused(problem, seq=CHAT_BASE + n, author=identity.public_key_bytes)
    return sign_event(identity, game, CHAT_BASE + n, ZERO_HASH, CHAT_KIND, {"text": text})


@dataclass
class ChatBook:
    """The lines seen per author: their numbers and hashes, and the recent times (the bound)."""
    game: bytes
    seats: set[bytes]
    lines: dict[bytes, dict[int, bytes]] = field(default_factory=dict)     # author -> n -> line hash
    recent: dict[bytes, deque] = field(default_factory=dict)              # author -> times of recent lines

    def next_number(self, author: bytes) -> int:
        seen = self.lines.get(author)
        return 0 if not seen else max(seen) + 1

    def problem(self, ev: SignedEvent, now: float | None = None) -> str | None:
        """Why `ev` is not taken: unsound, a second line under a number, or over the bounds
        (`now` is this peer's clock; None skips the rate bound, as a file checker does).
        None means it is new and sound; an exact repeat of a line seen is "" (ignored)."""
        reason = line_problem(ev, self.game, self.seats)
        if reason is not None:
            return reason
        n = ev.seq - CHAT_BASE
        seen = self.lines.get(ev.author, {})
        if n in seen:
            return "" if seen[n] == ev.hash else (f"{fingerprint(ev.author)} signed two different chat lines "
                                                  f"numbered {n}: a replay or a forgery")
        if len(seen) >= MAX_CHAT_LINES:
            return f"{fingerprint(ev.author)} has said {MAX_CHAT_LINES} lines this game, the most kept"
        times = self.recent.get(ev.author)
        if now is not None and times is not None and len(times) >= CHAT_BURST and now - times[0] < CHAT_WINDOW:
            return f"{fingerprint(ev.author)} says more than {CHAT_BURST} lines in {CHAT_WINDOW:g} s"
        return None

    def keep(self, ev: SignedEvent, now: float | None = None) -> None:
        self.lines.setdefault(ev.author, {})[ev.seq - CHAT_BASE] = ev.hash
        if now is not None:
            self.recent.setdefault(ev.author, deque(maxlen=CHAT_BURST)).append(now)
