"""Multi-scalar multiplication over ristretto255: Σ kᵢ·Pᵢ in one call (SPEC §25.1, §25.13).

This is the seam between the verifiers and whatever computes the sum. The pure path here
merges equal points, skips zero scalars, sends the base point through libsodium's base
table and the rest through one variable-base multiplication each. A faster backend (a
native Straus/Pippenger) may stand in behind the same two functions; it must give the same
answer for every input, which the tests cross-check.

Inputs: ``terms`` is a sequence of ``(k, P)`` with ``k`` any int (taken mod L) and ``P`` a
32-byte ristretto255 encoding that has already passed :func:`protocol.crypto.group.validate_point`
(or is the base point G). The identity result is ``None``: a sum of points can be the
identity, which is no valid point of ours (validate_point refuses it by name).

Backends (SPEC §25.13): ``native`` is the C extension ``protocol.crypto._ristretto_native``
(Straus / Pippenger, built by the install when a compiler is there); ``pure`` is the path
below. ``ASV_PURE_MSM=1`` in the environment forces the pure path. Both merge equal points
and drop the terms whose merged scalar is 0 before looking at any point, then raise
GroupError if a remaining point is not a valid one, so they agree on every verdict.

The provers' sums, whose scalars are secret, are :func:`fixed_rows` and :func:`secret_msm`
at the end (SPEC §25.13, "the prover's sums"): constant time on the native backend.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from types import ModuleType

from protocol.crypto import group as g

_L = 2**252 + 27742317777372353535851937790883648493

try:
    import protocol.crypto._ristretto_native as _ristretto_native
    _native: ModuleType | None = _ristretto_native
except ImportError:  # not built (no compiler at install time): the pure path
    _native = None

#: Which backend computes the sums by default (benchmarks print it): "native" or "pure".
#: ``ASV_PURE_MSM=1`` makes it "pure"; an explicit ``backend=`` still reaches either.
BACKEND = "native" if _native is not None and os.environ.get("ASV_PURE_MSM", "") != "1" else "pure"


def _merge(terms: Sequence[tuple[int, bytes]]) -> dict[bytes, int]:
    """Equal points merged, scalars reduced mod L, zero scalars dropped."""
    merged: dict[bytes, int] = {}
    for k, p in terms:
        merged[p] = (merged.get(p, 0) + k) % _L
    return {p: k for p, k in merged.items() if k}


def _use_native(backend: str | None) -> bool:
    """backend None: the module's BACKEND; "native" or "pure" to choose (the cross-check tests)."""
    if backend is None:
        return BACKEND == "native"
    if backend not in ("native", "pure"):
        raise ValueError(f"backend is 'native' or 'pure', not {backend!r}")
    if backend == "native" and _native is None:
        raise RuntimeError("the native backend is not built")
    return backend == "native"


def msm(terms: Sequence[tuple[int, bytes]], *, backend: str | None = None) -> bytes | None:
    """Σ k·P over the (k, P) pairs, or None when the sum is the identity (or there are no terms)."""
    return _sum(_merge(terms), backend)


def sum_merged(merged: dict[bytes, int], *, backend: str | None = None) -> bytes | None:
    """Σ k·P over a dict of distinct points and their coefficients (a caller that merged its
    terms itself, as a folded verification equation does): zero coefficients are dropped;
    None when the sum is the identity. Raises GroupError for a point that is not valid."""
    return _sum({p: k % _L for p, k in merged.items() if k % _L}, backend)


def _sum(kept: dict[bytes, int], backend: str | None) -> bytes | None:
    """The sum of distinct points with non-zero coefficients below L, on the chosen backend."""
    native = _use_native(backend)
    for p in kept:
        if not isinstance(p, bytes) or len(p) != g.POINT_BYTES:
            raise g.GroupError("multi-scalar multiplication of a point that is not 32 bytes")
    return _msm_native(kept) if native else _msm_pure(kept)


def _msm_native(merged: dict[bytes, int]) -> bytes | None:
    scalars = b"".join(k.to_bytes(32, "little") for k in merged.values())
    try:
        out = _native.msm(scalars, b"".join(merged))
    except ValueError as exc:  # a point that does not decode (or the identity, or bit 255 set)
        raise g.GroupError(f"multi-scalar multiplication of an invalid point: {exc}") from None
    return None if out == g.IDENTITY else out


def _msm_pure(merged: dict[bytes, int]) -> bytes | None:
    acc: bytes | None = None
    for p, k in merged.items():
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


def first_invalid_point(points: Sequence[bytes], *, backend: str | None = None) -> int:
    """Index of the first point that :func:`protocol.crypto.group.validate_point` refuses, or -1.

    One call checks a whole list (a shuffled deck's points): the native backend decodes them
    all in C, the pure path calls validate_point on each; the verdicts are the same.
    """
    for i, p in enumerate(points):
        if not isinstance(p, (bytes, bytearray)) or len(p) != g.POINT_BYTES:
            return i
    if _use_native(backend):
        return int(_native.decode_ok(b"".join(points)))
    for i, p in enumerate(points):
        try:
            g.validate_point(p)
        except g.InvalidPoint:
            return i
    return -1


# ---------------------------------------------------------------- the prover's sums (secret scalars)
#
# A prover's scalars are nonces, randomisers and witnesses: the native functions below are
# constant time in them (SPEC §25.13), unlike msm above, which is for public inputs only.
# The pure path is libsodium's multiplications, constant time too. Both give the one answer.

#: Tables of fixed bases (the generator, the shuffle generator H, a game's joint key), by
#: point bytes, and their joins by tuple of bases; each at most _TABLES_MAX (oldest dropped).
#: A table is 40 KiB and costs about two variable-base multiplications to build.
_TABLES: dict[bytes, bytes] = {}
_JOINED: dict[tuple[bytes, ...], bytes] = {}
_TABLES_MAX = 8


def _remember_bounded(memory: dict, key, value) -> None:
    if len(memory) >= _TABLES_MAX:
        memory.pop(next(iter(memory)))
    memory[key] = value


def _tables(bases: tuple[bytes, ...]) -> bytes:
    """The joined native tables of ``bases`` (built once a base, remembered)."""
    joined = _JOINED.get(bases)
    if joined is None:
        parts = []
        for p in bases:
            table = _TABLES.get(p)
            if table is None:
                try:
                    table = _native.fixed_table(p)
                except ValueError as exc:
                    raise g.GroupError(f"fixed-base table of an invalid point: {exc}") from None
                _remember_bounded(_TABLES, p, table)
            parts.append(table)
        joined = b"".join(parts)
        _remember_bounded(_JOINED, bases, joined)
    return joined


def fixed_rows(bases: Sequence[bytes], rows: Sequence[Sequence[int]], adds: Sequence[bytes] | None = None,
               *, backend: str | None = None) -> list[bytes | None]:
    """For each row k: Σ_t rows[k][t]·bases[t], plus the point adds[k] when ``adds`` is given
    (the identity, 32 zero bytes, adds nothing); None where a result is the identity.

    For the prover's secret scalars (any ints, taken mod L) over a few bases that recur (G,
    H, the game's joint key: validated points). Native: one call, a table a base
    (remembered), constant time in the scalars; pure: libsodium a term. GroupError for an
    invalid base or added point."""
    bases = tuple(bases)
    # (checks by set and map: a shuffle makes a few calls of a hundred rows, a refresh
    # several of one or two, so the Python around the native call matters)
    if not 0 < len(bases) <= 16 or set(map(type, bases)) != {bytes} or set(map(len, bases)) != {g.POINT_BYTES}:
        raise g.GroupError("fixed_rows takes 1 to 16 bases of 32 bytes")
    if not rows:
        return []
    if adds is not None and len(adds) != len(rows):
        raise ValueError("fixed_rows: one added point a row")
    if set(map(len, rows)) != {len(bases)}:
        raise ValueError("fixed_rows: one scalar a base in every row")
    if adds is not None and (set(map(type, adds)) != {bytes} or set(map(len, adds)) != {g.POINT_BYTES}):
        raise g.GroupError("fixed_rows: an added point that is not 32 bytes")
    if _use_native(backend):
        scalars = b"".join((k % _L).to_bytes(32, "little") for row in rows for k in row)
        try:
            out = _native.fixed_batch(_tables(bases), scalars, b"".join(adds) if adds is not None else b"")
        except ValueError as exc:
            raise g.GroupError(f"fixed-base sum of an invalid point: {exc}") from None
        return [None if (s := out[i:i + 32]) == g.IDENTITY else s for i in range(0, len(out), 32)]
    result: list[bytes | None] = []
    sums: dict[tuple[int, ...], bytes | None] = {}   # a row repeated (a refresh's r·G twice) is computed once
    for k, row in enumerate(rows):
        key = tuple(x % _L for x in row)
        if key not in sums:
            sums[key] = _msm_pure(_merge(list(zip(key, bases))))
        acc = sums[key]
        if adds is not None and adds[k] != g.IDENTITY:
            # one addition, not a multiplication by 1; the point is decoded (so checked) by
            # the addition, or by validate_point when the row's sum is the identity
            acc = g.validate_point(adds[k]) if acc is None else g.add(acc, adds[k])
            if acc == g.IDENTITY:
                acc = None
        result.append(acc)
    return result


def secret_msm(terms: Sequence[tuple[int, bytes]], *, backend: str | None = None) -> bytes | None:
    """Σ k·P as :func:`msm` (equal points merged, zero scalars dropped, None for the
    identity, GroupError for an invalid point) for secret scalars: the native path is
    constant time in them (Straus over signed radix-16 digits), the pure one libsodium's."""
    kept = _merge(terms)
    native = _use_native(backend)
    for p in kept:
        if not isinstance(p, bytes) or len(p) != g.POINT_BYTES:
            raise g.GroupError("multi-scalar multiplication of a point that is not 32 bytes")
    if not native:
        return _msm_pure(kept)
    scalars = b"".join(k.to_bytes(32, "little") for k in kept.values())
    try:
        out = _native.ct_msm(scalars, b"".join(kept))
    except ValueError as exc:
        raise g.GroupError(f"multi-scalar multiplication of an invalid point: {exc}") from None
    return None if out == g.IDENTITY else out
