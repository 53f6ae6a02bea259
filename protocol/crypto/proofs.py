"""Non-interactive zero-knowledge proofs over the ristretto255 group (SPEC §25.2).

* Schnorr proof of knowledge of x with Y = x·G (key shares).
* Chaum-Pedersen proof that log_G(Y) = log_C(D) (decryption shares: D = x·C1).

Both use Fiat-Shamir: the challenge is SHA-512 over a length-prefixed transcript that
starts with a domain tag and the caller's context (game id, event, player ...), then the
statement and the commitments, reduced modulo L. A Schnorr proof is 64 bytes, challenge c
then response s (challenge form). A Chaum-Pedersen proof is 96 bytes, its commitments A
and B then s (commitment form): the verifier hashes c itself, so its two equations are
one sum, and a log's verifier may defer them into one sum for many proofs
(protocol/crypto/proof_batch.py). Proof verification never trusts its inputs: points are
validated and scalars must be canonical and non-zero.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from protocol.crypto import group as g
from protocol.crypto import point_cache
from protocol.crypto import msm as _msm
from protocol.crypto import proof_batch
from protocol.errors import InvalidProof

SCHNORR_TAG = b"p2p-asv/schnorr-pok/v1"
CHAUM_PEDERSEN_TAG = b"p2p-asv/chaum-pedersen/v1"
NONCE_TAG = b"p2p-asv/proof-nonce/v1"
DERIVED_NONCE_TAG = b"p2p-asv/proof-nonce/derived/v1"   # decryption shares (SPEC §25.2, §23.4)
CP_WEIGHT_TAG = b"p2p-asv/chaum-pedersen/weight/v1"
PROOF_BYTES = 64
EQUAL_DLOG_PROOF_BYTES = 96


@dataclass(frozen=True)
class Proof:
    """Fiat-Shamir proof: challenge c and response s (32-byte scalars each)."""

    challenge: bytes
    response: bytes

    def to_bytes(self) -> bytes:
        return self.challenge + self.response

    @classmethod
    def from_bytes(cls, data: bytes, kind: str = "") -> "Proof":
        if not isinstance(data, (bytes, bytearray)) or len(data) != PROOF_BYTES:
            raise InvalidProof(kind or "encoded", f"proof must be {PROOF_BYTES} bytes")
        data = bytes(data)
        return cls(data[:32], data[32:])


def _check_scalars(proof: Proof, kind: str) -> None:
    try:
        g.validate_scalar(proof.challenge, nonzero=True)
        g.validate_scalar(proof.response, nonzero=True)
    except g.InvalidScalar as exc:
        raise InvalidProof(kind, f"bad scalar: {exc.reason}") from exc


def _derived_nonce(secret: bytes, *transcript: bytes) -> bytes:
    """A derived nonce (SPEC §25.2): H(DERIVED_NONCE_TAG, secret, transcript, u32be(i)) mod L
    for the first i = 0, 1, ... that gives a nonzero one. One statement always gets the one
    nonce, so its proof is made again byte for byte (a decryption share's, SPEC §23.4);
    two statements never share one, and without the secret nobody can predict it."""
    i = 0
    while True:
        k = g.hash_to_scalar(DERIVED_NONCE_TAG, secret, *transcript, i.to_bytes(4, "big"))
        if g.scalar_to_int(k):
            return k
        i += 1   # pragma: no cover - probability 2**-252


def _fresh_nonce(nonce: bytes | None, secret: bytes, *transcript: bytes) -> bytes:
    """A hedged nonce (SPEC §25.2): H(NONCE_TAG, secret, transcript, 32 fresh OS bytes) mod L.
    A broken OS generator alone then cannot repeat a nonce across two statements, and a
    secret alone cannot make it predictable. ``nonce`` is for known-answer tests only."""
    if nonce is not None:
        return g.validate_scalar(nonce, nonzero=True)
    while True:
        k = g.hash_to_scalar(NONCE_TAG, secret, *transcript, os.urandom(32))
        if g.scalar_to_int(k):
            return k


# ---------------------------------------------------------------- Schnorr


def _schnorr_challenge(context: bytes, public: bytes, commitment: bytes) -> bytes:
    return g.hash_to_scalar(SCHNORR_TAG, context, g.G, public, commitment)


def prove_dlog(
    secret: bytes, context: bytes, *, public: bytes | None = None, nonce: bytes | None = None,
) -> Proof:
    """Prove knowledge of ``secret`` = log_G(Y), Y = secret·G. Cost: 1 base mult (2 if
    ``public`` is not passed). ``nonce`` is for known-answer tests only.
    """
    g.validate_scalar(secret, nonzero=True)
    if public is None:
        public = g.base_mul(secret)  # 1 base mult
    while True:
        k = _fresh_nonce(nonce, secret, SCHNORR_TAG, context, public)
        c = _schnorr_challenge(context, public, g.base_mul(k))  # 1 base mult
        s = g.scalar_add(k, g.scalar_mul(c, secret))
        if g.scalar_to_int(c) and g.scalar_to_int(s):
            return Proof(c, s)
        if nonce is not None:  # pragma: no cover - probability 2**-251
            raise g.InvalidScalar("test nonce gives a zero challenge or response")


def verify_dlog(public: bytes, proof: Proof, context: bytes) -> None:
    """Check a Schnorr proof for ``public``. Cost: one 2-term msm (1 base + 1 var mult on
    the pure path) + 1 point check (none if these bytes passed one before, §25.12).

    Recomputes R = s·G − c·Y and requires c = H(tag, context, G, Y, R).
    """
    kind = "Schnorr"
    try:
        public = point_cache.valid(public)
    except g.InvalidPoint as exc:
        raise InvalidProof(kind, f"public key: {exc.reason}") from exc
    _check_scalars(proof, kind)
    c, s = g.scalar_to_int(proof.challenge), g.scalar_to_int(proof.response)
    r = _msm.msm([(s, g.G), (-c, public)]) or g.IDENTITY
    if _schnorr_challenge(context, public, r) != proof.challenge:
        raise InvalidProof(kind, "challenge does not match transcript")


# ---------------------------------------------------------------- Chaum-Pedersen


@dataclass(frozen=True)
class EqualDlogProof:
    """Chaum-Pedersen proof in commitment form (SPEC §25.2): A ‖ B ‖ s, 96 bytes."""

    a: bytes
    b: bytes
    response: bytes

    def to_bytes(self) -> bytes:
        return self.a + self.b + self.response

    @classmethod
    def from_bytes(cls, data: object, kind: str = "") -> "EqualDlogProof":
        if not isinstance(data, (bytes, bytearray)) or len(data) != EQUAL_DLOG_PROOF_BYTES:
            raise InvalidProof(kind or "encoded", f"proof must be {EQUAL_DLOG_PROOF_BYTES} bytes")
        data = bytes(data)
        return cls(data[:32], data[32:64], data[64:])


def _cp_challenge(context: bytes, public: bytes, base2: bytes, share: bytes, a: bytes, b: bytes) -> bytes:
    return g.hash_to_scalar(CHAUM_PEDERSEN_TAG, context, g.G, public, base2, share, a, b)


def _cp_weight(c: bytes) -> int:
    """The weight of the second equation (SPEC §25.2): 16 bytes of SHAKE-256 of lp(tag, c)."""
    return proof_batch.weights(CP_WEIGHT_TAG, c, 1)[0]


def prove_equal_dlog(
    secret: bytes, base2: bytes, context: bytes, *, public: bytes | None = None,
    share: bytes | None = None, nonce: bytes | None = None, derived: bool = False,
    fixed_base2: bool = False,
) -> EqualDlogProof:
    """Prove log_G(Y) = log_{base2}(D) for Y = secret·G, D = secret·base2.

    ``public``/``share`` may be passed when the caller already computed them (saves a
    base and a var mult). Cost: 1 base + 1 var mult (plus those two if not passed).
    ``derived``: the nonce is derived from the secret and the statement alone, so the
    same statement gets the same proof (SPEC §25.2); else it is hedged with OS bytes.
    ``fixed_base2``: base2 recurs (a game's joint key), so the commitments are two rows of
    fixed-base multiplications by the tables of G and base2 (msm.fixed_rows; the same bytes).
    """
    g.validate_scalar(secret, nonzero=True)
    if public is None:
        public = g.base_mul(secret)
    if share is None:
        share = g.mul(secret, base2)
    transcript = (CHAUM_PEDERSEN_TAG, context, public, base2, share)
    while True:
        k = _derived_nonce(secret, *transcript) if derived and nonce is None else _fresh_nonce(nonce, secret, *transcript)
        if fixed_base2:
            kk = g.scalar_to_int(k)
            a, = _msm.fixed_rows((g.G,), [[kk]])
            b, = _msm.fixed_rows((base2,), [[kk]])
            if a is None or b is None:   # pragma: no cover - k is not zero
                raise g.GroupError("a commitment is the identity")
        else:
            a = g.base_mul(k)  # 1 base mult
            b = g.mul(k, base2)  # 1 var mult
        c = _cp_challenge(context, public, base2, share, a, b)
        s = g.scalar_add(k, g.scalar_mul(c, secret))
        if g.scalar_to_int(c) and g.scalar_to_int(s):
            return EqualDlogProof(a, b, s)
        if nonce is not None or derived:  # pragma: no cover - probability 2**-251
            raise g.InvalidScalar("a fixed nonce gives a zero challenge or response")


def verify_equal_dlog(public: bytes, base2: bytes, share: bytes, proof: EqualDlogProof, context: bytes) -> None:
    """Check a Chaum-Pedersen proof (SPEC §25.2, §25.12): c = H(tag, ctx, G, Y, C, D, A, B),
    then s·G = A + c·Y and s·C = B + c·D, folded into one 6-term sum with a weight drawn
    from c. Inside ``proof_batch.deferring(batch)`` the sum goes to the batch instead and
    the points it takes are checked there (a log's verifier, SPEC §25.14). ``public`` and
    ``base2`` are normally state that passed before, so their check is a look-up.
    """
    kind = "Chaum-Pedersen"
    for name, p in (("public key", public), ("base", base2)):
        if not isinstance(p, (bytes, bytearray)) or len(p) != g.POINT_BYTES:
            raise InvalidProof(kind, f"{name}: not a {g.POINT_BYTES}-byte point")
    if not isinstance(share, (bytes, bytearray)) or len(share) != g.POINT_BYTES:
        raise InvalidProof(kind, f"share: not a {g.POINT_BYTES}-byte point")
    batch = proof_batch.active()
    if batch is None:
        try:
            share = point_cache.valid(share)
        except g.InvalidPoint as exc:
            raise InvalidProof(kind, f"share: {exc.reason}") from exc
    try:
        g.validate_scalar(proof.response, nonzero=True)
    except g.InvalidScalar as exc:
        raise InvalidProof(kind, f"bad scalar: {exc.reason}") from exc
    if not (point_cache.is_valid(public) and point_cache.is_valid(base2)):
        raise InvalidProof(kind, "a point was rejected or a product was the identity")
    public, base2, share = bytes(public), bytes(base2), bytes(share)
    c_bytes = _cp_challenge(context, public, base2, share, proof.a, proof.b)
    c, s = g.scalar_to_int(c_bytes), g.scalar_to_int(proof.response)
    if not c:   # pragma: no cover - probability 2**-252
        raise InvalidProof(kind, "a zero challenge")
    w = _cp_weight(c_bytes)
    terms = [(s, g.G), (-1, proof.a), (-c, public), (w * s, base2), (-w, proof.b), (-w * c, share)]
    if batch is not None:
        batch.add(c_bytes, terms)
        return
    try:
        holds = _msm.is_identity(terms)   # decodes A and B (one-time points: not remembered)
    except g.GroupError:
        for name, p in (("commitment A", proof.a), ("commitment B", proof.b)):
            try:
                g.validate_point(p)
            except g.InvalidPoint as exc:
                raise InvalidProof(kind, f"{name}: {exc.reason}") from exc
        raise   # pragma: no cover - the sum refuses only the points named above
    if not holds:
        raise InvalidProof(kind, "the proof's equations do not hold")
