"""Meshes of peers over loopback TCP (SPEC §28.5-§28.9)."""
from __future__ import annotations

import struct
from contextlib import AsyncExitStack

import pytest
import trio

from protocol import codec
from protocol.net.framing import EVENT_PREFIX
from protocol.net.secure import TAG_SIZE
from protocol.errors import Equivocation
from protocol.log.events import ZERO_HASH, Chain, MalformedEvent, SignedEvent, sign_event
from protocol.net import (
    DIALER, BadEventWire, CatchupTimeout, ConnectionClosed, FramedStream, FrameTooLarge,
    KeyNotAllowed, MalformedFrame, Mesh, NotConnected, PeerAddress, PeerRefused, PeerTimeout,
    SendQueueFull, UnknownMessageType, handshake, open_mesh,
)
from protocol.crypto import Identity

GAME = bytes(range(16))
IDS = [Identity.from_seed(bytes([i]) * 32, f"p{i}") for i in range(1, 5)]
MALLORY = Identity.from_seed(b"m" * 32, "mallory")
LIMIT = 10.0
FAST = {"keepalive_interval": 0.1, "peer_timeout": 1.0, "handshake_timeout": 2.0}


def allow_ids(*ids):
    keys = {i.public_key_bytes for i in ids}
    return lambda key: key in keys


ALLOWED = allow_ids(*IDS)


class Recorder:
    """Collects what one mesh reports."""

    def __init__(self):
        self.events: list[tuple[bytes, bytes]] = []
        self.up: list[bytes] = []
        self.down: list[tuple[bytes, Exception]] = []
        self.refused: list[Exception] = []

    def options(self):
        return {"on_peer_up": self.up.append, "on_peer_down": lambda k, e: self.down.append((k, e)),
                "on_refused": self.refused.append}

    def on_event(self, peer_key, ev):
        assert isinstance(ev, SignedEvent)   # delivered as the mesh parsed and checked it
        self.events.append((peer_key, ev.wire))

    def wires(self):
        return [w for _, w in self.events]


async def start(stack, identity, rec=None, allowed=ALLOWED, **options):
    rec = rec or Recorder()
    mesh = await stack.enter_async_context(
        open_mesh(identity, GAME, allowed, rec.on_event, **{**FAST, **rec.options(), **options}))
    return mesh, rec


async def wait_until(cond, what="condition"):
    while not cond():
        await trio.sleep(0.01)


def event(identity, seq=0, n=0, prev=ZERO_HASH):
    return sign_event(identity, GAME, seq, prev, "move", {"n": n}).wire


async def full_mesh(stack, **options):
    """(mesh, recorder) of every id in IDS, joined through the first, each connected to all."""
    started = [await start(stack, i, **options) for i in IDS]
    meshes = [m for m, _ in started]
    for m in meshes[1:]:
        await m.connect(*meshes[0].address)
    await wait_until(lambda: full(meshes))
    return started


def full(meshes):
    return all(len(m.peer_keys()) == len(meshes) - 1 for m in meshes)


async def raw_peer(identity, mesh):
    """An authenticated connection driven by hand (to misbehave after the handshake)."""
    stream = await trio.open_tcp_stream(*mesh.address)
    fs = FramedStream(stream)
    await handshake(fs, identity, GAME, role=DIALER, allowed_keys=lambda k: True)
    return fs


async def error_frame(fs):
    """Read until the mesh's error frame (skipping its pings and peers lists)."""
    while True:
        msg = await fs.receive_message()
        if msg["t"] == "error":
            return msg


# ------------------------------------------------------------------------- topology

@pytest.mark.parametrize("n", [3, 4])
async def test_joiners_learn_the_others_and_connect_pairwise(n):
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            meshes = [(await start(stack, IDS[i]))[0] for i in range(n)]
            for m in meshes[1:]:
                assert await m.connect(*meshes[0].address) == IDS[0].public_key_bytes
            await wait_until(lambda: full(meshes))
            for m in meshes:
                assert m.peer_keys() == sorted(o.public_key for o in meshes if o is not m)
            # everyone's address book holds everyone else with the listening port
            last = meshes[-1]
            assert {(a.key, a.port) for a in last.known_peers()} == {
                (o.public_key, o.address[1]) for o in meshes[:-1]}


async def test_broadcast_reaches_everyone_exactly_once():
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            started = await full_mesh(stack)
            meshes = [m for m, _ in started]
            wires = [event(i, n=k) for k, i in enumerate(IDS)]
            for m, w in zip(meshes, wires):
                assert await m.broadcast(w) == 3
            for k, (m, rec) in enumerate(started):
                await wait_until(lambda: len(rec.events) == 3)
            await trio.sleep(0.3)   # room for any duplicate to show up
            for k, (m, rec) in enumerate(started):
                assert sorted(rec.wires()) == sorted(w for j, w in enumerate(wires) if j != k)
                # reported from whichever peer it came from first: never from itself
                assert all(p != m.public_key and p in m.peer_keys() for p, _ in rec.events)


async def test_broadcast_writes_to_the_next_writer_first(monkeypatch):
    """SPEC §28.13: `first` (the peer that writes the next event) gets the frame written
    before the other peers are queued; the writers' order is otherwise the scheduler's
    random one, so 24 broadcasts in a row would each have put another peer
    first about two times in three. No keepalives: a ping queued to the next writer just
    before an event is written ahead of it, and its write's schedule point lets the other
    writers go first (seen once in CI under load, with pings every 0.1 s)."""
    order: list[tuple[int, object]] = []
    real = FramedStream.seal_frame

    def seal_frame(self, frame):   # sealed, then written with no schedule point between
        if frame[4:].startswith(EVENT_PREFIX):   # not the keepalives' pings
            order.append((len(order), self))
        return real(self, frame)

    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            started = await full_mesh(stack, keepalive_interval=60.0, peer_timeout=120.0)
            meshes = [m for m, _ in started]
            sender, rec_of = meshes[0], {m.public_key: rec for m, rec in started}
            streams = {conn.fs: key for key, conn in sender._current.items()}
            monkeypatch.setattr(FramedStream, "seal_frame", seal_frame)
            prev = ZERO_HASH
            for k in range(24):
                first = IDS[1 + k % 3].public_key_bytes
                ev = sign_event(IDS[0], GAME, k, prev, "move", {"n": k})
                prev = ev.hash
                order.clear()
                assert await sender.broadcast(ev, first=first) == 3
                # every copy delivered: no writer is still busy with this one at the next
                await wait_until(lambda: all(len(rec_of[key].events) == k + 1 for key in streams.values()))
                assert [streams[fs] for _, fs in order if fs in streams][0] == first


async def test_deliver_to_gets_each_event_once_in_arrival_order_and_holds_the_reader_when_full():
    """A node's inbox as deliver_to (SPEC §28.13): the reader puts each new event in it, as
    the mesh parsed and checked it, in the order sent; a full channel holds that reader back
    until there is room, and nothing is lost or repeated."""
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            sender, _ = await start(stack, IDS[0])
            send, receive = trio.open_memory_channel(2)
            receiver = await stack.enter_async_context(
                open_mesh(IDS[1], GAME, ALLOWED, None, deliver_to=send, **FAST))
            await receiver.connect(*sender.address)
            await wait_until(lambda: full([sender, receiver]))
            wires, prev = [], ZERO_HASH
            for k in range(6):
                ev = sign_event(IDS[0], GAME, k, prev, "move", {"n": k})
                wires.append(ev.wire)
                prev = ev.hash
                await sender.broadcast(ev.wire)
            await sender.broadcast(wires[2])             # seen before: dropped by its hash
            await trio.sleep(0.2)                         # the reader waits for room meanwhile
            got = [await receive.receive() for _ in wires]
            assert all(isinstance(ev, SignedEvent) for ev in got)
            assert [ev.wire for ev in got] == wires
            await trio.sleep(0.2)
            with pytest.raises(trio.WouldBlock):
                receive.receive_nowait()


async def test_gossip_forwards_through_a_middle_peer():
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            (a, ra), (b, rb), (c, rc) = [await start(stack, i, auto_connect=False) for i in IDS[:3]]
            await a.connect(*b.address)
            await c.connect(*b.address)
            await wait_until(lambda: len(b.peer_keys()) == 2)
            assert a.peer_keys() == [b.public_key] and c.peer_keys() == [b.public_key]
            wire = event(IDS[0])
            await a.send_event(b.public_key, wire)
            await wait_until(lambda: rc.events)
            assert rb.events == [(a.public_key, wire)]
            assert rc.events == [(b.public_key, wire)]     # C got it from B
            await trio.sleep(0.2)
            assert ra.events == [] and len(rc.events) == 1  # no echo back to the author


async def test_an_equivocating_author_is_exposed_to_every_peer():
    # A signs two different events at seq 0 and sends one to B, the other to C.
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            (a, _), (b, rb), (c, rc) = [await start(stack, i) for i in IDS[:3]]
            await b.connect(*c.address)
            await a.connect(*b.address)
            await wait_until(lambda: full([a, b, c]))
            # a and c may dial each other at once and still be settling the tie-break: an
            # event queued on the losing connection goes out on the winner (SPEC §28.6)
            e1, e2 = event(IDS[0], n=1), event(IDS[0], n=2)
            await a.send_event(c.public_key, e2)
            await a.send_event(b.public_key, e1)
            for rec in (rb, rc):
                await wait_until(lambda: len(rec.events) == 2)
                chain = Chain(GAME)
                chain.append(rec.events[0][1])
                with pytest.raises(Equivocation) as info:
                    chain.append(rec.events[1][1])
                assert info.value.author == a.public_key


async def test_broadcast_checks_the_wire():
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            a, _ = await start(stack, IDS[0], max_frame=300)
            with pytest.raises(MalformedEvent):
                await a.broadcast(b"not an event")
            other_game = sign_event(IDS[0], bytes(16), 0, ZERO_HASH, "move", {}).wire
            with pytest.raises(Exception, match="WrongGame"):
                await a.broadcast(other_game)
            big = sign_event(IDS[0], GAME, 0, ZERO_HASH, "move", {"pad": b"x" * 300}).wire
            with pytest.raises(FrameTooLarge) as info:
                await a.broadcast(big)
            assert info.value.side == "local"
            with pytest.raises(NotConnected):
                await a.send_event(IDS[1].public_key_bytes, event(IDS[0]))


# ----------------------------------------------------------------------- robustness

async def three_linked(stack):
    started = [await start(stack, i) for i in IDS[:3]]
    meshes = [m for m, _ in started]
    for m in meshes[1:]:
        await m.connect(*meshes[0].address)
    await wait_until(lambda: full(meshes))
    return started


async def still_working(started, n=0):
    """Every mesh still delivers a fresh broadcast to every other."""
    (a, _), *others = started
    wire = event(IDS[0], n=1000 + n)
    assert await a.broadcast(wire) == len(others)
    for _, rec in others:
        await wait_until(lambda: wire in rec.wires())


@pytest.mark.parametrize("bad, code, cls", [
    (b"\xc1\x00", "malformed", MalformedFrame),                                   # not codec
    (b"\x81\xa1t\xd9\x04ping", "malformed", MalformedFrame),                      # non-canonical str8
    (codec.encode({"t": "gossip"}), "unknown-type", UnknownMessageType),
    (codec.encode({"t": "hello", "v": 1}), "malformed", MalformedFrame),          # handshake-only type
    (codec.encode({"t": "event", "wire": b"junk"}), "bad-event", BadEventWire),
])
async def test_bad_frames_from_an_authenticated_peer_drop_only_that_peer(bad, code, cls):
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            started = await three_linked(stack)
            a, ra = started[0]
            fs = await raw_peer(IDS[3], a)
            await wait_until(lambda: IDS[3].public_key_bytes in a.peer_keys())
            await fs.send_frame(bad)
            reply = await error_frame(fs)
            assert reply["code"] == code
            await wait_until(lambda: ra.down)
            key, err = ra.down[0]
            assert key == IDS[3].public_key_bytes and isinstance(err, cls)
            assert IDS[3].fingerprint in str(err) and err.side == "remote"
            await fs.aclose()
            await still_working(started)
            assert len(ra.down) == 1


async def test_oversized_frame_is_refused_from_its_header():
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            started = await three_linked(stack)
            a, ra = started[0]
            fs = await raw_peer(IDS[3], a)
            # a sealed frame may be the tag's 16 bytes longer than the payload limit (SPEC §28.11)
            too_long = a.max_frame + TAG_SIZE + 1
            await fs.stream.send_all(struct.pack(">I", too_long) + b"x" * 1000)
            reply = await error_frame(fs)
            assert reply["code"] == "too-large" and str(too_long) in reply["msg"]
            await wait_until(lambda: ra.down)
            assert isinstance(ra.down[0][1], FrameTooLarge)
            await fs.aclose()
            await still_working(started)


async def test_garbage_before_the_handshake_and_a_wrong_key_are_refused():
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            started = await three_linked(stack)
            a, ra = started[0]
            raw = await trio.open_tcp_stream(*a.address)
            await raw.send_all(b"\x00\x00\x00\x03GET / HTTP/1.0\r\n\r\n")
            reply = await error_frame(FramedStream(raw))
            assert reply["code"] == "malformed"
            await raw.aclose()
            mallory, _ = await start(stack, MALLORY, allowed=lambda k: True)
            with pytest.raises(PeerRefused) as info:
                await mallory.connect(*a.address)
            assert info.value.code == "key" and MALLORY.fingerprint in info.value.reason
            await wait_until(lambda: len(ra.refused) == 2)
            assert isinstance(ra.refused[0], MalformedFrame) and isinstance(ra.refused[1], KeyNotAllowed)
            assert ra.down == []
            await still_working(started)


async def test_unreachable_address_is_not_connected():
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            a, _ = await start(stack, IDS[0])
            b, _ = await start(stack, IDS[1])
            port = b.address[1]
            b.close()
            await trio.sleep(0.05)
            with pytest.raises(NotConnected) as info:
                await a.connect("127.0.0.1", port)
            assert f"127.0.0.1:{port}" in str(info.value)


# ----------------------------------------------------------------- liveness, reconnect

async def test_idle_peers_stay_connected_by_keepalives():
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            (a, ra), (b, rb) = [await start(stack, i, peer_timeout=0.4) for i in IDS[:2]]
            await b.connect(*a.address)
            await trio.sleep(1.2)    # three timeouts' worth of silence but for the pings
            assert a.peer_keys() == [b.public_key] and ra.down == [] and rb.down == []


async def test_silent_peer_is_dropped_and_named():
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            started = await three_linked(stack)
            a, ra = started[0]
            fs = await raw_peer(IDS[3], a)        # authenticates, then never sends a byte
            await wait_until(lambda: ra.down)
            key, err = ra.down[0]
            assert key == IDS[3].public_key_bytes
            assert isinstance(err, PeerTimeout) and err.peer_key == key and err.seconds == 1.0
            assert IDS[3].fingerprint in str(err) and "silent for more than 1 s" in str(err)
            reply = await error_frame(fs)
            assert reply["code"] == "timeout"
            await fs.aclose()
            await still_working(started)


async def test_a_dropped_peer_is_reported_and_can_reconnect():
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            a, ra = await start(stack, IDS[0])
            async with open_mesh(IDS[1], GAME, ALLOWED, Recorder().on_event, **FAST) as b:
                await b.connect(*a.address)
                await wait_until(lambda: a.peer_keys())
            await wait_until(lambda: ra.down)
            assert ra.down[0][0] == IDS[1].public_key_bytes
            assert isinstance(ra.down[0][1], ConnectionClosed) and a.peer_keys() == []
            b2, rb2 = await start(stack, IDS[1])          # same identity, new process state
            await b2.connect(*a.address)
            await wait_until(lambda: a.peer_keys() == [b2.public_key])
            assert ra.up == [b2.public_key, b2.public_key]
            w1, w2 = event(IDS[0], n=1), event(IDS[1], n=2)
            await a.broadcast(w1)
            await b2.broadcast(w2)
            await wait_until(lambda: rb2.wires() == [w1] and w2 in ra.wires())


async def test_simultaneous_dials_keep_the_connection_dialed_by_the_lower_key():
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            (a, ra), (b, rb) = [await start(stack, i, auto_connect=False) for i in IDS[:2]]

            async def dial(m, other):
                try:
                    await m.connect(*other.address)
                except PeerRefused as err:   # the listener may refuse the loser before "ok"
                    assert err.code == "duplicate"
            async with trio.open_nursery() as n:
                n.start_soon(dial, a, b)
                n.start_soon(dial, b, a)
            lower = min(a.public_key, b.public_key)
            await wait_until(lambda: all(
                len(m._conns) == 1 and m.peer_keys() for m in (a, b)))
            for m in (a, b):
                assert m._current[m.peer_keys()[0]].auth.dialer_key == lower
            w = event(IDS[0])
            await a.broadcast(w)
            await wait_until(lambda: rb.wires() == [w])
            # a redial by the higher key while the winner is live is refused as a duplicate
            hi, lo = (a, b) if a.public_key > b.public_key else (b, a)
            with pytest.raises(PeerRefused) as info:
                await hi.connect(*lo.address)
            assert info.value.code == "duplicate"


# ------------------------------------------------------------------------- catch-up

def history(n):
    wires, prev = [], ZERO_HASH
    for seq in range(n):
        ev = sign_event(IDS[seq % 2], GAME, seq, prev, "move", {"pad": bytes(100)})
        wires.append(ev.wire)
        prev = ev.hash
    return wires


async def test_catch_up_in_several_batches_and_marked_seen():
    log = history(12)
    asked = []

    async def answer(peer_key, from_seq):
        asked.append((peer_key, from_seq))
        await trio.sleep(0)
        return log[from_seq:]

    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            # frames of 700 bytes: about four events per batch
            a, _ = await start(stack, IDS[0], on_catchup_request=answer, max_frame=700)
            b, rb = await start(stack, IDS[1], max_frame=700)
            await b.connect(*a.address)
            got = await b.request_since(a.public_key, 3)
            assert [ev.wire for ev in got] == log[3:] and asked == [(b.public_key, 3)]
            assert await b.request_since(a.public_key, 12) == []
            # gossip of a caught-up event is not delivered again
            await a.broadcast(log[5])
            await a.broadcast(log[0])
            await wait_until(lambda: rb.events)
            assert rb.wires() == [log[0]]


async def test_catch_up_errors():
    async def never(peer_key, from_seq):
        await trio.sleep_forever()

    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            a, _ = await start(stack, IDS[0], on_catchup_request=never)
            b, _ = await start(stack, IDS[1])
            with pytest.raises(NotConnected):
                await b.request_since(a.public_key, 0)
            await b.connect(*a.address)
            with pytest.raises(CatchupTimeout) as info:
                await b.request_since(a.public_key, 0, timeout=0.2)
            assert "not answered within 0.2 s" in str(info.value)
            # without a hook a peer answers with nothing
            c, _ = await start(stack, IDS[2])
            await b.connect(*c.address)
            assert await b.request_since(c.public_key, 0) == []


async def test_an_endless_catch_up_answer_is_cut_at_its_bound(monkeypatch):
    # SPEC §28.8: a peer answering with batch after batch (more = true forever) makes the
    # asker hold at most MAX_ANSWER_BYTES of wires; it gets the first events, in order
    from protocol.net.mesh import catchup
    monkeypatch.setattr(catchup, "MAX_ANSWER_BYTES", 64 << 10)
    wires = [sign_event(IDS[1], GAME, k, ZERO_HASH, "move", {"pad": b"x" * 4000}).wire for k in range(40)]
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            a, _ = await start(stack, IDS[0])
            b = await raw_peer(IDS[1], a)
            await wait_until(lambda: a.peer_keys() == [IDS[1].public_key_bytes])
            got = []

            async def ask():
                got.extend(await a.request_since(IDS[1].public_key_bytes, 0))

            async with trio.open_nursery() as nursery:
                nursery.start_soon(ask)
                while (msg := await b.receive_message())["t"] != "since":
                    pass
                k = 0
                while not got:      # batches of 4 events until the asker stops waiting
                    await b.send_message({"t": "batch", "id": msg["id"], "wires": wires[k % 40:k % 40 + 4],
                                          "more": True})
                    k += 4
                    await trio.sleep(0)
            held = sum(len(ev.wire) for ev in got)
            assert 0 < held <= 64 << 10 and held + len(wires[0]) > 64 << 10
            assert [ev.wire for ev in got] == wires[:len(got)]
            await b.aclose()


async def test_mesh_rejects_bad_settings():
    with pytest.raises(ValueError):
        Mesh(IDS[0], b"short", ALLOWED, lambda k, w: None)
    with pytest.raises(ValueError):
        Mesh(IDS[0], GAME, ALLOWED, lambda k, w: None, keepalive_interval=2.0, peer_timeout=1.0)
    with pytest.raises(RuntimeError):
        Mesh(IDS[0], GAME, ALLOWED, lambda k, w: None).address
    send, _ = trio.open_memory_channel(1)
    with pytest.raises(ValueError):   # on_event or deliver_to: one of them
        Mesh(IDS[0], GAME, ALLOWED, None)
    with pytest.raises(ValueError):
        Mesh(IDS[0], GAME, ALLOWED, lambda k, w: None, deliver_to=send)
    assert PeerAddress(b"k", "h", 1) < PeerAddress(b"l", "h", 1)


async def test_a_peer_that_stops_reading_is_dropped_as_slow_without_stalling_others():
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            started = [await start(stack, i, send_queue=4) for i in IDS[:2]]
            (a, ra), (b, rb) = started
            await b.connect(*a.address)
            fs = await raw_peer(IDS[3], a)           # authenticated, then never reads
            await wait_until(lambda: len(a.peer_keys()) == 2)
            pad = bytes(60000)
            seq = 0
            while not ra.down:
                await a.broadcast(sign_event(IDS[0], GAME, seq, ZERO_HASH, "move", {"pad": pad}).wire)
                await fs.send_message({"t": "ping"})   # stays alive: only its reading is slow
                seq += 1
                await wait_until(lambda: len(rb.events) == seq)   # b keeps up all along
            key, err = ra.down[0]
            assert key == IDS[3].public_key_bytes and isinstance(err, SendQueueFull)
            assert "reads too slowly" in str(err)
            await fs.aclose()
            assert a.peer_keys() == [b.public_key] and rb.down == []


async def test_a_redial_by_the_same_peer_replaces_its_stale_connection():
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            a, ra = await start(stack, IDS[0])
            stale = await raw_peer(IDS[1], a)             # B's old link, gone quiet
            await wait_until(lambda: a.peer_keys() == [IDS[1].public_key_bytes])
            b, rb = await start(stack, IDS[1])
            await b.connect(*a.address)                   # same dialer: the newer one wins
            reply = await error_frame(stale)
            assert reply["code"] == "duplicate"
            await stale.aclose()
            await wait_until(lambda: len(a._conns) == 1)   # the retired one ends when closed
            assert a._current[b.public_key].auth.role == "listener"
            w = event(IDS[1])
            await b.broadcast(w)
            await wait_until(lambda: ra.wires() == [w])
            assert ra.up == [b.public_key] and ra.down == []   # a swap, not a drop


# ------------------------------------------------------ tie-break and queued events

def stall(conn):
    """The link of `conn` stalls: its writer hangs in the first frame it writes."""
    async def stalled(payload):
        await trio.sleep_forever()
    conn.fs.send_frame = stalled


async def events_on(fs, n):
    """The next n event wires a raw peer receives (skipping pings and peers lists)."""
    wires = []
    while len(wires) < n:
        msg = await fs.receive_message()
        assert msg["t"] != "error", f"dropped before {n} events came: {msg}"
        if msg["t"] == "event":
            wires.append(msg["wire"])
    return wires


@pytest.mark.parametrize("first", ["here", "there"])
async def test_events_queued_on_a_connection_that_loses_the_tie_break_go_out_on_the_winner(first):
    # Gossip marks an event seen when it is queued and never sends it again, so what is
    # still queued on a tie-break loser must move to the winner (SPEC §28.6). The old link
    # stalls, so its events are surely unsent when it is retired: here (A sees the redial
    # first), or there (B refuses the old link as its duplicate before the redial lands).
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            a, ra = await start(stack, IDS[0])
            b = IDS[1].public_key_bytes
            old = await raw_peer(IDS[1], a)
            await wait_until(lambda: a.peer_keys() == [b])
            stall(a._current[b])
            wires = [event(IDS[0], n=k) for k in range(4)]
            for w in wires:
                await a.send_event(b, w)
            if first == "there":
                await old.send_message({"t": "error", "code": "duplicate", "msg": "a newer one wins"})
                while a.peer_keys():          # some are queued after the refusal arrived
                    wires.append(event(IDS[0], n=len(wires)))
                    await a.send_event(b, wires[-1])
            new = await raw_peer(IDS[1], a)   # B redials: the newer connection wins
            assert await events_on(new, len(wires)) == wires
            await old.aclose()
            await new.aclose()
