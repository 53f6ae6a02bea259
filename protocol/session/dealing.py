"""Mental-poker bookkeeping of one game: which ciphertext lies under each handle, which
shares have arrived, and whose turn it is within a deck operation (SPEC §26.4).

The session hands each DeckRequest of the game to a DeckBook. The book turns it into
obligations (one event per seat, in seat order), checks each arriving shuffle (its
proof, SPEC §25.10) or share (its Chaum-Pedersen proof) and, once all are in, yields the
outcome. Every check is made on arrival, so nothing is left for the end of the game.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Sequence

from protocol.crypto import group as g
from protocol.poker import deck as mp
from protocol.poker import shuffle_proof as sp
from protocol.session.game_rules import DeckRequest
from protocol.session.errors import (BadBody, BadShare, BadShuffle, BadShuffleProof, CardNotHeld, ClaimMismatch,
                                     DeckCorrupted)

__all__ = ["DeckBook", "share_context", "shuffle_context", "initial_ciphertexts"]


def share_context(game: bytes, seq: int, handle: int) -> bytes:
    """Fiat-Shamir context of a decryption share (SPEC §26.4): the game, the event height
    that carries it and the handle, so no share can be replayed into another event or card.
    Four parts, each length-prefixed (§24.1): lp(tag, game, u64be(seq), u32be(handle))."""
    return g.lp(b"p2p-asv/session-share/v1", game, struct.pack(">Q", seq), struct.pack(">I", handle))


def shuffle_context(game: bytes, seq: int, author: bytes) -> bytes:
    """Fiat-Shamir context of a shuffle proof (SPEC §26.4): the game, the event height and
    the author's public key, so no proof can be replayed into another event or by another
    peer."""
    return g.lp(b"p2p-asv/session-shuffle/v1", game, struct.pack(">Q", seq), author)


def initial_ciphertexts(table: mp.CardTable, joint_key: bytes, labels: Sequence[str]) -> mp.Deck:
    """The public start of a new deck: (G, M + Y) per label, repeats allowed (several
    cards may carry one label), so every peer builds it without a message."""
    return tuple(mp.Ciphertext(g.G, g.add(table.point(label), joint_key)) for label in labels)


@dataclass
class _Progress:
    request: DeckRequest
    seats: list[int]                  # obligations, in order
    done: int = 0
    deck: mp.Deck | None = None       # the current deck of a shuffle


class DeckBook:
    def __init__(self, game: bytes, table: mp.CardTable, names: Sequence[str],
                 publics: Sequence[bytes], joint_key: bytes) -> None:
        self.game = game
        self.table = table
        self.names = list(names)            # per seat, used in proof contexts
        self.publics = list(publics)        # Y_i per seat
        self.joint_key = joint_key
        self.cipher: dict[int, mp.Ciphertext] = {}
        self.dealt_to: dict[int, int] = {}
        self.shares: dict[int, dict[int, bytes]] = {}
        self.shuffles_checked = 0           # proofs verified (own shuffles are not re-checked)
        self.shown: set[bytes] = set()      # C1 of every ciphertext shown to the table (SPEC §25.7)
        self.current: _Progress | None = None

    # -- obligations -------------------------------------------------------------------
    def begin(self, request: DeckRequest, seq: int | None = None) -> None:
        """Take the game's next deck operation. A reveal or deal may name only cards that
        a shuffle put under a ciphertext: for any other handle no seat could make its share,
        so the game and the session disagree and every replica halts alike (SPEC §26.4)."""
        n = len(self.publics)
        if request.kind != "shuffle":
            missing = [h for h in request.handles if h not in self.cipher]
            if missing:
                raise DeckCorrupted(f"the game asks to {request.kind} {' '.join(f'#{h}' for h in missing)} "
                                    f"of {request.deck}, under no card of any deck", seq=seq)
        if request.kind == "deal":
            seats = [s for s in range(n) if s != request.seat]
        else:
            seats = list(range(n))
        progress = _Progress(request, seats)
        if request.kind == "shuffle":
            if request.labels is not None:
                start = initial_ciphertexts(self.table, self.joint_key, request.labels)
            else:
                start = tuple(self._source_card(h, request) for h in request.source)
            progress.deck = start  # a reshuffle's input is exactly the cards under its source handles
        self.current = progress

    def _source_card(self, handle: int, request: DeckRequest) -> mp.Ciphertext:
        """The ciphertext under a reshuffle's source handle; a card no deck ever held
        enters as the public encryption of its face-up label, the same on every peer."""
        if handle in self.cipher:
            return self.cipher[handle]
        label = dict(request.face_up).get(handle)
        if label is None:
            raise DeckCorrupted(f"reshuffle source #{handle} is under no card of any deck")
        return initial_ciphertexts(self.table, self.joint_key, [label])[0]

    def due_seat(self) -> int | None:
        p = self.current
        if p is None or p.done >= len(p.seats):
            return None
        return p.seats[p.done]

    def complete(self) -> bool:
        return self.current is not None and self.current.done >= len(self.current.seats)

    def due_kind(self) -> str:
        return "shuffle" if self.current.request.kind == "shuffle" else "shares"

    # -- shuffles ----------------------------------------------------------------------
    def make_shuffle(self, seq: int, author: bytes) -> tuple[bytes, bytes]:
        """(deck, proof) of a fresh shuffle of the current deck (SPEC §25.5, §25.10). The
        witness lives only here: the proof is all anybody needs, so it is never kept."""
        before = self.current.deck
        deck, witness = mp.shuffle_deck(before, self.joint_key)
        proof = sp.prove_shuffle(before, deck, witness, self.joint_key, shuffle_context(self.game, seq, author))
        return mp.encode_deck(deck), proof.to_bytes()

    def accept_shuffle(self, seq: int, seat: int, author: bytes, data: object, proof: object, *,
                       own: bool = False) -> None:
        """Check a shuffled deck and its proof against the current deck; `own`: made by
        this replica's peer a moment ago, so neither is re-checked. The proof's
        multiplications check every point of the deck and the proof (SPEC §25.10)."""
        p = self.current
        if not isinstance(data, bytes) or not isinstance(proof, bytes):
            raise BadBody('"d" and "p" must be bin', seq=seq, author=author)
        want = len(p.deck)
        if len(data) != want * mp.CIPHERTEXT_BYTES:
            raise BadShuffle(f"deck of {len(data) // mp.CIPHERTEXT_BYTES} cards, expected {want}",
                             seq=seq, author=author)
        after = tuple(mp.Ciphertext(data[i:i + 32], data[i + 32:i + 64])
                      for i in range(0, len(data), mp.CIPHERTEXT_BYTES))
        seen = {ct.c1 for ct in p.deck}  # each output card freshly re-randomised: no C1 twice
        for i, ct in enumerate(after):
            if ct.c1 in seen:
                raise BadShuffle(f"card {i} repeats a C1 of the input or of an earlier output card",
                                 seq=seq, author=author)
            seen.add(ct.c1)
        if not own:
            try:
                sp.verify_shuffle(p.deck, after, proof, self.joint_key, shuffle_context(self.game, seq, author),
                                  self.names[seat])
            except sp.ShuffleProofError as exc:
                raise BadShuffleProof(exc.reason, seq=seq, author=author) from None
            self.shuffles_checked += 1
        p.deck = after
        p.done += 1

    # -- decryption shares -------------------------------------------------------------
    def make_shares(self, key: mp.KeyShare, seq: int, seat: int) -> list[bytes]:
        return [mp.decryption_share(key, self.cipher[h], share_context(self.game, seq, h),
                                    self.names[seat]).to_bytes()
                for h in self.current.request.handles]

    def _verified_share(self, seq: int, seat: int, author: bytes, handle: int, raw: object,
                        own: bool = False) -> bytes:
        if own:  # made by this replica's own peer a moment ago
            return bytes(raw[:32])
        try:
            share = mp.DecryptionShare.from_bytes(raw, self.names[seat])
            return mp.verify_share(share, self.publics[seat], self.cipher[handle],
                                   share_context(self.game, seq, handle), self.names[seat])
        except mp.InvalidDecryptionShare as exc:
            raise BadShare(f"share for #{handle}: {exc.reason}", seq=seq, author=author) from None

    def answered(self) -> list[list]:
        """What a `shares` event answers (SPEC §26.4): [handle, C1] per share, in order, so a
        third party can check each share from the log alone."""
        return [[h, self.cipher[h].c1] for h in self.current.request.handles]

    def accept_shares(self, seq: int, seat: int, author: bytes, items: object, answered: object = None,
                      *, own: bool = False) -> None:
        handles = self.current.request.handles
        if not isinstance(items, list) or len(items) != len(handles):
            raise BadBody(f'"s" must list {len(handles)} shares', seq=seq, author=author)
        if answered is not None and answered != self.answered():
            raise BadBody(f'"for" must be [handle, C1] of {" ".join(f"#{h}" for h in handles)}, in order',
                          seq=seq, author=author)
        verified = [self._verified_share(seq, seat, author, h, raw, own) for h, raw in zip(handles, items)]
        for h, d in zip(handles, verified):
            self.shares.setdefault(h, {})[seat] = d
        self.current.done += 1

    def private_labels(self, key: mp.KeyShare, seat: int, seq: int) -> list[tuple[int, str]]:
        """The receiver's own decryption of a completed deal (1 var mult per card)."""
        out = []
        for h in self.current.request.handles:
            others = [d for s, d in sorted(self.shares.get(h, {}).items()) if s != seat]
            try:
                out.append((h, mp.private_reveal(self.cipher[h], key, others, self.table)))
            except mp.UnknownCard:
                raise DeckCorrupted(f"dealt card #{h} decrypts to no card", seq=seq) from None
        return out

    def finish(self, seq: int) -> list[tuple[int, str]]:
        """Close the completed request; returns (handle, label) of a public reveal."""
        p, self.current = self.current, None
        req = p.request
        if req.kind == "shuffle":
            self.cipher.update(zip(req.handles, p.deck))
            return []
        if req.kind == "deal":
            for h in req.handles:
                self.dealt_to[h] = req.seat
            return []
        out = []
        for h in req.handles:
            try:
                label = mp.public_reveal(self.cipher[h], list(self.shares[h].values()), self.table)
            except mp.UnknownCard:
                raise DeckCorrupted(f"card #{h} of {req.deck} decrypts to no card", seq=seq) from None
            out.append((h, label))
            self.shown.add(self.cipher[h].c1)
        return out

    # -- claims of played hidden cards -------------------------------------------------
    def make_claim_share(self, key: mp.KeyShare, seq: int, seat: int, handle: int) -> bytes:
        return mp.decryption_share(key, self.cipher[handle], share_context(self.game, seq, handle),
                                   self.names[seat]).to_bytes()

    def check_claim(self, seq: int, seat: int, author: bytes, handle: int, label: str, raw: object,
                    *, own: bool = False) -> None:
        """The author's own share completes the others' deal shares; the card must open to
        `label` (SPEC §26.5)."""
        if self.dealt_to.get(handle) != seat:
            raise CardNotHeld(f"card #{handle} was never dealt to seat {seat}", seq=seq, author=author)
        mine = self._verified_share(seq, seat, author, handle, raw, own)
        others = [d for s, d in sorted(self.shares.get(handle, {}).items()) if s != seat]
        point = mp.combine_shares(self.cipher[handle], [*others, mine])
        expected = self.table.point(label) if label in self.table else None
        if point != expected:
            try:
                actual = self.table.label_of(point)
            except mp.UnknownCard:
                actual = "no card"
            raise ClaimMismatch(f"card #{handle} is not {label!r} (it opens to {actual!r})",
                                seq=seq, author=author)
