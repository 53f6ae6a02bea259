"""Reference proof verifiers, kept beside the ones protocol/ uses (SPEC §25.2, §25.10, §25.12).

The shuffle proof here is checked equation by equation, each commitment recomputed with one
libsodium multiplication per term (equal bases merged) and compared with the one the proof
carries: no folding with weights. The Schnorr and Chaum–Pedersen checks are the ones from
before issue 23: one multiplication per term, the points checked by those multiplications.
``benchmarks/shuffle_proof_bench.py`` times it beside the folded verifier, and
``tests/test_msm_verify.py`` checks that the two give the same verdict and the same reason
on every input it tries. Nothing in protocol/ uses it.
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
        if not k:          # a merged coefficient of 0: the term vanishes
            continue
        term = g.base_mul(_sc(k)) if p == g.G else g.mul(_sc(k), p)
        acc = term if acc is None else g.add(acc, term)
    if acc is None:
        raise g.GroupError("empty linear combination")
    return acc


def verify_shuffle(before: Sequence[Ciphertext], after: Sequence[Ciphertext], proof: sp.ShuffleProof | bytes,
                   joint_key: bytes, context: bytes, participant: str | None = None) -> None:
    """The commitment-form shuffle proof checked equation by equation (SPEC §25.10), without
    the fold: every point validated in the named order, then each of the n + 5 equations
    recomputed by libsodium multiplications and compared with the commitment the proof
    carries. No per-process memory of verified proofs."""
    n = len(before)
    if n == 0:
        raise sp.ShuffleProofError("an empty deck has no shuffle", participant)
    if len(after) != n:
        raise sp.ShuffleProofError(f"deck had {n} cards before and {len(after)} after", participant)
    if not isinstance(proof, sp.ShuffleProof):
        proof = sp.ShuffleProof.from_bytes(proof, n, participant)
    for name, p in sp._named_points(before, after, proof, joint_key):
        try:
            g.validate_point(p)
        except g.InvalidPoint as exc:
            raise sp.ShuffleProofError(f"{name}: {exc.reason}", participant) from None
    if _recomputed(before, after, proof, joint_key, context) != (*proof.t, *proof.t_hat):
        raise sp.ShuffleProofError("the proof's equations do not hold", participant)


def _recomputed(before, after, proof, joint_key, context) -> tuple[bytes, ...]:
    """t_1', t_2', t_3', t_4,1', t_4,2', t̂_0' … t̂_{n-1}' from the responses (SPEC §25.10);
    a sum that is the identity is its encoding, 32 zero bytes (no proof may carry it)."""
    n = len(before)
    h, hs = sp.generators(n)
    seed = sp._seed(context, joint_key, before, after, proof.commitments)
    u = sp._challenges(seed, n)
    c = int.from_bytes(proof.challenge(seed), "little")

    def comb(terms):
        try:
            return _lincomb(terms)
        except g.GroupError:
            return g.IDENTITY
    s = [int.from_bytes(x, "little") for x in (proof.s1, proof.s2, proof.s3, proof.s4)]
    s_hat = [int.from_bytes(x, "little") for x in proof.s_hat]
    s_prime = [int.from_bytes(x, "little") for x in proof.s_prime]
    chain = proof.chain
    u_prod = 1
    for k in u:
        u_prod = u_prod * k % _L
    t1 = comb([(s[0], g.G), *((-c, cj) for cj in proof.commitments), *((c, hi) for hi in hs)])
    t2 = comb([(s[1], g.G), (-c, chain[-1]), (c * u_prod, h)])
    t3 = comb([(s[2], g.G), *zip(s_prime, hs), *((-c * u[j], proof.commitments[j]) for j in range(n))])
    t41 = comb([*((s_prime[i], after[i].c1) for i in range(n)), (-s[3], g.G),
                *((-c * u[j], before[j].c1) for j in range(n))])
    t42 = comb([*((s_prime[i], after[i].c2) for i in range(n)), (-s[3], joint_key),
                *((-c * u[j], before[j].c2) for j in range(n))])
    t_hat = [comb([(s_hat[i], g.G), (s_prime[i], chain[i - 1] if i else h), (-c, chain[i])]) for i in range(n)]
    return (t1, t2, t3, t41, t42, *t_hat)


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


def verify_equal_dlog(public: bytes, base2: bytes, share: bytes, proof: pf.EqualDlogProof, context: bytes) -> None:
    """The commitment-form Chaum–Pedersen check without the fold: the points validated in
    the verifier's order, then s·G = A + c·Y and s·C = B + c·D each by libsodium
    multiplications."""
    kind = "Chaum-Pedersen"
    for name, p in (("public key", public), ("base", base2), ("share", share)):
        if not isinstance(p, (bytes, bytearray)) or len(p) != g.POINT_BYTES:
            raise pf.InvalidProof(kind, f"{name}: not a {g.POINT_BYTES}-byte point")
    try:
        g.validate_point(share)
    except g.InvalidPoint as exc:
        raise pf.InvalidProof(kind, f"share: {exc.reason}") from exc
    try:
        g.validate_scalar(proof.response, nonzero=True)
    except g.InvalidScalar as exc:
        raise pf.InvalidProof(kind, f"bad scalar: {exc.reason}") from exc
    try:
        g.validate_point(public)
        g.validate_point(base2)
    except g.InvalidPoint:
        raise pf.InvalidProof(kind, "a point was rejected or a product was the identity") from None
    for name, p in (("commitment A", proof.a), ("commitment B", proof.b)):
        try:
            g.validate_point(p)
        except g.InvalidPoint as exc:
            raise pf.InvalidProof(kind, f"{name}: {exc.reason}") from exc
    c = pf._cp_challenge(context, public, base2, share, proof.a, proof.b)

    def equal(left: bytes, right: bytes) -> bool:
        return left == right
    ok = equal(g.base_mul(proof.response), g.add(proof.a, g.mul(c, public))) and \
        equal(g.mul(proof.response, base2), g.add(proof.b, g.mul(c, share)))
    if not ok:
        raise pf.InvalidProof(kind, "the proof's equations do not hold")
