"""Encrypted, authenticated frames after the handshake (SPEC §28.11): a LAN neighbour can
neither read the traffic nor inject, alter, replay or reorder a frame (finding 12 of the
fair-play issue); a connection that sees such a frame ends and the others play on."""
from __future__ import annotations

import hashlib
import hmac
from contextlib import AsyncExitStack

import pytest
import trio
import trio.testing
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from protocol.net import DIALER, LISTENER, FramedStream, PeerRefused, handshake
from protocol.net.errors import ConnectionClosed, FrameAuthError, FrameTooLarge, MalformedFrame
from protocol.net.handshake import key_schedule_hash
from protocol.net.secure import KDF_INFO, Ephemeral, FrameOpener, FrameSealer, derive_keys
from tests.test_mesh import IDS, GAME, event, raw_peer, still_working, three_linked, wait_until

ALICE, BOB = IDS[0], IDS[1]
LIMIT = 10.0


class Tap(trio.abc.Stream):
    """A stream that records every byte written through it and may rewrite them."""

    def __init__(self, inner, seen: bytearray, rewrite=None):
        self.inner, self.seen, self.rewrite = inner, seen, rewrite

    async def send_all(self, data):
        data = bytes(data)
        if self.rewrite is not None:
            data = self.rewrite(data)
        self.seen += data
        await self.inner.send_all(data)

    async def wait_send_all_might_not_block(self):
        await self.inner.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes=None):
        return await self.inner.receive_some(max_bytes)

    async def send_eof(self):
        await self.inner.send_eof()

    async def aclose(self):
        await self.inner.aclose()


async def pair(rewrite_dialer=None, rewrite_listener=None):
    """Run both handshake sides over memory streams; returns (dialer result, listener
    result, bytes the dialer wrote, bytes the listener wrote)."""
    a, b = trio.testing.memory_stream_pair()
    seen_d, seen_l = bytearray(), bytearray()
    fd = FramedStream(Tap(a, seen_d, rewrite_dialer), peer="d")
    fl = FramedStream(Tap(b, seen_l, rewrite_listener), peer="l")
    out = {}

    async def side(name, fs, identity, role):
        try:
            out[name] = await handshake(fs, identity, GAME, role=role, allowed_keys=lambda k: True,
                                        timeout=2.0)
        except Exception as exc:  # noqa: BLE001
            out[name] = exc

    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            n.start_soon(side, "d", fd, ALICE, DIALER)
            n.start_soon(side, "l", fl, BOB, LISTENER)
    return out["d"], out["l"], seen_d, seen_l


async def test_frames_after_the_handshake_are_unreadable_on_the_wire():
    d, l, seen_d, _ = await pair()
    secret = b"the-hand-of-alice-" * 4
    with trio.fail_after(LIMIT):
        await d.stream.send_message({"t": "event", "wire": secret})
        assert (await l.stream.receive_message())["wire"] == secret
    assert secret not in bytes(seen_d) and b"event" not in bytes(seen_d)
    # only the two hellos travel in the clear; "auth" and "ok" are sealed too
    assert b"auth" not in bytes(seen_d)


@pytest.mark.parametrize("offset", [0, 3, 4, 5, 20, -1])
async def test_a_flipped_byte_ends_the_connection(offset):
    d, l, _, _ = await pair()
    frame = d.stream.seal_frame(len(b"\x81\xa1t\xa4ping").to_bytes(4, "big") + b"\x81\xa1t\xa4ping")
    bad = bytearray(frame)
    bad[offset] ^= 0x01
    with trio.fail_after(LIMIT):
        await d.stream.stream.send_all(bytes(bad))
        await d.stream.send_eof()
        # a flipped length byte makes a short or over-long frame; any other flip fails the tag
        expected = FrameAuthError if offset >= 4 or offset < 0 else (
            FrameAuthError, ConnectionClosed, FrameTooLarge)
        with pytest.raises(expected):
            await l.stream.receive_message()


async def test_replayed_and_injected_frames_fail_to_authenticate():
    d, l, _, _ = await pair()
    ping = b"\x81\xa1t\xa4ping"
    frame = d.stream.seal_frame(len(ping).to_bytes(4, "big") + ping)
    with trio.fail_after(LIMIT):
        await d.stream.stream.send_all(frame)
        assert (await l.stream.receive_message()) == {"t": "ping"}
        await d.stream.stream.send_all(frame)                       # the same bytes again
        with pytest.raises(FrameAuthError):
            await l.stream.receive_message()
    d, l, _, _ = await pair()
    with trio.fail_after(LIMIT):                                    # a plaintext frame injected
        await d.stream.stream.send_all(len(ping).to_bytes(4, "big") + ping + bytes(16))
        with pytest.raises(FrameAuthError):
            await l.stream.receive_message()


async def test_a_swapped_ephemeral_key_breaks_the_handshake():
    # a party in the middle replaces the listener's ephemeral key with its own
    mallory = Ephemeral()

    def swap(data: bytes) -> bytes:
        i = data.find(b"\xa3eph\xc4\x20")
        if i < 0:
            return data
        j = i + 6
        return data[:j] + mallory.public + data[j + 32:]

    d, l, _, _ = await pair(rewrite_listener=swap)
    # the dialer's keys differ from the listener's: its first sealed frame does not open
    assert isinstance(d, FrameAuthError)
    assert isinstance(l, (PeerRefused, ConnectionClosed, FrameAuthError)) and not hasattr(l, "peer_key")


async def test_a_low_order_ephemeral_key_is_refused():
    def zero(data: bytes) -> bytes:
        i = data.find(b"\xa3eph\xc4\x20")
        return data if i < 0 else data[:i + 6] + bytes(32) + data[i + 38:]

    d, l, _, _ = await pair(rewrite_dialer=zero)
    assert isinstance(l, MalformedFrame) and "low-order" in str(l)
    assert isinstance(d, PeerRefused) and d.code == "malformed"


def _hkdf_sha256(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    """RFC 5869 written out with hmac, as a check independent of `cryptography`."""
    prk = hmac.new(salt, ikm, hashlib.sha256).digest()
    out, block = b"", b""
    for i in range(1, -(-length // 32) + 1):
        block = hmac.new(prk, block + info + bytes([i]), hashlib.sha256).digest()
        out += block
    return out[:length]


def test_key_schedule_known_answer():
    publics = (GAME, b"D" * 32, b"d" * 32, b"E" * 32, b"L" * 32, b"l" * 32, b"F" * 32)
    salt = key_schedule_hash(*publics)
    # SPEC §28.11: SHA-256(KEYS_DOMAIN ‖ canonical map {v, de, dk, dn, le, lk, ln, game})
    assert salt == hashlib.sha256(
        b"p2p-asv/transport-keys/v2\x00" + b"\x88\xa1v\x03\xa2de\xc4\x20" + b"E" * 32
        + b"\xa2dk\xc4\x20" + b"D" * 32 + b"\xa2dn\xc4\x20" + b"d" * 32 + b"\xa2le\xc4\x20" + b"F" * 32
        + b"\xa2lk\xc4\x20" + b"L" * 32 + b"\xa2ln\xc4\x20" + b"l" * 32 + b"\xa4game\xc4\x10" + GAME).digest()
    okm = _hkdf_sha256(salt, b"\x07" * 32, b"p2p-asv/transport/v2 keys", 64)
    keys_d = derive_keys(b"\x07" * 32, salt, dialer=True)
    keys_l = derive_keys(b"\x07" * 32, salt, dialer=False)
    assert KDF_INFO == b"p2p-asv/transport/v2 keys"
    assert (keys_d.send, keys_d.receive) == (okm[:32], okm[32:])     # dialer -> listener first
    assert (keys_l.send, keys_l.receive) == (okm[32:], okm[:32])
    # frame n is sealed with nonce 0x00000000 ‖ n (8 bytes, big-endian); the header is AAD
    sealer, opener = FrameSealer(keys_d.send), FrameOpener(keys_l.receive)
    sealed = sealer.seal(b"\x00\x00\x00\x17", b"payload")
    assert sealed == ChaCha20Poly1305(okm[:32]).encrypt(bytes(12), b"payload", b"\x00\x00\x00\x17")
    assert opener.open(b"\x00\x00\x00\x18", sealed) is None          # the header is bound
    assert opener.open(b"\x00\x00\x00\x17", sealed) == b"payload"
    assert opener.open(b"\x00\x00\x00\x17", sealed) is None          # counter 1 now: no replay
    second = sealer.seal(b"\x00\x00\x00\x17", b"payload")
    assert second == ChaCha20Poly1305(okm[:32]).encrypt(bytes(11) + b"\x01", b"payload", b"\x00\x00\x00\x17")


async def test_mesh_drops_a_tampering_peer_and_the_rest_play_on():
    with trio.fail_after(LIMIT):
        async with AsyncExitStack() as stack:
            started = await three_linked(stack)
            a, ra = started[0]
            fs = await raw_peer(IDS[3], a)
            await wait_until(lambda: IDS[3].public_key_bytes in a.peer_keys())
            wire = event(IDS[3], n=7)
            frame = bytearray(fs.seal_frame(len(b"x").to_bytes(4, "big") + b"x"))
            frame[-1] ^= 0x80
            await fs.stream.send_all(bytes(frame))
            await wait_until(lambda: ra.down)
            key, err = ra.down[0]
            assert key == IDS[3].public_key_bytes and isinstance(err, FrameAuthError)
            assert err.code == "frame-auth" and IDS[3].fingerprint in str(err)
            assert wire not in ra.wires()
            await fs.aclose()
            await still_working(started)
