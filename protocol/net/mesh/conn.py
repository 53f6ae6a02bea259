"""The mesh's connection table: one current connection per peer (SPEC §28.6).

Holds every running connection of a mesh and which one is *current* for each peer key,
and applies the tie-break between two connections of one pair. Knows nothing of what
travels on the connections.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any

import trio

from protocol.net.framing import FramedStream
from protocol.net.handshake import Authenticated
from protocol.net.errors import PeerRefused, TransportError

__all__ = ["Conn", "EventFrame", "Retire", "ConnTable", "wins", "peer_host", "maybe_await"]


async def maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


def wins(new_dialer: bytes, old_dialer: bytes) -> bool:
    """Tie-break between two connections of one pair (SPEC §28.6): dialed by different
    peers, the one dialed by the lower key wins; dialed by the same peer, the newer wins."""
    return new_dialer < old_dialer if new_dialer != old_dialer else True


def peer_host(stream: Any) -> str | None:
    """The remote host of a socket stream (None for other streams)."""
    try:
        return str(stream.socket.getpeername()[0])
    except (AttributeError, OSError):
        return None


@dataclass(eq=False)
class Conn:
    """One authenticated connection: its send queue and the scope that ends it."""

    auth: Authenticated
    host: str | None
    send: trio.MemorySendChannel
    receive: trio.MemoryReceiveChannel
    scope: trio.CancelScope = field(default_factory=trio.CancelScope)
    nursery: trio.Nursery | None = None
    retired: bool = False
    error: TransportError | None = None
    answering: int = 0                                      # catch-up answers not yet written
    advertised: set[bytes] = field(default_factory=set)     # keys its `peers` messages named
    in_flight: EventFrame | None = None                     # the event the writer is writing
    late: list[EventFrame] = field(default_factory=list)    # events queued after it lost the tie-break
    # for the timers (SPEC §28.9), trio clock times: when the reader last began to wait
    # for a frame, and when the writer last took or wrote one; `handling`: the reader is
    # handling a frame (that is not the peer's silence)
    heard: float = 0.0
    sent: float = 0.0
    handling: bool = False

    @property
    def key(self) -> bytes:
        return self.auth.peer_key

    @property
    def fs(self) -> FramedStream:
        return self.auth.stream

    @property
    def label(self) -> str | None:
        return self.fs.peer

    def fail(self, error: TransportError) -> None:
        """End this connection because of `error` (first error wins)."""
        if self.error is None:
            self.error = error
        self.scope.cancel()

    @property
    def lost_tie_break(self) -> bool:
        """Whether this connection ends because another one of the pair won the tie-break:
        retired here, or refused by the peer as its duplicate (SPEC §28.6)."""
        return self.retired or (isinstance(self.error, PeerRefused) and self.error.code == "duplicate")

    def take_unsent(self) -> list[EventFrame]:
        """Take the events not yet known to be written, in order: the one being written
        (it may be cut off; a copy that does arrive twice is dropped by gossip), those
        queued, and those that came after the tie-break was lost. Other queued items stay
        queued in their order."""
        events = [self.in_flight] if self.in_flight is not None else []
        self.in_flight = None
        others = []
        while True:
            try:
                item = self.receive.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                break
            (events if isinstance(item, EventFrame) else others).append(item)
        for item in others:
            self.send.send_nowait(item)      # fewer than were there: room for all
        events += self.late
        self.late.clear()
        return events


@dataclass(frozen=True)
class EventFrame:
    """Send-queue item: an `event` frame payload. Unlike control frames, an event queued
    on a connection that loses the tie-break moves to the one that replaces it."""

    payload: bytes


@dataclass(frozen=True)
class Retire:
    """Send-queue item: send this error frame, half-close, send nothing more."""

    error: TransportError


class ConnTable:
    """Every running connection, and the current one of each peer key."""

    def __init__(self) -> None:
        self.current: dict[bytes, Conn] = {}
        self.all: list[Conn] = []

    def admits(self, peer_key: bytes) -> bool:
        """Whether a new connection dialed by `peer_key` (we listen) would win against the
        peer's current one, if any."""
        old = self.current.get(peer_key)
        return old is None or wins(peer_key, old.auth.dialer_key)

    def add(self, conn: Conn) -> None:
        self.all.append(conn)

    def choose(self, conn: Conn) -> tuple[bool, Conn | None]:
        """Apply the tie-break to a connection that finished its handshake. Returns
        (whether `conn` is now current, the connection that lost: the old current one,
        `conn` itself, or None when the peer had no connection)."""
        old = self.current.get(conn.key)
        if old is not None and not wins(conn.auth.dialer_key, old.auth.dialer_key):
            return False, conn
        self.current[conn.key] = conn
        return True, old

    def remove(self, conn: Conn) -> bool:
        """Forget an ended connection; True if it was its peer's current one."""
        self.all.remove(conn)
        was_current = self.current.get(conn.key) is conn
        if was_current:
            del self.current[conn.key]
        return was_current
