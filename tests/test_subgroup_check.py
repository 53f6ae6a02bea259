"""The subgroup check of each R in a signature batch (SPEC §20.6): the native check (half the
point on the 2-isogenous curve, then one quartic character) gives, point for point, the answer
of the multiplication by L it replaced and of libsodium's crypto_core_ed25519_is_valid_point:
on random encodings, on random curve points, on honest points with each of the eight
small-order points added, on the small-order points themselves and on non-canonical
encodings. The same steps written in Python integers show the math on its own: both square
roots of D give the verdict, and the half is a half."""
from __future__ import annotations

import random

import nacl.bindings as sodium
import pytest

from protocol.crypto import sig_batch
from tests.weak_keys import D, NON_CANONICAL, SMALL_ORDER, SQRT_M1, P, _add, _decode, _encode

pytestmark = pytest.mark.skipif(sig_batch._native is None, reason="the native extension is not built")

L = 2**252 + 27742317777372353535851937790883648493
RNG = random.Random(23)


def _honest_point(rng: random.Random) -> bytes:
    return sodium.crypto_scalarmult_ed25519_base_noclamp(rng.randrange(1, L).to_bytes(32, "little"))


def _with_each_torsion(point: bytes) -> list[bytes]:
    return [_encode(_add(_decode(point), _decode(t))) for t in SMALL_ORDER]


def _non_canonical() -> list[bytes]:
    """y = p + k for k < 19 (both signs of x), and the two "negative zero" points: x = 0 with
    the sign bit set."""
    out = list(NON_CANONICAL)
    for k in range(19):
        y = (P + k).to_bytes(32, "little")
        out += [y, y[:31] + bytes([y[31] | 0x80])]
    out += [SMALL_ORDER[0][:31] + b"\x80", SMALL_ORDER[1][:31] + b"\xff"]
    return out


def _verdicts(points: list[bytes]) -> tuple[bytes, bytes, bytes]:
    blob = b"".join(points)
    native = sig_batch._native
    assert native is not None
    libsodium = bytes(int(sodium.crypto_core_ed25519_is_valid_point(pt)) for pt in points)
    return native.ed25519_in_subgroup(blob), native.ed25519_in_subgroup(blob, 1), libsodium


def test_honest_points_with_each_small_order_point_added():
    points = []
    for _ in range(60):
        points += _with_each_torsion(_honest_point(RNG))
    by_halving, by_l, libsodium = _verdicts(points)
    assert by_halving == by_l == libsodium
    # the first of each eight is the point itself (identity added): only those pass
    assert by_halving == bytes([1, 0, 0, 0, 0, 0, 0, 0]) * 60


def test_random_encodings():
    points = [RNG.randbytes(32) for _ in range(1500)]
    by_halving, by_l, libsodium = _verdicts(points)
    assert by_halving == by_l == libsodium
    # about half the encodings decode, and an eighth of those are in the subgroup
    assert 50 < sum(by_halving) < 140


def test_random_curve_points_of_every_torsion_class():
    """Points decoded from random y (so every class of Z/8 appears about equally)."""
    points = []
    while len(points) < 800:
        pt = RNG.randbytes(32)
        if _python_decode(pt) is not None:
            points.append(pt)
    by_halving, by_l, libsodium = _verdicts(points)
    assert by_halving == by_l == libsodium
    assert 50 < sum(by_halving) < 160


def test_small_order_and_non_canonical_encodings_are_refused():
    points = SMALL_ORDER + _non_canonical()
    by_halving, by_l, libsodium = _verdicts(points)
    assert by_halving == by_l == libsodium == bytes(len(points))


def test_the_batch_refuses_an_r_with_each_small_order_point_added():
    """ed25519_batch_ok with only R terms (weight 0, so the sum is the identity): it passes
    exactly when every R is in the subgroup."""
    native = sig_batch._native
    assert native is not None
    honest = [_honest_point(RNG) for _ in range(5)]
    zeros = bytes(32 * 5)
    assert native.ed25519_batch_ok(zeros, b"".join(honest), 5) is True
    for torsion in SMALL_ORDER:
        for where in range(5):
            points = list(honest)
            points[where] = _encode(_add(_decode(points[where]), _decode(torsion)))
            ok = torsion == SMALL_ORDER[0]
            assert native.ed25519_batch_ok(zeros, b"".join(points), 5) is ok
            assert native.ed25519_batch_ok(zeros, b"".join(points), where) is True


# ---------------------------------------------------------------- the math, in Python integers

def _sqrt(a: int) -> int | None:
    a %= P
    r = pow(a, (P + 3) // 8, P)
    if r * r % P != a:
        r = r * SQRT_M1 % P
    return r if r * r % P == a else None


def _python_decode(pt: bytes) -> tuple[int, int] | None:
    y = int.from_bytes(pt, "little") & ((1 << 255) - 1)
    if y >= P:
        return None
    x = _sqrt((y * y - 1) * pow(D * y * y + 1, -1, P))
    if x is None or (x == 0 and pt[31] >> 7):
        return None
    return (P - x if (x & 1) != pt[31] >> 7 else x), y


# a0 = x8·y8 at a point (x8, y8) of order 8: i·y8², y8² the root of d·t² + 2t − 1 that is a square
A0 = 8646474948907434702843920070347827283394575680151124875353015136841552197740


def _in_subgroup_by_halving(x: int, y: int, seen: set[str]) -> bool:
    """The C function's steps (SPEC §20.6), with divisions where the C keeps fractions; both
    signs of √D, and the half itself where its y² is a square."""
    if x == 0 or y == 0 or x in (SQRT_M1 * y % P, -SQRT_M1 * y % P):
        return False                                  # the eight points of small order
    s = _sqrt((1 + D) * (1 + D * y * y))
    if s is None:
        return False                                  # not in 2E
    verdicts = set()
    for root in (s, -s):
        t = (root - (1 - D * y)) * pow(D * (1 + y), -1, P) % P      # y'² of a half
        a = x * (D * t * t + 1) * pow(2 * (1 + D * t), -1, P) % P   # x'·y' of that half
        yq = _sqrt(t)
        if yq is not None:                            # the half is a point of E(F_p): check it
            seen.add("rational half")
            xq = a * pow(yq, -1, P) % P
            assert _add((xq, yq), (xq, yq)) == (x, y)
        else:
            seen.add("the other half")
        g = (1 + D * t) * (a + A0) ** 2 % P           # on E/<(0, −1)>, divisor 4(S) − 4(W)
        verdicts.add(pow(g, (P - 1) // 4, P) == 1)
    assert len(verdicts) == 1                         # either sign of √D gives the verdict
    return verdicts.pop()


def test_the_math_in_python_integers():
    seen: set[str] = set()
    rng = random.Random(8)
    for _ in range(8):
        # an honest point (of the subgroup) with the identity added, then each other torsion point
        for k, pt in enumerate(_with_each_torsion(_honest_point(rng))):
            xy = _python_decode(pt)
            assert xy is not None
            assert _in_subgroup_by_halving(*xy, seen) == (k == 0)
    for pt in SMALL_ORDER:
        xy = _python_decode(pt)
        assert xy is not None and not _in_subgroup_by_halving(*xy, seen)
    assert seen == {"rational half", "the other half"}
