"""Zero-knowledge proof that a deck is a re-encrypted permutation of another (SPEC §25.10).

Terelius–Wikström proof of a shuffle, in the form of the CHVote specification
(GenShuffleProof / CheckShuffleProof) and Belenios' mixnet, written additively for
ElGamal pairs (C1, C2) = (r·G, M + r·Y) over the prime-order ristretto255 group:

* a Pedersen commitment C_j = ρ_j·G + H_{π⁻¹(j)} to the permutation matrix, one point
  per input position, under generators H_0..H_{n-1} nobody knows the logs of;
* Fiat–Shamir challenges u_j from everything public; a commitment chain
  Ĉ_i = ρ̂_i·G + u_{π(i)}·Ĉ_{i-1} (Ĉ_{-1} = H) that proves ∏u'_i = ∏u_j;
* five Schnorr-like sigma proofs sharing one challenge c, which together show the
  commitment opens to a permutation matrix and that Σ u_{π(i)}·after[i] equals
  Σ u_j·before[j] re-encrypted.

Non-interactive, in commitment form: the proof carries the commitments t and the
responses; the challenge c is the hash of the transcript, recomputed by the verifier, and
the n + 5 verification equations are folded with 128-bit weights drawn from c into one
multi-scalar sum that must be the identity (SPEC §25.12). Every scalar in a proof must be
canonical; every point the sum takes is decoded by it, and a refusal names the first bad
point of the shuffler's.

Costs for an n-card deck (v = variable-base, b = base multiplication):
prove 3n + 2 sums over the fixed bases G and H (the commitments, the chain, the t̂ and t1,
t2: one table read a base and 4-bit digit, no doublings) + 3 n-term sums with secret
scalars (t3, t4,1, t4,2; SPEC §25.13); verify one msm of about 8n distinct points (fewer on a fresh deck, whose
C1 are all G and whose repeated labels share one point: equal bases are merged).
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import Sequence

from protocol.crypto import group as g
from protocol.crypto import point_cache
from protocol.crypto import proof_batch
from protocol.crypto import msm as _msm
from protocol.poker.cards import Ciphertext, MentalPokerError
from protocol.poker.shuffle import ShuffleWitness

PROOF_TAG = b"p2p-asv/shuffle-proof/v1"
CHALLENGE_TAG = b"p2p-asv/shuffle-proof/challenge/v1"
GENERATOR_TAG = b"p2p-asv/shuffle-generator/v1"
NONCE_TAG = b"p2p-asv/shuffle-proof/nonce/v1"
WEIGHT_TAG = b"p2p-asv/shuffle-proof/weights/v1"
_L = g.L
_SB = g.SCALAR_BYTES
_PB = g.POINT_BYTES


def proof_size(n: int) -> int:
    """Bytes of the proof for an n-card deck: 3n + 5 points, 4 + 2n scalars."""
    return (3 * n + 5) * _PB + (4 + 2 * n) * _SB


class ShuffleProofError(MentalPokerError):
    """A shuffle proof that does not verify. ``participant`` is the shuffler (if named),
    ``reason`` says which check failed."""

    def __init__(self, reason: str, participant: str | None = None) -> None:
        self.reason = reason
        self.participant = participant
        who = f" by {participant!r}" if participant is not None else ""
        super().__init__(f"shuffle proof{who} does not verify: {reason}")


# ---------------------------------------------------------------- generators

_GENERATORS: list[bytes] = []
_BASE_H: list[bytes] = []


def generators(n: int) -> tuple[bytes, tuple[bytes, ...]]:
    """(H, (H_0 … H_{n-1})): H = hash_to_point(GENERATOR_TAG, "H"),
    H_i = hash_to_point(GENERATOR_TAG, u32be(i)). Public and game-independent; cached."""
    if not _BASE_H:
        _BASE_H.append(g.hash_to_point(GENERATOR_TAG, b"H"))
    while len(_GENERATORS) < n:
        _GENERATORS.append(g.hash_to_point(GENERATOR_TAG, len(_GENERATORS).to_bytes(4, "big")))
    return _BASE_H[0], tuple(_GENERATORS[:n])


# ---------------------------------------------------------------- the proof object


@dataclass(frozen=True)
class ShuffleProof:
    """Wire form (SPEC §25.10, commitment form): C_0..C_{n-1} ‖ Ĉ_0..Ĉ_{n-1} ‖ t_1 ‖ t_2 ‖ t_3 ‖
    t_4,1 ‖ t_4,2 ‖ t̂_0..t̂_{n-1} ‖ s1 ‖ s2 ‖ s3 ‖ s4 ‖ ŝ_0..ŝ_{n-1} ‖ s'_0..s'_{n-1}; points
    32 bytes, scalars 32 bytes little-endian. The challenge c is not carried: it is the hash
    of the commitments, so the verifier's equations can be folded into one sum."""

    commitments: tuple[bytes, ...]
    chain: tuple[bytes, ...]
    t: tuple[bytes, ...]            # t_1, t_2, t_3, t_4,1, t_4,2
    t_hat: tuple[bytes, ...]
    s1: bytes
    s2: bytes
    s3: bytes
    s4: bytes
    s_hat: tuple[bytes, ...]
    s_prime: tuple[bytes, ...]

    def to_bytes(self) -> bytes:
        return b"".join((*self.commitments, *self.chain, *self.t, *self.t_hat, self.s1, self.s2,
                         self.s3, self.s4, *self.s_hat, *self.s_prime))

    @classmethod
    def from_bytes(cls, data: object, n: int, participant: str | None = None) -> "ShuffleProof":
        """Split the wire form for an n-card deck; checks the length and that every scalar
        is canonical (< L). Points are checked when verified."""
        if not isinstance(data, (bytes, bytearray)):
            raise ShuffleProofError("proof must be bytes", participant)
        data = bytes(data)
        if len(data) != proof_size(n):
            raise ShuffleProofError(f"proof is {len(data)} bytes, a {n}-card deck needs {proof_size(n)}",
                                    participant)
        base = (3 * n + 5) * _PB
        points = [data[i:i + _PB] for i in range(0, base, _PB)]
        scalars = [data[i:i + _SB] for i in range(base, len(data), _SB)]
        for k, s in enumerate(scalars):
            if int.from_bytes(s, "little") >= _L:
                raise ShuffleProofError(f"scalar {k} is not reduced modulo L", participant)
        return cls(tuple(points[:n]), tuple(points[n:2 * n]), tuple(points[2 * n:2 * n + 5]),
                   tuple(points[2 * n + 5:]), scalars[0], scalars[1], scalars[2], scalars[3],
                   tuple(scalars[4:4 + n]), tuple(scalars[4 + n:]))

    def challenge(self, seed: bytes) -> bytes:
        """c: the step-6 hash over the seed, the chain and the carried commitments."""
        t1, t2, t3, t41, t42 = self.t
        return _final_challenge(seed, self.chain, t1, t2, t3, t41, t42, self.t_hat)


# ---------------------------------------------------------------- helpers


def _sc(x: int) -> bytes:
    return (x % _L).to_bytes(_SB, "little")


def _int(s: bytes) -> int:
    return int.from_bytes(s, "little")


def _deck_bytes(deck: Sequence[Ciphertext]) -> bytes:
    return b"".join(ct.c1 + ct.c2 for ct in deck)


def _secret_lincomb(terms: Sequence[tuple[int, bytes]]) -> bytes:
    """Σ k·P over (k, P) pairs with secret k, by the prover's multi-scalar multiplication
    (SPEC §25.13: equal points merged; native: constant time in the scalars). Raises
    GroupError if a point is refused or the sum is the identity (which no proof may carry)."""
    acc = _msm.secret_msm(terms)
    if acc is None:
        raise g.GroupError("linear combination is the identity")
    return acc


def _seed(context: bytes, joint_key: bytes, before: Sequence[Ciphertext], after: Sequence[Ciphertext],
          commitments: Sequence[bytes]) -> bytes:
    """64-byte hash of every public input and the permutation commitment (SPEC §25.10)."""
    h, hs = generators(len(before))
    return hashlib.sha512(g.lp(PROOF_TAG, context, g.G, joint_key, len(before).to_bytes(4, "big"),
                               h + b"".join(hs), _deck_bytes(before), _deck_bytes(after),
                               b"".join(commitments))).digest()


_U32_PART = (4).to_bytes(4, "big")   # lp's length prefix of a u32be part


def _indexed_hashes(prefix: bytes, n: int) -> list[int]:
    """SHA-512(prefix ‖ lp(u32be(j))) as little-endian ints mod L, j = 0 … n-1: the hash
    state after the common prefix is copied, not recomputed (the same bytes hashed)."""
    base = hashlib.sha512(prefix)
    out = []
    for j in range(n):
        h = base.copy()
        h.update(_U32_PART + j.to_bytes(4, "big"))
        out.append(int.from_bytes(h.digest(), "little") % _L)
    return out


def _challenges(seed: bytes, n: int) -> list[int]:
    """u_j = SHA-512(lp(PROOF_TAG, seed, u32be(j))) mod L."""
    return _indexed_hashes(g.lp(PROOF_TAG, seed), n)


def _final_challenge(seed: bytes, chain: Sequence[bytes], t1: bytes, t2: bytes, t3: bytes,
                     t41: bytes, t42: bytes, t_hat: Sequence[bytes]) -> bytes:
    return g.hash_to_scalar(CHALLENGE_TAG, seed, b"".join(chain), t1, t2, t3, t41, t42, b"".join(t_hat))


class _Nonces:
    """Hedged nonces (SPEC §25.10): K = SHA-512(lp(NONCE_TAG, witness, transcript, 32 fresh
    OS bytes)); nonce i of a label = SHA-512(lp(K, label, u32be(i))) mod L, never zero.
    A broken OS generator leaves them secret (they still hide behind the witness), and a
    fixed ``entropy`` (tests only) makes a proof reproducible."""

    def __init__(self, witness: ShuffleWitness, transcript: bytes, entropy: bytes | None) -> None:
        fresh = os.urandom(32) if entropy is None else entropy
        self._key = hashlib.sha512(g.lp(NONCE_TAG, witness.to_bytes(), transcript, fresh)).digest()

    def get(self, label: bytes, i: int = 0) -> int:
        counter = 0
        while True:
            parts = [self._key, label, i.to_bytes(4, "big")] + ([counter.to_bytes(4, "big")] if counter else [])
            k = int.from_bytes(hashlib.sha512(g.lp(*parts)).digest(), "little") % _L
            if k:
                return k
            counter += 1  # pragma: no cover - probability 2**-252

    def many(self, label: bytes, n: int) -> list[int]:
        out = _indexed_hashes(g.lp(self._key, label), n)
        # a zero (probability 2**-252 each) takes get's retry with a counter
        return [k if k else self.get(label, i) for i, k in enumerate(out)]


# ---------------------------------------------------------------- proving


def prove_shuffle(before: Sequence[Ciphertext], after: Sequence[Ciphertext], witness: ShuffleWitness,
                  joint_key: bytes, context: bytes, *, entropy: bytes | None = None) -> ShuffleProof:
    """Prove that ``after[i]`` is ``before[witness.permutation[i]]`` re-encrypted with
    ``witness.randomizers[i]`` under ``joint_key``. ``context`` names the game, event and
    author (the caller's). ``entropy`` (32 bytes) is for known-answer tests only.
    Cost: 3n + 2 fixed-base rows and 3 n-term secret sums (see the module's note)."""
    n = len(before)
    if n == 0 or len(after) != n or len(witness.permutation) != n or sorted(witness.permutation) != list(range(n)):
        raise ValueError("witness and decks do not describe one shuffle")
    perm = witness.permutation
    rand = [_int(r) for r in witness.randomizers]
    h, hs = generators(n)
    inverse = [0] * n
    for i, j in enumerate(perm):
        inverse[j] = i
    transcript = hashlib.sha512(g.lp(PROOF_TAG, context, joint_key, _deck_bytes(before),
                                     _deck_bytes(after))).digest()
    nonces = _Nonces(witness, transcript, entropy)
    rho = nonces.many(b"rho", n)
    # C_j = ρ_j·G + H_{π⁻¹(j)}: n fixed-base multiplications (G's table) in one call
    commitments = [c or g.IDENTITY for c in _msm.fixed_rows((g.G,), [[k] for k in rho], [hs[i] for i in inverse])]
    seed = _seed(context, joint_key, before, after, commitments)
    u = _challenges(seed, n)
    u_perm = [u[perm[i]] for i in range(n)]
    rho_hat = nonces.many(b"rho-hat", n)
    # Ĉ_i = ρ̂_i·G + u'_i·Ĉ_{i-1} (Ĉ_{-1} = H) is a_i·G + b_i·H with a_i = ρ̂_i + u'_i·a_{i-1},
    # b_i = u'_i·b_{i-1} (a_{-1} = 0, b_{-1} = 1): the prover knows both, so each chain point
    # and each t̂ is a sum over the fixed bases G and H (SPEC §25.10, "the prover's sums")
    a_chain, b_chain, a, b = [], [], 0, 1
    for i in range(n):
        a, b = (rho_hat[i] + u_perm[i] * a) % _L, u_perm[i] * b % _L
        a_chain.append(a)
        b_chain.append(b)
    # the openings the five sigma proofs are about
    rho_bar = sum(rho) % _L
    rho_tilde = sum(r * k for r, k in zip(rho, u)) % _L
    r_tilde = sum(r * k for r, k in zip(rand, u_perm)) % _L
    rho_hat_total, v = 0, 1
    for i in range(n - 1, -1, -1):  # ρ̂ = Σ ρ̂_i · ∏_{k>i} u'_k
        rho_hat_total = (rho_hat_total + rho_hat[i] * v) % _L
        v = v * u_perm[i] % _L
    w1, w2, w3, w4 = (nonces.get(b"omega", k) for k in range(4))
    w_hat = nonces.many(b"omega-hat", n)
    w_prime = nonces.many(b"omega-prime", n)
    # t̂_i = ŵ_i·G + ω'_i·Ĉ_{i-1} = (ŵ_i + ω'_i·a_{i-1})·G + ω'_i·b_{i-1}·H; with the chain and
    # t1 = ω1·G, t2 = ω2·G: 2n + 2 rows over (G, H), one call
    rows = [[a_chain[i], b_chain[i]] for i in range(n)]
    rows += [[w_hat[i] + w_prime[i] * (a_chain[i - 1] if i else 0), w_prime[i] * (b_chain[i - 1] if i else 1)]
             for i in range(n)]
    rows += [[w1, 0], [w2, 0]]
    fixed = _msm.fixed_rows((g.G, h), rows)
    if any(p is None for p in fixed):
        raise g.GroupError("linear combination is the identity")
    chain, t_hat = fixed[:n], fixed[n:2 * n]
    t1, t2 = fixed[2 * n], fixed[2 * n + 1]
    t3 = _secret_lincomb([(w3, g.G), *zip(w_prime, hs)])  # n v
    # Σ ω'_i·after[i] = Σ ω'_i·before[π(i)] + (Σ ω'_i r_i)·(G, Y): the prover may merge bases
    wr = sum(a * b for a, b in zip(w_prime, rand)) % _L
    t41 = _secret_lincomb([*((w_prime[i], before[perm[i]].c1) for i in range(n)), (wr - w4, g.G)])  # n v
    t42 = _secret_lincomb([*((w_prime[i], before[perm[i]].c2) for i in range(n)), (wr - w4, joint_key)])  # n v
    c = _int(_final_challenge(seed, chain, t1, t2, t3, t41, t42, t_hat))
    return ShuffleProof(
        tuple(commitments), tuple(chain), (t1, t2, t3, t41, t42), tuple(t_hat),
        _sc(w1 + c * rho_bar), _sc(w2 + c * rho_hat_total), _sc(w3 + c * rho_tilde), _sc(w4 + c * r_tilde),
        tuple(_sc(w_hat[i] + c * rho_hat[i]) for i in range(n)),
        tuple(_sc(w_prime[i] + c * u_perm[i]) for i in range(n)),
    )


# ---------------------------------------------------------------- verifying

#: Digests of inputs whose proof verified in this process (SPEC §25.10, "one check per
#: process"): verification is a deterministic function of its inputs, so replicas that
#: share a process (selfplay, local games, tests) check each distinct proof once.
#: Benchmarks that measure per-replica work set ``remember_verified = False``.
remember_verified = True
_VERIFIED: dict[bytes, None] = {}
_VERIFIED_MAX = 4096


def _input_digest(before, after, proof_bytes: bytes, joint_key: bytes, context: bytes) -> bytes:
    return hashlib.sha256(g.lp(_deck_bytes(before), _deck_bytes(after), proof_bytes, joint_key,
                               context)).digest()



def verify_shuffle(before: Sequence[Ciphertext], after: Sequence[Ciphertext], proof: ShuffleProof | bytes,
                   joint_key: bytes, context: bytes, participant: str | None = None) -> None:
    """Raise ShuffleProofError unless ``proof`` shows ``after`` is a re-encrypted
    permutation of ``before`` under ``joint_key``. ``before`` and ``joint_key`` are the
    verifier's own state; ``after`` and the proof come from the shuffler and need no
    prior point check (every point of them is checked here). Cost: one msm of about 8n
    distinct points, which decodes each (SPEC §25.12)."""
    n = len(before)
    if n == 0:
        raise ShuffleProofError("an empty deck has no shuffle", participant)
    if len(after) != n:
        raise ShuffleProofError(f"deck had {n} cards before and {len(after)} after", participant)
    if not isinstance(proof, ShuffleProof):
        proof = ShuffleProof.from_bytes(proof, n, participant)
    if (len(proof.commitments) != n or len(proof.chain) != n or len(proof.t) != 5 or len(proof.t_hat) != n
            or len(proof.s_hat) != n or len(proof.s_prime) != n):
        raise ShuffleProofError("proof does not fit the deck size", participant)
    digest = _input_digest(before, after, proof.to_bytes(), joint_key, context) if remember_verified else None
    if digest is not None and digest in _VERIFIED:
        return
    try:
        deferred = _check_equations(before, after, proof, joint_key, context)
    except ShuffleProofError as exc:
        raise ShuffleProofError(exc.reason, participant) from None
    if digest is not None and not deferred:
        if len(_VERIFIED) >= _VERIFIED_MAX:
            del _VERIFIED[next(iter(_VERIFIED))]
        _VERIFIED[digest] = None


def _named_points(before: Sequence[Ciphertext], after: Sequence[Ciphertext], proof: ShuffleProof,
                  joint_key: bytes) -> tuple[tuple[str, bytes], ...]:
    """Every point the equations take, named, in the order a refusal names the first bad
    one (SPEC §25.12): the shuffler's (output deck, commitments, chain, the t's), then the
    verifier's own input deck and key."""
    return (*((f"output card {i} C1", ct.c1) for i, ct in enumerate(after)),
            *((f"output card {i} C2", ct.c2) for i, ct in enumerate(after)),
            *((f"commitment {j}", p) for j, p in enumerate(proof.commitments)),
            *((f"chain point {i}", p) for i, p in enumerate(proof.chain)),
            *((f"t{k}", p) for k, p in zip(("1", "2", "3", "4,1", "4,2"), proof.t)),
            *((f"t-hat {i}", p) for i, p in enumerate(proof.t_hat)),
            *((f"input card {j} C1", ct.c1) for j, ct in enumerate(before)),
            *((f"input card {j} C2", ct.c2) for j, ct in enumerate(before)),
            ("joint key", joint_key))


def _name_bad_point(before: Sequence[Ciphertext], after: Sequence[Ciphertext], proof: ShuffleProof,
                    joint_key: bytes) -> None:
    """Raise the refusal that names the first point that fails §25.1 validation, if any."""
    for name, p in _named_points(before, after, proof, joint_key):
        try:
            point_cache.valid(p)
        except g.InvalidPoint as exc:
            raise ShuffleProofError(f"{name}: {exc.reason}") from None


def equation_terms(before: Sequence[Ciphertext], after: Sequence[Ciphertext], proof: ShuffleProof,
                   joint_key: bytes, context: bytes) -> tuple[dict[bytes, int], bytes]:
    """The weighted sum of the verifier's n + 5 equations (SPEC §25.10, §25.12), each written
    as "= identity", as merged coefficients by point, and the challenge c: the proof is valid
    iff this sum is the identity (and every point is a valid one)."""
    n = len(before)
    h, hs = generators(n)
    seed = _seed(context, joint_key, before, after, proof.commitments)
    u = _challenges(seed, n)
    c = _int(proof.challenge(seed))
    s1, s2, s3, s4 = (_int(x) for x in (proof.s1, proof.s2, proof.s3, proof.s4))
    s_hat = [_int(x) for x in proof.s_hat]
    s_prime = [_int(x) for x in proof.s_prime]
    w1, w2, w3, w41, w42, *w_hat = proof_batch.weights(WEIGHT_TAG, _sc(c), n + 5)   # SPEC §25.12
    u_prod = 1
    for k in u:
        u_prod = u_prod * k % _L
    acc: dict[bytes, int] = {}

    def add(k: int, p: bytes) -> None:
        acc[p] = acc.get(p, 0) + k

    chain = proof.chain
    t1, t2, t3, t41, t42 = proof.t
    # E1: s1·G − c·ΣC_j + c·ΣH_i − t1;  E2: s2·G − c·Ĉ_{n-1} + c·∏u·H − t2
    # E3: s3·G + Σ s'_i·H_i − c·Σ u_j·C_j − t3
    add(w1 * s1 + w2 * s2 + w3 * s3 - w41 * s4 + sum(w * s for w, s in zip(w_hat, s_hat)), g.G)
    for j in range(n):
        add(-c * (w1 + w3 * u[j]), proof.commitments[j])
        add(w1 * c + w3 * s_prime[j], hs[j])
    add(-w2 * c, chain[-1])
    add(w2 * c * u_prod, h)
    # E4,1: Σ s'_i·a'_i − s4·G − c·Σ u_j·a_j − t4,1;  E4,2: the same on C2 with Y
    for i in range(n):
        add(w41 * s_prime[i], after[i].c1)
        add(w42 * s_prime[i], after[i].c2)
        add(-w41 * c * u[i], before[i].c1)
        add(-w42 * c * u[i], before[i].c2)
    add(-w42 * s4, joint_key)
    # Ê_i: ŝ_i·G + s'_i·Ĉ_{i-1} − c·Ĉ_i − t̂_i   (Ĉ_{-1} = H)
    for i in range(n):
        add(w_hat[i] * s_prime[i], chain[i - 1] if i else h)
        add(-w_hat[i] * c, chain[i])
        add(-w_hat[i], proof.t_hat[i])
    for w, t in zip((w1, w2, w3, w41, w42), (t1, t2, t3, t41, t42)):
        add(-w, t)
    return {p: k % _L for p, k in acc.items()}, _sc(c)


def _check_equations(before: Sequence[Ciphertext], after: Sequence[Ciphertext], proof: ShuffleProof,
                     joint_key: bytes, context: bytes) -> bool:
    """One msm over the folded equations. The msm decodes every point whose coefficient is
    not zero; the others (there are none in practice) are validated one by one, so every
    point is checked and the refusal names the first bad one in the fixed order. Inside
    ``proof_batch.deferring(batch)`` (a log's verifier, SPEC §25.14) the sum goes to the
    batch instead, and True is returned: nothing is known yet."""
    merged, c = equation_terms(before, after, proof, joint_key, context)
    if not all(point_cache.is_valid(p) for p, k in merged.items() if not k):
        _name_bad_point(before, after, proof, joint_key)
    batch = proof_batch.active()
    if batch is not None:
        batch.add(c, [(k, p) for p, k in merged.items() if k])
        return True
    try:
        total = _msm.sum_merged(merged)
    except g.GroupError:
        _name_bad_point(before, after, proof, joint_key)
        raise ShuffleProofError("a point was refused") from None   # pragma: no cover - named above
    if total is not None:
        raise ShuffleProofError("the proof's equations do not hold")
    point_cache.note_valid([p for ct in after for p in (ct.c1, ct.c2)])
    return False
