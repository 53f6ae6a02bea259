"""The agent's thinking (SPEC §12.3, §29). An agent may think for seconds (the search bot:
1 s a decision). Unless it says it answers at once (`thinks = False`: greedy, random), it
runs in a worker thread so that this peer, and every other task of the process
(keepalives, other peers' events and votes, catch-up answers, the REPL, in-process bot
peers), goes on.

What it reads cannot change meanwhile: while this peer owes the action, the only events
another peer can have accepted at this height are an abort or a halt, which touch neither
the game state nor the view (and end the game); submit() refuses while it thinks. Its
answer is used only for the session and height it was asked about. A mixin of Node."""
from __future__ import annotations

import trio

from protocol.session import SessionPeer

__all__ = ["Thinking", "THOUGHT"]

THOUGHT = object()   # put in the inbox when the agent's answer is ready: wakes the loop


class Thinking:
    def _init_thinking(self) -> None:
        self._thinking: tuple[SessionPeer, int] | None = None      # the agent asked at (session, height)
        self._thought: tuple[SessionPeer, int, str] | None = None  # its answer, not yet written
        self._think_scope = trio.CancelScope()                     # the latest think's, cancelled on stop

    def _start_thinking(self, s: SessionPeer) -> None:
        if self._thinking is None:   # one at a time; a stale answer is dropped when it comes
            self._thinking = (s, s.chain.height)
            self._think_scope = trio.CancelScope()
            self._nursery.start_soon(self._think, s, s.chain.height, self._think_scope)

    async def _think(self, s: SessionPeer, height: int, scope: trio.CancelScope) -> None:
        with scope:
            try:
                text = await trio.to_thread.run_sync(self.agent, s.state, s.view, abandon_on_cancel=True)
            finally:
                self._thinking = None
            self._thought = (s, height, text)
            await self._inbox_send.send(THOUGHT)

    def _thought_for(self, s: SessionPeer) -> str | None:
        thought, self._thought = self._thought, None
        if thought is not None and thought[0] is s and thought[1] == s.chain.height:
            return thought[2]
        return None

    @property
    def thinking(self) -> bool:
        """True while this peer's agent is choosing its action in a worker thread."""
        return self._thinking is not None
