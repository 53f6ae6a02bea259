"""Events that arrived before their height, held until it comes (SPEC §29.4)."""
from __future__ import annotations

from protocol.log import SignedEvent

__all__ = ["EarlyEvents", "MAX_AHEAD", "MAX_PER_HEIGHT", "MAX_BUFFERED_BYTES"]

# Bounds on events held for a later height (SPEC §29.4): far enough ahead for any honest
# burst, few enough candidates and bytes that a roster peer cannot exhaust memory.
MAX_AHEAD = 4096
MAX_PER_HEIGHT = 4
MAX_BUFFERED_BYTES = 64 << 20


class EarlyEvents:
    """Early events by seq, within bounds: a roster peer could otherwise sign endless
    future events and fill this peer's memory. What is dropped a later catch-up fetches
    again if it was honest."""

    def __init__(self) -> None:
        self.by_seq: dict[int, list[SignedEvent]] = {}
        self.size = 0          # bytes held
        self.dropped = 0       # events refused by the bounds

    def __bool__(self) -> bool:
        return bool(self.by_seq)

    def hold(self, ev: SignedEvent, height: int) -> None:
        held = self.by_seq.get(ev.seq, [])
        if ev in held:
            return
        if (ev.seq > height + MAX_AHEAD or len(held) >= MAX_PER_HEIGHT
                or self.size + len(ev.wire) > MAX_BUFFERED_BYTES):
            self.dropped += 1
            return
        self.by_seq[ev.seq] = held + [ev]
        self.size += len(ev.wire)

    def take(self, height: int) -> list[SignedEvent] | None:
        """The candidates held for `height`, removed; None if there are none."""
        waiting = self.by_seq.pop(height, None)
        if waiting is not None:
            self.size -= sum(len(c.wire) for c in waiting)
        return waiting

    def drop_below(self, height: int) -> None:
        """Forget every height already passed."""
        for seq in [q for q in self.by_seq if q < height]:
            self.size -= sum(len(c.wire) for c in self.by_seq.pop(seq))
