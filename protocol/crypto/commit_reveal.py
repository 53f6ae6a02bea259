"""Commit-reveal for joint random values without a trusted party (SPEC §24).

Each participant commits to a fresh secret value, and reveals it only after every
commitment is in. The joint value hashes all reveals in seat order, so it is uniform as
long as one participant is honest. A reveal that does not open its commitment, or a
missing reveal, is reported naming the participant.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Sequence

from protocol.crypto.group import lp
from protocol.errors import ProtocolError

COMMIT_TAG = b"p2p-asv/commit/v1"
JOINT_TAG = b"p2p-asv/joint-value/v1"
PERMUTATION_TAG = b"p2p-asv/permutation/v1"
VALUE_BYTES = 32
COMMIT_BYTES = 32


class CommitRevealError(ProtocolError, ValueError):
    """Base class; ``participant`` names who broke the round (None if nobody in particular)."""

    def __init__(self, participant: str | None, message: str) -> None:
        self.participant = participant
        super().__init__(message)


class UnknownParticipant(CommitRevealError):
    def __init__(self, participant: str) -> None:
        super().__init__(participant, f"{participant!r} is not a participant of this round")


class DuplicateCommit(CommitRevealError):
    """A second, different commitment from the same participant (equivocation)."""

    def __init__(self, participant: str) -> None:
        super().__init__(participant, f"{participant!r} sent a second, different commitment")


class RevealTooEarly(CommitRevealError):
    def __init__(self, participant: str, waiting_for: list[str]) -> None:
        self.waiting_for = waiting_for
        super().__init__(participant, f"{participant!r} revealed before commitments of {waiting_for}")


class CommitMismatch(CommitRevealError):
    def __init__(self, participant: str) -> None:
        super().__init__(participant, f"reveal of {participant!r} does not open its commitment")


class MissingCommit(CommitRevealError):
    def __init__(self, participant: str) -> None:
        super().__init__(participant, f"no commitment from {participant!r}")


class MissingReveal(CommitRevealError):
    def __init__(self, participant: str) -> None:
        super().__init__(participant, f"no reveal from {participant!r}")


def fresh_value() -> bytes:
    """A fresh 32-byte secret value from the OS CSPRNG."""
    return secrets.token_bytes(VALUE_BYTES)


def commit(value: bytes, context: bytes) -> bytes:
    """SHA-256(lp(COMMIT_TAG, context, value)) (SPEC §24.2). ``value`` must carry >= 256 bits of entropy
    (a fresh value or a fresh public key): the commitment has no separate blinding salt."""
    if not isinstance(value, (bytes, bytearray)) or len(value) < VALUE_BYTES:
        raise ValueError(f"committed value must be at least {VALUE_BYTES} bytes")
    return hashlib.sha256(lp(COMMIT_TAG, context, bytes(value))).digest()


def opens(commitment: bytes, value: bytes, context: bytes) -> bool:
    """True if ``value`` opens ``commitment`` under ``context``."""
    try:
        return commit(value, context) == commitment
    except ValueError:
        return False


def joint_value(reveals_in_seat_order: Sequence[bytes]) -> bytes:
    """SHA-256(lp(JOINT_TAG, u32be(n), r_1, ..., r_n)) (SPEC §24.4)."""
    if not reveals_in_seat_order:
        raise ValueError("joint value of no reveals")
    n = len(reveals_in_seat_order).to_bytes(4, "big")
    return hashlib.sha256(lp(JOINT_TAG, n, *reveals_in_seat_order)).digest()


class CommitRevealRound:
    """One commit-reveal round among named participants, in seat order (SPEC §24.3).

    The context (e.g. game id + purpose) is bound into every commitment so a commitment
    cannot be replayed into another round.
    """

    def __init__(self, participants: Sequence[str], context: bytes) -> None:
        if not participants or len(set(participants)) != len(participants):
            raise ValueError("participants must be a non-empty list of distinct names")
        self.participants: tuple[str, ...] = tuple(participants)
        self.context = context
        self._commits: dict[str, bytes] = {}
        self._reveals: dict[str, bytes] = {}

    def _known(self, participant: str) -> None:
        if participant not in self.participants:
            raise UnknownParticipant(participant)

    def add_commit(self, participant: str, commitment: bytes) -> None:
        self._known(participant)
        if not isinstance(commitment, (bytes, bytearray)) or len(commitment) != COMMIT_BYTES:
            raise CommitMismatch(participant)
        old = self._commits.get(participant)
        if old is not None and old != commitment:
            raise DuplicateCommit(participant)
        self._commits[participant] = bytes(commitment)

    def missing_commits(self) -> list[str]:
        return [p for p in self.participants if p not in self._commits]

    def missing_reveals(self) -> list[str]:
        return [p for p in self.participants if p not in self._reveals]

    @property
    def all_committed(self) -> bool:
        return not self.missing_commits()

    @property
    def complete(self) -> bool:
        return self.all_committed and not self.missing_reveals()

    def add_reveal(self, participant: str, value: bytes) -> None:
        """Accept a reveal; raises CommitMismatch naming a participant whose value does not
        open its commitment, RevealTooEarly if some commitment is still missing."""
        self._known(participant)
        waiting = self.missing_commits()
        if waiting:
            raise RevealTooEarly(participant, waiting)
        if not opens(self._commits[participant], value, self.context):
            raise CommitMismatch(participant)
        self._reveals[participant] = bytes(value)

    def reveals(self) -> list[bytes]:
        """All reveals in seat order; raises MissingCommit/MissingReveal naming the first
        participant (in seat order) who has not done its part."""
        for p in self.participants:
            if p not in self._commits:
                raise MissingCommit(p)
        for p in self.participants:
            if p not in self._reveals:
                raise MissingReveal(p)
        return [self._reveals[p] for p in self.participants]

    def joint_value(self) -> bytes:
        return joint_value(self.reveals())


class _Stream:
    """SHA-256 in counter mode: block i = SHA-256(lp(PERMUTATION_TAG, seed, u64be(i)))."""

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._counter = 0
        self._buf = b""

    def take(self, n: int) -> bytes:
        while len(self._buf) < n:
            block = lp(PERMUTATION_TAG, self._seed, self._counter.to_bytes(8, "big"))
            self._buf += hashlib.sha256(block).digest()
            self._counter += 1
        out, self._buf = self._buf[:n], self._buf[n:]
        return out

    def below(self, bound: int) -> int:
        """Uniform integer in [0, bound) by rejection sampling of u32be words."""
        limit = (1 << 32) - ((1 << 32) % bound)
        while True:
            x = int.from_bytes(self.take(4), "big")
            if x < limit:
                return x % bound


def permutation_from_seed(seed: bytes, n: int) -> list[int]:
    """Deterministic uniform permutation of range(n) from a joint value (SPEC §24.5).

    Fisher-Yates from the top: for i = n-1 down to 1, j = below(i+1), swap items i and j.
    """
    if not 0 <= n < (1 << 32):
        raise ValueError("permutation size out of range")
    stream = _Stream(seed)
    items = list(range(n))
    for i in range(n - 1, 0, -1):
        j = stream.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items
