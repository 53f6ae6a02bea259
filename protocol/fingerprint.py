"""Key fingerprints (SPEC §20.2): the short human form of an Ed25519 public key.

At the base of protocol/, beside errors and codec, because error messages name authors by
fingerprint and identities are built on top of those errors.
"""
from __future__ import annotations

import base64
import functools
import hashlib

PUBLIC_KEY_SIZE = 32


def fingerprint(public_key_bytes: bytes) -> str:
    """Short human form of a public key (SPEC §20.2): the first 10 bytes of SHA-256 of the
    32 raw key bytes, in RFC 4648 base32 (16 characters, no padding), in four groups of
    four joined by '-', e.g. "MFRG-GZDF-MZTW-Q2LK"."""
    if not isinstance(public_key_bytes, (bytes, bytearray)) or len(public_key_bytes) != PUBLIC_KEY_SIZE:
        raise ValueError("a public key is exactly 32 bytes")
    return _fingerprint(bytes(public_key_bytes))


# A game has a handful of keys and names them at every event (notes, rounds, the address
# book): remembering the answer for recent keys takes the hash and base32 off each call.
@functools.lru_cache(maxsize=1024)
def _fingerprint(key: bytes) -> str:
    text = base64.b32encode(hashlib.sha256(key).digest()[:10]).decode("ascii")
    return "-".join(text[i:i + 4] for i in range(0, 16, 4))
