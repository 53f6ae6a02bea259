"""Card encoding and ElGamal ciphertexts for mental-poker decks (SPEC §25.4).

A deck is a list of opaque, distinct identity labels (bytes or str) supplied by the
caller. Each label maps to a public group element by hash_to_point; a ciphertext is an
ElGamal pair (C1, C2) = (r·G, M + r·Y) under the joint key Y.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence, Union

from protocol.crypto import group as g
from protocol.crypto import point_cache
from protocol.errors import ProtocolError

CARD_TAG = b"p2p-asv/card/v1"
CIPHERTEXT_BYTES = 2 * g.POINT_BYTES

Label = Union[bytes, str]


class MentalPokerError(ProtocolError, ValueError):
    """Base class; ``participant`` names who is at fault when that is known."""

    participant: str | None = None


class DuplicateLabel(MentalPokerError):
    def __init__(self, label: Label) -> None:
        self.label = label
        super().__init__(f"label {label!r} appears twice in the deck (labels must be distinct)")


class PointCollision(MentalPokerError):  # pragma: no cover - needs a SHA-512 collision
    def __init__(self, first: Label, second: Label) -> None:
        self.labels = (first, second)
        super().__init__(f"labels {first!r} and {second!r} map to the same point")


class UnknownCard(MentalPokerError):
    """A decrypted point that is no card of the table (a bad share or a forged ciphertext)."""

    def __init__(self, point: bytes) -> None:
        self.point = point
        super().__init__(f"decrypted point {point.hex()} is not a card of this deck")


class MalformedDeck(MentalPokerError):
    def __init__(self, reason: str, participant: str | None = None) -> None:
        self.reason = reason
        self.participant = participant
        who = f" from {participant!r}" if participant else ""
        super().__init__(f"malformed deck{who}: {reason}")


def label_bytes(label: Label) -> bytes:
    """Labels are hashed as their bytes; a str label as its UTF-8 encoding."""
    if isinstance(label, str):
        return label.encode("utf-8")
    if isinstance(label, (bytes, bytearray)):
        return bytes(label)
    raise TypeError(f"card label must be bytes or str, got {type(label).__name__}")


def card_point(label: Label) -> bytes:
    """M = hash_to_point(CARD_TAG, label bytes)."""
    return g.hash_to_point(CARD_TAG, label_bytes(label))


class CardTable:
    """The public label <-> point table of one deck. Cost: one hash-to-point per label."""

    def __init__(self, labels: Iterable[Label]) -> None:
        self.labels: tuple[Label, ...] = tuple(labels)
        self._point_of: dict[bytes, bytes] = {}
        self._label_of: dict[bytes, Label] = {}
        for label in self.labels:
            key = label_bytes(label)
            if key in self._point_of:
                raise DuplicateLabel(label)
            point = card_point(label)
            if point in self._label_of:
                raise PointCollision(self._label_of[point], label)  # pragma: no cover
            self._point_of[key] = point
            self._label_of[point] = label

    def __len__(self) -> int:
        return len(self.labels)

    def __contains__(self, label: object) -> bool:
        try:
            return label_bytes(label) in self._point_of  # type: ignore[arg-type]
        except TypeError:
            return False

    def point(self, label: Label) -> bytes:
        try:
            return self._point_of[label_bytes(label)]
        except KeyError:
            raise KeyError(f"label {label!r} is not in this deck") from None

    def label_of(self, point: bytes) -> Label:
        try:
            return self._label_of[point]
        except KeyError:
            raise UnknownCard(point) from None


@dataclass(frozen=True)
class Ciphertext:
    """ElGamal ciphertext (C1, C2); wire form is C1 || C2 (64 bytes)."""

    c1: bytes
    c2: bytes

    def to_bytes(self) -> bytes:
        return self.c1 + self.c2

    @classmethod
    def from_bytes(cls, data: bytes) -> "Ciphertext":
        """Decode and validate both points (2 point checks; none for bytes that passed before, §25.12)."""
        if not isinstance(data, (bytes, bytearray)) or len(data) != CIPHERTEXT_BYTES:
            raise g.InvalidPoint(f"ciphertext must be {CIPHERTEXT_BYTES} bytes", None)
        data = bytes(data)
        return cls(point_cache.valid(data[:32]), point_cache.valid(data[32:]))


Deck = tuple[Ciphertext, ...]


def encode_deck(deck: Sequence[Ciphertext]) -> bytes:
    """Wire form of a deck: the ciphertexts concatenated, 64 bytes each, in deck order."""
    return b"".join(ct.to_bytes() for ct in deck)


def decode_deck(data: bytes, participant: str | None = None) -> Deck:
    """Decode and validate a deck received from ``participant`` (2 point checks per card)."""
    if len(data) % CIPHERTEXT_BYTES:
        raise MalformedDeck(f"length {len(data)} is not a multiple of {CIPHERTEXT_BYTES}", participant)
    out = []
    for i in range(0, len(data), CIPHERTEXT_BYTES):
        try:
            out.append(Ciphertext.from_bytes(data[i : i + CIPHERTEXT_BYTES]))
        except g.InvalidPoint as exc:
            raise MalformedDeck(f"card {i // CIPHERTEXT_BYTES}: {exc.reason}", participant) from exc
    return tuple(out)


def initial_deck(table: CardTable, joint_key: bytes, labels: Sequence[Label] | None = None) -> Deck:
    """The public starting deck (SPEC §25.4): card k is (G, M_k + Y), randomness 1.

    Deterministic, so every peer builds the same deck without a message; the first
    shuffle re-randomises it. ``labels`` (default: the whole table, in table order)
    builds a deck of a subset, e.g. to reshuffle cards that are public again.
    Cost: one point addition per card, no scalar multiplication.
    """
    point_cache.valid(joint_key)
    chosen = table.labels if labels is None else tuple(labels)
    seen: set[bytes] = set()
    for label in chosen:
        if label_bytes(label) in seen:
            raise DuplicateLabel(label)
        seen.add(label_bytes(label))
    return tuple(Ciphertext(g.G, g.add(table.point(label), joint_key)) for label in chosen)
