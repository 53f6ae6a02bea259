"""Shuffling an encrypted deck: re-randomise every card, then permute (SPEC §25.5).

Output card i is input card permutation[i] re-encrypted with randomiser r_i:
after[i] = (C1 + r_i·G, C2 + r_i·Y). (permutation, r_i) is the private witness: the
shuffler proves with it (shuffle_proof, SPEC §25.10) and never publishes it.
verify_shuffle_with_witness is the direct check, for tests and for whoever holds one.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Sequence

from protocol.crypto import group as g
from protocol.crypto import msm
from protocol.poker.cards import Ciphertext, Deck, MentalPokerError


class ShuffleMismatch(MentalPokerError):
    """A shuffle whose output is not a re-encryption permutation of its input.

    ``position`` is the output index that fails (None for whole-deck faults such as a
    wrong length or a witness that is not a permutation); ``participant`` the shuffler.
    """

    def __init__(self, reason: str, position: int | None = None, participant: str | None = None) -> None:
        self.reason = reason
        self.position = position
        self.participant = participant
        where = f" at output position {position}" if position is not None else ""
        who = f" by {participant!r}" if participant is not None else ""
        super().__init__(f"shuffle{who} does not check{where}: {reason}")


@dataclass(frozen=True)
class ShuffleWitness:
    """The private opening of one shuffle. repr hides the randomisers.

    Wire form: u32be n, then n × u32be permutation[i], then n × 32-byte scalar r_i.
    """

    permutation: tuple[int, ...]
    randomizers: tuple[bytes, ...] = field(repr=False)

    def to_bytes(self) -> bytes:
        n = len(self.permutation)
        return (
            n.to_bytes(4, "big")
            + b"".join(i.to_bytes(4, "big") for i in self.permutation)
            + b"".join(self.randomizers)
        )

    @classmethod
    def from_bytes(cls, data: bytes, participant: str | None = None) -> "ShuffleWitness":
        if len(data) < 4:
            raise ShuffleMismatch("witness too short", None, participant)
        n = int.from_bytes(data[:4], "big")
        if len(data) != 4 + 36 * n:
            raise ShuffleMismatch(f"witness length {len(data)} does not fit n={n}", None, participant)
        perm = tuple(int.from_bytes(data[4 + 4 * i : 8 + 4 * i], "big") for i in range(n))
        base = 4 + 4 * n
        rands = tuple(data[base + 32 * i : base + 32 * (i + 1)] for i in range(n))
        return cls(perm, rands)


def rerandomize(ct: Ciphertext, r: bytes, joint_key: bytes) -> Ciphertext:
    """(C1 + r·G, C2 + r·Y). Cost: 2 fixed-base multiplications (see rerandomize_many)."""
    return rerandomize_many([ct], [r], joint_key)[0]


def rerandomize_many(cts: Sequence[Ciphertext], rs: Sequence[bytes], joint_key: bytes) -> list[Ciphertext]:
    """Each card re-randomised: (C1 + r·G, C2 + r·Y), r non-zero. The r are secret: two
    fixed-base sums (G's and the joint key's tables, protocol.crypto.msm.fixed_rows), one
    call for the deck on the native backend; the same bytes as one libsodium base and one
    variable-base multiplication and two additions a card."""
    for r in rs:
        g.validate_scalar(r, nonzero=True)
    ks = [[g.scalar_to_int(r)] for r in rs]
    c1 = msm.fixed_rows((g.G,), ks, [ct.c1 for ct in cts])
    c2 = msm.fixed_rows((joint_key,), ks, [ct.c2 for ct in cts])
    return [Ciphertext(a or g.IDENTITY, b or g.IDENTITY) for a, b in zip(c1, c2)]


def _secure_permutation(n: int) -> list[int]:
    items = list(range(n))
    for i in range(n - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def shuffle_deck(
    deck: Sequence[Ciphertext], joint_key: bytes, *,
    permutation: Sequence[int] | None = None, randomizers: Sequence[bytes] | None = None,
) -> tuple[Deck, ShuffleWitness]:
    """Re-randomise and permute ``deck``; returns (new deck, private witness).

    Cost per card: 2 fixed-base multiplications (rerandomize_many). ``permutation`` and
    ``randomizers`` are for tests only; production draws them from the OS CSPRNG.
    """
    n = len(deck)
    perm = list(permutation) if permutation is not None else _secure_permutation(n)
    rands = list(randomizers) if randomizers is not None else [g.random_scalar() for _ in range(n)]
    witness = ShuffleWitness(tuple(perm), tuple(rands))
    _check_witness_shape(witness, n, None)
    out = tuple(rerandomize_many([deck[j] for j in perm], rands, joint_key))
    return out, witness


def _check_witness_shape(witness: ShuffleWitness, n: int, participant: str | None) -> None:
    if len(witness.permutation) != n or len(witness.randomizers) != n:
        raise ShuffleMismatch(f"witness covers {len(witness.permutation)} cards, deck has {n}", None, participant)
    if sorted(witness.permutation) != list(range(n)):
        raise ShuffleMismatch("witness permutation is not a permutation of the input positions", None, participant)
    for i, r in enumerate(witness.randomizers):
        try:
            g.validate_scalar(r, nonzero=True)
        except g.InvalidScalar as exc:
            raise ShuffleMismatch(f"randomiser: {exc.reason}", i, participant) from exc


def verify_shuffle_with_witness(
    before: Sequence[Ciphertext], after: Sequence[Ciphertext], witness: ShuffleWitness,
    joint_key: bytes, participant: str | None = None,
) -> None:
    """Check that ``after`` is ``before`` re-randomised and permuted as the witness says.

    Catches a dropped card (length), a duplicated card (the witness cannot be a
    bijection that explains it) and a substituted card (ciphertext mismatch at its
    position). Cost: the same as the shuffle.
    """
    if len(after) != len(before):
        raise ShuffleMismatch(f"deck had {len(before)} cards before and {len(after)} after", None, participant)
    _check_witness_shape(witness, len(before), participant)
    redone = rerandomize_many([before[j] for j in witness.permutation], witness.randomizers, joint_key)
    for i, j in enumerate(witness.permutation):
        if redone[i] != after[i]:
            raise ShuffleMismatch(f"is not input card {j} re-randomised", i, participant)
