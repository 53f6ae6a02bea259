"""The ristretto255 group through the system libsodium (SPEC §25.1).

Points are 32-byte ristretto255 encodings: the prime-order group of the Ed25519 curve
with an encoding in which every string that decodes is a valid group element, so
checking an arriving point *is* decoding it (no separate subgroup check, no small-order
points to refuse). Scalars are 32-byte little-endian integers reduced modulo the group
order L, the same order as the Ed25519 subgroup, so the scalar arithmetic stays PyNaCl's.
Every point that arrives from outside must pass :func:`validate_point` before use; every
scalar from outside must pass :func:`validate_scalar`.

PyNaCl's bundled libsodium is built without ristretto255; pysodium binds the system
libsodium (1.0.18 or later has ristretto255). ``benchmarks/group_choice.py`` measured the
move: a variable-base multiplication 1.7-2.1x faster than the Ed25519 one and an arriving
point's check 7.5-9x cheaper.

Cost notes (the benchmark uses them): ``mul`` is one variable-base scalar multiplication
(libsodium decodes, and so re-checks, the input point); ``base_mul`` uses libsodium's
precomputed base table and is ~3x cheaper; ``add``/``sub`` decode both inputs and encode
the result; ``validate_point`` is one decode.
"""

from __future__ import annotations

import ctypes
import hashlib
import os

from nacl import bindings as _na

from protocol.errors import ProtocolError


class GroupUnavailable(ProtocolError, ImportError):
    """The system libsodium with ristretto255 (1.0.18 or later) could not be loaded."""


_NEEDS = ("the system libsodium 1.0.18 or later, which has ristretto255 "
          "(Debian/Ubuntu: apt-get install libsodium23; Fedora: dnf install libsodium; "
          "macOS: brew install libsodium) and the Python package pysodium")
try:
    import pysodium as _ps
except ImportError as exc:  # pysodium not installed
    raise GroupUnavailable(f"the mental-poker group needs {_NEEDS}: {exc}") from exc
except (OSError, ValueError) as exc:  # pysodium found no libsodium to load
    raise GroupUnavailable(f"the mental-poker group needs {_NEEDS}: {exc}") from exc
if not hasattr(_ps.sodium, "crypto_core_ristretto255_from_hash"):
    raise GroupUnavailable(
        f"the mental-poker group needs {_NEEDS}; the one loaded ({_ps.sodium._name}, version "
        f"{_ps.sodium.sodium_version_string().decode()}) has no ristretto255")

#: Which group the decks are on (benchmarks print it).
GROUP_NAME = "ristretto255"

# The hot calls go to the library pysodium loaded, without its per-call version check
# and wrappers (a few µs a call, a tenth of a multiplication): lengths are checked here.
_lib = _ps.sodium


def _out() -> ctypes.Array:
    return ctypes.create_string_buffer(32)


def _sized(*values: bytes) -> bool:
    return all(isinstance(v, (bytes, bytearray)) and len(v) == 32 for v in values)

POINT_BYTES = 32
SCALAR_BYTES = 32
#: Order of the prime-order subgroup: 2**252 + 27742317777372353535851937790883648493.
L = 2**252 + 27742317777372353535851937790883648493

#: Encoding of the group identity (neutral element). Never accepted from outside.
IDENTITY = bytes(32)

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
    """Return ``p`` as bytes if it is a canonical ristretto255 encoding of a non-identity element.

    A ristretto255 decode accepts only canonical encodings of elements of the prime-order
    group, so it is the whole check; the identity decodes, and is refused here by name.
    libsodium 1.0.18's decode ignores the top bit (bit 255), so a point with it set would
    decode to the same element as the one without: a second encoding a shuffler could use
    to mark a card. RFC 9496 requires that bit clear, and so do we, before the decode.
    """
    if not isinstance(p, (bytes, bytearray)):
        raise InvalidPoint(f"expected bytes, got {type(p).__name__}", None)
    p = bytes(p)
    if len(p) != POINT_BYTES:
        raise InvalidPoint(f"length {len(p)}, expected {POINT_BYTES}", p)
    if p == IDENTITY:
        raise InvalidPoint("identity", p)
    if p[31] & 0x80:
        raise InvalidPoint("not a canonical ristretto255 encoding (top bit set)", p)
    if _lib.crypto_core_ristretto255_is_valid_point(p) != 1:
        raise InvalidPoint("not a canonical ristretto255 encoding", p)
    return p


def base_mul(s: bytes) -> bytes:
    """s·G (one base multiplication). Raises InvalidScalar for s = 0 (result would be identity)."""
    out = _out()
    if not _sized(s):
        raise InvalidScalar(f"expected {SCALAR_BYTES} bytes")
    if _lib.crypto_scalarmult_ristretto255_base(out, bytes(s)) != 0:
        raise InvalidScalar("product is the identity (zero scalar)")
    return out.raw


def mul(s: bytes, p: bytes) -> bytes:
    """s·P (one variable-base multiplication). P must already be a validated point.

    libsodium decodes P again, so this refuses whatever validate_point refuses (the top
    bit too, which libsodium 1.0.18 ignores): the shuffle verifier relies on it.
    """
    if p[31] & 0x80:
        raise GroupError("scalar multiplication of a non-canonical encoding (top bit set)")
    out = _out()
    if not _sized(s, p) or _lib.crypto_scalarmult_ristretto255(out, bytes(s), bytes(p)) != 0:
        raise GroupError("scalar multiplication gave the identity or the point was rejected")
    return out.raw


def add(p: bytes, q: bytes) -> bytes:
    if (p[31] | q[31]) & 0x80:
        raise GroupError("point addition of a non-canonical encoding (top bit set)")
    out = _out()
    if not _sized(p, q) or _lib.crypto_core_ristretto255_add(out, bytes(p), bytes(q)) != 0:
        raise GroupError("point addition of an invalid encoding")
    return out.raw


def sub(p: bytes, q: bytes) -> bytes:
    if (p[31] | q[31]) & 0x80:
        raise GroupError("point subtraction of a non-canonical encoding (top bit set)")
    out = _out()
    if not _sized(p, q) or _lib.crypto_core_ristretto255_sub(out, bytes(p), bytes(q)) != 0:
        raise GroupError("point subtraction of an invalid encoding")
    return out.raw


def sum_points(points: list[bytes] | tuple[bytes, ...]) -> bytes:
    """Sum of one or more points (len-1 additions)."""
    if not points:
        raise GroupError("sum of no points")
    acc = points[0]
    for p in points[1:]:
        acc = add(acc, p)
    return acc


#: The ristretto255 base point G (the Ed25519 base point's coset, encoded e2f2ae0a…2d76).
G = base_mul(scalar_from_int(1))


def _from_hash(digest: bytes) -> bytes:
    """libsodium's ristretto255 hash-to-group map of 64 bytes (kept apart so a test can
    stand in a digest that maps to the identity)."""
    return _ps.crypto_core_ristretto255_from_hash(digest)


def hash_to_point(domain: bytes, label: bytes) -> bytes:
    """Deterministic map of (domain, label) to a valid group element (SPEC §25.1).

    For counter i = 0, 1, ...: u = SHA-512(lp(H2P_TAG, domain, label, u32be(i))) (all 64
    bytes); P = crypto_core_ristretto255_from_hash(u) (two Elligator maps added, as in
    RFC 9496); return the first P that passes validate_point. Retries are only needed
    for the negligible inputs that map to the identity.
    """
    for counter in range(256):
        digest = hashlib.sha512(lp(H2P_TAG, domain, label, counter.to_bytes(4, "big"))).digest()
        point = _from_hash(digest)
        try:
            return validate_point(point)
        except InvalidPoint:
            continue
    raise GroupError("hash_to_point found no valid point in 256 tries")  # pragma: no cover
