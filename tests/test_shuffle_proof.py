"""The Terelius–Wikström shuffle proof (SPEC §25.10): completeness, soundness against the
cheats of issue 7, every byte of a proof, known answers, and property tests."""
import hashlib

import pytest
from hypothesis import given, settings, strategies as st

from protocol.crypto import group as g
from protocol.poker import deck as mp
from protocol.poker import shuffle_proof as sp

CTX = b"game|seq|author"
Y = g.base_mul(g.scalar_from_int(33))                     # joint key of secrets 11 + 22
TABLE = mp.CardTable([f"c{i}" for i in range(8)])


def fresh_deck(n):
    return mp.initial_deck(TABLE, Y, [f"c{i}" for i in range(n)])


def shuffled(n, start=None):
    before = fresh_deck(n) if start is None else start
    after, witness = mp.shuffle_deck(before, Y)
    return before, after, witness


def refused(before, after, proof, *, y=Y, ctx=CTX, match=None):
    with pytest.raises(sp.ShuffleProofError, match=match) as info:
        sp.verify_shuffle(before, after, proof, y, ctx, participant="mallory")
    assert info.value.participant == "mallory"
    return info.value


@pytest.mark.parametrize("n", [1, 2, 5])
def test_honest_proofs_verify_on_fresh_and_shuffled_decks(n):
    before, after, witness = shuffled(n)
    proof = sp.prove_shuffle(before, after, witness, Y, CTX)
    assert len(proof.to_bytes()) == sp.proof_size(n) == 160 * n + 288
    sp.verify_shuffle(before, after, proof.to_bytes(), Y, CTX)
    again, witness2 = mp.shuffle_deck(after, Y)          # a general (non-fresh) input
    sp.verify_shuffle(after, again, sp.prove_shuffle(after, again, witness2, Y, CTX), Y, CTX)


def test_proof_is_bound_to_context_key_and_both_decks():
    before, after, witness = shuffled(4)
    proof = sp.prove_shuffle(before, after, witness, Y, CTX).to_bytes()
    refused(before, after, proof, ctx=CTX + b"x", match="equations do not hold")
    refused(before, after, proof, y=g.base_mul(g.scalar_from_int(34)))
    other_input = fresh_deck(5)[1:]
    refused(other_input, after, proof)
    swapped = (after[1], after[0], *after[2:])
    refused(before, swapped, proof)


def test_attack_1_fresh_encryptions_of_a_chosen_arrangement_cannot_be_proven():
    # the last shuffler replaces the deck with encryptions it knows the order of
    before, _, _ = shuffled(4, mp.shuffle_deck(fresh_deck(4), Y)[0])
    chosen, rands = [3, 2, 1, 0], [g.random_scalar() for _ in range(4)]
    forged = tuple(mp.Ciphertext(g.base_mul(r), g.add(TABLE.point(f"c{k}"), g.mul(r, Y)))
                   for k, r in zip(chosen, rands))
    # its best try: a proof under a made-up witness (it has no real one)
    fake = mp.ShuffleWitness((0, 1, 2, 3), tuple(rands))
    refused(before, forged, sp.prove_shuffle(before, forged, fake, Y, CTX))


def test_duplicated_or_substituted_card_cannot_be_proven():
    before, after, witness = shuffled(4)
    dup = (after[0], mp.rerandomize(after[0], g.random_scalar(), Y), *after[2:])
    refused(before, dup, sp.prove_shuffle(before, dup, witness, Y, CTX))
    # a ciphertext of no card (attack 4) in place of a real one
    junk = mp.Ciphertext(g.base_mul(g.random_scalar()), g.base_mul(g.random_scalar()))
    sub = (*after[:3], junk)
    refused(before, sub, sp.prove_shuffle(before, sub, witness, Y, CTX))


def test_bad_points_are_refused_and_named():
    before, after, witness = shuffled(3)
    proof = sp.prove_shuffle(before, after, witness, Y, CTX)
    non_canonical = bytes.fromhex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")  # s = -1
    bad = (mp.Ciphertext(after[0].c1, non_canonical), *after[1:])
    refused(before, bad, proof, match="output card 0 C2")
    # the same element with the top bit set (libsodium 1.0.18 would decode it): a mark
    marked = after[1].c2[:31] + bytes([after[1].c2[31] | 0x80])
    bad = (after[0], mp.Ciphertext(after[1].c1, marked), *after[2:])
    refused(before, bad, proof, match="output card 1 C2")
    wire = bytearray(proof.to_bytes())
    wire[32:64] = g.IDENTITY                               # commitment 1
    refused(before, after, bytes(wire), match="commitment 1: identity")
    refused(before, after, proof.to_bytes()[:-1], match="bytes")
    refused(before, after, proof.to_bytes() + b"\0", match="bytes")
    high = bytearray(proof.to_bytes())
    high[-1] = 0xFF                                        # last s' not reduced modulo L
    refused(before, after, bytes(high), match="not reduced")
    refused(before, after[:2], proof, match="3 cards before and 2 after")


def test_every_byte_of_a_proof_flipped_is_refused():
    before, after, witness = shuffled(3)
    wire = sp.prove_shuffle(before, after, witness, Y, CTX).to_bytes()
    sp.verify_shuffle(before, after, wire, Y, CTX)
    for i in range(len(wire)):
        flipped = bytearray(wire)
        flipped[i] ^= 0x01 << (i % 8)
        with pytest.raises(sp.ShuffleProofError):
            sp.verify_shuffle(before, after, bytes(flipped), Y, CTX)


def test_a_verified_proof_is_remembered_per_process_but_nothing_else_is(monkeypatch):
    before, after, witness = shuffled(3)
    wire = sp.prove_shuffle(before, after, witness, Y, CTX).to_bytes()
    sp.verify_shuffle(before, after, wire, Y, CTX)
    calls = []

    def checked(*args):
        calls.append(args)
        raise sp.ShuffleProofError("checked again")
    monkeypatch.setattr(sp, "_check_equations", checked)
    sp.verify_shuffle(before, after, wire, Y, CTX)         # byte-identical inputs: no new check
    assert calls == []
    with pytest.raises(sp.ShuffleProofError):               # anything else is checked again
        sp.verify_shuffle(before, after, wire, Y, CTX + b"!")
    monkeypatch.setattr(sp, "remember_verified", False)
    with pytest.raises(sp.ShuffleProofError):
        sp.verify_shuffle(before, after, wire, Y, CTX)
    assert len(calls) == 2


def test_hedged_nonces_are_fresh_but_reproducible_with_fixed_entropy():
    before, after, witness = shuffled(3)
    a = sp.prove_shuffle(before, after, witness, Y, CTX).to_bytes()
    b = sp.prove_shuffle(before, after, witness, Y, CTX).to_bytes()
    assert a != b                                          # fresh OS bytes go into the nonces
    fixed = bytes(32)
    assert (sp.prove_shuffle(before, after, witness, Y, CTX, entropy=fixed).to_bytes()
            == sp.prove_shuffle(before, after, witness, Y, CTX, entropy=fixed).to_bytes())


def test_known_answer():
    # SPEC §25.10 example: Y = 33·G, deck x, y, z (fresh), π = (2, 0, 1), r = (5, 6, 7),
    # context "kat", entropy 32 zero bytes.
    table = mp.CardTable(["x", "y", "z"])
    before = mp.initial_deck(table, Y)
    rands = [g.scalar_from_int(k) for k in (5, 6, 7)]
    after, witness = mp.shuffle_deck(before, Y, permutation=[2, 0, 1], randomizers=rands)
    h, hs = sp.generators(3)
    assert h.hex() == KAT_H
    assert hs[0].hex() == KAT_H0
    proof = sp.prove_shuffle(before, after, witness, Y, b"kat", entropy=bytes(32))
    seed = sp._seed(b"kat", Y, before, after, proof.commitments)
    assert proof.challenge(seed).hex() == KAT_CHALLENGE
    assert hashlib.sha256(proof.to_bytes()).hexdigest() == KAT_PROOF_SHA256
    sp.verify_shuffle(before, after, proof.to_bytes(), Y, b"kat")


KAT_H = "9247b515b14062380bcfa426ceeebba33621fe6b177743a13150c30ac23e9d18"
KAT_H0 = "56af447eac393c05759c1ce4b687e03a09120f95e2f26d7a03b946498f8bca06"
KAT_CHALLENGE = "e5a10dfadd6d87ea23a1f477317db5f394791db03bb57bb74af7bdcd88f8750c"
KAT_PROOF_SHA256 = "b82deaedd34f63532d2d411116e4c640fbe02f54858bd29de695ea48e847b7e4"


@settings(max_examples=12, deadline=None)
@given(st.integers(3, 8).flatmap(lambda n: st.tuples(st.permutations(range(n)), st.permutations(range(n)))))
def test_property_any_permutation_verifies_and_no_other_output_does(perms):
    first, second = perms
    n = len(first)
    before = fresh_deck(n)
    after, witness = mp.shuffle_deck(before, Y, permutation=first)
    proof = sp.prove_shuffle(before, after, witness, Y, CTX).to_bytes()
    sp.verify_shuffle(before, after, proof, Y, CTX)
    other, _ = mp.shuffle_deck(before, Y, permutation=second)   # fresh randomisers: another output
    with pytest.raises(sp.ShuffleProofError):
        sp.verify_shuffle(before, other, proof, Y, CTX)


def spec_verify(before, after, proof, y, context):
    """A second verifier written from SPEC §25.10 and §25.12 alone (no code shared with the
    module but the §25.1 primitives): it folds the equations with the SPEC's weights, one
    multiplication at a time, and must agree with the module on the known answer."""
    n = len(before)
    lp, L = g.lp, g.L
    sc = lambda k: (k % L).to_bytes(32, "little")            # noqa: E731
    num = lambda b: int.from_bytes(b, "little")               # noqa: E731
    tag = b"p2p-asv/shuffle-generator/v1"
    h = g.hash_to_point(tag, b"H")
    hs = [g.hash_to_point(tag, i.to_bytes(4, "big")) for i in range(n)]
    pts = [proof[32 * k:32 * k + 32] for k in range(3 * n + 5)]
    cs, chain, ts, t_hat = pts[:n], pts[n:2 * n], pts[2 * n:2 * n + 5], pts[2 * n + 5:]
    base = 32 * (3 * n + 5)
    scal = [num(proof[base + 32 * k:base + 32 * k + 32]) for k in range(4 + 2 * n)]
    s1, s2, s3, s4 = scal[:4]
    s_hat, s_pr = scal[4:4 + n], scal[4 + n:]
    deck = lambda d: b"".join(ct.c1 + ct.c2 for ct in d)     # noqa: E731
    seed = hashlib.sha512(lp(b"p2p-asv/shuffle-proof/v1", context, g.G, y, n.to_bytes(4, "big"),
                             h + b"".join(hs), deck(before), deck(after), b"".join(cs))).digest()
    u = [num(hashlib.sha512(lp(b"p2p-asv/shuffle-proof/v1", seed, j.to_bytes(4, "big"))).digest()) % L
         for j in range(n)]
    c_bytes = g.hash_to_scalar(b"p2p-asv/shuffle-proof/challenge/v1", seed, b"".join(chain), *ts, b"".join(t_hat))
    c = num(c_bytes)
    stream = hashlib.shake_256(lp(b"p2p-asv/shuffle-proof/weights/v1", c_bytes)).digest(16 * (n + 5))
    w = [num(stream[16 * k:16 * k + 16]) or 1 for k in range(n + 5)]
    prod = 1
    for k in u:
        prod = prod * k % L
    equations = [
        [(s1, g.G), *((-c, cj) for cj in cs), *((c, hi) for hi in hs), (-1, ts[0])],
        [(s2, g.G), (-c, chain[-1]), (c * prod, h), (-1, ts[1])],
        [(s3, g.G), *zip(s_pr, hs), *((-c * u[j], cs[j]) for j in range(n)), (-1, ts[2])],
        [*((s_pr[i], after[i].c1) for i in range(n)), (-s4, g.G), *((-c * u[j], before[j].c1) for j in range(n)),
         (-1, ts[3])],
        [*((s_pr[i], after[i].c2) for i in range(n)), (-s4, y), *((-c * u[j], before[j].c2) for j in range(n)),
         (-1, ts[4])],
        *([(s_hat[i], g.G), (s_pr[i], chain[i - 1] if i else h), (-c, chain[i]), (-1, t_hat[i])] for i in range(n)),
    ]
    acc = None                                                # Σ_k w_k·E_k, one term at a time
    for weight, terms in zip(w, equations):
        for k, p in terms:
            if (weight * k) % L:
                t = g.mul(sc(weight * k), p)
                acc = t if acc is None else g.add(acc, t)
    return acc == g.IDENTITY


def test_a_verifier_written_from_the_spec_agrees_on_the_known_answer():
    table = mp.CardTable(["x", "y", "z"])
    before = mp.initial_deck(table, Y)
    rands = [g.scalar_from_int(k) for k in (5, 6, 7)]
    after, witness = mp.shuffle_deck(before, Y, permutation=[2, 0, 1], randomizers=rands)
    wire = sp.prove_shuffle(before, after, witness, Y, b"kat", entropy=bytes(32)).to_bytes()
    assert spec_verify(before, after, wire, Y, b"kat")
    assert not spec_verify(before, (after[1], after[0], after[2]), wire, Y, b"kat")
    assert not spec_verify(before, after, wire, Y, b"kat2")
