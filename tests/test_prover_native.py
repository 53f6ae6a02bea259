"""The prover's sums against the pure path (SPEC §25.13, "the prover's sums").

``msm.fixed_rows`` (rows of sums over a few fixed bases, each base by a precomputed table)
and ``msm.secret_msm`` (a sum over any points, constant time in the scalars) must give the
bytes libsodium's multiplications give, one term at a time, on every input: random rows
and sums, zero scalars, L - 1 and scalars far outside [0, L), repeated bases and points,
results that are the identity, an added identity, RFC 9496's small multiples of the
generator, and every kind of invalid encoding (refused by both paths). Then the provers
that use them: a shuffle, its proof and a refresh come out byte for byte the same on
either backend, and the shuffle proof's chain, written as sums over G and H, is the
step-by-step chain of SPEC §25.10.
"""

from __future__ import annotations

import hashlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.crypto import group as g
from protocol.crypto import msm as msm_mod
from protocol.crypto import proofs as pf
from protocol.poker import deck as mp
from protocol.poker import refresh as rf
from protocol.poker import shuffle_proof as sp
from tests import ristretto_ref as ref
from tests.test_msm_native import _ADVERSARIAL

try:
    from protocol.crypto import _ristretto_native as nat
except ImportError:  # tests/test_msm_native.py's test_extension_is_built fails then
    nat = None

L = g.L
needs_native = pytest.mark.skipif(nat is None, reason="extension not built: test_extension_is_built fails")


def _points(n: int, tag: bytes = b"prover-native-test") -> list[bytes]:
    return [g.hash_to_point(tag, i.to_bytes(4, "big")) for i in range(n)]


def _le(k: int) -> bytes:
    return (k % L).to_bytes(32, "little")


def _rows_both(bases, rows, adds=None) -> list[bytes | None]:
    want = msm_mod.fixed_rows(bases, rows, adds, backend="pure")
    got = msm_mod.fixed_rows(bases, rows, adds, backend="native")
    assert got == want
    # each row is also the verifier's msm of the same terms (a third computation)
    for k, row in enumerate(rows):
        terms = list(zip(row, bases)) + ([(1, adds[k])] if adds is not None and adds[k] != g.IDENTITY else [])
        assert msm_mod.msm(terms, backend="pure") == want[k]
    return want


def _secret_both(terms) -> bytes | None:
    want = msm_mod.secret_msm(terms, backend="pure")
    assert msm_mod.secret_msm(terms, backend="native") == want
    assert msm_mod.msm(terms, backend="pure") == want
    return want


# ------------------------------------------------------------------ fixed_rows


@needs_native
@pytest.mark.parametrize("m", [1, 2, 3, 16])
def test_random_rows_agree(m):
    rng = random.Random(m)
    bases = tuple([g.G] + _points(m - 1))
    rows = [[rng.randrange(L) for _ in range(m)] for _ in range(9)]
    _rows_both(bases, rows)
    _rows_both(bases, rows, _points(9, b"adds"))


@needs_native
def test_rows_at_the_edges():
    p, q = _points(2)
    rows = [[0, 0], [1, 0], [0, 1], [L - 1, L - 1], [2**252, 1], [-1, -(2**300)], [2**300 + 5, 7],
            [L, 2 * L]]
    out = _rows_both((g.G, p), rows)
    assert out[0] is None and out[-1] is None                # all zero: the identity
    assert out[1] == g.G and out[2] == p
    adds = [q, g.IDENTITY, p, g.G, q, q, g.IDENTITY, q]
    out = _rows_both((g.G, p), rows, adds)
    assert out[0] == q and out[1] == g.G and out[-1] == q    # the identity added adds nothing
    # a row whose sum cancels its added point; a base twice; the added point equal to a base
    k = random.Random(3).randrange(1, L)
    minus = g.mul(g.scalar_from_int(L - k), p)
    assert _rows_both((p,), [[k]], [minus]) == [None]
    assert _rows_both((p, p), [[k, L - k], [k, 1]]) == [None, g.mul(g.scalar_from_int(k + 1), p)]
    assert _rows_both((p,), [[L - 1]], [p]) == [None]
    assert msm_mod.fixed_rows((g.G,), []) == []


@needs_native
def test_rfc9496_small_multiples_by_the_generator_table():
    for n in range(16):
        want = ref.base_mul(n)
        got = msm_mod.fixed_rows((g.G,), [[n]], backend="native")[0]
        assert (g.IDENTITY if got is None else got) == want
        raw = nat.fixed_batch(nat.fixed_table(g.G), _le(n), b"")
        assert raw == want


@needs_native
@settings(max_examples=50, deadline=None)
@given(st.lists(st.lists(st.integers(min_value=-(2**300), max_value=2**300), min_size=2, max_size=2),
                min_size=1, max_size=6),
       st.lists(st.sampled_from([0, 1, 2, 3]), min_size=6, max_size=6))
def test_property_rows_native_equals_pure(rows, which):
    pool = [g.IDENTITY, g.G] + _points(2)
    adds = [pool[w] for w in which[:len(rows)]]
    _rows_both((g.G, _points(1)[0]), rows)
    _rows_both((g.G, _points(1)[0]), rows, adds)


def _invalid_encodings():
    """Three encodings of each kind of invalid point the msm tests try."""
    for reason, encodings in _ADVERSARIAL.items():
        if reason != "ok":
            yield from encodings[:3]


@needs_native
def test_invalid_bases_and_added_points_are_refused_by_both_paths():
    p = _points(1)[0]
    for b in _invalid_encodings():
        for backend in ("native", "pure"):
            if b != g.IDENTITY:          # the identity as an added point adds nothing
                with pytest.raises(g.GroupError):
                    msm_mod.fixed_rows((g.G,), [[3]], [b], backend=backend)
            with pytest.raises(g.GroupError):
                msm_mod.fixed_rows((p, b), [[3, 5]], backend=backend)
        with pytest.raises(ValueError):
            nat.fixed_table(b)


def test_fixed_rows_refuses_misshapen_calls():
    p = _points(1)[0]
    for backend in ("native", "pure") if nat is not None else ("pure",):
        with pytest.raises(g.GroupError):
            msm_mod.fixed_rows((), [[]], backend=backend)
        with pytest.raises(g.GroupError):
            msm_mod.fixed_rows((p[:31],), [[1]], backend=backend)
        with pytest.raises(ValueError):
            msm_mod.fixed_rows((p,), [[1, 2]], backend=backend)
        with pytest.raises(ValueError):
            msm_mod.fixed_rows((p,), [[1]], [p, p], backend=backend)


@needs_native
def test_extension_refuses_malformed_fixed_calls():
    p = _points(1)[0]
    table = nat.fixed_table(p)
    with pytest.raises(ValueError):
        nat.fixed_table(p[:31])
    with pytest.raises(ValueError):
        nat.fixed_batch(table[:-1], _le(1), b"")               # not whole tables
    with pytest.raises(ValueError):
        nat.fixed_batch(b"", b"", b"")
    with pytest.raises(ValueError):
        nat.fixed_batch(table * 17, _le(1) * 17, b"")          # more than 16 bases
    with pytest.raises(ValueError):
        nat.fixed_batch(table + table, _le(1) * 3, b"")        # rows of 2 scalars
    with pytest.raises(ValueError):
        nat.fixed_batch(table, _le(1) * 2, p)                  # 2 rows, 1 added point
    with pytest.raises(ValueError):
        nat.fixed_batch(table, L.to_bytes(32, "little"), b"")  # not reduced
    assert nat.fixed_batch(table, b"", b"") == b""
    assert nat.fixed_batch(table, _le(L - 1) + _le(2), b"") == g.mul(g.scalar_from_int(L - 1), p) + \
        g.mul(g.scalar_from_int(2), p)


@needs_native
def test_tables_stay_bounded():
    for q in _points(msm_mod._TABLES_MAX + 3, b"many keys"):
        assert msm_mod.fixed_rows((g.G, q), [[1, 1]], backend="native") == [g.add(g.G, q)]
    assert len(msm_mod._TABLES) <= msm_mod._TABLES_MAX and len(msm_mod._JOINED) <= msm_mod._TABLES_MAX


# ------------------------------------------------------------------ secret_msm


@needs_native
@pytest.mark.parametrize("n", [0, 1, 2, 7, 64, 200])
def test_random_secret_sums_agree(n):
    rng = random.Random(100 + n)
    pts = _points(n)
    if n:
        pts[rng.randrange(n)] = g.G
    _secret_both([(rng.randrange(L), p) for p in pts])


@needs_native
def test_secret_sums_at_the_edges():
    p, q = _points(2)
    rng = random.Random(5)
    k = rng.randrange(L)
    for terms in ([(1, p), (1, p)], [(L - 1, p)] * 5, [(0, p), (0, q)], [(0, p), (5, q)],
                  [(k, p), (L - k, p)], [(k, g.G), (-k, g.G), (1, q)], [(2**252 + i, p) for i in range(9)]):
        _secret_both(terms)
    assert _secret_both([(k, p), (L - k, p)]) is None
    # the extension itself, unmerged: repeated points and zero scalars reach the C code
    for terms in ([(1, p), (1, p)], [(0, p), (0, q)], [(k, p), (L - k, p), (3, q)], [(L - 1, q)] * 4):
        raw = nat.ct_msm(b"".join(_le(a) for a, _ in terms), b"".join(b for _, b in terms))
        want = msm_mod.msm(terms, backend="pure")
        assert raw == (g.IDENTITY if want is None else want)
    for n in range(16):
        assert nat.ct_msm(_le(n), g.G) == ref.base_mul(n)


@needs_native
@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.integers(min_value=-(2**300), max_value=2**300), st.integers(0, 8)), max_size=16))
def test_property_secret_native_equals_pure(pairs):
    pool = _points(8) + [g.G]
    _secret_both([(k, pool[i]) for k, i in pairs])


@needs_native
def test_invalid_points_refused_by_both_secret_paths():
    p = _points(1)[0]
    for b in _invalid_encodings():
        for backend in ("native", "pure"):
            with pytest.raises(g.GroupError):
                msm_mod.secret_msm([(3, p), (5, b)], backend=backend)
        with pytest.raises(ValueError):
            nat.ct_msm(_le(5), b)
    with pytest.raises(ValueError):
        nat.ct_msm(_le(1), p + p)
    with pytest.raises(ValueError):
        nat.ct_msm(L.to_bytes(32, "little"), p)
    assert nat.ct_msm(b"", b"") == g.IDENTITY


# ------------------------------------------------------------------ the provers


def _with_backend(monkeypatch, backend: str, fn):
    monkeypatch.setattr(msm_mod, "BACKEND", backend)
    try:
        return fn()
    finally:
        monkeypatch.undo()


@needs_native
@pytest.mark.parametrize("n", [1, 3, 13])
def test_provers_make_the_same_bytes_on_both_backends(monkeypatch, n):
    rng = random.Random(n)
    y = g.base_mul(g.scalar_from_int(rng.randrange(1, L)))
    table = mp.CardTable([f"c{i}" for i in range(n)])
    start = mp.initial_deck(table, y)
    perm = list(range(n))
    rng.shuffle(perm)
    rands = [g.scalar_from_int(rng.randrange(1, L)) for _ in range(n)]

    def run():
        after, witness = mp.shuffle_deck(start, y, permutation=perm, randomizers=rands)
        again, witness2 = mp.shuffle_deck(after, y, permutation=perm[::-1], randomizers=rands[::-1])
        proofs = [sp.prove_shuffle(start, after, witness, y, b"ctx", entropy=bytes(32)).to_bytes(),
                  sp.prove_shuffle(after, again, witness2, y, b"ctx", entropy=b"\x01" * 32).to_bytes()]
        refreshed = [rf.refresh_card(ct, y, b"ctx", "p", r=rands[0]) for ct in again]
        # a refresh's proof nonce is hedged with fresh OS bytes: its proof, made with a
        # fixed nonce, against the proof with the commitments by libsodium one at a time
        fixed = pf.prove_equal_dlog(rands[0], y, b"ctx", nonce=rands[-1], fixed_base2=True)
        assert fixed == pf.prove_equal_dlog(rands[0], y, b"ctx", nonce=rands[-1])
        return after, again, proofs, [ct for ct, _ in refreshed], fixed

    native = _with_backend(monkeypatch, "native", run)
    pure = _with_backend(monkeypatch, "pure", run)
    assert native == pure
    after, again, proofs, refreshed, _ = native
    sp.verify_shuffle(start, after, proofs[0], y, b"ctx")
    sp.verify_shuffle(after, again, proofs[1], y, b"ctx")
    for before in again:
        ct, pr = rf.refresh_card(before, y, b"ctx", "p")
        rf.verify_refresh(before, ct, pr.to_bytes(), y, b"ctx", "p")
    d1 = g.base_mul(rands[0])
    assert refreshed == [mp.Ciphertext(g.add(ct.c1, d1), g.add(ct.c2, g.mul(rands[0], y))) for ct in again]
    # the re-encryption is the one libsodium computes, a card at a time
    for i, j in enumerate(perm):
        r = rands[i]
        assert after[i] == mp.Ciphertext(g.add(start[j].c1, g.base_mul(r)), g.add(start[j].c2, g.mul(r, y)))


def test_chain_and_t_hat_as_sums_over_g_and_h_are_the_step_by_step_ones():
    """SPEC §25.10's chain Ĉ_i = ρ̂_i·G + u'_i·Ĉ_{i-1} and t̂_i = ω̂_i·G + ω'_i·Ĉ_{i-1},
    computed here one libsodium step at a time from the same nonces, against the proof's."""
    n = 6
    y = g.base_mul(g.scalar_from_int(77))
    table = mp.CardTable([f"c{i}" for i in range(n)])
    before = mp.initial_deck(table, y)
    after, witness = mp.shuffle_deck(before, y)
    proof = sp.prove_shuffle(before, after, witness, y, b"ctx", entropy=bytes(32))
    transcript = hashlib.sha512(g.lp(sp.PROOF_TAG, b"ctx", y, sp._deck_bytes(before),
                                     sp._deck_bytes(after))).digest()
    nonces = sp._Nonces(witness, transcript, bytes(32))
    seed = sp._seed(b"ctx", y, before, after, proof.commitments)
    u = sp._challenges(seed, n)
    h, _ = sp.generators(n)
    rho_hat, w_hat, w_prime = nonces.many(b"rho-hat", n), nonces.many(b"omega-hat", n), nonces.many(b"omega-prime", n)
    prev = h
    for i in range(n):
        t_hat = g.add(g.base_mul(g.scalar_from_int(w_hat[i])), g.mul(g.scalar_from_int(w_prime[i]), prev))
        prev = g.add(g.base_mul(g.scalar_from_int(rho_hat[i])), g.mul(g.scalar_from_int(u[witness.permutation[i]]), prev))
        assert proof.chain[i] == prev and proof.t_hat[i] == t_hat
    w1, w2 = nonces.get(b"omega", 0), nonces.get(b"omega", 1)
    assert proof.t[:2] == (g.base_mul(g.scalar_from_int(w1)), g.base_mul(g.scalar_from_int(w2)))
