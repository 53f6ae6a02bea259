"""A networked search bot thinks in a worker thread (SPEC §12.3): while it thinks, its peer
keeps its connections alive, answers catch-up requests and takes other peers' events; its
answer is written when it comes, or dropped if the game moved on meanwhile. Loopback only."""
from __future__ import annotations

import os
import threading
import time

import pytest
import trio

from cli.games.asv.adapter import AsvRules
from tests.net_helpers import Runner, bot_node, wait_until
from p2p_asv.search import SearchBot
from protocol.crypto import Identity
from protocol.node import Node, NodeOptions
from protocol.session.abort import ABORT_KIND

# a networked game while a search bot thinks: end to end, so `make check` leaves it out (SPEC §35.4)
pytestmark = pytest.mark.e2e

LIMIT = 120   # seconds: a hang guard on a shared machine (the game's setup dominates)
KEEPALIVE = {"keepalive": 0.1, "peer_timeout": 5.0}   # 5 s while the setup's shuffles run
TIGHT = 0.6   # the peer timeout while the bot thinks: a peer blocked 0.6 s would be dropped


class FrozenClock:
    """The search bot's clock, held by the test: while frozen, time stands still and the bot
    goes on iterating (a think as long as the test likes); while running, each reading jumps
    5 s, so a decision ends after one iteration. Read from the bot's worker thread. A think
    frozen for `limit` real seconds ends anyway: were the event loop blocked by the think, the
    test could not unfreeze it, and it fails rather than hangs."""

    def __init__(self, limit: float = 30.0) -> None:
        self.now = 0.0
        self.frozen = True
        self.frozen_reads = 0
        self.limit = limit
        self._since = None
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            if self.frozen and self._since is None:
                self._since = time.monotonic()
            if self.frozen and time.monotonic() - self._since < self.limit:
                self.frozen_reads += 1
            else:
                self._since = None if not self.frozen else self._since
                self.now += 5.0
            return self.now


def tighten(nodes, peer_timeout: float) -> None:
    for node in nodes:
        node.mesh.peer_timeout = peer_timeout


async def test_the_peer_stays_responsive_while_its_search_bot_thinks(tmp_path):
    game, clock = os.urandom(16), FrozenClock()
    bot = SearchBot("slow", think=1.0, clock=clock)
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as nursery:
            runner = Runner(nursery)
            other = await runner.start(bot_node(0, game, tmp_path, seats=2, **KEEPALIVE))
            thinker = await runner.start(Node(
                Identity.generate("thinker"), AsvRules(), game, tmp_path,
                agent=lambda state, view: bot.choose(state, view).text(),
                options=NodeOptions(**KEEPALIVE), creator=other.identity.fingerprint))
            await thinker.connect(*other.mesh.address)
            other.start(await other.wait_lobby_full())
            try:
                await wait_until(lambda: thinker.thinking and clock.frozen_reads > 0)
                height, state_hash = thinker.height, thinker.session.state_hash()
                reads = clock.frozen_reads
                tighten((other, thinker), TIGHT)
                await trio.sleep(5 * TIGHT)   # a blocked event loop would drop the peers
                assert thinker.thinking and clock.frozen_reads > reads   # still iterating
                assert other.me in thinker.mesh.peer_keys() and thinker.me in other.mesh.peer_keys()
                tighten((other, thinker), KEEPALIVE["peer_timeout"])
                wires = await other.mesh.request_since(thinker.me, 0, timeout=5)
                assert len(wires) == height == thinker.height   # catch-up answered meanwhile
                assert thinker.session.state_hash() == state_hash
                clock.frozen = False    # the answer comes and is written at that height
                await wait_until(lambda: other.height > height)
                assert other.session.chain.events[height].author == thinker.me

                clock.frozen = True     # the next real decision thinks until the game is aborted
                await wait_until(lambda: thinker.thinking and clock.frozen_reads > reads)
                reads = clock.frozen_reads
                await wait_until(lambda: thinker.thinking and clock.frozen_reads > reads)
                due = thinker.height
                await wait_until(lambda: other.height == due)   # it has the thinker's last event
                assert await other.vote_silent()   # two seats: the one vote completes the abort
                await wait_until(lambda: thinker.over)   # the other peer's abort, taken mid-think
            finally:
                clock.frozen = False    # let the worker thread finish
    last = thinker.session.chain.events[-1]
    assert thinker.session.phase == "aborted" and last.kind == ABORT_KIND and last.author == other.me
    assert last.seq == due == thinker.height - 1   # the late answer was dropped, never written
    assert thinker.rejected == [] and other.rejected == []
