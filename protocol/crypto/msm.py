"""Multi-scalar multiplication over ristretto255: Σ kᵢ·Pᵢ in one call (SPEC §25.1).

This is the seam between the verifiers and whatever computes the sum. The pure path here
merges equal points, skips zero scalars, sends the base point through libsodium's base
table and the rest through one variable-base multiplication each. A faster backend (a
native Straus/Pippenger) may stand in behind the same two functions; it must give the same
answer for every input, which the tests cross-check.

Inputs: ``terms`` is a sequence of ``(k, P)`` with ``k`` any int (taken mod L) and ``P`` a
32-byte ristretto255 encoding that has already passed :func:`protocol.crypto.group.validate_point`
(or is the base point G). The identity result is ``None``: a sum of points can be the
identity, which is no valid point of ours (validate_point refuses it by name).
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol.crypto import group as g

_L = 2**252 + 27742317777372353535851937790883648493

#: Which backend computes the sums (benchmarks print it).
BACKEND = "pure"


def msm(terms: Sequence[tuple[int, bytes]]) -> bytes | None:
    """Σ k·P over the (k, P) pairs, or None when the sum is the identity (or there are no terms)."""
    merged: dict[bytes, int] = {}
    for k, p in terms:
        merged[p] = (merged.get(p, 0) + k) % _L
    acc: bytes | None = None
    for p, k in merged.items():
        if k == 0:
            continue
        s = k.to_bytes(32, "little")
        term = g.base_mul(s) if p == g.G else g.mul(s, p)
        if acc is None:
            acc = term
        else:
            acc = g.add(acc, term)
            if acc == g.IDENTITY:
                acc = None
    return acc


def is_identity(terms: Sequence[tuple[int, bytes]]) -> bool:
    """Whether Σ k·P is the identity: the form a batched verification equation takes."""
    return msm(terms) is None
