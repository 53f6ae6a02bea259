"""The multi-scalar multiplication seam (SPEC §25.1): same sums as term-by-term group arithmetic."""

from protocol.crypto import group as g
from protocol.crypto.msm import is_identity, msm

_L = 2**252 + 27742317777372353535851937790883648493


def _point(i: int) -> bytes:
    return g.hash_to_point(b"msm-test", i.to_bytes(4, "big"))


def test_sum_matches_term_by_term():
    pts = [_point(i) for i in range(5)]
    ks = [3, 7, 2**200 + 5, _L - 1, 11]
    want = g.mul(g.scalar_from_int(ks[0]), pts[0])
    for k, p in zip(ks[1:], pts[1:]):
        want = g.add(want, g.mul(g.scalar_from_int(k % _L), p))
    assert msm(list(zip(ks, pts))) == want


def test_base_point_and_repeats_merge():
    p = _point(1)
    assert msm([(2, p), (3, p)]) == g.mul(g.scalar_from_int(5), p)
    assert msm([(4, g.G)]) == g.base_mul(g.scalar_from_int(4))


def test_identity_is_none():
    p = _point(2)
    assert msm([(5, p), (_L - 5, p)]) is None
    assert msm([]) is None
    assert is_identity([(1, p), (1, g.mul(g.scalar_from_int(_L - 1), p))])
    assert not is_identity([(1, p)])
