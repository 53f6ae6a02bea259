"""Encrypted, authenticated frames after the handshake (SPEC §28.11).

The handshake (§28.4) carries a fresh X25519 public key from each side inside the signed
transcript, so the Diffie-Hellman secret is bound to both identity keys and both nonces.
From it HKDF-SHA256 derives one ChaCha20-Poly1305 key per direction; each frame's nonce
is its per-direction counter, and the 4-byte length header is the associated data. A
frame that fails to open, arrives out of order, or is replayed ends the connection; the
game itself recovers through catch-up (§28.8).
"""
from __future__ import annotations

import hashlib
import struct

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

__all__ = ["Ephemeral", "ChannelKeys", "FrameSealer", "FrameOpener", "derive_keys",
           "TAG_SIZE", "KDF_INFO"]

TAG_SIZE = 16
KDF_INFO = b"p2p-asv/transport/v2 keys"
_MAX_COUNTER = (1 << 64) - 1
_NONCE_PREFIX = b"\x00\x00\x00\x00"


class Ephemeral:
    """A fresh X25519 key pair for one connection; the private half never leaves memory."""

    def __init__(self) -> None:
        self._private = X25519PrivateKey.generate()
        self.public = self._private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw)

    def exchange(self, peer_public: bytes) -> bytes:
        """The shared secret. Raises ValueError for a peer key that gives the all-zero
        secret (a low-order point): such a key would let a third party know the secret."""
        shared = self._private.exchange(X25519PublicKey.from_public_bytes(bytes(peer_public)))
        if shared == bytes(32):
            raise ValueError("low-order X25519 key")
        return shared


class ChannelKeys:
    """The two directional keys of one connection, as seen from one side."""

    def __init__(self, send: bytes, receive: bytes) -> None:
        self.send = send
        self.receive = receive


def derive_keys(shared: bytes, transcript_hash: bytes, *, dialer: bool) -> ChannelKeys:
    """HKDF-SHA256(ikm = shared, salt = transcript hash, info = KDF_INFO) gives 64 bytes:
    the first 32 key frames from dialer to listener, the last 32 the other way."""
    okm = HKDF(algorithm=hashes.SHA256(), length=64, salt=bytes(transcript_hash),
               info=KDF_INFO).derive(bytes(shared))
    d2l, l2d = okm[:32], okm[32:]
    return ChannelKeys(d2l, l2d) if dialer else ChannelKeys(l2d, d2l)


def _nonce(counter: int) -> bytes:
    return _NONCE_PREFIX + struct.pack(">Q", counter)


class FrameSealer:
    """Seals outgoing payloads in order; the counter never repeats under one key."""

    def __init__(self, key: bytes) -> None:
        self._aead = ChaCha20Poly1305(key)
        self._counter = 0

    def seal(self, header: bytes, payload: bytes) -> bytes:
        if self._counter > _MAX_COUNTER:
            raise OverflowError("frame counter exhausted: reconnect")
        sealed = self._aead.encrypt(_nonce(self._counter), payload, header)
        self._counter += 1
        return sealed


class FrameOpener:
    """Opens incoming frames in order. Returns None for a frame that does not
    authenticate (flipped, injected, replayed, reordered or dropped before it)."""

    def __init__(self, key: bytes) -> None:
        self._aead = ChaCha20Poly1305(key)
        self._counter = 0

    def open(self, header: bytes, sealed: bytes) -> bytes | None:
        try:
            payload = self._aead.decrypt(_nonce(self._counter), sealed, header)
        except InvalidTag:
            return None
        self._counter += 1
        return payload


def transcript_hash(transcript: bytes) -> bytes:
    return hashlib.sha256(transcript).digest()
