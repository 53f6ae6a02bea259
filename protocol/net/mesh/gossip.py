"""Gossip of event wires: the seen set and the checks before forwarding (SPEC §28.7).

Every event wire is known by its event hash. A wire is checked as a validly signed event
of this game before it is sent or forwarded, so no peer can use the others to spread
garbage; a wire seen before is dropped. A received wire is parsed and its signature
checked here, once: what the mesh delivers is the SignedEvent of that check.
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable

from protocol.errors import EventError
from protocol.log import SignedEvent, event_hash, parse_event
from protocol.net.errors import LOCAL, BadEventWire, FrameTooLarge
from protocol.net.framing import event_frame

__all__ = ["Gossip", "event_payload", "MAX_SEEN"]

# Hashes the seen set keeps (SPEC §28.7): far more than one game's events and statements
# (a game is a few thousand events), so only a wire older than that many others can come
# round again; and the node refuses a replayed event anyway, so forgetting costs nothing
# but one parse. Without a bound, a roster peer signing endless distinct statements (or a
# very long session) would grow the set without end: 65536 hashes are about 10 MiB
# (tracemalloc: 32-byte keys in an OrderedDict).
MAX_SEEN = 1 << 16


def event_payload(wire: bytes) -> bytes:
    return event_frame(wire)   # codec.encode({"t": "event", "wire": wire}), the short way


class Gossip:
    """The event hashes a mesh has sent or received, and the wire checks."""

    def __init__(self, game_id: bytes | None, max_frame: int, max_seen: int = MAX_SEEN) -> None:
        # None: any game's events (a spectator before its first event names the game)
        self.game_id = game_id
        self.max_frame = max_frame
        self.max_seen = max_seen
        self._seen: OrderedDict[bytes, None] = OrderedDict()   # oldest first
        self.duplicates = 0    # wires received again, dropped by their hash (SPEC §28.13)

    @property
    def seen_count(self) -> int:
        return len(self._seen)

    def _remember(self, digest: bytes) -> None:
        self._seen[digest] = None
        self._seen.move_to_end(digest)
        while len(self._seen) > self.max_seen:
            self._seen.popitem(last=False)

    def outgoing(self, event: SignedEvent | bytes) -> bytes:
        """The frame payload for one of our own events. Raises the event's error if peers
        would refuse it, or FrameTooLarge (side local). A SignedEvent was checked when it
        was made (sign_event) or received; bare wire bytes are checked here. The caller
        marks it seen once it is sent, so an echo is not delivered back."""
        if isinstance(event, SignedEvent):
            if event.game != self.game_id:   # never gossip what peers would refuse
                parse_event(event.wire, expected_game=self.game_id)
            wire = event.wire
        else:
            wire = bytes(event)
            parse_event(wire, expected_game=self.game_id)
        payload = event_payload(wire)
        if len(payload) > self.max_frame:
            raise FrameTooLarge(len(payload), self.max_frame, side=LOCAL)
        return payload

    def incoming(self, wire: bytes, *, peer: str | None) -> SignedEvent | None:
        """The parsed event if `wire` is new (it is then marked seen); None if seen before.
        Raises BadEventWire if it is not a valid signed event of this game."""
        digest = event_hash(wire)
        if digest in self._seen:
            self._seen.move_to_end(digest)   # seen again: forgotten last (SPEC §28.7)
            self.duplicates += 1
            return None
        ev = self.check(wire, peer=peer, what="not a valid event of this game")
        self._remember(digest)
        return ev

    def check(self, wire: bytes, *, peer: str | None, what: str) -> SignedEvent:
        try:
            return parse_event(wire, expected_game=self.game_id)
        except EventError as exc:
            raise BadEventWire(f"{what}: {exc}", peer=peer) from None

    def mark(self, events: Iterable[SignedEvent | bytes]) -> None:
        for e in events:
            self._remember(e.hash if isinstance(e, SignedEvent) else event_hash(e))
