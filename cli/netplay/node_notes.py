"""The words for a network node's notes (SPEC §29.13): protocol/node says what happened as
a Note (a kind and its facts); this module says it to the player, commands included."""
from __future__ import annotations

import time
from typing import Callable

from cli.games.refusal_words import describe
from protocol.net import plain_reason
from protocol.node import Note, NoteKind

__all__ = ["words", "speaker"]

RESUME_COMMAND = "asv join --resume LOG"


def words(note: Note, who: Callable[[bytes], str]) -> str:
    """The line a player reads for `note`; `who(key)` names a peer (Node.who: "green bob")."""
    k = note.kind
    if k is NoteKind.JOINED:
        return f"{who(note.who)} joined ({note.count}/{note.seats} seats)"
    if k is NoteKind.HERE:
        return f"{who(note.who)} is here"
    if k is NoteKind.BACK:
        return f"{who(note.who)} is back (gone {int(note.seconds)} s)"
    if k is NoteKind.LOST:
        waits = "" if note.seconds is None else (
            f" — the game waits: they come back with `{RESUME_COMMAND}` (their log); "
            f"aborted if gone {note.seconds:g} s")
        return f"lost {who(note.who)} ({note.reason}) at {time.strftime('%H:%M:%S', time.localtime(note.at))}{waits}"
    if k is NoteKind.REFUSED_CONNECTION:
        err = note.error   # plain words, never the error's class or blame bracket (issue 22 item 8)
        where = f" from {err.peer.split('@')[0]}" if getattr(err, "peer", None) else ""
        return f"refused a connection{where}: {plain_reason(err)}"
    if k is NoteKind.REFUSED:
        return _refused(note, who, "refused", "refused event")
    if k is NoteKind.HALTED:
        return _refused(note, who, "session halted at", "session halted")
    if k is NoteKind.BARRED:
        return f"late event of {who(note.who)} at seq {note.seq} not applied: this peer voted it silent"
    if k is NoteKind.VOTED:
        return f"voted {who(note.who)} silent at seq {note.seq}"
    if k is NoteKind.VOTE_WITHDRAWN:
        return f"{who(note.who)} applied the event this peer voted silent at seq {note.seq}; vote withdrawn"
    if k is NoteKind.WRITTEN:
        return str(note.text)
    if k is NoteKind.TAKEN_BACK:
        return (f"{note.text}; this peer's {note.count} event(s) from seq {note.seq} reached nobody "
                "and are dropped")
    if k in _TABLE_TALK:
        return _TABLE_TALK[k](note, who)
    if k is NoteKind.SETTLED:
        return f"{note.text} (written by {who(note.who)}); it wins over this peer's own end and replaces it"
    raise ValueError(f"no words for the note kind {k!r}")


def _refusal(note: Note, who: Callable[[bytes], str]) -> str:
    """An ask that ended with nothing changed (SPEC §29.17)."""
    name = who(note.who) if note.who is not None else "a seat"
    return {"no": f"{name} said no: the last action stands",
            "withdrawn": f"{name} withdrew the takeback: the last action stands",
            "timeout": f"no answer from {name} within {note.seconds or 0:g} s: the takeback lapsed; the last action stands",
            "moved on": f"{name} played on before every seat agreed: the last action stands"}.get(
                str(note.reason), f"the takeback did not happen ({note.reason}): the last action stands")


_TABLE_TALK: dict[NoteKind, Callable[[Note, Callable[[bytes], str]], str]] = {
    NoteKind.TAKEBACK_ASKED: lambda n, who: (
        f"{who(n.who)} asks to take back `{n.text}`: it happens if every other seat says yes "
        f"(type yes or no) within {n.seconds or 0:g} s"),
    NoteKind.TAKEBACK_ANSWERED: lambda n, who: f"{who(n.who)} agrees to take back the last action",
    NoteKind.TAKEBACK_REFUSED: _refusal,
    NoteKind.TAKEBACK_DONE: lambda n, who: f"taken back, every seat agreeing: {n.text}",
    NoteKind.CHAT: lambda n, who: f"{who(n.who)} says: {n.text}",
    NoteKind.CHAT_REFUSED: lambda n, who: f"a chat line of {who(n.who)} was not taken: {n.reason}",
}


def _refused(note: Note, who: Callable[[bytes], str], what: str, plain: str) -> str:
    """A refused event's line, naming its author in the words of the refusal table (SPEC
    §29.13, §31.11): 'refused green bob's event at seq 52: a move the rules refuse: REASON'."""
    exc = note.error
    if getattr(exc, "author", None) is None:
        return f"{plain}: {describe(exc)}"
    return f"{what} {who(exc.author)}'s event at seq {exc.seq}: {describe(exc)}"


def speaker(node, say: Callable[[str], None]) -> Callable[[Note], None]:
    """An on_note for `node` that says each note's words with `say`."""
    return lambda note: say(words(note, node.who))
