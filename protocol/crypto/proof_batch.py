"""Proof equations checked later, many at once (SPEC §25.14).

A verifier of a whole log may *defer* the group equations of the Chaum–Pedersen proofs it
meets: inside :func:`deferring`, ``proofs.verify_equal_dlog`` does every cheap check at
once (sizes, scalars, the challenge hash) and hands its equation, a list of (k, P) whose
sum must be the identity, to the batch instead of computing it. :meth:`ProofBatch.holds`
then folds every pending equation with 128-bit weights into one multi-scalar sum.

The batch only ever answers "every equation holds" or "some equation, or some point, is
wrong"; it never names a culprit. The caller (protocol/session/verify.py) treats a
failed batch by checking the whole log again with nothing deferred, so the verdict, the
event it names and its reason are those of the one-by-one check, always.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from protocol.crypto import group as g
from protocol.crypto import msm as _msm

WEIGHT_TAG = b"p2p-asv/proof-batch/weights/v1"
_L = g.L

__all__ = ["ProofBatch", "deferring", "active", "weights"]


class ProofBatch:
    """Pending equations: each a seed (a proof's challenge, fixed by its transcript) and its
    terms. Not thread-safe; one per verification."""

    def __init__(self) -> None:
        self._seeds: list[bytes] = []
        self._equations: list[Sequence[tuple[int, bytes]]] = []
        self.deferred = 0        # equations taken in all
        self.sums = 0            # folded sums computed

    def add(self, seed: bytes, terms: Sequence[tuple[int, bytes]]) -> None:
        self._seeds.append(seed)
        self._equations.append(terms)
        self.deferred += 1

    def __len__(self) -> int:
        return len(self._equations)

    def holds(self) -> bool:
        """Whether every pending equation holds (false with probability at most 2^-128 when
        one does not); the batch is empty afterwards either way. A point that is not a
        valid one makes it false."""
        if not self._equations:
            return True
        weights = _weights(self._seeds)
        merged: dict[bytes, int] = {}
        for w, terms in zip(weights, self._equations):
            for k, p in terms:
                merged[p] = merged.get(p, 0) + w * k
        self._seeds, self._equations = [], []
        self.sums += 1
        try:
            return _msm.sum_merged(merged) is None
        except g.GroupError:
            return False


def weights(tag: bytes, seed: bytes, count: int) -> list[int]:
    """`count` 128-bit weights of folded equations (SPEC §25.2, §25.12, §25.14): SHAKE-256 of
    lp(tag, seed), read 16 bytes at a time little-endian; a zero weight becomes 1."""
    stream = hashlib.shake_256(g.lp(tag, seed)).digest(16 * count)
    return [int.from_bytes(stream[16 * k:16 * k + 16], "little") or 1 for k in range(count)]


def _weights(seeds: Sequence[bytes]) -> list[int]:
    """The batch's weights: seeded by the SHA-512 of lp(WEIGHT_TAG, every seed, in order)."""
    return weights(WEIGHT_TAG, hashlib.sha512(g.lp(WEIGHT_TAG, *seeds)).digest(), len(seeds))


_active: ProofBatch | None = None


def active() -> ProofBatch | None:
    """The batch that takes deferred equations now, or None (check at once)."""
    return _active


@contextmanager
def deferring(batch: ProofBatch | None) -> Iterator[ProofBatch | None]:
    """Within the block, deferrable proof equations go to ``batch`` (None: checked at once)."""
    global _active
    outer, _active = _active, batch
    try:
        yield batch
    finally:
        _active = outer
