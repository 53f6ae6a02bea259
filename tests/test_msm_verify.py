"""The verifiers through msm (SPEC §25.12) give the verdict and the reason the reference
verifiers give (benchmarks/verify_reference.py: the shuffle proof checked equation by
equation, without the fold), on honest proofs of random shuffles and on every kind of
tampering; every point is checked; the msm calls are counted."""
from contextlib import contextmanager

import pytest
from hypothesis import given, settings, strategies as st

from benchmarks import verify_reference as ref
from protocol.crypto import group as g
from protocol.crypto import msm as msm_mod
from protocol.crypto import point_cache
from protocol.crypto import proofs as pf
from protocol.poker import deck as mp
from protocol.poker import refresh as rf
from protocol.poker import shuffle_proof as sp

CTX = b"game|seq|author"
Y = g.base_mul(g.scalar_from_int(33))
TABLE = mp.CardTable([f"c{i}" for i in range(12)])
NOT_HOLD = ("ShuffleProofError", "the proof's equations do not hold")


@pytest.fixture(autouse=True)
def every_check_runs(monkeypatch):
    monkeypatch.setattr(sp, "remember_verified", False)


def outcome(verify, *args):
    try:
        verify(*args)
    except (sp.ShuffleProofError, pf.InvalidProof) as exc:
        return type(exc).__name__, exc.reason
    return None


def same(before, after, proof, y=Y, ctx=CTX):
    """The folded and the reference shuffle verifier agree; returns the (kind, reason) or None."""
    new = outcome(sp.verify_shuffle, before, after, proof, y, ctx, "mallory")
    old = outcome(ref.verify_shuffle, before, after, proof, y, ctx, "mallory")
    assert new == old
    return new


def deck(n, general):
    before = mp.initial_deck(TABLE, Y, [f"c{i}" for i in range(n)])   # n ≤ 12
    return mp.shuffle_deck(before, Y)[0] if general else before


def other_point(k):
    return g.hash_to_point(b"msm-verify-test", k.to_bytes(4, "big"))


BAD_POINTS = [g.IDENTITY,
              bytes.fromhex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),  # non-canonical
              None]  # the top bit set on a valid point, made per case


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 12).flatmap(lambda n: st.tuples(st.permutations(range(n)), st.booleans(),
                                                        st.integers(0, 10**9))))
def test_property_honest_proofs_pass_and_every_tampering_fails_alike(case):
    perm, general, pick = case
    n = len(perm)
    before = deck(n, general)
    after, witness = mp.shuffle_deck(before, Y, permutation=perm)
    proof = sp.prove_shuffle(before, after, witness, Y, CTX)
    wire = proof.to_bytes()
    assert same(before, after, wire) is None
    # any scalar replaced by another canonical one
    k = pick % (4 + 2 * n)
    off = 32 * (3 * n + 5) + 32 * k
    value = (int.from_bytes(wire[off:off + 32], "little") + 1 + pick % 7) % g.L
    assert same(before, after, wire[:off] + value.to_bytes(32, "little") + wire[off + 32:]) is not None
    # any point of the proof replaced by another valid one, or by a bad one (named alike)
    j = pick % (3 * n + 5)
    for bad in (other_point(pick % 1000), *BAD_POINTS):
        if bad is None:
            bad = wire[32 * j:32 * j + 31] + bytes([wire[32 * j + 31] | 0x80])
        assert same(before, after, wire[:32 * j] + bad + wire[32 * j + 32:]) is not None
    # any point of the output deck replaced
    i = pick % n
    for bad in (other_point(pick % 1000 + 1), *BAD_POINTS[:2]):
        changed = list(after)
        changed[i] = mp.Ciphertext(after[i].c1, bad) if pick % 2 else mp.Ciphertext(bad, after[i].c2)
        assert same(before, changed, wire) is not None
    # two output cards swapped, another context, another joint key
    if n > 1:
        a, b = i, (i + 1 + pick % (n - 1)) % n
        swapped = list(after)
        swapped[a], swapped[b] = swapped[b], swapped[a]
        assert same(before, swapped, wire) == NOT_HOLD
    assert same(before, after, wire, ctx=CTX + b"!") == NOT_HOLD
    assert same(before, after, wire, y=other_point(7)) is not None


def test_bad_points_are_named_in_order():
    before = deck(4, True)
    after, witness = mp.shuffle_deck(before, Y)
    wire = sp.prove_shuffle(before, after, witness, Y, CTX).to_bytes()
    assert same(before, after, wire[:32] + g.IDENTITY + wire[64:]) == ("ShuffleProofError", "commitment 1: identity")
    chain2 = 32 * (4 + 2)
    assert same(before, after, wire[:chain2] + g.IDENTITY + wire[chain2 + 32:]) == (
        "ShuffleProofError", "chain point 2: identity")
    t41 = 32 * (2 * 4 + 3)
    assert same(before, after, wire[:t41] + g.IDENTITY + wire[t41 + 32:]) == ("ShuffleProofError", "t4,1: identity")
    t_hat3 = 32 * (2 * 4 + 5 + 3)
    assert same(before, after, wire[:t_hat3] + g.IDENTITY + wire[t_hat3 + 32:]) == (
        "ShuffleProofError", "t-hat 3: identity")
    bad = (*after[:3], mp.Ciphertext(after[3].c1, g.IDENTITY))
    # the output deck is named before the proof's own points
    assert same(before, bad, wire[:32] + g.IDENTITY + wire[64:]) == ("ShuffleProofError", "output card 3 C2: identity")
    # the verifier's own input is checked too
    broken = (mp.Ciphertext(before[0].c1, g.IDENTITY), *before[1:])
    assert same(broken, after, wire) == ("ShuffleProofError", "input card 0 C2: identity")


@contextmanager
def permissive_prover(monkeypatch, zero_nonces):
    """Let prove_shuffle take zero nonces for the labels and positions given: a cheating
    prover can choose them (they make a product the identity, which the challenge-form
    verifier used to refuse as degenerate)."""
    base_mul, mul, many = g.base_mul, g.mul, sp._Nonces.many

    def nonces(self, label, n):
        values = many(self, label, n)
        return [0 if (label, i) in zero_nonces else v for i, v in enumerate(values)] if label != b"rho" \
            else zero_nonces.get(b"rho", values)

    with monkeypatch.context() as m:
        m.setattr(g, "base_mul", lambda s: g.IDENTITY if not int.from_bytes(s, "little") else base_mul(s))
        m.setattr(g, "mul", lambda s, p: g.IDENTITY if not int.from_bytes(s, "little") else mul(s, p))
        m.setattr(sp._Nonces, "many", nonces)
        yield


@pytest.mark.parametrize("case", ["chain opens to zero", "commitments sum to the generators",
                                  "a merged coefficient is zero"])
def test_chosen_zero_nonces_still_prove_only_the_true_shuffle(monkeypatch, case):
    """SPEC §25.12: the commitment-form verifier has no degenerate-product refusals. A prover
    that picks these nonces proves a true statement (its own honest shuffle), which both
    verifiers accept, and the proof still binds: another output is refused."""
    before = deck(3, True)
    perm = (2, 0, 1)
    after, witness = mp.shuffle_deck(before, Y, permutation=perm)
    zeros = {"chain opens to zero": {(b"rho-hat", i): 0 for i in range(3)},
             "commitments sum to the generators": {b"rho": [5, 7, g.L - 12]},
             # ρ_j = 0 makes C_j = H_i (i = π⁻¹(j)); ω'_i = 0 then cancels their t3 terms
             "a merged coefficient is zero": {b"rho": [0, 9, 10], (b"omega-prime", 1): 0}}[case]
    with permissive_prover(monkeypatch, zeros):
        wire = sp.prove_shuffle(before, after, witness, Y, CTX).to_bytes()
    assert same(before, after, wire) is None
    other, _ = mp.shuffle_deck(before, Y, permutation=perm)        # the same order, fresh randomisers
    assert same(before, other, wire) == NOT_HOLD


def test_a_proof_is_one_msm_of_8n_plus_8_points(monkeypatch):
    for n in (1, 5, 12):
        before = deck(n, True)
        after, witness = mp.shuffle_deck(before, Y)
        wire = sp.prove_shuffle(before, after, witness, Y, CTX).to_bytes()
        calls = []
        orig_msm, orig_merged = msm_mod.msm, msm_mod.sum_merged
        monkeypatch.setattr(msm_mod, "msm", lambda terms: calls.append(("msm", len(terms))) or orig_msm(terms))
        monkeypatch.setattr(msm_mod, "sum_merged",
                            lambda merged: calls.append(("folded", len(merged))) or orig_merged(merged))
        sp.verify_shuffle(before, after, wire, Y, CTX)
        monkeypatch.setattr(msm_mod, "msm", orig_msm)
        monkeypatch.setattr(msm_mod, "sum_merged", orig_merged)
        # G, H, H_i, C_j, Ĉ_i, a'_i, b'_i, a_j, b_j, Y, t_1 … t_4,2, t̂_i (a general deck: none equal)
        assert calls == [("folded", 8 * n + 8)]


def counting_decodes(monkeypatch):
    seen = []
    orig = g.validate_point
    monkeypatch.setattr(g, "validate_point", lambda p: seen.append(bytes(p)) or orig(p))
    return seen


def test_a_checked_output_deck_is_remembered_as_valid(monkeypatch):
    """The sum decodes every point it takes; the output deck that passed is then in the
    point memory, so the next shuffle's input and every share's C1 are look-ups."""
    point_cache.clear()
    first = deck(6, False)
    second, w1 = mp.shuffle_deck(first, Y)
    p1 = sp.prove_shuffle(first, second, w1, Y, CTX).to_bytes()
    point_cache.clear()
    sp.verify_shuffle(first, second, p1, Y, CTX)
    decoded = counting_decodes(monkeypatch)
    for ct in second:
        point_cache.valid(ct.c1)
        point_cache.valid(ct.c2)
    assert decoded == []
    # a refused proof leaves its output deck unremembered
    point_cache.clear()
    third, w2 = mp.shuffle_deck(second, Y)
    p2 = bytearray(sp.prove_shuffle(second, third, w2, Y, CTX).to_bytes())
    p2[-1] ^= 1
    with pytest.raises(sp.ShuffleProofError):
        sp.verify_shuffle(second, third, bytes(p2), Y, CTX)
    assert not any(ct.c2 in point_cache._SEEN for ct in third)


def test_the_point_memory_keeps_only_what_passed(monkeypatch):
    point_cache.clear()
    p, q, more = other_point(1), other_point(2), [other_point(100 + k) for k in range(10)]
    decoded = counting_decodes(monkeypatch)
    assert point_cache.valid(p) == p and point_cache.valid(p) == p
    assert decoded == [p]
    for _ in range(2):
        with pytest.raises(g.InvalidPoint, match="identity"):
            point_cache.valid(g.IDENTITY)
    assert decoded.count(g.IDENTITY) == 2
    assert not point_cache.is_valid(bytearray(31))
    monkeypatch.setattr(point_cache, "_SEEN_MAX", 4)
    for r in more:
        point_cache.valid(r)
    assert len(point_cache._SEEN) <= 4
    monkeypatch.setattr(point_cache, "remember", False)
    point_cache.clear()
    point_cache.valid(q)
    point_cache.valid(q)
    assert decoded.count(q) == 2


# ---------------------------------------------------------------- Chaum–Pedersen, Schnorr


def cp_same(public, base2, share, proof, ctx):
    new = outcome(pf.verify_equal_dlog, public, base2, share, proof, ctx)
    old = outcome(ref.verify_equal_dlog, public, base2, share, proof, ctx)
    assert new == old
    return new


def flip(b, i=0):
    return b[:i] + bytes([b[i] ^ 1]) + b[i + 1:]


@settings(max_examples=25, deadline=None)
@given(st.integers(1, g.L - 1), st.integers(0, 10**6))
def test_property_share_proofs_agree_with_the_old_verifier(x, k):
    secret = g.scalar_from_int(x)
    public, c1 = g.base_mul(secret), other_point(k)
    share = g.mul(secret, c1)
    proof = pf.prove_equal_dlog(secret, c1, CTX, public=public, share=share)
    assert cp_same(public, c1, share, proof, CTX) is None
    assert cp_same(public, c1, share, proof, CTX + b"!") is not None
    assert cp_same(public, c1, share, pf.EqualDlogProof(flip(proof.a), proof.b, proof.response), CTX) is not None
    assert cp_same(public, c1, share, pf.EqualDlogProof(proof.a, flip(proof.b, 3), proof.response), CTX) is not None
    assert cp_same(public, c1, share, pf.EqualDlogProof(proof.b, proof.a, proof.response), CTX) is not None
    assert cp_same(public, c1, share, pf.EqualDlogProof(proof.a, proof.b, flip(proof.response, 5)), CTX) is not None
    assert cp_same(public, c1, other_point(k + 1), proof, CTX) is not None
    assert cp_same(public, other_point(k + 1), share, proof, CTX) is not None
    assert cp_same(other_point(k + 2), c1, share, proof, CTX) is not None
    for bad in BAD_POINTS[:2]:                        # as share, as key (a re-mask's ΔC1), as base
        assert cp_same(public, c1, bad, proof, CTX) is not None
        assert cp_same(bad, c1, share, proof, CTX) == ("InvalidProof", "a point was rejected or a product was the identity")
        assert cp_same(public, bad, share, proof, CTX) is not None
    dlog = pf.prove_dlog(secret, CTX, public=public)
    for args in ((public, dlog, CTX), (public, dlog, CTX + b"!"), (other_point(k), dlog, CTX),
                 (g.IDENTITY, dlog, CTX), (public, pf.Proof(dlog.challenge, flip(dlog.response)), CTX)):
        assert outcome(pf.verify_dlog, *args) == outcome(ref.verify_dlog, *args)
    assert outcome(pf.verify_dlog, public, dlog, CTX) is None


def test_a_share_proof_is_one_msm_call_and_one_decode(monkeypatch):
    secret = g.scalar_from_int(12345)
    public, c1 = g.base_mul(secret), other_point(3)
    point_cache.valid(public)
    point_cache.valid(c1)                              # state that passed on arrival
    share = g.mul(secret, c1)
    proof = pf.prove_equal_dlog(secret, c1, CTX, public=public, share=share)
    decoded = counting_decodes(monkeypatch)
    calls = []
    orig = msm_mod.msm
    monkeypatch.setattr(msm_mod, "msm", lambda terms: calls.append(len(terms)) or orig(terms))
    pf.verify_equal_dlog(public, c1, share, proof, CTX)
    assert calls == [6] and decoded == [share]          # A and B are decoded by the sum


def test_a_refresh_checks_as_before():
    before = deck(1, True)[0]
    after, proof = rf.refresh_card(before, Y, CTX, "ann")
    rf.verify_refresh(before, after, proof.to_bytes(), Y, CTX, "ann")
    with pytest.raises(rf.RefreshProofError, match="not a re-randomised card: identity"):
        rf.verify_refresh(before, before, proof.to_bytes(), Y, CTX, "ann")
    with pytest.raises(rf.RefreshProofError, match="equations do not hold"):
        rf.verify_refresh(before, after, proof.to_bytes(), Y, CTX + b"!", "ann")
