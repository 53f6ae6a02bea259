"""Non-interactive zero-knowledge proofs over the ristretto255 group (SPEC §25.2).

* Schnorr proof of knowledge of x with Y = x·G (key shares).
* Chaum-Pedersen proof that log_G(Y) = log_C(D) (decryption shares: D = x·C1).

Both use Fiat-Shamir: the challenge is SHA-512 over a length-prefixed transcript that
starts with a domain tag and the caller's context (game id, event, player ...), then the
statement and the commitments, reduced modulo L. A proof is 64 bytes: challenge c then
response s, both canonical scalars. Proof verification never trusts its inputs: points
are validated and scalars must be canonical and non-zero.
"""

from __future__ import annotations

import os

from dataclasses import dataclass

from protocol.crypto import group as g
from protocol.crypto import point_cache
from protocol.crypto import msm as _msm
from protocol.errors import InvalidProof

SCHNORR_TAG = b"p2p-asv/schnorr-pok/v1"
CHAUM_PEDERSEN_TAG = b"p2p-asv/chaum-pedersen/v1"
NONCE_TAG = b"p2p-asv/proof-nonce/v1"
PROOF_BYTES = 64


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


def _cp_challenge(context: bytes, public: bytes, base2: bytes, share: bytes, a: bytes, b: bytes) -> bytes:
    return g.hash_to_scalar(CHAUM_PEDERSEN_TAG, context, g.G, public, base2, share, a, b)


def prove_equal_dlog(
    secret: bytes, base2: bytes, context: bytes, *, public: bytes | None = None,
    share: bytes | None = None, nonce: bytes | None = None,
) -> Proof:
    """Prove log_G(Y) = log_{base2}(D) for Y = secret·G, D = secret·base2.

    ``public``/``share`` may be passed when the caller already computed them (saves a
    base and a var mult). Cost: 1 base + 1 var mult (plus those two if not passed).
    """
    g.validate_scalar(secret, nonzero=True)
    if public is None:
        public = g.base_mul(secret)
    if share is None:
        share = g.mul(secret, base2)
    while True:
        k = _fresh_nonce(nonce, secret, CHAUM_PEDERSEN_TAG, context, public, base2, share)
        a = g.base_mul(k)  # 1 base mult
        b = g.mul(k, base2)  # 1 var mult
        c = _cp_challenge(context, public, base2, share, a, b)
        s = g.scalar_add(k, g.scalar_mul(c, secret))
        if g.scalar_to_int(c) and g.scalar_to_int(s):
            return Proof(c, s)
        if nonce is not None:  # pragma: no cover - probability 2**-251
            raise g.InvalidScalar("test nonce gives a zero challenge or response")


def verify_equal_dlog(public: bytes, base2: bytes, share: bytes, proof: Proof, context: bytes) -> None:
    """Check a Chaum-Pedersen proof. Cost: two 2-term msm (1 base + 3 var mults on the pure
    path) + the point checks of §25.12 (normally one: the share; Y and C were seen before).

    Recomputes A = s·G − c·Y and B = s·C − c·D and requires c = H(tag, ctx, G, Y, C, D, A, B).
    The proof carries (c, s), not (A, B), so A and B must each be computed: proofs are not
    batched with random weights (SPEC §25.12). Every point is validated before it enters a
    sum; ``public`` and ``base2`` are normally state that passed before, so their check is
    a look-up.
    """
    kind = "Chaum-Pedersen"
    for name, p in (("public key", public), ("base", base2)):
        if not isinstance(p, (bytes, bytearray)) or len(p) != g.POINT_BYTES:
            raise InvalidProof(kind, f"{name}: not a {g.POINT_BYTES}-byte point")
    try:
        share = point_cache.valid(share)
    except g.InvalidPoint as exc:
        raise InvalidProof(kind, f"share: {exc.reason}") from exc
    _check_scalars(proof, kind)
    if not (point_cache.is_valid(public) and point_cache.is_valid(base2)):
        raise InvalidProof(kind, "a point was rejected or a product was the identity")
    public, base2 = bytes(public), bytes(base2)
    c, s = g.scalar_to_int(proof.challenge), g.scalar_to_int(proof.response)
    a = _msm.msm([(s, g.G), (-c, public)]) or g.IDENTITY
    b = _msm.msm([(s, base2), (-c, share)]) or g.IDENTITY
    if _cp_challenge(context, public, base2, share, a, b) != proof.challenge:
        raise InvalidProof(kind, "challenge does not match transcript")
