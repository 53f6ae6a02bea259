"""The proof verifiers as they were before issue 23 (SPEC §25.2, §25.10), kept as the reference.

It recomputes every commitment with one libsodium multiplication per term (equal bases
merged), lets those multiplications check the points, and names a refused point only
afterwards. ``benchmarks/shuffle_proof_bench.py`` times it beside today's verifier, and
``tests/test_msm_verify.py`` checks that the two give the same verdict and the same
reason on every input it tries. Nothing in protocol/ uses it.
"""
from __future__ import annotations

from typing import Sequence

from protocol.crypto import group as g
from protocol.crypto import proofs as pf
from protocol.poker import shuffle_proof as sp
from protocol.poker.cards import Ciphertext

_L = g.L


def _sc(x: int) -> bytes:
    return (x % _L).to_bytes(32, "little")


def _lincomb(terms: Sequence[tuple[int, bytes]]) -> bytes:
    merged: dict[bytes, int] = {}
    for k, p in terms:
        merged[p] = (merged.get(p, 0) + k) % _L
    acc = None
    for p, k in merged.items():
        term = g.base_mul(_sc(k)) if p == g.G else g.mul(_sc(k), p)
        acc = term if acc is None else g.add(acc, term)
    if acc is None:
        raise g.GroupError("empty linear combination")
    return acc


def verify_shuffle(before: Sequence[Ciphertext], after: Sequence[Ciphertext], proof: sp.ShuffleProof | bytes,
                   joint_key: bytes, context: bytes, participant: str | None = None) -> None:
    """The old verify_shuffle without the per-process memory of verified proofs."""
    n = len(before)
    if n == 0:
        raise sp.ShuffleProofError("an empty deck has no shuffle", participant)
    if len(after) != n:
        raise sp.ShuffleProofError(f"deck had {n} cards before and {len(after)} after", participant)
    if not isinstance(proof, sp.ShuffleProof):
        proof = sp.ShuffleProof.from_bytes(proof, n, participant)
    try:
        expected = _expected_challenge(before, after, proof, joint_key, context)
    except (g.GroupError, RuntimeError):
        raise sp.ShuffleProofError(_which_point(after, proof), participant) from None
    if expected != proof.challenge:
        raise sp.ShuffleProofError("challenge does not match the transcript", participant)


def _expected_challenge(before, after, proof, joint_key, context) -> bytes:
    n = len(before)
    h, hs = sp.generators(n)
    seed = sp._seed(context, joint_key, before, after, proof.commitments)
    u = sp._challenges(seed, n)
    c = int.from_bytes(proof.challenge, "little")
    neg_c = _L - c
    s_prime = [int.from_bytes(s, "little") for s in proof.s_prime]
    chain = proof.chain
    c_bar = g.sub(g.sum_points(list(proof.commitments)), g.sum_points(list(hs)))
    t1 = g.add(g.base_mul(proof.s1), g.mul(_sc(neg_c), c_bar))
    u_prod = 1
    for k in u:
        u_prod = u_prod * k % _L
    c_hat = g.sub(chain[-1], g.mul(_sc(u_prod), h))
    t2 = g.add(g.base_mul(proof.s2), g.mul(_sc(neg_c), c_hat))
    t3 = _lincomb([(int.from_bytes(proof.s3, "little"), g.G), *zip(s_prime, hs),
                   *((neg_c * u[j], proof.commitments[j]) for j in range(n))])
    s4 = int.from_bytes(proof.s4, "little")
    t41 = _lincomb([*((s_prime[i], after[i].c1) for i in range(n)), (-s4, g.G),
                    *((neg_c * u[j], before[j].c1) for j in range(n))])
    t42 = _lincomb([*((s_prime[i], after[i].c2) for i in range(n)), (-s4, joint_key),
                    *((neg_c * u[j], before[j].c2) for j in range(n))])
    neg_c_bytes = _sc(neg_c)
    t_hat = [g.add(g.add(g.base_mul(proof.s_hat[i]), g.mul(proof.s_prime[i], chain[i - 1] if i else h)),
                   g.mul(neg_c_bytes, chain[i]))
             for i in range(n)]
    return sp._final_challenge(seed, chain, t1, t2, t3, t41, t42, t_hat)


def _which_point(after, proof) -> str:
    named = [*((f"output card {i} C1", ct.c1) for i, ct in enumerate(after)),
             *((f"output card {i} C2", ct.c2) for i, ct in enumerate(after)),
             *((f"commitment {j}", p) for j, p in enumerate(proof.commitments)),
             *((f"chain point {i}", p) for i, p in enumerate(proof.chain))]
    for name, p in named:
        try:
            g.validate_point(p)
        except g.InvalidPoint as exc:
            return f"{name}: {exc.reason}"
    return "a zero scalar or a product that is the identity"


def verify_dlog(public: bytes, proof: pf.Proof, context: bytes) -> None:
    """The old Schnorr check: R = s·G − c·Y by a base and a variable-base multiplication."""
    kind = "Schnorr"
    try:
        public = g.validate_point(public)
    except g.InvalidPoint as exc:
        raise pf.InvalidProof(kind, f"public key: {exc.reason}") from exc
    pf._check_scalars(proof, kind)
    try:
        r = g.sub(g.base_mul(proof.response), g.mul(proof.challenge, public))
    except g.GroupError as exc:
        raise pf.InvalidProof(kind, "commitment reconstructs to the identity") from exc
    if pf._schnorr_challenge(context, public, r) != proof.challenge:
        raise pf.InvalidProof(kind, "challenge does not match transcript")


def verify_equal_dlog(public: bytes, base2: bytes, share: bytes, proof: pf.Proof, context: bytes) -> None:
    """The old Chaum–Pedersen check: A, B by one multiplication per term."""
    kind = "Chaum-Pedersen"
    for name, p in (("public key", public), ("base", base2)):
        if not isinstance(p, (bytes, bytearray)) or len(p) != g.POINT_BYTES:
            raise pf.InvalidProof(kind, f"{name}: not a {g.POINT_BYTES}-byte point")
    try:
        g.validate_point(share)
    except g.InvalidPoint as exc:
        raise pf.InvalidProof(kind, f"share: {exc.reason}") from exc
    pf._check_scalars(proof, kind)
    try:
        a = g.sub(g.base_mul(proof.response), g.mul(proof.challenge, public))
        b = g.sub(g.mul(proof.response, base2), g.mul(proof.challenge, share))
    except g.GroupError as exc:
        raise pf.InvalidProof(kind, "a point was rejected or a product was the identity") from exc
    if pf._cp_challenge(context, public, base2, share, a, b) != proof.challenge:
        raise pf.InvalidProof(kind, "challenge does not match transcript")
