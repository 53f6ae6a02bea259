"""The mesh's per-connection timers (SPEC §28.9, §28.13): a keepalive task and a watchdog
instead of a cancel scope around every frame read and written. On trio's mock clock
(pytest-trio's autojump_clock): virtual seconds, no waiting."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
import trio

from protocol.crypto import Identity
from protocol.net import PeerTimeout
from protocol.net.mesh import Mesh

GAME = bytes(range(16))


def mesh(**options):
    return Mesh(Identity.from_seed(b"t" * 32, "t"), GAME, lambda k: True, lambda k, e: None,
                keepalive_interval=2.0, peer_timeout=10.0, **options)


class Queue:
    def __init__(self, waiting: int) -> None:
        self.waiting, self.sent = waiting, []

    def statistics(self):
        return SimpleNamespace(current_buffer_used=self.waiting)

    def send_nowait(self, item) -> None:
        self.sent.append(item)


def conn(waiting: int):
    return SimpleNamespace(sent=0.0, heard=0.0, handling=False, send=Queue(waiting), retired=False,
                           error=None, key=b"k" * 32, label="peer")


@pytest.mark.parametrize("waiting, pings", [(0, 5), (3, 0)])
async def test_keepalive_pings_an_idle_link_and_never_spins_behind_a_stuck_writer(monkeypatch, waiting, pings, autojump_clock):
    # frames waiting (a writer stuck in a send) mean no ping is needed; the task must then
    # still sleep an interval between looks instead of spinning on a deadline in the past
    wakes = 0
    real = trio.sleep_until

    async def counted(deadline):
        nonlocal wakes
        wakes += 1
        if wakes > 50:
            raise AssertionError("the keepalive task spins")
        await real(deadline)
    monkeypatch.setattr(trio, "sleep_until", counted)
    m, c = mesh(), conn(waiting)
    with trio.move_on_after(10.5):
        await m._keepalive(c)
    assert len(c.send.sent) == pings and wakes <= 7


async def test_the_watchdog_names_a_silent_peer_and_spares_one_being_handled(autojump_clock):
    m = mesh()
    c = conn(0)
    c.handling = True                   # the reader holds a frame: that is not silence
    with trio.move_on_after(30):
        await m._watchdog(c)
    c.handling, c.heard = False, trio.current_time()
    with pytest.raises(PeerTimeout):
        with trio.fail_after(10.5):
            await m._watchdog(c)
