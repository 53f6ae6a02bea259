"""Events that arrived before their height, held until it comes (SPEC §29.4)."""
from __future__ import annotations

from protocol.log import SignedEvent

__all__ = ["EarlyEvents", "held_cost", "MAX_AHEAD", "MAX_PER_HEIGHT", "MAX_BUFFERED_BYTES",
           "MAX_AUTHOR_HEIGHTS", "MAX_AUTHOR_BYTES"]

# Bounds on events held for a later height (SPEC §29.4): far enough ahead for any honest
# burst, few enough candidates and bytes that a roster peer cannot exhaust memory. An
# honest author's events held here are those written while this peer missed one earlier
# event, a few dozen until the next catch-up; a flooding insider signs only as its own
# key, so a window per author keeps it from crowding out the others (and from taking an
# honest peer past twice its normal memory: a normal peer holds about 51 MiB).
MAX_AHEAD = 4096
MAX_PER_HEIGHT = 4              # candidates of one author (budget) at one height
MAX_AUTHOR_HEIGHTS = 256         # distinct future heights one author may hold
MAX_AUTHOR_BYTES = 4 << 20       # held cost of one author's events
MAX_BUFFERED_BYTES = 16 << 20    # held cost of everything
# A parsed SignedEvent costs about twice its wire (the envelope and body decoded beside
# the wire) plus ~2 KiB of Python objects (measured with tracemalloc: ~3.0 KB beyond a
# 1.2 KB wire), so small events cannot slip many objects past a byte bound.
_EVENT_OVERHEAD = 2048
_BEFORE_ROSTER = b""             # budget shared by every author before the roster is known


def held_cost(ev: SignedEvent) -> int:
    """The memory one held event is counted as (SPEC §29.4)."""
    return 2 * len(ev.wire) + _EVENT_OVERHEAD


class EarlyEvents:
    """Early events by seq, within bounds: a roster peer could otherwise sign endless
    future events and fill this peer's memory. What is dropped a later catch-up fetches
    again if it was honest."""

    def __init__(self) -> None:
        self.dropped = 0       # events refused by the bounds
        self._clear()

    def _clear(self) -> None:
        self.by_seq: dict[int, list[SignedEvent]] = {}
        self.size = 0          # held cost of everything (held_cost)
        self._author_size: dict[bytes, int] = {}
        self._author_heights: dict[bytes, dict[int, int]] = {}   # author -> seq -> events there
        self._budget_of: dict[int, bytes] = {}                   # id(held event) -> its budget

    def __bool__(self) -> bool:
        return bool(self.by_seq)

    def author_size(self, author: bytes) -> int:
        """Held cost of `author`'s events."""
        return self._author_size.get(author, 0)

    def hold(self, ev: SignedEvent, height: int, roster: list[bytes] | None = None) -> None:
        """Hold `ev` for its height unless a bound refuses it. With the roster known, an
        event by a key outside it is refused (it could never be applied); before that,
        every author shares one author's budget."""
        held = self.by_seq.get(ev.seq, [])
        if ev in held:
            return
        if roster is not None and ev.author not in roster:
            self.dropped += 1
            return
        budget = ev.author if roster is not None else _BEFORE_ROSTER
        heights = self._author_heights.get(budget, {})
        cost = held_cost(ev)
        if (ev.seq > height + MAX_AHEAD or heights.get(ev.seq, 0) >= MAX_PER_HEIGHT
                or (ev.seq not in heights and len(heights) >= MAX_AUTHOR_HEIGHTS)
                or self.author_size(budget) + cost > MAX_AUTHOR_BYTES
                or self.size + cost > MAX_BUFFERED_BYTES):
            self.dropped += 1
            return
        self.by_seq[ev.seq] = held + [ev]
        self.size += cost
        self._author_size[budget] = self.author_size(budget) + cost
        heights[ev.seq] = heights.get(ev.seq, 0) + 1
        self._author_heights[budget] = heights
        self._budget_of[id(ev)] = budget

    def _release(self, events: list[SignedEvent]) -> None:
        for ev in events:
            budget = self._budget_of.pop(id(ev))
            cost = held_cost(ev)
            self.size -= cost
            self._author_size[budget] -= cost
            heights = self._author_heights[budget]
            heights[ev.seq] -= 1
            if not heights[ev.seq]:
                del heights[ev.seq]
            if not self._author_size[budget]:
                del self._author_size[budget], self._author_heights[budget]

    def take(self, height: int) -> list[SignedEvent] | None:
        """The candidates held for `height`, removed; None if there are none."""
        waiting = self.by_seq.pop(height, None)
        if waiting is not None:
            self._release(waiting)
        return waiting

    def drop_below(self, height: int) -> None:
        """Forget every height already passed."""
        for seq in [q for q in self.by_seq if q < height]:
            self._release(self.by_seq.pop(seq))

    def keep_roster(self, roster: list[bytes], height: int) -> None:
        """The roster is now known: drop what other keys wrote and count the rest against
        each author's own budget."""
        events = [ev for seq in sorted(self.by_seq) for ev in self.by_seq[seq]]
        self._clear()
        for ev in events:
            self.hold(ev, height, roster)
