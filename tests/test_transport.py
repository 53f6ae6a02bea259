"""Frames and transport messages (SPEC §28.1-§28.2, §28.9)."""
from __future__ import annotations

import struct

import pytest
import trio
import trio.testing

from protocol import codec

from protocol.net import (
    ConnectionClosed, FrameTooLarge, MalformedFrame, PeerRefused, TransportError,
    UnknownMessageType, messages,
)
from protocol.net.framing import DEFAULT_MAX_FRAME, FramedStream, decode_message, encode_frame

LIMIT = 5.0


def pair(max_frame=DEFAULT_MAX_FRAME):
    a, b = trio.testing.memory_stream_pair()
    return (FramedStream(a, max_frame=max_frame, peer="A"), FramedStream(b, max_frame=max_frame, peer="B"),
            a, b)


async def test_frame_round_trip_including_empty_and_limit_sized():
    fa, fb, _, _ = pair(max_frame=1000)
    with trio.fail_after(LIMIT):
        for payload in (b"", b"x", bytes(range(256)) * 3, b"\xff" * 1000):
            await fa.send_frame(payload)
            assert await fb.receive_frame() == payload


async def test_frames_split_across_reads_and_merged_in_one_read():
    a, b = trio.testing.lockstep_stream_pair()
    fb = FramedStream(b)
    data = encode_frame(b"hello") + encode_frame(b"world") + encode_frame(b"!")
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            async def dribble():  # one byte at a time: every header and payload is split
                for i in range(len(data)):
                    await a.send_all(data[i:i + 1])
            n.start_soon(dribble)
            assert [await fb.receive_frame() for _ in range(3)] == [b"hello", b"world", b"!"]


def test_header_is_four_bytes_big_endian():
    assert encode_frame(b"abc") == b"\x00\x00\x00\x03abc"
    assert encode_frame(b"\x00" * 258)[:4] == b"\x00\x00\x01\x02"


async def test_sending_over_the_limit_is_a_local_error():
    fa, _, _, _ = pair(max_frame=10)
    with pytest.raises(FrameTooLarge) as info:
        await fa.send_frame(b"x" * 11)
    assert info.value.side == "local" and info.value.size == 11 and info.value.limit == 10
    assert "this side" in str(info.value)


async def test_receiving_over_the_limit_blames_the_peer_from_the_header_alone():
    fa, fb, a, _ = pair(max_frame=10)
    with trio.fail_after(LIMIT):
        await a.send_all(struct.pack(">I", 11))        # only the header: nothing else is needed
        with pytest.raises(FrameTooLarge) as info:
            await fb.receive_frame()
    err = info.value
    assert err.side == "remote" and err.size == 11 and err.limit == 10
    assert "broken by peer B" in str(err) and "11 bytes" in str(err)


async def test_huge_length_prefix_is_refused_not_allocated():
    _, fb, a, _ = pair()
    with trio.fail_after(LIMIT):
        await a.send_all(b"\xff\xff\xff\xff")
        with pytest.raises(FrameTooLarge) as info:
            await fb.receive_frame()
    assert info.value.size == 0xFFFFFFFF


async def test_clean_eof_between_frames():
    fa, fb, a, _ = pair()
    with trio.fail_after(LIMIT):
        await fa.send_frame(b"last")
        await a.send_eof()
        assert await fb.receive_frame() == b"last"
        with pytest.raises(ConnectionClosed) as info:
            await fb.receive_frame()
    assert not info.value.mid_frame and info.value.side == "remote"


@pytest.mark.parametrize("partial", [b"\x00\x00", b"\x00\x00\x00\x05ab"])
async def test_short_read_at_eof_is_mid_frame(partial):
    _, fb, a, _ = pair()
    with trio.fail_after(LIMIT):
        await a.send_all(partial)
        await a.send_eof()
        with pytest.raises(ConnectionClosed) as info:
            await fb.receive_frame()
    assert info.value.mid_frame
    assert "inside a frame" in str(info.value)


async def test_send_on_closed_stream_is_connection_closed():
    fa, _, _, _ = pair()
    await fa.aclose()
    with pytest.raises(ConnectionClosed):
        await fa.send_frame(b"x")


async def test_message_round_trip():
    fa, fb, _, _ = pair()
    msg = {"t": "peers", "peers": [{"key": b"k" * 32, "host": "127.0.0.1", "port": 4000}]}
    with trio.fail_after(LIMIT):
        await fa.send_message(msg)
        got = await fb.receive_message()
    assert got == msg and messages.check(got) is got


@pytest.mark.parametrize("payload, why", [
    (b"", "empty"),
    (b"\xc1", "0xc1"),
    (b"\x81\xa1t\xcc\x05", "non-canonical"),                  # uint8 5: not the smallest form
    (b"\x82\xa1t\xa4ping\xa1a\x01", "canonical order"),       # keys out of order
    (codec.encode([1, 2]), 'map with a str "t"'),
    (codec.encode({"x": 1}), 'map with a str "t"'),
    (codec.encode({"t": 7}), 'map with a str "t"'),
    (codec.encode({"t": "ping"}) + b"\x00", "trailing"),
    (codec.encode({"t": "x", "a": [[[[1]]]]}), "deeper"),
])
def test_malformed_payloads(payload, why):
    with pytest.raises(MalformedFrame) as info:
        decode_message(payload, peer="P")
    assert why in str(info.value) and info.value.code == "malformed"


@pytest.mark.parametrize("msg, cls, why", [
    ({"t": "gossip"}, UnknownMessageType, "unknown message type 'gossip'"),
    ({"t": "ping", "x": 1}, MalformedFrame, "unknown ['x']"),
    ({"t": "event"}, MalformedFrame, "missing ['wire']"),
    ({"t": "event", "wire": "text"}, MalformedFrame, '"wire" must be bin'),
    ({"t": "since", "id": 1, "from": -1}, MalformedFrame, '"from" must be int'),
    ({"t": "since", "id": True, "from": 0}, MalformedFrame, '"id" must be int'),
    ({"t": "batch", "id": 1, "wires": [b"a", "b"], "more": False}, MalformedFrame, "list of bin"),
    ({"t": "batch", "id": 1, "wires": [], "more": 0}, MalformedFrame, '"more" must be bool'),
    ({"t": "hello", "v": 1, "game": b"g" * 15, "key": b"k" * 32, "nonce": b"n" * 32, "eph": b"e" * 32, "port": 0},
     MalformedFrame, "bin of 16 or 32 bytes"),
    ({"t": "hello", "v": 1, "game": b"g" * 16, "key": b"k" * 32, "nonce": b"n" * 32, "eph": b"e" * 32,
          "port": 70000},
     MalformedFrame, '"port"'),
    ({"t": "peers", "peers": [{"key": b"k" * 32, "host": "h", "port": 0}]}, MalformedFrame, '"peers"'),
    ({"t": "peers", "peers": [{"key": b"k" * 32, "host": "h"}]}, MalformedFrame, '"peers"'),
    ({"t": "error", "code": "x" * 33, "msg": ""}, MalformedFrame, '"code"'),
])
def test_message_schemas(msg, cls, why):
    with pytest.raises(cls) as info:
        messages.check(msg)
    assert why in str(info.value)
    assert type(info.value) is cls


def test_every_schema_accepts_a_well_formed_example():
    examples = {
        "hello": {"v": 1, "game": b"g" * 32, "key": b"k" * 32, "nonce": b"n" * 32, "eph": b"e" * 32,
                  "port": 65535},
        "auth": {"sig": b"s" * 64}, "ok": {}, "error": {"code": "key", "msg": "no"}, "ping": {},
        "event": {"wire": b"w"}, "peers": {"peers": []}, "since": {"id": 0, "from": 12},
        "batch": {"id": 3, "wires": [b"a", b"b"], "more": True},
        "join": {"creator": "ABCD-EFGH-IJKL-MNOP"}, "have": {"hashes": [b"h" * 32]},
    }
    assert sorted(examples) == sorted(messages.SCHEMAS)
    for t, fields in examples.items():
        msg = {"t": t, **fields}
        assert decode_message(codec.encode(msg)) == msg
        messages.check(msg)


@pytest.mark.parametrize("hashes", [[], [b"h" * 31], [b"h" * 32] * (messages.MAX_HAVE + 1), [b"h" * 32, "x"]])
def test_a_have_message_names_one_to_max_have_event_hashes(hashes):
    # SPEC §28.13: anything else is a malformed frame, and drops the peer that sent it
    with pytest.raises(MalformedFrame):
        messages.check({"t": "have", "hashes": hashes})


async def test_send_error_and_close_delivers_the_error_frame():
    fa, fb, _, _ = pair()
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            n.start_soon(fa.send_error_and_close, MalformedFrame("bad thing"))
            got = await fb.receive_message()
            await fb.aclose()
    assert got == {"t": "error", "code": "malformed", "msg": "bad thing"}
    with pytest.raises(ConnectionClosed):
        await fa.send_frame(b"after close")


def test_error_family_and_sides():
    for err in (FrameTooLarge(5, 4), ConnectionClosed("x"), UnknownMessageType("x"), PeerRefused("key", "no")):
        assert isinstance(err, TransportError)
    refused = PeerRefused("key", "your key is not allowed", peer="ABCD")
    assert refused.code == "key" and refused.reason == "your key is not allowed"
    assert "[key] your key is not allowed" in str(refused) and "peer ABCD" in str(refused)


@pytest.mark.parametrize("size", [0, 1, 200, 255, 256, 1000, 0xFFFF, 0x10000, 70000])
def test_an_event_frame_is_the_codec_map_written_and_read_the_short_way(size):
    """Event frames skip the general codec both ways (issue 23); the bytes and the map are
    the codec's own, at every bin header width."""
    from protocol.net.framing import event_frame
    wire = bytes(range(256)) * (size // 256) + bytes(size % 256)
    payload = codec.encode({"t": "event", "wire": wire})
    assert event_frame(wire) == payload
    got = decode_message(payload)
    assert got == {"t": "event", "wire": wire} and type(got["wire"]) is bytes


@pytest.mark.parametrize("payload", [
    codec.encode({"t": "event", "wire": b""})[:-2] + b"\xc5\x00\x03abc",          # bin16 for 3 bytes
    codec.encode({"t": "event", "wire": b""})[:-2] + b"\xc6\x00\x00\x01\x00" + bytes(256),   # bin32 for 256
    codec.encode({"t": "event", "wire": b"abc"}) + b"\x00",                        # a trailing byte
    codec.encode({"t": "event", "wire": b"abc"})[:-1],                             # one byte short
    codec.encode({"t": "event", "wire": b""})[:-2] + b"\xc5\x01",                  # a cut header
    codec.encode({"t": "event", "wire": b""})[:-2] + b"\xa3abc",                   # a str, not a bin
])
def test_a_near_event_frame_is_read_as_the_general_decoder_reads_it(payload):
    try:
        expected = codec.decode(payload, max_depth=3)
    except codec.CodecError as exc:
        with pytest.raises(MalformedFrame) as short:
            decode_message(payload)
        assert exc.reason in str(short.value)
    else:   # a str "wire": a map, refused by the schema check (messages.check)
        assert decode_message(payload) == expected == {"t": "event", "wire": "abc"}
