"""Relays owed and `have` notices (SPEC §28.7, §28.13).

A peer that receives a new event from another owes it to every other current peer not
known to have it; it is *known* to have it when it is the event's author, when it sent
it to us, or when it said so itself in a `have` message. An owed relay waits
`relay_delay` seconds before it is sent, so that in a full mesh, where every peer got
the event from its author, the others' `have` notices cancel it first: each event then
crosses each link once, not up to three times. A peer whose link to the author is down
never says `have`, and gets the event through the relay after the delay, as before.

A peer's own chain event says `have` too: its author built it on the event its `prev`
names, so that event is not owed to the author, and need not be told to the peers the
event goes to (in a lockstep game the next event often comes before the next notice).

Only a peer's own word cancels what is owed to it: a hostile peer can lie only to its
own loss, never stop an event reaching a third peer (an equivocating author's second
event still reaches everyone, SPEC §28.7).
"""
from __future__ import annotations

from collections.abc import Iterable

from protocol import codec
from protocol.net.messages import MAX_HAVE

__all__ = ["Relays", "MAX_HAVE", "MAX_OWED", "have_payloads"]

# Relays owed to one peer: past it the oldest is sent at once (memory stays bounded even
# when a peer never answers with `have`; sending early only costs a duplicate).
MAX_OWED = 4096


def have_payloads(hashes: list[bytes]) -> list[bytes]:
    """The `have` messages telling `hashes`, at most MAX_HAVE in each."""
    return [codec.encode({"t": "have", "hashes": hashes[i:i + MAX_HAVE]})
            for i in range(0, len(hashes), MAX_HAVE)]


class Relays:
    """What this peer owes each peer (event hash -> due time and frame) and what it has
    still to tell each peer it has. `Frame` is opaque here: the mesh's queue item."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self._owed: dict[bytes, dict[bytes, tuple[float, object]]] = {}   # oldest first
        self._tell: dict[bytes, dict[bytes, None]] = {}   # ordered sets
        self.relayed = 0          # relays sent because no `have` came in time
        self.told = 0             # hashes sent in `have` messages
        self.cancelled = 0        # relays a `have` made unnecessary

    def __bool__(self) -> bool:
        return bool(self._owed) or bool(self._tell)

    def received(self, digest: bytes, frame: object, *, now: float, owe: Iterable[bytes],
                 tell: Iterable[bytes]) -> list[tuple[bytes, object]]:
        """A new event: owe it to `owe` after the delay, tell `tell` we have it. Returns
        the relays that must go out now (a peer's owed relays past MAX_OWED)."""
        due = now + self.delay
        early: list[tuple[bytes, object]] = []
        for key in owe:
            owed = self._owed.setdefault(key, {})
            owed[digest] = (due, frame)
            if len(owed) > MAX_OWED:
                oldest = next(iter(owed))
                early.append((key, owed.pop(oldest)[1]))
                self.relayed += 1
        for key in tell:
            self._tell.setdefault(key, {})[digest] = None
        return early

    def has(self, key: bytes, hashes: Iterable[bytes]) -> None:
        """`key` said it has these events: nothing of them is owed to it any more."""
        owed = self._owed.get(key)
        if not owed:
            return
        for h in hashes:
            if owed.pop(h, None) is not None:
                self.cancelled += 1
        if not owed:
            del self._owed[key]

    def implied(self, key: bytes, digest: bytes) -> None:
        """An event of ours built on `digest` goes to `key`: that says we have it."""
        tell = self._tell.get(key)
        if tell is not None:
            tell.pop(digest, None)
            if not tell:
                del self._tell[key]

    def notices(self) -> list[tuple[bytes, list[bytes]]]:
        """The hashes to tell each peer now (and forget)."""
        out = [(key, list(hashes)) for key, hashes in self._tell.items()]
        self._tell = {}
        self.told += sum(len(h) for _, h in out)
        return out

    def due(self, now: float) -> list[tuple[bytes, object]]:
        """The relays whose delay has passed, oldest first per peer (and forget them)."""
        out: list[tuple[bytes, object]] = []
        for key in list(self._owed):
            owed = self._owed[key]
            while owed:
                digest = next(iter(owed))
                when, frame = owed[digest]
                if when > now:
                    break
                del owed[digest]
                out.append((key, frame))
            if not owed:
                del self._owed[key]
        self.relayed += len(out)
        return out

    def owed_to(self, key: bytes) -> int:
        return len(self._owed.get(key, ()))
