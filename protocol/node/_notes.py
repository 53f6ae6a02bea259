"""What a node tells the people at its terminal, as data (SPEC §29.13): a kind and the
facts of it. The node writes no words; the command (cli/netplay/node_notes.py) does."""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from protocol.errors import ProtocolError

__all__ = ["Note", "NoteKind"]


class NoteKind(StrEnum):
    JOINED = "joined"            # `who` took a lobby seat: `count` of `seats` are taken (§29.2)
    HERE = "here"                # a resumed peer met `who` for the first time (§29.15)
    BACK = "back"                # `who`, lost before, is connected again after `seconds`
    LOST = "lost"                # the connection with `who` ended for `reason` at wall time `at`;
                                 # `seconds` (the abort timeout) is set once the game has started
    REFUSED_CONNECTION = "refused-connection"   # a connection was refused: `error`
    REFUSED = "refused"          # an event was refused: `error` names its author and height
    HALTED = "halted"            # the session halted on an event: `error`
    BARRED = "barred"            # `who`'s late event at `seq` is not applied: this peer voted it silent
    VOTED = "voted"              # this peer voted `who` silent at `seq` (§29.6)
    VOTE_WITHDRAWN = "vote-withdrawn"   # `who` applied the event voted silent at `seq`
    WRITTEN = "written"          # this peer wrote an abort or a halt; `text` is the session's note of it
    TAKEN_BACK = "taken-back"    # an abort against this peer was taken: `text` is its note, `count`
                                 # of this peer's events from `seq` on reached nobody and are dropped
    TAKEBACK_ASKED = "takeback-asked"      # `who` asks to take back the action `text` (§29.19); `seconds` to answer
    TAKEBACK_ANSWERED = "takeback-answered"  # `who` said yes to the open ask
    TAKEBACK_REFUSED = "takeback-refused"  # the ask is over, nothing changed: `reason` "no" (`who` said no),
                                           # "withdrawn" (by its asker), "timeout" (`who` did not answer
                                           # within `seconds`) or "moved on" (`who` wrote the next event)
    TAKEBACK_DONE = "takeback"             # the takeback was written (by `who`); `text` is the session's note
    CHAT = "chat"                          # `who` said `text` (its line number `seq`, §29.18)
    CHAT_REFUSED = "chat-refused"          # a chat line of `who` was not taken: `reason` (said once per author)
    SETTLED = "settled"          # another end at `seq` (by `who`) wins over this peer's (§29.19): it
                                 # replaces this peer's last record; `text` is its note


@dataclass(frozen=True)
class Note:
    kind: NoteKind
    who: bytes | None = None     # the peer the note is about (a public key)
    seq: int | None = None
    reason: str | None = None
    seconds: float | None = None
    count: int | None = None
    seats: int | None = None
    at: float | None = None      # time.time() of the fact
    error: ProtocolError | None = None
    text: str | None = None
