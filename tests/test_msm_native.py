"""The native multi-scalar multiplication against the pure path (SPEC §25.13).

Every verdict the C extension gives (a sum, "invalid point") must be the one the pure path
gives through libsodium, and point decoding must refuse exactly what
:func:`protocol.crypto.group.validate_point` refuses. Inputs: random sums at sizes that
take Straus's path and Pippenger's (each algorithm forced at every size too), repeated
points, zero scalars, L-1, the base point, sums that are the identity, hypothesis-drawn
sums, RFC 9496's small multiples of the generator, and encodings built to fail each step
of RFC 9496's decode (§4.3.1), classified here by a plain-Python decode written from it.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import sysconfig

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.crypto import group as g
from protocol.crypto import msm as msm_mod
from tests import ristretto_ref as ref

try:
    from protocol.crypto import _ristretto_native as nat
except ImportError:  # reported by test_extension_is_built, which fails
    nat = None

L = g.L
P = ref.P
needs_native = pytest.mark.skipif(nat is None, reason="extension not built: test_extension_is_built fails")

# Straus (1) and Pippenger at every window: each must give the same sum as the pure path.
METHODS = [0, 1] + list(range(4, 16))


def _can_build() -> bool:
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    include = sysconfig.get_paths()["include"]
    return shutil.which(cc) is not None and os.path.exists(os.path.join(include, "Python.h"))


def test_extension_is_built():
    """The install builds the extension where a C compiler and the Python headers are: a
    failed build there would silently leave the slow path, so it fails here instead.
    Without them the pure path is the backend."""
    if nat is None:
        assert not _can_build(), "a compiler is here but protocol.crypto._ristretto_native did not build or import"
        assert msm_mod.BACKEND == "pure"
        return
    if os.environ.get("ASV_PURE_MSM") == "1":
        assert msm_mod.BACKEND == "pure"
    else:
        assert msm_mod.BACKEND == "native"


def test_env_var_forces_pure():
    code = "from protocol.crypto import msm; print(msm.BACKEND)"
    env = dict(os.environ, ASV_PURE_MSM="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "pure"


# ------------------------------------------------------------------ helpers

_POOL: list[bytes] = []


def _points(n: int) -> list[bytes]:
    while len(_POOL) < n:
        _POOL.append(g.hash_to_point(b"msm-native-test", len(_POOL).to_bytes(4, "big")))
    return _POOL[:n]


def _le(k: int) -> bytes:
    return k.to_bytes(32, "little")


def _native_raw(terms: list[tuple[int, bytes]], method: int = 0) -> bytes:
    """The extension itself, unmerged: repeated points and zero scalars reach the C code."""
    return nat.msm(b"".join(_le(k % L) for k, _ in terms), b"".join(p for _, p in terms), method)


def _pure(terms: list[tuple[int, bytes]]) -> bytes:
    out = msm_mod.msm(terms, backend="pure")
    return g.IDENTITY if out is None else out


def _check_all_ways(terms: list[tuple[int, bytes]], methods: list[int] = METHODS) -> bytes:
    want = _pure(terms)
    got = msm_mod.msm(terms, backend="native")
    assert (g.IDENTITY if got is None else got) == want
    for m in methods:
        assert _native_raw(terms, m) == want, f"method {m}"
    return want


# ------------------------------------------------------------------ sums


@needs_native
@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 64, 300, 1000])
def test_random_sums_agree(n):
    rng = random.Random(n)
    pts = _points(n)
    if n:
        pts[rng.randrange(n)] = g.G
    terms = [(rng.randrange(L), p) for p in pts]
    methods = METHODS if n <= 300 else [0, 1, 6, 8, 11]
    _check_all_ways(terms, methods)


@needs_native
def test_repeated_points_zero_scalars_and_l_minus_1():
    p, q = _points(2)
    rng = random.Random(7)
    cases = [
        [(1, p), (1, p)],                               # P + P in one bucket / the doubling case
        [(L - 1, p)] * 5,
        [(0, p), (0, q)],                               # all zero: the identity
        [(0, p), (5, q), (0, g.G)],
        [(L - 1, g.G), (1, g.G)],                       # the identity through the base point
        [(rng.randrange(L), p) for _ in range(40)],     # one point forty times (Pippenger buckets)
        [(L - 1, q), (L - 1, p), (2, p), (2**252, q)],
        [(2**252 + k, p) for k in range(20)],           # top bits set, carries out of the last window
    ]
    for terms in cases:
        _check_all_ways(terms)


@needs_native
def test_sums_that_are_the_identity():
    rng = random.Random(11)
    for n in (1, 2, 5, 30, 200):
        pts = _points(n)
        ks = [rng.randrange(L) for _ in range(n)]
        terms = list(zip(ks, pts)) + [((-k) % L, p) for k, p in zip(ks, pts)]
        rng.shuffle(terms)
        assert _check_all_ways(terms, [0, 1, 5, 9]) == g.IDENTITY
        assert msm_mod.msm(terms) is None and msm_mod.is_identity(terms)
    # a relation that is no cancellation term by term: a·G + b·(cG) - (a + bc)·G
    a, b, c = (rng.randrange(1, L) for _ in range(3))
    cg = g.base_mul(g.scalar_from_int(c))
    terms = [(a, g.G), (b, cg), ((-(a + b * c)) % L, g.G)]
    assert _native_raw(terms, 1) == g.IDENTITY
    assert msm_mod.is_identity(terms)


@needs_native
def test_rfc9496_small_multiples_of_the_generator():
    """RFC 9496 A.1: n·G for n = 0..15, computed three ways (the plain-Python reference
    double-and-add from the RFC's formulas, libsodium, the extension)."""
    assert ref.base_mul(1) == g.G == bytes.fromhex("e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76")
    for n in range(16):
        want = ref.base_mul(n)
        assert nat.msm(_le(n), g.G) == want
        assert nat.msm(_le(n), g.G, 1) == want
        assert _pure([(n, g.G)]) == want
        if n:
            assert nat.decode_ok(want) == -1


@needs_native
@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(min_value=-(2**300), max_value=2**300), st.integers(0, 12)), max_size=24),
       st.sampled_from(METHODS))
def test_property_native_equals_pure(pairs, method):
    pool = _points(12) + [g.G]
    terms = [(k, pool[i]) for k, i in pairs]
    want = _pure(terms)
    assert _native_raw(terms, method) == want
    got = msm_mod.msm(terms, backend="native")
    assert (g.IDENTITY if got is None else got) == want


@needs_native
@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, L - 1), min_size=1, max_size=10), st.integers(0, L - 1))
def test_property_linearity(ks, c):
    """Σ (c·kᵢ)·Pᵢ = c·(Σ kᵢ·Pᵢ): checked on the extension alone, so no path is its own oracle."""
    pts = _points(len(ks))
    s = _native_raw(list(zip(ks, pts)))
    scaled = _native_raw([(c * k, p) for k, p in zip(ks, pts)])
    if s == g.IDENTITY or c == 0:
        assert scaled == g.IDENTITY
    else:
        assert scaled == _native_raw([(c, s)])


# ------------------------------------------------------------------ decoding


def _ref_decode_verdict(b: bytes) -> str:
    """RFC 9496 §4.3.1 in plain Python, with validate_point's refusal of the identity:
    "ok" or the step that refuses."""
    s = int.from_bytes(b, "little")
    if s >= P:                      # bit 255 set is s >= 2^255 > p: non-canonical too
        return "non-canonical"
    if s & 1:
        return "negative"
    ss = s * s % P
    u1 = (1 - ss) % P
    u2 = (1 + ss) % P
    u2_sqr = u2 * u2 % P
    v = (-(ref.D * u1 * u1) - u2_sqr) % P
    was_square, invsqrt = ref.sqrt_ratio_m1(1, v * u2_sqr)
    den_x = invsqrt * u2 % P
    den_y = invsqrt * den_x * v % P
    x = ref._abs(2 * s * den_x)
    y = u1 * den_y % P
    t = x * y % P
    if not was_square:
        return "non-square"
    if ref._is_negative(t):
        return "negative-xy"
    if y == 0:
        return "y-zero"
    if s == 0:
        return "identity"
    return "ok"


def _adversarial_encodings() -> dict[str, list[bytes]]:
    """Encodings built to fail each step of the decode, from its definition."""
    rng = random.Random(23)
    found: dict[str, list[bytes]] = {}

    def add(b: bytes) -> None:
        found.setdefault(_ref_decode_verdict(b), []).append(b)

    for s in [P, P + 1, P + 2, P + 6, 2**255 - 1, 2**255 + 2, 2**256 - 1, 2**255, 2**255 + 4]:
        add(s.to_bytes(32, "little"))                   # s >= p, and bit 255 set
    for e in _points(6) + [g.G]:
        add(bytes(e[:31]) + bytes([e[31] | 0x80]))      # a valid encoding with bit 255 set
        s = int.from_bytes(e, "little")
        add(((P - s) % P).to_bytes(32, "little"))       # -s: odd, so negative
        add((s + P).to_bytes(32, "little") if s + P < 2**256 else bytes(32))  # s + p: non-canonical
    for s in [1, 3, P - 2]:
        add(s.to_bytes(32, "little"))                   # odd
    add((1).to_bytes(32, "little"))
    add((P - 1).to_bytes(32, "little"))                 # s = -1 (even): u1 = 0, so y = 0
    add(bytes(32))                                      # the identity
    while any(len(found.get(k, [])) < 12 for k in ("non-square", "negative-xy", "ok")):
        add((2 * rng.randrange(P // 2)).to_bytes(32, "little"))   # even and canonical
    return found


_ADVERSARIAL = _adversarial_encodings()


def test_adversarial_encodings_cover_every_refusal():
    for reason in ("non-canonical", "negative", "non-square", "negative-xy", "y-zero", "identity", "ok"):
        assert _ADVERSARIAL.get(reason), reason


@needs_native
def test_decode_refuses_what_validate_point_refuses():
    for reason, encodings in _ADVERSARIAL.items():
        for b in encodings:
            try:
                g.validate_point(b)
                sodium_ok = True
            except g.InvalidPoint:
                sodium_ok = False
            assert sodium_ok == (reason == "ok"), (reason, b.hex())
            assert (nat.decode_ok(b) == -1) == (reason == "ok"), (reason, b.hex())


@needs_native
def test_first_invalid_point_index_both_backends():
    good = _points(5)
    bad = _ADVERSARIAL["negative-xy"][0]
    for backend in ("native", "pure"):
        assert msm_mod.first_invalid_point(good, backend=backend) == -1
        assert msm_mod.first_invalid_point([], backend=backend) == -1
        assert msm_mod.first_invalid_point(good[:3] + [bad] + good[3:], backend=backend) == 3
        assert msm_mod.first_invalid_point(good + [bad[:31]], backend=backend) == 5
        assert msm_mod.first_invalid_point([g.IDENTITY] + good, backend=backend) == 0


@needs_native
@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_property_decode_verdicts_agree(b):
    verdict = _ref_decode_verdict(b)
    assert (nat.decode_ok(b) == -1) == (verdict == "ok")
    assert (msm_mod.first_invalid_point([b], backend="pure") == -1) == (verdict == "ok")


@needs_native
def test_invalid_points_refused_by_both_backends():
    p = _points(1)[0]
    for reason, encodings in _ADVERSARIAL.items():
        if reason == "ok":
            continue
        for b in encodings[:4]:
            for backend in ("native", "pure"):
                with pytest.raises(g.GroupError):
                    msm_mod.msm([(3, p), (5, b)], backend=backend)
                # a point whose merged scalar is 0 is dropped before anything looks at it
                assert msm_mod.msm([(3, p), (5, b), (L - 5, b)], backend=backend) == g.mul(g.scalar_from_int(3), p)
            with pytest.raises(ValueError):
                nat.msm(_le(5), b)


@needs_native
def test_extension_refuses_malformed_calls():
    p = _points(1)[0]
    with pytest.raises(ValueError):
        nat.msm(_le(1), p + p)                          # n scalars, m points
    with pytest.raises(ValueError):
        nat.msm(_le(1)[:31], p[:31])                    # not 32*n
    with pytest.raises(ValueError):
        nat.msm(_le(L), p)                              # not reduced
    with pytest.raises(ValueError):
        nat.msm(b"\xff" * 32, p)
    with pytest.raises(ValueError):
        nat.msm(_le(1), p, 2)                           # no such method
    with pytest.raises(ValueError):
        nat.decode_ok(p[:31])
    assert nat.msm(b"", b"") == g.IDENTITY
    assert nat.msm(_le(L - 1), p) == g.mul(g.scalar_from_int(L - 1), p)
