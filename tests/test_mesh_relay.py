"""Relays that wait for `have` notices (SPEC §28.13): in a full mesh each event crosses
each link once; a peer without a direct link to the author still gets it through a relay."""
from __future__ import annotations

from contextlib import AsyncExitStack

import trio

from protocol.net.mesh import DEFAULT_RELAY_DELAY
from protocol.net.mesh.relay import MAX_OWED, Relays
from protocol.log.events import ZERO_HASH, sign_event
from protocol.net import NotConnected
from tests.test_mesh import GAME, IDS, LIMIT, event, full, start, wait_until

SETTLE = DEFAULT_RELAY_DELAY + 0.5    # past every relay's delay


async def full_mesh(stack, n=4):
    started = [await start(stack, i, auto_connect=False) for i in IDS[:n]]
    meshes = [m for m, _ in started]
    for i, m in enumerate(meshes):
        for other in meshes[i + 1:]:
            await m.connect(*other.address)
    await wait_until(lambda: full(meshes))
    return started


async def test_in_a_full_mesh_each_event_crosses_each_link_once():
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            started = await full_mesh(stack)
            wires = [event(i, n=k) for k, i in enumerate(IDS)]
            for (m, _), w in zip(started, wires):
                assert await m.broadcast(w) == 3
            for m, rec in started:
                await wait_until(lambda: len(rec.events) == 3)
            await trio.sleep(SETTLE)
            for k, (m, rec) in enumerate(started):
                assert sorted(rec.wires()) == sorted(w for j, w in enumerate(wires) if j != k)
                counts = m.relay_counts()
                # every peer got each event from its author: the two others' `have`s
                # cancelled each relay, and no copy arrived twice (it was three before)
                assert counts == {"relayed": 0, "cancelled": 6, "duplicates": 0, "told": 6}, counts


async def test_a_peer_whose_link_to_the_author_is_cut_gets_its_events_through_a_relay():
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            started = await full_mesh(stack)
            (a, _), (b, rb), (c, rc), (d, rd) = started
            a.disconnect(c.public_key, NotConnected("cut for the test"))
            await wait_until(lambda: c.public_key not in a.peer_keys() and a.public_key not in c.peer_keys())
            wire = event(IDS[0], n=7)
            assert await a.broadcast(wire) == 2            # to B and D only
            await wait_until(lambda: rc.wires() == [wire])
            assert rc.events[0][0] in (b.public_key, d.public_key)   # through a relay
            await trio.sleep(SETTLE)
            assert rc.wires() == [wire] and rb.wires() == [wire] and rd.wires() == [wire]
            assert b.relay_counts()["relayed"] + d.relay_counts()["relayed"] >= 1


async def test_an_event_sent_to_one_peer_reaches_the_others_through_it():
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            (a, ra), (b, rb), (c, rc) = await full_mesh(stack, 3)
            wire = event(IDS[0], n=3)
            await a.send_event(b.public_key, wire)
            await wait_until(lambda: rc.wires() == [wire])
            assert rc.events == [(b.public_key, wire)]
            await trio.sleep(SETTLE)
            assert ra.events == [] and rb.wires() == [wire] and rc.wires() == [wire]


def test_a_have_cancels_only_what_is_owed_to_the_peer_that_sent_it():
    relays = Relays(0.5)
    h1, h2 = b"1" * 32, b"2" * 32
    assert relays.received(h1, "frame1", now=0.0, owe=[b"B", b"C"], tell=[b"B", b"C"]) == []
    relays.received(h2, "frame2", now=0.1, owe=[b"B"], tell=[b"B"])
    # a hostile B claiming to have what C lacks changes nothing for C
    relays.has(b"B", [h1, h2])
    assert relays.due(0.4) == []
    assert relays.due(0.5) == [(b"C", "frame1")]
    assert relays.owed_to(b"B") == 0 and relays.owed_to(b"C") == 0
    assert relays.notices() == [(b"B", [h1, h2]), (b"C", [h1])] and relays.notices() == []
    assert (relays.relayed, relays.cancelled, relays.told) == (1, 2, 3)


def test_an_event_built_on_another_says_its_author_has_that_one():
    relays = Relays(0.5)
    h0 = b"0" * 32
    relays.received(h0, "frame0", now=0.0, owe=[b"B", b"C"], tell=[b"B", b"C"])
    relays.has(b"B", [h0])        # B's next event names h0 as its prev
    relays.implied(b"C", h0)      # and our own next event, built on h0, went to C
    assert relays.due(1.0) == [(b"C", "frame0")]   # C never said it has h0
    assert relays.notices() == [(b"B", [h0])]      # C learns it from our event


async def test_a_chain_of_events_reaches_everyone_once():
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            started = await full_mesh(stack, 3)
            (a, ra), (b, rb), (c, rc) = started
            first = sign_event(IDS[0], GAME, 0, ZERO_HASH, "move", {"n": 0})
            await a.broadcast(first)
            await wait_until(lambda: rb.events and rc.events)
            second = sign_event(IDS[1], GAME, 1, first.hash, "move", {"n": 1})
            await b.broadcast(second)
            await wait_until(lambda: len(ra.events) == 1 and len(rc.events) == 2)
            await trio.sleep(SETTLE)
            assert ra.wires() == [second.wire] and rb.wires() == [first.wire]
            assert rc.wires() == [first.wire, second.wire]
            for m, _ in started:
                assert m.relay_counts()["duplicates"] == 0 and m.relay_counts()["relayed"] == 0


def test_relays_owed_to_a_silent_peer_stay_bounded():
    relays = Relays(60.0)
    early = []
    for i in range(MAX_OWED + 3):
        early += relays.received(i.to_bytes(32, "big"), i, now=0.0, owe=[b"X"], tell=[])
    assert early == [(b"X", 0), (b"X", 1), (b"X", 2)]   # the oldest go out at once
    assert relays.owed_to(b"X") == MAX_OWED
