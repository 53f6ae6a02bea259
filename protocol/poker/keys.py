"""Joint ElGamal key setup by commit-reveal with proofs of knowledge (SPEC §25.3).

Each player i draws a secret share x_i, commits to Y_i = x_i·G, and only when every
commitment is in reveals Y_i with a Schnorr proof of knowledge bound to the round
context and its own name. The joint key is Y = ΣY_i; nobody knows its secret unless all
players pool their shares, and nobody could choose Y_i after seeing the others'.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from protocol.crypto import group as g
from protocol.crypto import CommitRevealRound, commit, proofs
from protocol.poker.cards import MentalPokerError

KEY_TAG = b"p2p-asv/key-share/v1"
PUBLISHED_KEY_BYTES = g.POINT_BYTES + proofs.PROOF_BYTES


class InvalidKeyShare(MentalPokerError):
    """A published key share that does not check out (bad proof, copied share, or shares
    that cancel out)."""

    def __init__(self, participant: str | None, reason: str) -> None:
        self.participant = participant
        self.reason = reason
        who = repr(participant) if participant is not None else "unnamed participant"
        super().__init__(f"key share of {who}: {reason}")


@dataclass(frozen=True)
class KeyShare:
    """A player's private key share x_i and its public Y_i = x_i·G. repr hides the secret."""

    secret: bytes = field(repr=False)
    public: bytes

    @classmethod
    def generate(cls, secret: bytes | None = None) -> "KeyShare":
        """Fresh share (1 base mult). ``secret`` is for known-answer tests only."""
        x = g.random_scalar() if secret is None else g.validate_scalar(secret, nonzero=True)
        return cls(x, g.base_mul(x))


@dataclass(frozen=True)
class PublishedKeyShare:
    """What a player reveals: Y_i (32 bytes) || Schnorr proof (64 bytes)."""

    public: bytes
    proof: proofs.Proof

    def to_bytes(self) -> bytes:
        return self.public + self.proof.to_bytes()

    @classmethod
    def from_bytes(cls, data: bytes, participant: str | None = None) -> "PublishedKeyShare":
        """Decode only; call verify_key_share before use."""
        if not isinstance(data, (bytes, bytearray)) or len(data) != PUBLISHED_KEY_BYTES:
            raise InvalidKeyShare(participant, f"published key share must be {PUBLISHED_KEY_BYTES} bytes")
        data = bytes(data)
        return cls(data[:32], proofs.Proof.from_bytes(data[32:]))


def commit_context(context: bytes) -> bytes:
    """Context of the key-share commitments: lp(KEY_TAG, context)."""
    return g.lp(KEY_TAG, context)


def proof_context(context: bytes, participant: str) -> bytes:
    """Context of participant's Schnorr proof: lp(KEY_TAG, context, UTF-8 name).

    The name stops one player from replaying another's proof as its own.
    """
    return g.lp(KEY_TAG, context, participant.encode("utf-8"))


def key_commitment(share: KeyShare, context: bytes) -> bytes:
    """Commitment to Y_i: commit(Y_i, commit_context(context)) (SPEC §24.2)."""
    return commit(share.public, commit_context(context))


def publish_key_share(share: KeyShare, context: bytes, participant: str) -> PublishedKeyShare:
    """Y_i with its proof of knowledge (1 base mult)."""
    proof = proofs.prove_dlog(share.secret, proof_context(context, participant), public=share.public)
    return PublishedKeyShare(share.public, proof)


def verify_key_share(published: PublishedKeyShare, context: bytes, participant: str) -> bytes:
    """Validate Y_i and check its proof; returns Y_i. Cost: 1 base + 1 var mult + 1 check."""
    try:
        proofs.verify_dlog(published.public, published.proof, proof_context(context, participant))
    except proofs.InvalidProof as exc:
        raise InvalidKeyShare(participant, exc.reason) from exc
    return published.public


def joint_public_key(publics: Sequence[bytes], participants: Sequence[str] | None = None) -> bytes:
    """Y = ΣY_i over already verified shares (n-1 additions). Equal shares are refused:
    a copied share would mean a player does not hold an independent secret."""
    names = list(participants) if participants is not None else [None] * len(publics)
    seen: dict[bytes, object] = {}
    for name, y in zip(names, publics):
        if y in seen:
            raise InvalidKeyShare(name, "same public share as another participant")  # type: ignore[arg-type]
        seen[y] = name
    try:
        return g.validate_point(g.sum_points(list(publics)))
    except g.InvalidPoint as exc:
        raise InvalidKeyShare(None, "joint key is not a valid point (shares cancel out)") from exc


class KeySetupRound:
    """Commit-reveal of the key shares among participants in seat order (SPEC §25.3).

    Usage: every player sends key_commitment(own share); once all are in, every player
    sends publish_key_share(...); add_reveal checks the opening (CommitMismatch naming the
    player) and the proof (InvalidKeyShare naming the player); joint_key() gives Y.
    """

    def __init__(self, participants: Sequence[str], context: bytes) -> None:
        self.context = context
        self._round = CommitRevealRound(participants, commit_context(context))
        self._published: dict[str, bytes] = {}

    @property
    def participants(self) -> tuple[str, ...]:
        return self._round.participants

    def add_commit(self, participant: str, commitment: bytes) -> None:
        self._round.add_commit(participant, commitment)

    def add_reveal(self, participant: str, published: PublishedKeyShare, *, own: bool = False) -> None:
        """``own=True`` for the peer's own share, whose proof it need not check."""
        if participant not in self.participants:
            self._round.add_reveal(participant, published.public)  # raises UnknownParticipant
        public = published.public if own else verify_key_share(published, self.context, participant)
        self._round.add_reveal(participant, public)
        self._published[participant] = public

    def public_shares(self) -> list[bytes]:
        """Verified Y_i in seat order (raises MissingCommit/MissingReveal naming who)."""
        self._round.reveals()
        return [self._published[p] for p in self.participants]

    def joint_key(self) -> bytes:
        return joint_public_key(self.public_shares(), self.participants)
