"""Ed25519 signatures checked in batches, with exactly the verdict of `identity.verify` (SPEC §20.6).

One batch of n signatures (Rᵢ ‖ Sᵢ) by keys Aᵢ over messages Mᵢ, hᵢ = SHA-512(Rᵢ ‖ Aᵢ ‖ Mᵢ) mod L,
passes when

  * every key passes `check_public_key` (§20.1) and every Sᵢ < L (checked here, in Python);
  * every Rᵢ is the canonical encoding of a point of the prime-order subgroup other than the
    identity (in C: a half of Rᵢ on the 2-isogenous curve, then one quartic character, two
    field exponentiations with the answer of a multiplication by L);
  * Σ zᵢ·Rᵢ + Σ (zᵢ·hᵢ)·Aᵢ − (Σ zᵢ·Sᵢ)·B is the identity, for 128-bit weights zᵢ (one
    multi-scalar multiplication, in C).

All the points are then in the group of prime order L, so the sum is the identity for weights
drawn after the signatures are fixed only if every Rᵢ = Sᵢ·B − hᵢ·Aᵢ, except with probability
2^-128 (the weights are a hash of the whole batch: changing any signature changes them all).
Rᵢ equal to that point and canonical is libsodium's rule (§20.5) byte for byte: a batch passes
only if each of its signatures would. When the batch does not pass, or the native extension is
not built, the signatures are checked one by one with `identity.verify`, so the first bad one
is still named, with its own reason. The per-R subgroup check is what keeps the verdict exact:
without it a signer could add a small-order point to R and pass a batch that libsodium refuses
(`tests/test_sig_batch.py` has one)."""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from types import ModuleType

from protocol.crypto.identity import SIGNATURE_SIZE, check_public_key, verify
from protocol.errors import BadSignature
from protocol.fingerprint import PUBLIC_KEY_SIZE

__all__ = ["first_bad_signature", "batch_passes", "WEIGHT_TAG", "BATCH_SIZE"]

_L = 2**252 + 27742317777372353535851937790883648493
_BASE = bytes.fromhex("5866666666666666666666666666666666666666666666666666666666666666")
WEIGHT_TAG = b"p2p-asv/sig-batch/v1"
BATCH_SIZE = 256          # signatures per equation; past a few dozen the gain per signature is flat

try:
    import protocol.crypto._ristretto_native as _ristretto_native
    _native: ModuleType | None = _ristretto_native
except ImportError:  # not built: one by one
    _native = None

Item = tuple[bytes, bytes, bytes]   # (public key, message, signature)


def _weights(items: Sequence[Item], challenges: list[int]) -> list[int]:
    digest = hashlib.sha512(WEIGHT_TAG)
    for (key, _, sig), h in zip(items, challenges):
        digest.update(key + sig + h.to_bytes(32, "little"))
    seed = digest.digest()
    return [int.from_bytes(hashlib.sha512(seed + i.to_bytes(4, "little")).digest()[:16], "little")
            for i in range(len(items))]


def batch_passes(items: Sequence[Item]) -> bool:
    """True only if every signature would pass `identity.verify` (one equation, SPEC §20.6);
    False when one would not, or when this cannot be told as a batch (no native extension)."""
    if _native is None or not items:
        return False
    challenges, s_values = [], []
    for key, message, sig in items:
        if len(key) != PUBLIC_KEY_SIZE or len(sig) != SIGNATURE_SIZE:
            return False
        try:
            check_public_key(key)
        except BadSignature:
            return False
        s = int.from_bytes(sig[32:], "little")
        if s >= _L:
            return False
        s_values.append(s)
        challenges.append(int.from_bytes(hashlib.sha512(sig[:32] + key + message).digest(), "little") % _L)
    z = _weights(items, challenges)
    per_key: dict[bytes, int] = {}
    for (key, _, _), zi, h in zip(items, z, challenges):
        per_key[key] = (per_key.get(key, 0) + zi * h) % _L
    base = -sum(zi * s for zi, s in zip(z, s_values)) % _L
    scalars = [*z, *per_key.values(), base]
    points = [sig[:32] for _, _, sig in items] + list(per_key) + [_BASE]
    try:
        return bool(_native.ed25519_batch_ok(b"".join(k.to_bytes(32, "little") for k in scalars),
                                             b"".join(points), len(items)))
    except ValueError:   # an R that does not decode: libsodium refuses it too
        return False


def first_bad_signature(items: Sequence[Item]) -> int:
    """Index of the first (key, message, signature) that `identity.verify` refuses, or -1: a batch
    equation per BATCH_SIZE signatures, and one by one only inside a batch that does not pass."""
    for start in range(0, len(items), BATCH_SIZE):
        chunk = items[start:start + BATCH_SIZE]
        if batch_passes(chunk):
            continue
        for i, (key, message, sig) in enumerate(chunk):
            try:
                verify(key, message, sig)
            except BadSignature:
                return start + i
    return -1
