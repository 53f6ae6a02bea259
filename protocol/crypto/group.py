"""The prime-order Ed25519 group through libsodium (SPEC §25.1).

Points are 32-byte compressed Edwards encodings; scalars are 32-byte little-endian
integers reduced modulo the group order L. Every point that arrives from outside must
pass :func:`validate_point` before use; every scalar from outside must pass
:func:`validate_scalar`.

Cost notes (the benchmark uses them): ``mul`` is one variable-base scalar
multiplication (libsodium also re-checks the input point, which costs about one more);
``base_mul`` uses libsodium's precomputed base table and is ~5x cheaper; ``add``/``sub``
are cheap; ``validate_point`` includes a subgroup check worth about half a ``mul``.
"""

from __future__ import annotations

import hashlib
import os

from nacl import bindings as _na
from nacl import exceptions as _nacl_exc

from protocol.errors import ProtocolError

POINT_BYTES = 32
SCALAR_BYTES = 32
#: Order of the prime-order subgroup: 2**252 + 27742317777372353535851937790883648493.
L = 2**252 + 27742317777372353535851937790883648493

#: Encoding of the group identity (neutral element). Never accepted from outside.
IDENTITY = b"\x01" + bytes(31)

#: Domain tag of the hash-to-point retry counter input (SPEC §25.1).
H2P_TAG = b"p2p-asv/hash-to-point/v1"


class GroupError(ProtocolError, ValueError):
    """Base class for group-level errors."""


class InvalidPoint(GroupError):
    """A 32-byte string that is not an acceptable group element; ``reason`` says why."""

    def __init__(self, reason: str, data: bytes | None = None) -> None:
        self.reason = reason
        self.data = data
        shown = data.hex() if isinstance(data, (bytes, bytearray)) else repr(data)
        super().__init__(f"invalid point ({reason}): {shown}")


class InvalidScalar(GroupError):
    """A scalar that is the wrong length, not reduced modulo L, or zero where forbidden."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"invalid scalar: {reason}")


def lp(*parts: bytes) -> bytes:
    """Length-prefixed concatenation: each part as u32 big-endian length then bytes.

    Used for every hash input in the crypto layer so no two part lists collide.
    """
    out = bytearray()
    for part in parts:
        if not isinstance(part, (bytes, bytearray)):
            raise TypeError(f"hash input parts must be bytes, got {type(part).__name__}")
        out += len(part).to_bytes(4, "big")
        out += part
    return bytes(out)


# ---------------------------------------------------------------- scalars


def scalar_from_int(n: int) -> bytes:
    return (n % L).to_bytes(SCALAR_BYTES, "little")


def scalar_to_int(s: bytes) -> int:
    return int.from_bytes(s, "little")


def validate_scalar(s: object, *, nonzero: bool = False) -> bytes:
    """Return ``s`` as bytes if it is a canonical scalar (32 bytes, < L)."""
    if not isinstance(s, (bytes, bytearray)):
        raise InvalidScalar(f"expected bytes, got {type(s).__name__}")
    s = bytes(s)
    if len(s) != SCALAR_BYTES:
        raise InvalidScalar(f"length {len(s)}, expected {SCALAR_BYTES}")
    v = scalar_to_int(s)
    if v >= L:
        raise InvalidScalar("not reduced modulo L (non-canonical)")
    if nonzero and v == 0:
        raise InvalidScalar("zero")
    return s


def random_scalar() -> bytes:
    """A uniform non-zero scalar from the OS CSPRNG.

    PyNaCl does not bind ``crypto_core_ed25519_scalar_random``; reducing 64 uniform bytes
    modulo L is what libsodium does internally for hashing and has bias < 2**-250.
    """
    while True:
        s = _na.crypto_core_ed25519_scalar_reduce(os.urandom(64))
        if s != bytes(SCALAR_BYTES):
            return s


def scalar_add(a: bytes, b: bytes) -> bytes:
    return _na.crypto_core_ed25519_scalar_add(a, b)


def scalar_sub(a: bytes, b: bytes) -> bytes:
    return _na.crypto_core_ed25519_scalar_sub(a, b)


def scalar_mul(a: bytes, b: bytes) -> bytes:
    return _na.crypto_core_ed25519_scalar_mul(a, b)


def scalar_neg(a: bytes) -> bytes:
    return _na.crypto_core_ed25519_scalar_negate(a)


def scalar_inv(a: bytes) -> bytes:
    if scalar_to_int(a) % L == 0:
        raise InvalidScalar("zero has no inverse")
    return _na.crypto_core_ed25519_scalar_invert(a)


def hash_to_scalar(*parts: bytes) -> bytes:
    """SHA-512 of ``lp(*parts)`` reduced modulo L (SPEC §25.1)."""
    return _na.crypto_core_ed25519_scalar_reduce(hashlib.sha512(lp(*parts)).digest())


# ---------------------------------------------------------------- points


def validate_point(p: object) -> bytes:
    """Return ``p`` as bytes if it is a canonical, prime-order-subgroup, non-identity point.

    libsodium's ``is_valid_point`` checks canonical encoding, on-curve, main subgroup and
    not small order; the identity is small order so it fails too, but we check it
    explicitly so the error says so.
    """
    if not isinstance(p, (bytes, bytearray)):
        raise InvalidPoint(f"expected bytes, got {type(p).__name__}", None)
    p = bytes(p)
    if len(p) != POINT_BYTES:
        raise InvalidPoint(f"length {len(p)}, expected {POINT_BYTES}", p)
    if p == IDENTITY:
        raise InvalidPoint("identity", p)
    if not _na.crypto_core_ed25519_is_valid_point(p):
        raise InvalidPoint("non-canonical, off-curve, small-order or outside the prime-order subgroup", p)
    return p


def base_mul(s: bytes) -> bytes:
    """s·G (one base multiplication). Raises InvalidScalar for s = 0 (result would be identity)."""
    try:
        return _na.crypto_scalarmult_ed25519_base_noclamp(s)
    except _nacl_exc.RuntimeError as exc:
        raise InvalidScalar("product is the identity (zero scalar)") from exc


def mul(s: bytes, p: bytes) -> bytes:
    """s·P (one variable-base multiplication). P must already be a validated point."""
    try:
        return _na.crypto_scalarmult_ed25519_noclamp(s, p)
    except _nacl_exc.RuntimeError as exc:
        raise GroupError("scalar multiplication gave the identity or the point was rejected") from exc


def add(p: bytes, q: bytes) -> bytes:
    return _na.crypto_core_ed25519_add(p, q)


def sub(p: bytes, q: bytes) -> bytes:
    return _na.crypto_core_ed25519_sub(p, q)


def sum_points(points: list[bytes] | tuple[bytes, ...]) -> bytes:
    """Sum of one or more points (len-1 additions)."""
    if not points:
        raise GroupError("sum of no points")
    acc = points[0]
    for p in points[1:]:
        acc = add(acc, p)
    return acc


#: The standard Ed25519 base point G.
G = base_mul(scalar_from_int(1))


def hash_to_point(domain: bytes, label: bytes) -> bytes:
    """Deterministic map of (domain, label) to a valid group element (SPEC §25.1).

    For counter i = 0, 1, ...: u = SHA-512(lp(H2P_TAG, domain, label, u32be(i)))[:32];
    P = crypto_core_ed25519_from_uniform(u) (Elligator 2, cofactor cleared); return the
    first P that passes validate_point. Retries are only needed for the negligible
    inputs that map to the identity (e.g. u = 0).
    """
    for counter in range(256):
        digest = hashlib.sha512(lp(H2P_TAG, domain, label, counter.to_bytes(4, "big"))).digest()
        point = _na.crypto_core_ed25519_from_uniform(digest[:32])
        try:
            return validate_point(point)
        except InvalidPoint:
            continue
    raise GroupError("hash_to_point found no valid point in 256 tries")  # pragma: no cover
