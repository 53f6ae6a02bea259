"""Every peer of one game in one process, exchanging real signed events through memory
(SPEC §26.9). Used by `asv selfplay --log-dir` and the tests; no transport involved."""
from __future__ import annotations

from typing import Callable, Sequence

from protocol.errors import ProtocolError
from protocol.session.peer import SessionPeer

__all__ = ["run_local", "StalledGame"]


class StalledGame(ProtocolError, RuntimeError):
    """No peer owes an event although the game is not done (a halted session)."""


def run_local(peers: Sequence[SessionPeer], *, max_events: int = 200_000,
              on_event: Callable[[SessionPeer, bytes], None] | None = None) -> int:
    """Let the due peer write, deliver its wire bytes to every other peer; repeat until
    every peer is done. Returns the number of events. Any rejection propagates."""
    for count in range(max_events):
        if all(p.finished for p in peers):
            return count
        writers = [p for p in peers if p.pending_obligation() is not None]
        if len(writers) != 1:
            raise StalledGame(f"{len(writers)} peers owe the event at height {peers[0].chain.height}")
        wire = writers[0].act()
        for p in peers:
            if p is not writers[0]:
                p.receive(wire)
        if on_event is not None:
            on_event(writers[0], wire)
    raise StalledGame(f"no end after {max_events} events")
