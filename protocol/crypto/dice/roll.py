"""A roll from the links every contributing seat opened (SPEC §33.3-§33.4).

The digest hashes the game id, the roll index and each contributing seat's opening (its
seat, chain generation, position and link) in seat order; the faces are read from a
SHA-256 counter stream of the digest by rejection sampling, so every face is exactly
uniform whenever one contributing link was secret until it was opened.
"""
from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

from protocol.crypto.dice.chain import LINK_BYTES
from protocol.crypto.group import lp

__all__ = [
    "ROLL_TAG", "FACE_TAG", "MAX_SIDES", "MAX_DICE", "Opening", "roll_digest", "face_words",
    "faces_from_words", "faces", "roll", "roll_dice", "opening_order",
]

ROLL_TAG = b"p2p-asv/dice/roll/v1"
FACE_TAG = b"p2p-asv/dice/face/v1"
MAX_SIDES = 1 << 32
MAX_DICE = 64
_WORD = 1 << 64


@dataclass(frozen=True)
class Opening:
    """One seat's contribution to a roll: link `position` of its chain `gen`."""
    seat: int
    gen: int
    position: int
    link: bytes

    def encode(self) -> bytes:
        """u32be(seat) ‖ u32be(gen) ‖ u32be(position) ‖ link: 44 bytes."""
        return (self.seat.to_bytes(4, "big") + self.gen.to_bytes(4, "big")
                + self.position.to_bytes(4, "big") + self.link)


def roll_digest(game: bytes, index: int, openings: Iterable[Opening]) -> bytes:
    """SHA-256(lp(ROLL_TAG, game, u64be(index), u32be(m), o_1, …, o_m)), the openings
    encoded as 44 bytes each and sorted by seat (whatever order they arrived in)."""
    ordered = sorted(openings, key=lambda o: o.seat)
    if not ordered:
        raise ValueError("a roll needs at least one opening")
    if len({o.seat for o in ordered}) != len(ordered):
        raise ValueError("one opening per seat")
    if any(len(o.link) != LINK_BYTES for o in ordered):
        raise ValueError(f"a link is {LINK_BYTES} bytes")
    if not 0 <= index < (1 << 64):
        raise ValueError("roll index out of range")
    parts = [o.encode() for o in ordered]
    return hashlib.sha256(lp(ROLL_TAG, game, index.to_bytes(8, "big"),
                             len(parts).to_bytes(4, "big"), *parts)).digest()


def face_words(digest: bytes) -> Iterator[int]:
    """The u64be words of the face stream: block j = SHA-256(lp(FACE_TAG, digest, u32be(j)))."""
    for block in itertools.count():
        data = hashlib.sha256(lp(FACE_TAG, digest, block.to_bytes(4, "big"))).digest()
        for k in range(0, len(data), 8):
            yield int.from_bytes(data[k:k + 8], "big")


def faces_from_words(words: Iterable[int], sides: int, count: int) -> tuple[int, ...]:
    """A word below limit = 2^64 - (2^64 mod sides) gives the face 1 + word mod sides; a
    word at or above it is skipped, so no face is favoured."""
    if not 2 <= sides <= MAX_SIDES or not 1 <= count <= MAX_DICE:
        raise ValueError(f"a roll is 1 to {MAX_DICE} dice of 2 to {MAX_SIDES} sides")
    limit = _WORD - (_WORD % sides)
    out: list[int] = []
    for word in words:
        if word < limit:
            out.append(1 + word % sides)
            if len(out) == count:
                break
    if len(out) < count:
        raise ValueError("the word stream ran out")
    return tuple(out)


def faces(digest: bytes, sides: int, count: int = 1) -> tuple[int, ...]:
    """`count` faces in 1 … sides from a roll digest, read from its face stream (a skip
    happens with probability below sides / 2^64, so almost always the first words)."""
    return faces_from_words(face_words(digest), sides, count)


def roll_dice(game: bytes, index: int, openings: Iterable[Opening], sides: int,
              count: int) -> tuple[int, ...]:
    """`count` dice of `sides` faces for roll `index` of `game`."""
    return faces(roll_digest(game, index, openings), sides, count)


def roll(game: bytes, index: int, openings: Iterable[Opening], sides: int) -> int:
    """One die of `sides` faces for roll `index` of `game`."""
    return roll_dice(game, index, openings, sides, 1)[0]


def opening_order(active: Sequence[int], roller: int | None) -> list[int]:
    """Who opens a roll, in order (SPEC §33.5): the active seats in seat order starting at
    the roller's left, the roller last (so the only seat that sees the roll before opening
    is the one that loses most by refusing it). No roller: plain seat order."""
    seats = sorted(active)
    if roller is None:
        return seats
    if roller not in seats:
        raise ValueError(f"roller {roller} is not an active seat")
    at = seats.index(roller)
    return seats[at + 1:] + seats[:at + 1]
