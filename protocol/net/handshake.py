"""Mutual authentication of two peers by their identity keys, then keys for encrypted
frames (SPEC §28.4, §28.11).

    dialer   -> listener : hello {v, game, key, nonce, eph, port}
    listener -> dialer   : hello {v, game, key, nonce, eph, port}
    -------- from here on every frame is sealed (ChaCha20-Poly1305) --------
    listener -> dialer   : auth {sig}
    dialer   -> listener : auth {sig}
    listener -> dialer   : ok {}

Each `sig` is the sender's Ed25519 signature over `transcript(role, ...)`: a domain tag
and a canonical map of both identity keys, both nonces, both ephemeral X25519 keys, the
game id, the version and the signer's role. So a signature answers this connection's
fresh nonces and ephemeral keys only, cannot be reflected (the role differs) or moved to
another game, and a party in the middle that swapped an ephemeral key cannot sign for it.
The frame keys come from the X25519 secret and the hash of the public transcript. Any
refusal is sent to the other side as an error frame before closing.
"""
from __future__ import annotations

import hashlib
import inspect
import os
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import trio

from protocol import codec

from protocol.net import messages
from protocol.errors import BadSignature
from protocol.net.framing import FramedStream
from protocol.net.secure import ChannelKeys, Ephemeral, derive_keys
from protocol.crypto import Identity, WeakPublicKey, check_public_key, fingerprint, verify
from protocol.net.errors import (
    HandshakeSignatureError, HandshakeTimeout, KeyNotAllowed, MalformedFrame, PeerRefused,
    ReplayedNonce, TransportError, UnknownGame, VersionMismatch,
)

__all__ = [
    "handshake", "transcript", "Authenticated", "NonceCache", "HANDSHAKE_DOMAIN",
    "TRANSPORT_VERSION", "DIALER", "LISTENER", "DEFAULT_HANDSHAKE_TIMEOUT", "AllowedKeys",
    "key_schedule_hash", "KEYS_DOMAIN", "WATCH_DOMAIN", "watch_id", "AdmitSpectator",
]

HANDSHAKE_DOMAIN = b"p2p-asv/handshake/v2\x00"
KEYS_DOMAIN = b"p2p-asv/transport-keys/v2\x00"
TRANSPORT_VERSION = 3
DIALER = "dialer"
LISTENER = "listener"
DEFAULT_HANDSHAKE_TIMEOUT = 10.0
WATCH_DOMAIN = b"p2p-asv/watch/v1\x00"

# True admits; False or a TransportError (its words sent to the peer) refuses
AllowedKeys = Callable[[bytes], "bool | TransportError | Awaitable[bool | TransportError]"]
# Called by the listener once the dialer is authenticated, before "ok": an error refuses.
Admit = Callable[[bytes, bytes], "TransportError | None"]
# Called by the listener for a spectator's key (SPEC §29.16): an error refuses it.
AdmitSpectator = Callable[[bytes], "TransportError | None"]


def watch_id(game: bytes) -> bytes:
    """The id a spectator presents instead of the game id (SPEC §29.16): SHA-256 of a domain
    tag and the game id. It names the game without revealing the id a player must present."""
    return hashlib.sha256(WATCH_DOMAIN + bytes(game)).digest()


def _public_values(game: bytes, dialer_key: bytes, dialer_nonce: bytes, dialer_eph: bytes,
                   listener_key: bytes, listener_nonce: bytes, listener_eph: bytes) -> dict:
    return {
        "v": TRANSPORT_VERSION, "game": bytes(game),
        "dk": bytes(dialer_key), "dn": bytes(dialer_nonce), "de": bytes(dialer_eph),
        "lk": bytes(listener_key), "ln": bytes(listener_nonce), "le": bytes(listener_eph),
    }


def transcript(role: str, game: bytes, dialer_key: bytes, dialer_nonce: bytes, dialer_eph: bytes,
               listener_key: bytes, listener_nonce: bytes, listener_eph: bytes) -> bytes:
    """The bytes a peer in `role` signs (SPEC §28.4):
    HANDSHAKE_DOMAIN ‖ encode({"de", "dk", "dn", "game", "le", "lk", "ln", "role", "v"})."""
    if role not in (DIALER, LISTENER):
        raise ValueError(f"role must be {DIALER!r} or {LISTENER!r}")
    values = _public_values(game, dialer_key, dialer_nonce, dialer_eph,
                            listener_key, listener_nonce, listener_eph)
    return HANDSHAKE_DOMAIN + codec.encode({**values, "role": role})


def key_schedule_hash(game: bytes, dialer_key: bytes, dialer_nonce: bytes, dialer_eph: bytes,
                      listener_key: bytes, listener_nonce: bytes, listener_eph: bytes) -> bytes:
    """SHA-256(KEYS_DOMAIN ‖ encode(the same map without "role")): the HKDF salt (§28.11)."""
    values = _public_values(game, dialer_key, dialer_nonce, dialer_eph,
                            listener_key, listener_nonce, listener_eph)
    return hashlib.sha256(KEYS_DOMAIN + codec.encode(values)).digest()


class NonceCache:
    """Nonces seen by this process, own and received, oldest forgotten first. A hello whose
    nonce is in the cache is a replay (or a reflection of our own nonce)."""

    def __init__(self, capacity: int = 65536) -> None:
        self.capacity = capacity
        self._seen: OrderedDict[bytes, None] = OrderedDict()

    def __contains__(self, nonce: bytes) -> bool:
        return nonce in self._seen

    def add(self, nonce: bytes) -> None:
        self._seen[bytes(nonce)] = None
        while len(self._seen) > self.capacity:
            self._seen.popitem(last=False)


@dataclass
class Authenticated:
    """An authenticated connection: the framed stream and what the handshake proved."""

    stream: FramedStream
    role: str                 # our role: DIALER or LISTENER
    local_key: bytes
    peer_key: bytes
    peer_port: int            # the peer's advertised listening port, 0 if it does not listen
    conn_id: bytes            # SHA-256(dialer nonce ‖ listener nonce): the same on both sides
    spectator: bool = False   # the listener's view: the dialer presented the watch id (§29.16)

    @property
    def peer_fingerprint(self) -> str:
        return fingerprint(self.peer_key)

    @property
    def dialer_key(self) -> bytes:
        return self.local_key if self.role == DIALER else self.peer_key


async def _allowed(allowed_keys: AllowedKeys, key: bytes) -> "bool | TransportError":
    """True, False, or the refusal itself (a TransportError in words the peer reads)."""
    result = allowed_keys(key)
    if inspect.isawaitable(result):
        result = await result
    return result if isinstance(result, TransportError) else bool(result)


async def _receive(fs: FramedStream, expected: str) -> dict[str, Any]:
    msg = await fs.receive_message()
    kind = msg["t"]
    if kind == "hello" and expected == "hello":
        v = msg.get("v")
        if isinstance(v, int) and not isinstance(v, bool) and v != TRANSPORT_VERSION:
            # checked before the fields: another version may have other fields
            raise VersionMismatch(f"transport version {v} is not supported; this peer speaks "
                                  f"version {TRANSPORT_VERSION}", peer=fs.peer)
    messages.check(msg, peer=fs.peer)
    if kind == "error":
        raise PeerRefused(msg["code"], msg["msg"], peer=fs.peer)
    if kind != expected:
        raise MalformedFrame(f'handshake expected "{expected}", got "{kind}"', peer=fs.peer)
    return msg


async def _check_hello(msg: dict[str, Any], fs: FramedStream, game: bytes, own_key: bytes,
                       allowed_keys: AllowedKeys | None, nonces: NonceCache,
                       expect_key: bytes | None) -> None:
    key = msg["key"]
    fs.peer = f"{fingerprint(key)}" + (f"@{fs.peer}" if fs.peer else "")
    if msg["game"] != game:
        raise UnknownGame(f"game id {msg['game'].hex()} is not known here", peer=fs.peer)
    try:
        check_public_key(key)
    except WeakPublicKey as exc:  # anyone could answer the challenge for a small-order key
        raise KeyNotAllowed(f"the peer's key is refused: {exc}", peer=fs.peer) from None
    if key == own_key:
        raise KeyNotAllowed("the peer presented this peer's own key (a connection to itself?)", peer=fs.peer)
    if expect_key is not None and key != expect_key:
        raise KeyNotAllowed(f"expected key {fingerprint(expect_key)}, the peer has key "
                            f"{fingerprint(key)}", peer=fs.peer)
    verdict = True if allowed_keys is None else await _allowed(allowed_keys, key)
    if isinstance(verdict, TransportError):
        verdict.peer = verdict.peer or fs.peer
        raise verdict
    if not verdict:
        raise KeyNotAllowed(f"key {fingerprint(key)} is not allowed in this game", peer=fs.peer)
    if msg["nonce"] in nonces:
        raise ReplayedNonce("handshake nonce was seen before (a replayed hello)", peer=fs.peer)
    nonces.add(msg["nonce"])


def _verify(fs: FramedStream, key: bytes, message: bytes, sig: bytes, role: str) -> None:
    try:
        verify(key, message, sig)
    except BadSignature:
        raise HandshakeSignatureError(f"the {role}'s handshake signature does not verify for key "
                                      f"{fingerprint(key)}", peer=fs.peer) from None


async def handshake(fs: FramedStream, identity: Identity, game: bytes, *, role: str,
                    allowed_keys: AllowedKeys, nonces: NonceCache | None = None,
                    listen_port: int = 0, expect_key: bytes | None = None,
                    admit: Admit | None = None, admit_spectator: AdmitSpectator | None = None,
                    timeout: float = DEFAULT_HANDSHAKE_TIMEOUT) -> Authenticated:
    """Run the handshake as `role` (DIALER or LISTENER). On success return Authenticated;
    on any failure send an error frame if possible, close the stream, and raise the
    TransportError (PeerRefused when the other side refused us).

    A listener given `admit_spectator` also accepts a dialer whose hello presents
    `watch_id(game)` instead of `game` (SPEC §29.16): its key need not be allowed, the
    whole handshake is then bound to the watch id, and the result says `spectator`."""
    if role not in (DIALER, LISTENER):
        raise ValueError(f"role must be {DIALER!r} or {LISTENER!r}")
    nonces = nonces if nonces is not None else NonceCache()
    game = bytes(game)
    try:
        with trio.fail_after(timeout):
            if role == DIALER:
                return await _dial(fs, identity, game, allowed_keys, nonces, listen_port, expect_key)
            return await _listen(fs, identity, game, allowed_keys, nonces, listen_port, admit,
                                 admit_spectator)
    except trio.TooSlowError:
        err = HandshakeTimeout(f"handshake not finished within {timeout:g} s", peer=fs.peer)
        await fs.send_error_and_close(err)
        raise err from None
    except PeerRefused:
        await fs.aclose()
        raise
    except TransportError as err:
        if err.side == "remote" and err.code != "closed":
            await fs.send_error_and_close(err)
        else:
            await fs.aclose()
        raise
    except BaseException:
        await fs.aclose()
        raise


def _hello(identity: Identity, game: bytes, nonce: bytes, eph: bytes, port: int) -> dict[str, Any]:
    return {"t": "hello", "v": TRANSPORT_VERSION, "game": game,
            "key": identity.public_key_bytes, "nonce": nonce, "eph": eph, "port": port}


def _channel_keys(fs: FramedStream, ephemeral: Ephemeral, peer_eph: bytes, salt: bytes, *,
                  dialer: bool) -> ChannelKeys:
    """The connection's frame keys (SPEC §28.11). A low-order ephemeral key is refused:
    with it a third party would know the shared secret."""
    try:
        shared = ephemeral.exchange(peer_eph)
    except ValueError:
        raise MalformedFrame("the peer's ephemeral key is a low-order X25519 point",
                             peer=fs.peer) from None
    return derive_keys(shared, salt, dialer=dialer)


def _secure(fs: FramedStream, keys: ChannelKeys, *, dialer: bool) -> None:
    fs.secure_sending(keys.send)
    # the listener's next frame may be a plaintext refusal of its own hello
    fs.secure_receiving(keys.receive, plain_error_first=not dialer)


async def _dial(fs, identity, game, allowed_keys, nonces, port, expect_key) -> Authenticated:
    dn = os.urandom(messages.NONCE_SIZE)
    nonces.add(dn)
    dk = identity.public_key_bytes
    eph = Ephemeral()
    await fs.send_message(_hello(identity, game, dn, eph.public, port))
    hello = await _receive(fs, "hello")
    await _check_hello(hello, fs, game, dk, allowed_keys, nonces, expect_key)
    lk, ln, le = hello["key"], hello["nonce"], hello["eph"]
    publics = (game, dk, dn, eph.public, lk, ln, le)
    _secure(fs, _channel_keys(fs, eph, le, key_schedule_hash(*publics), dialer=True), dialer=True)
    auth = await _receive(fs, "auth")
    _verify(fs, lk, transcript(LISTENER, *publics), auth["sig"], LISTENER)
    await fs.send_message({"t": "auth", "sig": identity.sign(transcript(DIALER, *publics))})
    await _receive(fs, "ok")
    return Authenticated(fs, DIALER, dk, lk, hello["port"], hashlib.sha256(dn + ln).digest())


async def _listen(fs, identity, game, allowed_keys, nonces, port, admit, admit_spectator) -> Authenticated:
    hello = await _receive(fs, "hello")
    lk = identity.public_key_bytes
    spectator = admit_spectator is not None and hello.get("game") == watch_id(game)
    if spectator:
        game = watch_id(game)       # the spectator never learns the game id from the handshake
    await _check_hello(hello, fs, game, lk, None if spectator else allowed_keys, nonces, None)
    dk, dn, de = hello["key"], hello["nonce"], hello["eph"]
    ln = os.urandom(messages.NONCE_SIZE)
    nonces.add(ln)
    eph = Ephemeral()
    publics = (game, dk, dn, de, lk, ln, eph.public)
    keys = _channel_keys(fs, eph, de, key_schedule_hash(*publics), dialer=False)
    await fs.send_message(_hello(identity, game, ln, eph.public, port))
    _secure(fs, keys, dialer=False)
    await fs.send_message({"t": "auth", "sig": identity.sign(transcript(LISTENER, *publics))})
    auth = await _receive(fs, "auth")
    _verify(fs, dk, transcript(DIALER, *publics), auth["sig"], DIALER)
    conn_id = hashlib.sha256(dn + ln).digest()
    if spectator:
        refusal = admit_spectator(dk)
    else:
        refusal = admit(dk, conn_id) if admit is not None else None
    if refusal is not None:
        raise refusal
    await fs.send_message({"t": "ok"})
    return Authenticated(fs, LISTENER, lk, dk, hello["port"], conn_id, spectator)
