"""The lobby's one rule of trust (SPEC §29.2): the roster comes from the creator's hello.

An invite names the creator by its key fingerprint. Before a peer knows the roster, any
key of the game may reach it (the handshake only proves who is at the other end), so
the first `hello` it adopts must be signed by the creator's key, and its roster must be
sound (SPEC §26.2); anything else is refused with a typed error naming its author, and
the peer goes on waiting for the real one. From then on the peer admits exactly the keys
that hello lists.
"""
from __future__ import annotations

from protocol.errors import EventError
from protocol.log import SignedEvent
from protocol.crypto import fingerprint
from protocol.session.core import roster_problem
from protocol.session.errors import BadBody
from protocol.session.phases import EventKind

__all__ = ["NotTheCreator", "creator_key_matches", "first_hello_problem"]


class NotTheCreator(EventError):
    """A first hello (a roster) signed by a key other than the invite's creator."""
    spec = "§29.2"   # the SPEC section it enforces (§36.3)


def creator_key_matches(creator: bytes | str, key: bytes) -> bool:
    """`creator` is a 32-byte key or its fingerprint (as printed in an invite, any case)."""
    if isinstance(creator, bytes):
        return creator == key
    return fingerprint(key) == creator.strip().upper()


def first_hello_problem(ev: SignedEvent, creator: bytes | str) -> EventError | None:
    """Why `ev` (seq 0) cannot be the game's first hello for a peer waiting for `creator`,
    or None."""
    if ev.kind != EventKind.HELLO:
        return BadBody(f"the first event must be the creator's hello, not {ev.kind!r}",
                       seq=ev.seq, author=ev.author)
    if not creator_key_matches(creator, ev.author):
        want = creator if isinstance(creator, str) else fingerprint(creator)
        return NotTheCreator(f"the first hello must be signed by the creator {want}",
                             seq=ev.seq, author=ev.author)
    roster, config = ev.body.get("roster"), ev.body.get("config")
    problem = roster_problem(roster, ev.author)
    if problem is None and not isinstance(config, dict):
        problem = "config must be a map"
    return None if problem is None else BadBody(problem, seq=ev.seq, author=ev.author)
