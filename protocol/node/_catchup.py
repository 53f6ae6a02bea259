"""Catch-up (SPEC §29.7): answering another peer's request for the events since a height,
and asking the others when this peer fell behind. A mixin of Node."""
from __future__ import annotations

from protocol.net import TransportError
from protocol.session import Phase

__all__ = ["CatchUp"]


class CatchUp:
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
        if self.height > before and self.on_caught_up is not None:
            self.on_caught_up(self, before)
