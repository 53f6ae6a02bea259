"""Proven re-encryption of one card in place (SPEC §25.11): the card keeps its position,
only its ciphertext is re-randomised.

    after = (C1 + r·G, C2 + r·Y),  proof: Chaum-Pedersen that log_G(ΔC1) = log_Y(ΔC2)

with ΔC1 = after.C1 − before.C1 and ΔC2 = after.C2 − before.C2. The proof shows `after`
encrypts the same card as `before` (the difference is an encryption of the identity) and
that its author knows r. Used when a card passes from one player's knowledge to
another's: decryption shares of `before` then never apply to `after`, so no two share sets
published for two players ever complete one ciphertext.
"""
from __future__ import annotations

from protocol.crypto import group as g
from protocol.crypto import msm
from protocol.crypto import point_cache
from protocol.crypto import proofs
from protocol.poker.cards import Ciphertext, MentalPokerError

__all__ = ["REFRESH_TAG", "REFRESH_PROOF_BYTES", "RefreshProofError", "refresh_card", "verify_refresh"]

REFRESH_TAG = b"p2p-asv/refresh/v1"

#: A refresh's proof: the Chaum-Pedersen proof of SPEC §25.2, A ‖ B ‖ s.
REFRESH_PROOF_BYTES = proofs.EQUAL_DLOG_PROOF_BYTES


class RefreshProofError(MentalPokerError):
    """A refreshed card that is not a proven re-encryption of its input."""

    def __init__(self, participant: str | None, reason: str) -> None:
        self.participant = participant
        self.reason = reason
        super().__init__(f"refresh by {participant!r}: {reason}")


def _context(context: bytes, participant: str) -> bytes:
    return g.lp(REFRESH_TAG, context, participant.encode("utf-8"))


def refresh_card(ct: Ciphertext, joint_key: bytes, context: bytes, participant: str,
                 *, r: bytes | None = None) -> tuple[Ciphertext, proofs.EqualDlogProof]:
    """A fresh re-encryption of `ct` and its proof. Cost: 6 fixed-base multiplications
    (the tables of G and of the joint key, msm.fixed_rows: r is secret), 3 on each."""
    r = g.random_scalar() if r is None else g.validate_scalar(r, nonzero=True)
    k = g.scalar_to_int(r)
    d1, c1 = msm.fixed_rows((g.G,), [[k], [k]], [g.IDENTITY, ct.c1])
    d2, c2 = msm.fixed_rows((joint_key,), [[k], [k]], [g.IDENTITY, ct.c2])
    if d1 is None or d2 is None:   # pragma: no cover - r is not zero and the key is a valid point
        raise g.GroupError("a re-encryption of the identity")
    after = Ciphertext(c1 or g.IDENTITY, c2 or g.IDENTITY)
    proof = proofs.prove_equal_dlog(r, joint_key, _context(context, participant), public=d1, share=d2,
                                    fixed_base2=True)
    return after, proof


def verify_refresh(before: Ciphertext, after: Ciphertext, proof: bytes, joint_key: bytes,
                   context: bytes, participant: str) -> None:
    """Check that `after` is a proven re-encryption of `before` (both points of `after`
    are validated; ΔC1 = identity, a card not re-randomised, is refused).
    Cost: 4 point checks (the key's is a look-up) + one 6-term msm (deferred into a batch by
    a log's verifier, SPEC §25.14)."""
    try:
        point_cache.valid(after.c1)
        point_cache.valid(after.c2)
        d1 = point_cache.valid(g.sub(after.c1, before.c1))   # remembered: the proof's check of Y is a look-up
        d2 = point_cache.valid(g.sub(after.c2, before.c2))
        proofs.verify_equal_dlog(d1, joint_key, d2, proofs.EqualDlogProof.from_bytes(proof, "refresh"),
                                 _context(context, participant))
    except g.InvalidPoint as exc:
        raise RefreshProofError(participant, f"not a re-randomised card: {exc.reason}") from None
    except (proofs.InvalidProof, g.GroupError, ValueError) as exc:
        raise RefreshProofError(participant, f"proof: {exc}") from None
