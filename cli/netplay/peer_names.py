"""Naming the peers of a live game in its lines: seat colour and name, as the rest of the
REPL does ("green bob"), not the key's fingerprint (issue 8 item 3; SPEC §29.13). Before the
seats are known (the lobby) a key is named by the name it used in an earlier game seen here,
with its fingerprint (SPEC §32.4); the fingerprint alone is the last resort."""
from __future__ import annotations

from protocol.crypto import fingerprint

from cli.games import default_kit, kit_for_rules
from cli.netplay.names_seen import name_seen, remember

__all__ = ["colours_of", "seat_name", "namer", "remembering", "abort_line", "pass_line", "ABORT_NOTE"]

ABORT_NOTE = "abort: "   # how the session's own note of an abort begins (protocol.session.abort)


def colours_of(session) -> tuple[str, ...]:
    """The seat colours of the session's game (SPEC §47.4)."""
    game = kit_for_rules(session.rules.name) or default_kit()
    return game.seat_colours(session.players)


def seat_name(session, key: bytes) -> str | None:
    """'green bob' for a seated peer; None before the seats are fixed or for a stranger."""
    if session is None or key not in getattr(session, "seat_of", {}):
        return None
    seat = session.seat_of[key]
    colours = colours_of(session)
    name = session.names[session.roster.index(key)] if key in session.roster else fingerprint(key)
    return f"{colours[seat]} {name}" if seat < len(colours) else name


def namer(node):
    """A Node.namer: "green bob" once the seats are known; before, "bob (FINGERPRINT)" for a
    key met in an earlier game; else None (the node says the fingerprint)."""
    def name(key: bytes) -> str | None:
        seated = seat_name(node.session, key)
        if seated:
            return seated
        seen = name_seen(key)
        return f"{seen} ({fingerprint(key)})" if seen else None
    return name


def remembering(applied):
    """on_applied that keeps the name each other key signs into its hello (SPEC §32.4)."""
    def on_applied(node, ev, note: str) -> None:
        if ev.kind == "hello" and ev.author != node.me and isinstance(ev.body.get("name"), str):
            remember(ev.author, ev.body["name"])
        applied(node, ev, note)
    return on_applied


def abort_line(session, cause: str | None = None) -> str:
    """The one line that ends an aborted game: who was silent, and who co-signed. `cause`
    "clock": the seat was connected and past its turn clock (TurnClock.abort_cause), so the
    line says that, never that it stayed gone (SPEC §29.20)."""
    ev = session.chain.events[-1] if session.chain.events else None
    body = ev.body if ev is not None and ev.kind == "abort" else None
    if not isinstance(body, dict) or "silent" not in body:
        return session.notes[-1] if session.notes else "the game was aborted"
    silent = body["silent"]
    who = seat_name(session, silent) or fingerprint(silent)
    writer = seat_name(session, ev.author) or fingerprint(ev.author)
    why = ("'s turn clock ran out and they did not move within the timeout after it" if cause == "clock"
           else " stayed gone past the timeout")
    return (f"game aborted: {who}{why} (at event {ev.seq}); "
            f"written by {writer}, co-signed by {len(body.get('votes', []))} peer(s)")


def pass_line(session, ev, me: bytes | None = None) -> str:
    """The line every peer says when a clock pass is applied (SPEC §29.20): whose clock ran
    out, the move the game played for them, and who wrote and co-signed it."""
    seat = ev.body.get("seat")
    who = "your" if seat == me else f"{seat_name(session, seat) or fingerprint(seat)}'s"
    them = "you" if seat == me else "them"
    writer = "you" if ev.author == me else (seat_name(session, ev.author) or fingerprint(ev.author))
    return (f"{who} turn clock ran out: the others played {ev.body.get('a')!r} for {them} (event {ev.seq}; "
            f"written by {writer}, co-signed by {len(ev.body.get('votes', []))} peer(s))")
