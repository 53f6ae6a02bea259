"""Signed, hash-chained events and the chain that orders them (SPEC §22).

Wire form of one event (SPEC §22.2):

    wire      = encode({"e": envelope, "s": signature})      # canonical codec map
    envelope  = encode({"author", "body", "game", "kind", "prev", "seq", "v"})
    signature = Ed25519(author, EVENT_DOMAIN + envelope)
    hash      = SHA-256(wire)

The envelope travels as a bin inside the wire map, so the signature is checked over the
exact received envelope bytes and the fields are decoded from those same bytes; nothing
is ever re-serialised to be verified. The body is an opaque codec map chosen by the game.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from protocol import codec
from protocol.errors import (
    BadSignature, BrokenChain, CodecError, Equivocation, EventError, ForgedSignature,
    InvalidProof, MalformedEvent, OutOfOrder, ReplayedEvent, WrongAuthor, WrongGame,
)
from protocol.crypto import Identity, WeakPublicKey, check_public_key, verify
from protocol.crypto.sig_batch import first_bad_signature

__all__ = [
    "SignedEvent", "sign_event", "parse_event", "parse_events", "event_hash", "Chain", "EquivocationProof",
    "PROTOCOL_VERSION", "EVENT_DOMAIN", "ZERO_HASH", "MAX_EVENT_SIZE", "MAX_SEQ", "KIND_PATTERN",
    "EventError", "MalformedEvent", "ForgedSignature", "WrongGame", "WrongAuthor", "BrokenChain",
    "OutOfOrder", "ReplayedEvent", "Equivocation", "InvalidProof",
]

PROTOCOL_VERSION = 1
EVENT_DOMAIN = b"p2p-asv/event/v1\x00"
PROOF_KIND = "p2p-asv/equivocation/v1"
ZERO_HASH = bytes(32)
MAX_EVENT_SIZE = codec.DEFAULT_MAX_SIZE   # bytes of one wire form
MAX_SEQ = (1 << 63) - 1
GAME_ID_SIZES = (16, 32)
KIND_PATTERN = re.compile(r"[a-z][a-z0-9_.:/-]{0,63}")
_ENVELOPE_FIELDS = frozenset({"v", "game", "seq", "prev", "author", "kind", "body"})


def event_hash(wire: bytes) -> bytes:
    """SHA-256 of the full wire bytes (envelope and signature), SPEC §22.4."""
    return hashlib.sha256(wire).digest()


@dataclass(frozen=True, eq=False)
class SignedEvent:
    """A parsed, signature-checked event. `wire` is authoritative; the other fields were
    decoded from it. Equality and hashing go by `wire`."""

    wire: bytes
    hash: bytes
    envelope: bytes
    signature: bytes
    v: int
    game: bytes
    seq: int
    prev: bytes
    author: bytes
    kind: str
    body: dict

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SignedEvent) and other.wire == self.wire

    def __hash__(self) -> int:
        return hash(self.wire)

    def __repr__(self) -> str:
        return f"SignedEvent(seq={self.seq}, kind={self.kind!r}, hash={self.hash.hex()[:16]})"


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_envelope(env: Any, *, seq_hint: int | None = None, author_hint: bytes | None = None) -> None:
    """Field presence and types, SPEC §22.1. Raises MalformedEvent."""
    def bad(reason: str) -> MalformedEvent:
        return MalformedEvent(reason, seq=seq_hint, author=author_hint)

    if not isinstance(env, dict):
        raise bad("envelope is not a map")
    missing = sorted(_ENVELOPE_FIELDS - env.keys())
    unknown = sorted(env.keys() - _ENVELOPE_FIELDS)
    if missing or unknown:
        raise bad(f"envelope fields wrong: missing {missing}, unknown {unknown}")
    if not _is_int(env["v"]) or env["v"] != PROTOCOL_VERSION:
        raise bad(f"unsupported protocol version {env['v']!r}")
    if not isinstance(env["game"], bytes) or len(env["game"]) not in GAME_ID_SIZES:
        raise bad("game id must be 16 or 32 bytes")
    if not _is_int(env["seq"]) or not 0 <= env["seq"] <= MAX_SEQ:
        raise bad(f"seq must be an int in [0, {MAX_SEQ}]")
    if not isinstance(env["prev"], bytes) or len(env["prev"]) != 32:
        raise bad("prev must be 32 bytes")
    if env["seq"] == 0 and env["prev"] != ZERO_HASH:
        raise bad("prev of seq 0 must be 32 zero bytes")
    if not isinstance(env["author"], bytes) or len(env["author"]) != 32:
        raise bad("author must be a 32-byte public key")
    if not isinstance(env["kind"], str) or not KIND_PATTERN.fullmatch(env["kind"]):
        raise bad(f"kind {env['kind']!r} does not match {KIND_PATTERN.pattern}")
    if not isinstance(env["body"], dict):
        raise bad("body must be a map")


def sign_event(identity: Identity, game: bytes, seq: int, prev: bytes, kind: str,
               body: dict) -> SignedEvent:
    """Build and sign one event by `identity` (SPEC §22.3). Raises MalformedEvent for
    bad fields and CodecError for a body that cannot be encoded."""
    env = {"v": PROTOCOL_VERSION, "game": bytes(game), "seq": seq, "prev": bytes(prev),
           "author": identity.public_key_bytes, "kind": kind, "body": body}
    _check_envelope(env, seq_hint=seq if _is_int(seq) else None, author_hint=identity.public_key_bytes)
    # the fields as a receiver decodes them (lists, not tuples), kept from the encoding
    # rather than decoded again; our own signature is not checked again either: each
    # receiver checks it once (SPEC §22.5)
    envelope, decoded = codec.encode_plain(env)
    signature = identity.sign(EVENT_DOMAIN + envelope)
    wire = codec.encode({"e": envelope, "s": signature})
    if len(wire) > MAX_EVENT_SIZE:
        raise MalformedEvent(f"event of {len(wire)} bytes exceeds {MAX_EVENT_SIZE}",
                             seq=seq, author=identity.public_key_bytes)
    return _event(wire, envelope, decoded, signature)


def _event(wire: bytes, envelope: bytes, env: dict, signature: bytes) -> SignedEvent:
    return SignedEvent(wire=wire, hash=event_hash(wire), envelope=envelope, signature=signature,
                       v=env["v"], game=env["game"], seq=env["seq"], prev=env["prev"],
                       author=env["author"], kind=env["kind"], body=env["body"])


def parse_event(wire: bytes, *, expected_game: bytes | None = None) -> SignedEvent:
    """Strictly parse and authenticate wire bytes (SPEC §22.5). Check order: outer
    codec and layout, envelope codec and fields, signature, then the expected game."""
    return _parse(wire, expected_game, check_signature=True)


def parse_events(wires: Sequence[bytes], *, expected_game: bytes | None = None) -> list[SignedEvent]:
    """The events of `wires`, in order, up to (not including) the first that `parse_event`
    would refuse: every check of `parse_event`, the signatures checked as batches (SPEC §20.6).
    Fewer events than wires means the next wire is refused: `parse_event` on it says why."""
    events: list[SignedEvent] = []
    for wire in wires:
        try:
            events.append(_parse(wire, expected_game, check_signature=False))
        except EventError:
            break
    bad = first_bad_signature([(ev.author, EVENT_DOMAIN + ev.envelope, ev.signature) for ev in events])
    return events if bad < 0 else events[:bad]


def _parse(wire: bytes, expected_game: bytes | None, *, check_signature: bool) -> SignedEvent:
    wire = bytes(wire)
    if len(wire) > MAX_EVENT_SIZE:
        raise MalformedEvent(f"event of {len(wire)} bytes exceeds {MAX_EVENT_SIZE}")
    try:
        outer = codec.decode(wire, max_size=MAX_EVENT_SIZE, max_depth=1)
    except CodecError as exc:
        raise MalformedEvent(f"wire form: {exc}") from None
    if not isinstance(outer, dict) or set(outer) != {"e", "s"}:
        raise MalformedEvent('wire form must be a map with exactly the keys "e" and "s"')
    envelope, signature = outer["e"], outer["s"]
    if not isinstance(envelope, bytes) or not isinstance(signature, bytes) or len(signature) != 64:
        raise MalformedEvent('"e" must be bin and "s" a 64-byte bin')
    try:
        env = codec.decode(envelope, max_size=MAX_EVENT_SIZE)
    except CodecError as exc:
        raise MalformedEvent(f"envelope: {exc}") from None
    seq_hint = env.get("seq") if isinstance(env, dict) and _is_int(env.get("seq")) else None
    author_hint = env.get("author") if isinstance(env, dict) and isinstance(env.get("author"), bytes) else None
    _check_envelope(env, seq_hint=seq_hint, author_hint=author_hint)
    try:
        check_public_key(env["author"])
    except WeakPublicKey as exc:  # anyone can sign for such a key: no event of it means anything
        raise MalformedEvent(f"author key refused: {exc}", seq=env["seq"], author=env["author"]) from None
    if check_signature:
        try:
            verify(env["author"], EVENT_DOMAIN + envelope, signature)
        except BadSignature as exc:
            raise ForgedSignature(str(exc), seq=env["seq"], author=env["author"]) from None
    if expected_game is not None and env["game"] != bytes(expected_game):
        raise WrongGame(f"game id {env['game'].hex()} is not {bytes(expected_game).hex()}",
                        seq=env["seq"], author=env["author"])
    return _event(wire, envelope, env, signature)


# ------------------------------------------------------------------------- equivocation

@dataclass(frozen=True)
class EquivocationProof:
    """Two different wire forms, validly signed by one author for one (game, seq)
    (SPEC §22.7). Stored in byte order so one pair has one proof. Anyone can check it
    with `verify()` alone: no chain, no session, no trust in whoever produced it."""

    first: bytes
    second: bytes

    @classmethod
    def of(cls, a: bytes, b: bytes) -> "EquivocationProof":
        a, b = bytes(a), bytes(b)
        return cls(min(a, b), max(a, b))

    def verify(self, *, expected_game: bytes | None = None) -> tuple[bytes, bytes, int]:
        """Return (author, game, seq) of the equivocation, or raise InvalidProof."""
        if self.first >= self.second:
            raise InvalidProof("equivocation", "the two events must differ and be in byte order")
        try:
            a = parse_event(self.first, expected_game=expected_game)
            b = parse_event(self.second, expected_game=expected_game)
        except EventError as exc:
            raise InvalidProof("equivocation", f"an event of the proof is not valid: {exc}") from None
        if a.author != b.author:
            raise InvalidProof("equivocation", "the two events have different authors")
        if a.game != b.game:
            raise InvalidProof("equivocation", "the two events belong to different games")
        if a.seq != b.seq:
            raise InvalidProof("equivocation", f"the two events are at different heights ({a.seq}, {b.seq})")
        return a.author, a.game, a.seq

    def to_bytes(self) -> bytes:
        return codec.encode({"kind": PROOF_KIND, "a": self.first, "b": self.second})

    @classmethod
    def from_bytes(cls, data: bytes) -> "EquivocationProof":
        """Decode (not verify) a proof; call verify() on the result."""
        try:
            obj = codec.decode(data, max_size=2 * MAX_EVENT_SIZE + 64, max_depth=1)
        except CodecError as exc:
            raise InvalidProof("equivocation", f"not a proof: {exc}") from None
        if (not isinstance(obj, dict) or set(obj) != {"kind", "a", "b"} or obj["kind"] != PROOF_KIND
                or not isinstance(obj["a"], bytes) or not isinstance(obj["b"], bytes)):
            raise InvalidProof("equivocation", f"not a {PROOF_KIND} map")
        return cls(obj["a"], obj["b"])


# -------------------------------------------------------------------------------- chain

AuthorRule = Callable[[int], "bytes | Collection[bytes] | None"]


class Chain:
    """The one chain of a game (SPEC §22.6). Accepts events strictly in order.

    `expected_author(seq)` says who may write at height `seq`: one public key, a
    collection of keys, or None for anyone. Without it, any author may write."""

    def __init__(self, game: bytes, *, expected_author: AuthorRule | None = None) -> None:
        game = bytes(game)
        if len(game) not in GAME_ID_SIZES:
            raise ValueError("game id must be 16 or 32 bytes")
        self.game = game
        self.expected_author = expected_author
        self.events: list[SignedEvent] = []
        self.equivocations: list[EquivocationProof] = []
        self._equivocators: set[bytes] = set()

    @property
    def height(self) -> int:
        """Number of accepted events = the seq of the next one."""
        return len(self.events)

    @property
    def head(self) -> bytes:
        """Hash the next event must carry as `prev`."""
        return self.events[-1].hash if self.events else ZERO_HASH

    def append(self, event: SignedEvent | bytes) -> SignedEvent:
        """Accept the next event or raise a typed EventError (SPEC §22.6 gives the order
        of checks). The first Equivocation of each author is also recorded in `self.equivocations`."""
        if isinstance(event, (bytes, bytearray, memoryview)):
            event = parse_event(bytes(event), expected_game=self.game)
        elif event.game != self.game:
            raise WrongGame(f"game id {event.game.hex()} is not {self.game.hex()}",
                            seq=event.seq, author=event.author)
        if event.seq < self.height:
            held = self.events[event.seq]
            if held.wire == event.wire:
                raise ReplayedEvent("this exact event is already in the chain",
                                    seq=event.seq, author=event.author)
            if held.author == event.author:
                proof = EquivocationProof.of(held.wire, event.wire)
                if event.author not in self._equivocators:  # one proof convicts; keep no more
                    self._equivocators.add(event.author)
                    self.equivocations.append(proof)
                raise Equivocation("author signed two different events at this height",
                                   seq=event.seq, author=event.author, proof=proof)
            raise OutOfOrder(f"height {event.seq} is already taken; next is {self.height}",
                             seq=event.seq, author=event.author)
        if event.seq > self.height:
            raise OutOfOrder(f"expected seq {self.height}", seq=event.seq, author=event.author)
        if self.expected_author is not None:
            allowed = self.expected_author(event.seq)
            if allowed is not None:
                ok = event.author == allowed if isinstance(allowed, bytes) else event.author in allowed
                if not ok:
                    raise WrongAuthor("this author may not write at this height",
                                      seq=event.seq, author=event.author)
        if event.prev != self.head:
            raise BrokenChain(f"prev {event.prev.hex()[:16]} is not the hash of seq "
                              f"{event.seq - 1} ({self.head.hex()[:16]})", seq=event.seq, author=event.author)
        self.events.append(event)
        return event
