"""Mutual authentication and every refusal (SPEC §28.4, §28.9)."""
from __future__ import annotations

import hashlib

import pytest
import trio
import trio.testing

from protocol import codec
from protocol.net import (
    DIALER, HANDSHAKE_DOMAIN, LISTENER, TRANSPORT_VERSION, DuplicateConnection, FramedStream,
    HandshakeSignatureError, HandshakeTimeout, KeyNotAllowed, MalformedFrame, NonceCache,
    PeerRefused, ReplayedNonce, UnknownGame, VersionMismatch, handshake, transcript,
)
from protocol.crypto import Identity
from protocol.net.handshake import key_schedule_hash
from protocol.net.secure import Ephemeral, derive_keys

GAME = bytes(range(16))
ALICE = Identity.from_seed(b"a" * 32, "alice")
BOB = Identity.from_seed(b"b" * 32, "bob")
MALLORY = Identity.from_seed(b"m" * 32, "mallory")
LIMIT = 5.0


def allow(*ids):
    keys = {i.public_key_bytes for i in ids}
    return lambda key: key in keys


def streams():
    a, b = trio.testing.memory_stream_pair()
    return FramedStream(a, peer="dialer-end"), FramedStream(b, peer="listener-end")


async def run_both(dial_kwargs, listen_kwargs):
    """Run a dialer and a listener; return (result or exception) for each."""
    fd, fl = streams()
    out = {}

    async def side(name, fs, kwargs):
        try:
            out[name] = await handshake(fs, **kwargs)
        except Exception as exc:  # noqa: BLE001 - the test inspects it
            out[name] = exc

    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            n.start_soon(side, "dialer", fd, {"role": DIALER, **dial_kwargs})
            n.start_soon(side, "listener", fl, {"role": LISTENER, **listen_kwargs})
    return out["dialer"], out["listener"]


def kw(identity, game=GAME, allowed=None, **more):
    return {"identity": identity, "game": game, "allowed_keys": allowed or allow(ALICE, BOB), **more}


async def test_success_both_sides_learn_each_other():
    d, l = await run_both(kw(ALICE, listen_port=4001), kw(BOB, listen_port=4002))
    assert d.peer_key == BOB.public_key_bytes and l.peer_key == ALICE.public_key_bytes
    assert d.role == DIALER and l.role == LISTENER
    assert d.peer_port == 4002 and l.peer_port == 4001
    assert d.conn_id == l.conn_id and len(d.conn_id) == 32
    assert d.dialer_key == l.dialer_key == ALICE.public_key_bytes
    assert d.peer_fingerprint == BOB.fingerprint and l.peer_fingerprint == ALICE.fingerprint
    # the connection still carries frames afterwards
    with trio.fail_after(LIMIT):
        await d.stream.send_message({"t": "ping"})
        assert await l.stream.receive_message() == {"t": "ping"}


async def test_async_allowed_keys_callback():
    async def allowed(key):
        await trio.sleep(0)
        return key in (ALICE.public_key_bytes, BOB.public_key_bytes)
    d, l = await run_both(kw(ALICE, allowed=allowed), kw(BOB, allowed=allowed))
    assert d.peer_key == BOB.public_key_bytes and l.peer_key == ALICE.public_key_bytes


async def test_wrong_key_refused_with_clear_message_to_the_dialer():
    d, l = await run_both(kw(MALLORY), kw(BOB, allowed=allow(ALICE)))
    assert isinstance(l, KeyNotAllowed) and MALLORY.fingerprint in str(l)
    assert isinstance(d, PeerRefused) and d.code == "key"
    assert d.reason == f"key {MALLORY.fingerprint} is not allowed in this game"


async def test_dialer_refuses_a_listener_with_the_wrong_key():
    d, l = await run_both(kw(ALICE, expect_key=BOB.public_key_bytes), kw(MALLORY, allowed=allow(ALICE)))
    assert isinstance(d, KeyNotAllowed) and f"expected key {BOB.fingerprint}" in str(d)
    assert isinstance(l, PeerRefused) and l.code == "key" and MALLORY.fingerprint in l.reason


async def test_unknown_game_refused():
    other = bytes(range(1, 17))
    d, l = await run_both(kw(ALICE, game=other), kw(BOB))
    assert isinstance(l, UnknownGame)
    assert isinstance(d, PeerRefused) and d.code == "game" and other.hex() in d.reason


async def test_a_connection_to_itself_is_refused():
    d, l = await run_both(kw(ALICE), kw(ALICE))
    assert isinstance(l, KeyNotAllowed) and "own key" in str(l)
    assert isinstance(d, PeerRefused) and d.code == "key"


async def test_admit_hook_refuses_a_duplicate_before_ok():
    def admit(key, conn_id):
        return DuplicateConnection("already connected")
    d, l = await run_both(kw(ALICE), kw(BOB, admit=admit))
    assert isinstance(l, DuplicateConnection)
    assert isinstance(d, PeerRefused) and d.code == "duplicate" and d.reason == "already connected"


# ---------------------------------------------------------------- hand-made peers

def hello(identity, nonce, eph=None, *, v=TRANSPORT_VERSION, game=GAME, port=0):
    eph = eph or Ephemeral()
    return {"t": "hello", "v": v, "game": game, "key": identity.public_key_bytes, "nonce": nonce,
            "eph": eph.public, "port": port}


def secure(fs, eph, publics, *, dialer):
    """The hand-made side switches to sealed frames as a real one does (SPEC §28.11)."""
    peer_eph = publics[6] if dialer else publics[3]
    keys = derive_keys(eph.exchange(peer_eph), key_schedule_hash(*publics), dialer=dialer)
    fs.secure_sending(keys.send)
    fs.secure_receiving(keys.receive)


async def raw_vs(role, script, **kwargs):
    """`script(raw_stream)` plays the other side by hand against a real `role` side.
    Returns (real side's exception or result, what the script returned)."""
    fa, fb = streams()
    out = {}

    async def real():
        try:
            out["real"] = await handshake(fa, role=role, **kw(BOB, **kwargs))
        except Exception as exc:  # noqa: BLE001
            out["real"] = exc

    async def fake():
        out["fake"] = await script(fb)
        await fb.aclose()   # lets the real side stop lingering for more bytes

    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            n.start_soon(real)
            n.start_soon(fake)
    return out["real"], out["fake"]


async def test_wrong_version_refused_with_the_supported_version():
    async def script(fs):
        await fs.send_message({"t": "hello", "v": 4, "future": "field"})
        return await fs.receive_message()
    real, reply = await raw_vs(LISTENER, script)
    assert isinstance(real, VersionMismatch)
    assert reply["t"] == "error" and reply["code"] == "version"
    assert reply["msg"] == "transport version 4 is not supported; this peer speaks version 3"


async def test_bad_dialer_signature_refused():
    dn = b"\x01" * 32

    async def script(fs):
        eph = Ephemeral()
        await fs.send_message(hello(ALICE, dn, eph))
        their = await fs.receive_message()
        publics = (GAME, ALICE.public_key_bytes, dn, eph.public, their["key"], their["nonce"], their["eph"])
        secure(fs, eph, publics, dialer=True)
        await fs.receive_message()                      # their auth
        # reflect: sign the listener's transcript instead of the dialer's
        t = transcript(LISTENER, *publics)
        await fs.send_message({"t": "auth", "sig": ALICE.sign(t)})
        return await fs.receive_message()
    real, reply = await raw_vs(LISTENER, script)
    assert isinstance(real, HandshakeSignatureError)
    assert reply["code"] == "signature" and ALICE.fingerprint in reply["msg"]


async def test_bad_listener_signature_refused():
    async def script(fs):
        theirs = await fs.receive_message()
        ln = b"\x02" * 32
        eph = Ephemeral()
        await fs.send_message(hello(ALICE, ln, eph))
        publics = (GAME, theirs["key"], theirs["nonce"], theirs["eph"], ALICE.public_key_bytes, ln, eph.public)
        secure(fs, eph, publics, dialer=False)
        # signed by Mallory though the hello says Alice
        t = transcript(LISTENER, *publics)
        await fs.send_message({"t": "auth", "sig": MALLORY.sign(t)})
        return await fs.receive_message()
    real, reply = await raw_vs(DIALER, script)
    assert isinstance(real, HandshakeSignatureError) and "listener" in str(real)
    assert reply == {"t": "error", "code": "signature", "msg": real.reason}


async def test_replayed_hello_nonce_refused():
    cache = NonceCache()
    nonce = b"\x03" * 32

    async def honest(fs):
        eph = Ephemeral()
        await fs.send_message(hello(ALICE, nonce, eph))
        their = await fs.receive_message()
        publics = (GAME, ALICE.public_key_bytes, nonce, eph.public, their["key"], their["nonce"], their["eph"])
        secure(fs, eph, publics, dialer=True)
        await fs.receive_message()
        t = transcript(DIALER, *publics)
        await fs.send_message({"t": "auth", "sig": ALICE.sign(t)})
        return await fs.receive_message()

    async def replay(fs):
        await fs.send_message(hello(ALICE, nonce))
        return await fs.receive_message()

    real, reply = await raw_vs(LISTENER, honest, nonces=cache)
    assert reply == {"t": "ok"} and real.peer_key == ALICE.public_key_bytes
    real, reply = await raw_vs(LISTENER, replay, nonces=cache)
    assert isinstance(real, ReplayedNonce)
    assert reply["code"] == "nonce" and "replayed" in reply["msg"]


async def test_reflected_nonce_refused_by_the_dialer():
    async def script(fs):
        theirs = await fs.receive_message()
        await fs.send_message(hello(ALICE, theirs["nonce"]))   # echo the dialer's own nonce
        return await fs.receive_message()
    real, reply = await raw_vs(DIALER, script)
    assert isinstance(real, ReplayedNonce) and reply["code"] == "nonce"


async def test_malformed_and_unexpected_frames_refused():
    async def garbage(fs):
        await fs.send_frame(b"\xc1not codec")
        return await fs.receive_message()

    async def early_ping(fs):
        await fs.send_message({"t": "ping"})
        return await fs.receive_message()

    real, reply = await raw_vs(LISTENER, garbage)
    assert isinstance(real, MalformedFrame) and reply["code"] == "malformed"
    real, reply = await raw_vs(LISTENER, early_ping)
    assert isinstance(real, MalformedFrame) and reply["msg"] == 'handshake expected "hello", got "ping"'


async def test_silent_peer_times_out_and_is_told():
    async def silent(fs):
        return await fs.receive_message()
    real, reply = await raw_vs(LISTENER, silent, timeout=0.2)
    assert isinstance(real, HandshakeTimeout)
    assert reply["code"] == "timeout" and "0.2 s" in reply["msg"]


def test_transcript_bytes_and_roles():
    args = (GAME, b"D" * 32, b"d" * 32, b"E" * 32, b"L" * 32, b"l" * 32, b"F" * 32)
    t = transcript(DIALER, *args)
    assert t.startswith(HANDSHAKE_DOMAIN) and HANDSHAKE_DOMAIN == b"p2p-asv/handshake/v2\x00"
    assert codec.decode(t[len(HANDSHAKE_DOMAIN):]) == {
        "v": 3, "game": GAME, "role": "dialer", "dk": b"D" * 32, "dn": b"d" * 32, "de": b"E" * 32,
        "lk": b"L" * 32, "ln": b"l" * 32, "le": b"F" * 32}
    assert transcript(LISTENER, *args) != t
    # a known answer, so that another implementation can check its bytes (SPEC §28.4)
    assert hashlib.sha256(t).hexdigest() == hashlib.sha256(
        HANDSHAKE_DOMAIN + b"\x89\xa1v\x03\xa2de\xc4\x20" + b"E" * 32 + b"\xa2dk\xc4\x20" + b"D" * 32
        + b"\xa2dn\xc4\x20" + b"d" * 32 + b"\xa2le\xc4\x20" + b"F" * 32
        + b"\xa2lk\xc4\x20" + b"L" * 32 + b"\xa2ln\xc4\x20" + b"l" * 32 + b"\xa4game\xc4\x10" + GAME
        + b"\xa4role\xa6dialer").hexdigest()
    with pytest.raises(ValueError):
        transcript("observer", *args)
