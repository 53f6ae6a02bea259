"""Catch-up (SPEC §29.7): answering another peer's request for the events since a height,
and asking the others when this peer fell behind. A mixin of Node.

*A resumed peer asks before it writes* (SPEC §29.21). Its log may have lost its own last
event (a torn record, or a disk that dropped a write it had reported done) after that event
reached the others. Written again, the event would differ (fresh proof nonces): two events
of one author at one height, and this peer's chain apart from everyone's for good. So a
resumed peer writes no event of its own until every other seat has answered its catch-up,
or at least one has and the silent-peer timeout has passed since it came back; an event of
its own that another peer holds then comes back in the answer (it carries this peer's own
signature, and is checked like any other)."""
from __future__ import annotations

import time

from protocol.net import TransportError
from protocol.node._thinking import THOUGHT
from protocol.session import Phase

__all__ = ["CatchUp"]


class CatchUp:
    def _init_catchup(self, resumed: bool) -> None:
        self._answered: set[bytes] = set()        # peers whose catch-up answer was applied
        self._asking_since: float | None = time.monotonic() if resumed else None

    def _asking_first(self) -> bool:
        """True while a resumed peer must not write its own events yet (SPEC §29.21)."""
        since = self._asking_since
        if since is None:
            return False
        s = self.session
        others = set() if s is None or s.roster is None else set(s.roster) - {self.me}
        if s is not None and s.seat_keys and s.book is not None:   # seats the game removed (§26.13, §26.14) answer nothing
            others -= {s.seat_keys[i] for i in s.book.departed}
        if others <= self._answered or (self._answered and time.monotonic() - since >= self.options.timeout):
            self._asking_since = None
            return False
        return True

    def _on_catchup(self, peer_key: bytes, from_seq: int) -> list[bytes]:
        s = self.session
        if s is None:
            return []
        if s.phase in (Phase.ABORTED, Phase.HALTED) and from_seq >= s.chain.height:
            # the asker may hold another event at that height, or another end (SPEC §29.6,
            # §29.19): it must learn of this end to settle on one
            return [s.chain.events[-1].wire]
        return [ev.wire for ev in s.chain.events[from_seq:]]

    async def _catch_up(self) -> None:
        for key in self.mesh.peer_keys():
            before = self.height
            await self._catch_up_from(key)
            if self.height > before or self.over:
                return

    async def _catch_up_from(self, key: bytes) -> None:
        try:
            events = await self.mesh.request_since(key, self.height, timeout=self.options.resync * 2)
        except TransportError:
            return
        before = self.height
        self.catching_up = True
        try:
            for ev in events:   # each checked by the mesh on arrival
                self._feed(ev)
        finally:
            self.catching_up = False
        self._answered.add(key)
        if self._asking_since is not None:
            await self._inbox_send.send(THOUGHT)   # wakes the loop: it may write now
        if self.height > before and self.on_caught_up is not None:
            self.on_caught_up(self, before)
