"""Catch-up requests and answers (SPEC §28.8).

The asker numbers its requests and collects the `batch` answers of each; the asked side
cuts its wires into batches that each fit in one frame.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import trio

from protocol import codec
from protocol.log import SignedEvent
from protocol.net.mesh.conn import Conn
from protocol.net.mesh.gossip import Gossip
from protocol.net.errors import LOCAL, FrameTooLarge, TransportError

__all__ = ["Pending", "Requests", "answer_payloads"]

_BATCH_OVERHEAD = 64     # map, "t", "id", "more", list header
_WIRE_OVERHEAD = 5       # bin32 header at most


@dataclass(eq=False)
class Pending:
    """One catch-up request waiting for its answer."""

    conn: Conn
    events: list[SignedEvent] = field(default_factory=list)   # parsed and checked on arrival
    done: trio.Event = field(default_factory=trio.Event)
    error: TransportError | None = None


class Requests:
    """The asker's side: catch-up requests in flight, by id."""

    def __init__(self, gossip: Gossip) -> None:
        self.gossip = gossip
        self._pending: dict[int, Pending] = {}
        self._ids = itertools.count(1)

    def open(self, conn: Conn) -> tuple[int, Pending]:
        rid = next(self._ids)
        pending = self._pending[rid] = Pending(conn)
        return rid, pending

    def close(self, rid: int) -> None:
        del self._pending[rid]

    def received_batch(self, conn: Conn, msg: dict[str, Any]) -> None:
        """Add a `batch` to its request. Raises BadEventWire (after failing the request)
        if it holds a bad wire; an answer nobody waits for any more is ignored."""
        pending = self._pending.get(msg["id"])
        if pending is None or pending.conn.key != conn.key or pending.done.is_set():
            return  # a late answer to a request that timed out
        for wire in msg["wires"]:
            try:
                ev = self.gossip.check(wire, peer=conn.label, what="catch-up answer holds a bad event")
            except TransportError as err:
                pending.error = err
                pending.done.set()
                raise
            pending.events.append(ev)
        if not msg["more"]:
            pending.done.set()

    def connection_ended(self, conn: Conn, error: TransportError) -> None:
        """Fail every request still waiting on `conn`."""
        for pending in list(self._pending.values()):
            if pending.conn is conn and not pending.done.is_set():
                pending.error = error
                pending.done.set()


def answer_payloads(rid: int, wires: list[bytes], max_frame: int, *, peer: str | None) -> list[bytes]:
    """The `batch` payloads answering request `rid` with `wires`, in order, each within
    `max_frame`; the last has more = false. Raises FrameTooLarge (side local) for a
    wire that fits in no frame."""
    out: list[bytes] = []
    batch: list[bytes] = []
    size = _BATCH_OVERHEAD
    for wire in wires:
        cost = len(wire) + _WIRE_OVERHEAD
        if batch and size + cost > max_frame:
            out.append(codec.encode({"t": "batch", "id": rid, "wires": batch, "more": True}))
            batch, size = [], _BATCH_OVERHEAD
        if size + cost > max_frame:
            raise FrameTooLarge(size + cost, max_frame, side=LOCAL, peer=peer)
        batch.append(wire)
        size += cost
    out.append(codec.encode({"t": "batch", "id": rid, "wires": batch, "more": False}))
    return out
