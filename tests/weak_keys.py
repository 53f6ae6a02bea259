"""Small-order Ed25519 public keys and signatures "by" them, made without any secret
(test helper for SPEC §20.1). OpenSSL accepts such signatures; the protocol must not.

Pure-Python Edwards arithmetic (RFC 8032 §5.1) is used only to add a torsion point to
R: libsodium refuses small-order points in its point functions."""
from __future__ import annotations

import os

import nacl.bindings as sodium
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from protocol.crypto import fingerprint

P = 2 ** 255 - 19
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)

# The eight points of small order, canonically encoded: the identity (order 1), order 2,
# the two of order 4 and the four of order 8.
SMALL_ORDER = [bytes.fromhex(h) for h in (
    "0100000000000000000000000000000000000000000000000000000000000000",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0000000000000000000000000000000000000000000000000000000000000080",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
)]
# Non-canonical encodings (y >= p) of small-order points: y = p (that is 0) and y = p + 1 (1).
NON_CANONICAL = [bytes.fromhex(h) for h in (
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
)]


def _decode(b: bytes) -> tuple[int, int]:
    y = int.from_bytes(b, "little") & ((1 << 255) - 1)
    x2 = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P:
        x = x * SQRT_M1 % P
    assert (x * x - x2) % P == 0, "not a curve point"
    if x & 1 != b[31] >> 7:
        x = (P - x) % P
    return x, y


def _add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    (x1, y1), (x2, y2) = a, b
    t = D * x1 * x2 * y1 * y2 % P
    return ((x1 * y2 + x2 * y1) * pow(1 + t, P - 2, P) % P, (y1 * y2 + x1 * x2) * pow(1 - t, P - 2, P) % P)


def _encode(pt: tuple[int, int]) -> bytes:
    x, y = pt
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def openssl_accepts(key: bytes, message: bytes, signature: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(signature, message)
        return True
    except (InvalidSignature, ValueError):
        return False


def forge(key: bytes, message: bytes) -> bytes:
    """A signature of `message` for the small-order `key` that OpenSSL accepts, made with no
    secret: R = s·B + T for a torsion point T, S = s; [S]B − [k]A = R when T = −[k]A."""
    for _ in range(200):
        s = sodium.crypto_core_ed25519_scalar_reduce(os.urandom(64))
        sb = _decode(sodium.crypto_scalarmult_ed25519_base_noclamp(s))
        for torsion in SMALL_ORDER:
            sig = _encode(_add(sb, _decode(torsion))) + s
            if openssl_accepts(key, message, sig):
                return sig
    raise AssertionError("no forgery found")  # pragma: no cover


class WeakSigner:
    """Stands in for an Identity whose public key is a small-order point."""

    def __init__(self, key: bytes, name: str = "weak") -> None:
        self.public_key_bytes = key
        self.name = name

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key_bytes)

    def sign(self, message: bytes) -> bytes:
        return forge(self.public_key_bytes, message)
