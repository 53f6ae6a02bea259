"""Typed errors of the protocol layer (SPEC §20-§23).

Every error the protocol raises derives from ProtocolError, so a caller can catch the
whole family; each subclass names one reason and carries the facts needed to report it
(byte offset, record index, event height, author).
"""
from __future__ import annotations

from protocol.fingerprint import fingerprint


class ProtocolError(Exception):
    """Base of every protocol-layer error."""

    # The SPEC section the error enforces: `asv verify` prints it with the error (SPEC §36.3);
    # every error it can report sets its own (tests/test_vectors.py checks each one).
    spec: str | None = None


# --- SPEC §21 codec -------------------------------------------------------------------

class CodecError(ProtocolError, ValueError):
    """Bytes are not one canonical, bounded encoding (or a value cannot be encoded)."""

    def __init__(self, reason: str, offset: int | None = None) -> None:
        self.reason = reason
        self.offset = offset
        where = f" at offset {offset}" if offset is not None else ""
        super().__init__(f"codec: {reason}{where}")


# --- SPEC §20 identities ---------------------------------------------------------------

class BadSignature(ProtocolError):
    """An Ed25519 signature does not verify for the given public key and message."""


class WeakPublicKey(BadSignature, ValueError):
    """A 32-byte string that must not be used as an Ed25519 public key: not a canonical
    encoding of a curve point, or a point of small order or outside the prime-order
    subgroup (SPEC §20.1). Anyone can sign "for" a small-order key."""


class KeyFileError(ProtocolError):
    """A key file is missing, malformed, or has unsafe permissions."""


class MissingKeyFile(KeyFileError):
    """There is no key file at the path (the command says how to make one)."""


class KeyFileExists(KeyFileError):
    """A key file is there already and is not replaced unless asked (the command says how)."""


# --- SPEC §22 events and chains --------------------------------------------------------

def _short_author(author: bytes | None) -> str:
    if author is None:
        return "?"
    try:
        return fingerprint(author)
    except ValueError:
        return author.hex()


class EventError(ProtocolError):
    """An event is unacceptable. Names the height (seq), the author and the reason."""
    spec = "§22.8"   # the SPEC section it enforces (§36.3)

    def __init__(self, reason: str, *, seq: int | None = None, author: bytes | None = None) -> None:
        self.reason = reason
        self.seq = seq
        self.author = author
        seq_s = "?" if seq is None else str(seq)
        super().__init__(f"{type(self).__name__} at seq {seq_s} by {_short_author(author)}: {reason}")


class MalformedEvent(EventError):
    """The wire bytes are not a well-formed event (codec, fields, types, sizes)."""
    spec = "§22.5"   # the SPEC section it enforces (§36.3)


class ForgedSignature(EventError, BadSignature):
    """The event's signature does not verify against its stated author."""
    spec = "§22.3"   # the SPEC section it enforces (§36.3)


class WrongGame(EventError):
    """The event belongs to another game id."""
    spec = "§22.5"   # the SPEC section it enforces (§36.3)


class WrongAuthor(EventError):
    """The author is not allowed to write at this height."""
    spec = "§22.6"   # the SPEC section it enforces (§36.3)


class BrokenChain(EventError):
    """`prev` is not the hash of the event at the previous height."""
    spec = "§22.6"   # the SPEC section it enforces (§36.3)


class OutOfOrder(EventError):
    """The event's seq is not the chain's next height."""
    spec = "§22.6"   # the SPEC section it enforces (§36.3)


class ReplayedEvent(OutOfOrder):
    """The exact event is already in the chain at its height (harmless duplicate)."""
    spec = "§22.6"   # the SPEC section it enforces (§36.3)


class Equivocation(EventError):
    """Its author signed two different events for one (game, seq). Carries `.proof`."""
    spec = "§22.7"   # the SPEC section it enforces (§36.3)

    def __init__(self, reason: str, *, seq: int, author: bytes, proof: object) -> None:
        super().__init__(reason, seq=seq, author=author)
        self.proof = proof


class InvalidProof(ProtocolError, ValueError):
    """A proof does not prove what it claims: a zero-knowledge proof (a Schnorr proof of
    knowledge or a Chaum-Pedersen proof, SPEC §25) or an equivocation proof (§22.7).
    `kind` names the proof, `reason` the check that failed."""

    def __init__(self, kind: str, reason: str) -> None:
        self.kind = kind
        self.reason = reason
        super().__init__(f"invalid {kind} proof: {reason}")


# --- SPEC §23 log files ----------------------------------------------------------------

class LogError(ProtocolError):
    """A log or secrets file is damaged. `offset` is the byte offset of the problem,
    `record_index` the 0-based index of the record that could not be read (equal to the
    number of valid records before it)."""
    spec = "§23.4"   # the SPEC section it enforces (§36.3)

    def __init__(self, reason: str, *, path: str | None = None, offset: int | None = None,
                 record_index: int | None = None) -> None:
        self.reason = reason
        self.path = path
        self.offset = offset
        self.record_index = record_index
        parts = [type(self).__name__]
        if path is not None:
            parts.append(f"in {path}")
        if offset is not None:
            parts.append(f"at offset {offset}")
        if record_index is not None:
            parts.append(f"(record {record_index})")
        super().__init__(" ".join(parts) + f": {reason}")


class BadHeader(LogError):
    """The file header (magic, version, game id, header CRC) is invalid."""
    spec = "§23.2"   # the SPEC section it enforces (§36.3)


class TornRecord(LogError):
    """The final record is cut short (an interrupted append). Earlier records are intact."""
    spec = "§23.4"   # the SPEC section it enforces (§36.3)


class TrailingGarbage(LogError):
    """Bytes at `offset` do not start a valid record header; nothing after can be framed."""
    spec = "§23.4"   # the SPEC section it enforces (§36.3)


class CorruptRecord(LogError):
    """A record is framed correctly but its body CRC does not match (media error or tampering)."""
    spec = "§23.3"   # the SPEC section it enforces (§36.3)


class UnsafePermissions(LogError, KeyFileError):
    """A private file (key or secrets) is readable or writable by group or others."""
    spec = "§23.5"   # the SPEC section it enforces (§36.3)
