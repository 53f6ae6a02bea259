"""Mental-poker decks: ElGamal over Ed25519 under a jointly generated key (SPEC §25).

Game-agnostic: a deck is a list of distinct opaque labels. The flow is

1. key setup (keys): commit-reveal of Y_i = x_i·G with Schnorr proofs; Y = ΣY_i;
2. initial_deck(table, Y): the public deck (G, M_k + Y);
3. each player in turn: shuffle_deck -> new deck, private witness, which it proves
   with prove_shuffle -> a proof anyone checks with verify_shuffle (shuffle_proof);
4. a hidden card for player p: every other player sends decryption_share (D_i = x_i·C1
   with a Chaum-Pedersen proof), p checks each with verify_share and calls
   private_reveal; a public card: every player sends a share, anyone calls public_reveal.

Secret key shares are never published: a card nobody showed stays hidden for good.
This module holds decryption shares and reveals, and re-exports the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from protocol.crypto import group as g
from protocol.crypto import proofs
from protocol.poker.cards import (
    CARD_TAG, CIPHERTEXT_BYTES, CardTable, Ciphertext, Deck, DuplicateLabel, Label,
    MalformedDeck, MentalPokerError, PointCollision, UnknownCard, card_point, decode_deck,
    encode_deck, initial_deck, label_bytes,
)
from protocol.poker.keys import (
    KEY_TAG, InvalidKeyShare, KeySetupRound, KeyShare, PublishedKeyShare, joint_public_key,
    key_commitment, publish_key_share, verify_key_share,
)
from protocol.poker.shuffle import ShuffleMismatch, ShuffleWitness, rerandomize, shuffle_deck, verify_shuffle_with_witness
from protocol.poker.shuffle_proof import ShuffleProof, ShuffleProofError, prove_shuffle, verify_shuffle

SHARE_TAG = b"p2p-asv/decryption-share/v1"
DECRYPTION_SHARE_BYTES = g.POINT_BYTES + proofs.EQUAL_DLOG_PROOF_BYTES

__all__ = [
    "CARD_TAG", "CIPHERTEXT_BYTES", "DECRYPTION_SHARE_BYTES", "KEY_TAG", "SHARE_TAG",
    "CardTable", "Ciphertext", "Deck", "DecryptionShare", "DuplicateLabel",
    "InvalidDecryptionShare", "InvalidKeyShare", "KeySetupRound", "KeyShare", "Label",
    "MalformedDeck", "MentalPokerError", "PointCollision", "PublishedKeyShare",
    "ShuffleMismatch", "ShuffleProof", "ShuffleProofError", "ShuffleWitness", "UnknownCard",
    "card_point", "combine_shares", "decode_deck", "decryption_share", "encode_deck",
    "initial_deck", "joint_public_key", "key_commitment", "label_bytes", "private_reveal",
    "prove_shuffle", "public_reveal", "publish_key_share", "rerandomize", "share_context",
    "shuffle_deck", "verify_key_share", "verify_share", "verify_shuffle",
    "verify_shuffle_with_witness",
]


class InvalidDecryptionShare(MentalPokerError):
    """A decryption share whose point or Chaum-Pedersen proof does not check."""

    def __init__(self, participant: str | None, reason: str) -> None:
        self.participant = participant
        self.reason = reason
        who = repr(participant) if participant is not None else "unnamed participant"
        super().__init__(f"decryption share from {who}: {reason}")


@dataclass(frozen=True)
class DecryptionShare:
    """D_i = x_i·C1 (32 bytes) || Chaum-Pedersen proof (96 bytes, A ‖ B ‖ s) (SPEC §25.6)."""

    share: bytes
    proof: proofs.EqualDlogProof

    def to_bytes(self) -> bytes:
        return self.share + self.proof.to_bytes()

    @classmethod
    def from_bytes(cls, data: bytes, participant: str | None = None) -> "DecryptionShare":
        """Decode only; verify_share validates the point and the proof."""
        if not isinstance(data, (bytes, bytearray)) or len(data) != DECRYPTION_SHARE_BYTES:
            raise InvalidDecryptionShare(participant, f"must be {DECRYPTION_SHARE_BYTES} bytes")
        data = bytes(data)
        return cls(data[:32], proofs.EqualDlogProof.from_bytes(data[32:]))


def share_context(context: bytes, participant: str) -> bytes:
    """Context of a share proof: lp(SHARE_TAG, caller context, UTF-8 name). The caller's
    context should name the game, the event and the deck position."""
    return g.lp(SHARE_TAG, context, participant.encode("utf-8"))


def decryption_share(key: KeyShare, ct: Ciphertext, context: bytes, participant: str) -> DecryptionShare:
    """D_i = x_i·C1 with its proof. Cost: 2 var + 1 base mult. The proof's nonce is derived
    (SPEC §25.2): the same share always comes with the same proof, so a peer that lost its
    shares event in a power cut signs the very same one again (SPEC §23.4)."""
    d = g.mul(key.secret, ct.c1)  # 1 var mult
    proof = proofs.prove_equal_dlog(  # 1 base + 1 var mult
        key.secret, ct.c1, share_context(context, participant), public=key.public, share=d, derived=True,
    )
    return DecryptionShare(d, proof)


def verify_share(
    share: DecryptionShare, public_share: bytes, ct: Ciphertext, context: bytes, participant: str,
) -> bytes:
    """Check D_i against Y_i and C1; returns D_i. Cost: one 6-term msm (deferred into one sum
    for many proofs by a log's verifier, SPEC §25.14) + 1 point check (Y_i and C1 passed
    before: look-ups, SPEC §25.12)."""
    try:
        proofs.verify_equal_dlog(public_share, ct.c1, share.share, share.proof, share_context(context, participant))
    except proofs.InvalidProof as exc:
        raise InvalidDecryptionShare(participant, exc.reason) from exc
    return share.share


def combine_shares(ct: Ciphertext, shares: Sequence[bytes]) -> bytes:
    """M = C2 − ΣD_i (point subtractions only)."""
    m = ct.c2
    for d in shares:
        m = g.sub(m, d)
    return m


def private_reveal(
    ct: Ciphertext, own_key: KeyShare, verified_other_shares: Sequence[bytes], table: CardTable,
) -> Label:
    """The label of a card dealt to the holder of ``own_key``.

    ``verified_other_shares`` are the D_j of every other player, each returned by
    verify_share. Cost: 1 var mult (own share, no proof needed).
    """
    own = g.mul(own_key.secret, ct.c1)
    return table.label_of(combine_shares(ct, [*verified_other_shares, own]))


def public_reveal(ct: Ciphertext, verified_shares: Sequence[bytes], table: CardTable) -> Label:
    """The label of a card from every player's verified share. No scalar multiplication."""
    return table.label_of(combine_shares(ct, verified_shares))
