"""Mental-poker bookkeeping of one game: which ciphertext lies under each handle, which
shares have arrived, and whose turn it is within a deck operation (SPEC §26.4).

The session hands each DeckRequest of the game to a DeckBook. The book turns it into
obligations (one event per seat, in seat order), checks each arriving shuffle (its
proof, SPEC §25.10) or share (its Chaum-Pedersen proof) and, once all are in, yields the
outcome. Every check is made on arrival, so nothing is left for the end of the game.

It also keeps which seats' shares of each handle's current ciphertext are in the log, so
that a deal giving a seat a card it already shared (a card changing hands) first owes a
proven refresh by every seat (SPEC §25.7, §25.11): otherwise the log would hold every
seat's share of that card and anyone could read it.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Sequence

from protocol.crypto import group as g
from protocol.poker import deck as mp
from protocol.poker import refresh as rf
from protocol.poker import shuffle_proof as sp
from protocol.session.game_rules import DeckRequest
from protocol.session.errors import (BadBody, BadRefresh, BadShare, BadShuffle, BadShuffleProof, CardNotHeld,
                                     ClaimMismatch, DeckCorrupted)

__all__ = ["DeckBook", "share_context", "shuffle_context", "refresh_context", "initial_ciphertexts"]


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


def refresh_context(game: bytes, seq: int, author: bytes, handle: int) -> bytes:
    """Fiat-Shamir context of one card's refresh proof (SPEC §26.4): the game, the event
    height, the author's public key and the handle."""
    return g.lp(b"p2p-asv/session-refresh/v1", game, struct.pack(">Q", seq), author, struct.pack(">I", handle))


def initial_ciphertexts(table: mp.CardTable, joint_key: bytes, labels: Sequence[str]) -> mp.Deck:
    """The public start of a new deck: (G, M + Y) per label, repeats allowed (several
    cards may carry one label), so every peer builds it without a message."""
    return tuple(mp.Ciphertext(g.G, g.add(table.point(label), joint_key)) for label in labels)


@dataclass
class _Progress:
    request: DeckRequest
    seats: list[int]                  # obligations, in order
    kinds: list[str]                  # the event kind of each obligation
    done: int = 0
    deck: mp.Deck | None = None       # the current deck of a shuffle
    refresh: tuple[int, ...] = ()     # handles a deal re-encrypts before its shares (SPEC §25.7)
    fresh: list[mp.Ciphertext] | None = None   # their current ciphertexts during the refreshes


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
        self.seen_c1: set[bytes] = set()    # C1 of every ciphertext a shuffle or refresh made
        self.current: _Progress | None = None
        self.departed: set[int] = set()     # seats that left and handed their part over (§26.13)
        self.lost: set[int] = set()         # handles still needing a departed seat's share: never opened

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
            lost = [h for h in request.handles if h in self.lost]
            if lost:
                raise DeckCorrupted(f"the game asks to {request.kind} {' '.join(f'#{h}' for h in lost)} "
                                    f"of {request.deck}, which only a departed seat's share could open", seq=seq)
        refresh: tuple[int, ...] = ()
        if request.kind == "deal":
            # SPEC §25.7: the receiver's own share of a card already in the log would, with
            # this deal's shares, make every seat's share public: every seat re-encrypts it first
            refresh = self.stale(request)
            seats = [s for s in range(n) if s != request.seat and s not in self.departed]
        else:
            seats = [s for s in range(n) if s not in self.departed]
        kind = "shuffle" if request.kind == "shuffle" else "shares"
        refreshers = [s for s in range(n) if s not in self.departed] if refresh else []
        progress = _Progress(request, [*refreshers, *seats], ["refresh"] * len(refreshers) + [kind] * len(seats),
                             refresh=refresh, fresh=[self.cipher[h] for h in refresh])
        if request.kind == "shuffle":
            if request.labels is not None:
                start = initial_ciphertexts(self.table, self.joint_key, request.labels)
            else:
                start = tuple(self._source_card(h, request) for h in request.source)
            progress.deck = start  # a reshuffle's input is exactly the cards under its source handles
        self.current = progress

    def remaining(self) -> list[int]:
        return [s for s in range(len(self.publics)) if s not in self.departed]

    # -- a seat leaving (SPEC §26.13) --------------------------------------------------
    def begin_hand_over(self, seat: int, handles: Sequence[int]) -> None:
        """The leaving seat's obligations: a `refresh` by every seat still here (the leaver
        included) of each card whose current ciphertext carries the share of every seat but
        the leaver, whose own share would complete it; then the leaver's `hand-over`."""
        rest = [s for s in self.remaining() if s != seat]
        refresh = tuple(h for h in handles if seat not in self.shares.get(h, {})
                        and all(s in self.shares.get(h, {}) for s in rest))
        refreshers = self.remaining() if refresh else []
        self.current = _Progress(DeckRequest("hand-over", "hidden cards", tuple(handles), seat),
                                 [*refreshers, seat], ["refresh"] * len(refreshers) + ["hand-over"],
                                 refresh=refresh, fresh=[self.cipher[h] for h in refresh])

    def hand_over_due(self) -> list[int]:
        """The handles whose leaver's share the hand-over publishes: those of the game's
        list whose current ciphertext does not carry it yet."""
        req = self.current.request
        return [h for h in req.handles if req.seat not in self.shares.get(h, {})]

    def depart(self, seat: int) -> list[int]:
        """The seat is gone: every card whose seat's share of its current C1 is in the log
        drops it, (C1, C2 − D), and is then under the remaining seats' key; the seat is never
        polled again and new decks use that key. Every other card under a ciphertext was
        made while the seat was here and needs its share: those not shown to the table are
        returned, and `lost` for good (a game must never deal or reveal them again)."""
        lost = self.needing(seat)
        for h, ct in self.cipher.items():
            d = self.shares.get(h, {}).pop(seat, None)
            if d is not None:
                self.cipher[h] = mp.Ciphertext(ct.c1, g.sub(ct.c2, d))
        self.lost.update(lost)
        self.departed.add(seat)
        self.joint_key = g.sub(self.joint_key, self.publics[seat])
        return lost

    def needing(self, seat: int) -> list[int]:
        """The handles `depart(seat)` would lose: under a ciphertext, never shown, not lost
        already, and the seat's share of the current C1 not in the log."""
        return [h for h, ct in self.cipher.items()
                if seat not in self.shares.get(h, {}) and h not in self.lost and ct.c1 not in self.shown]

    def stale(self, request: DeckRequest) -> tuple[int, ...]:
        """The handles of a deal whose current ciphertext already carries the receiver's own
        share: dealt as they are, every seat's share of them would be in the log."""
        return tuple(h for h in request.handles if request.seat in self.shares.get(h, {}))

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
        p = self.current
        return p.kinds[min(p.done, len(p.kinds) - 1)]

    def refresh_due(self) -> tuple[int, ...]:
        """The handles the due `refresh` event re-encrypts, or () when none is due."""
        p = self.current
        return p.refresh if p is not None and self.due_kind() == "refresh" and not self.complete() else ()

    # -- shuffles ----------------------------------------------------------------------
    def shuffle_input(self) -> dict:
        """What the first shuffle of a deck operation says of its input (SPEC §26.4), so a
        third party checks its proof from the log alone: `labels` for a new deck, `in` (the
        input ciphertexts) for a reshuffle; later shuffles take the previous one's output."""
        p = self.current
        if p.done:
            return {}
        if p.request.labels is not None:
            return {"labels": list(p.request.labels)}
        return {"in": mp.encode_deck(p.deck)}

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

    # -- refreshes (SPEC §25.11, §26.4) -------------------------------------------------
    def refresh_inputs(self) -> list[list]:
        """What a `refresh` event answers: [handle, input ciphertext (64 bytes)] per card."""
        p = self.current
        return [[h, ct.c1 + ct.c2] for h, ct in zip(p.refresh, p.fresh)]

    def make_refresh(self, seq: int, seat: int, author: bytes) -> tuple[bytes, bytes]:
        """(cards, proofs) of this seat's re-encryption of every card the deal refreshes."""
        p, cards, proofs = self.current, [], []
        for h, ct in zip(p.refresh, p.fresh):
            after, proof = rf.refresh_card(ct, self.joint_key, refresh_context(self.game, seq, author, h),
                                           self.names[seat])
            cards.append(after)
            proofs.append(proof.to_bytes())
        return mp.encode_deck(cards), b"".join(proofs)

    def accept_refresh(self, seq: int, seat: int, author: bytes, data: object, proofs: object,
                       answered: object, *, own: bool = False) -> None:
        """Check one seat's re-encryption of the refreshed cards: each a proven
        re-encryption of its input, no C1 seen before; after the last seat the handles hold
        the new ciphertexts and the shares of the old ones no longer apply to them."""
        p = self.current
        k = len(p.refresh)
        if not isinstance(data, bytes) or not isinstance(proofs, bytes) or len(data) != k * mp.CIPHERTEXT_BYTES \
                or len(proofs) != k * rf.REFRESH_PROOF_BYTES:
            raise BadBody(f'"d" and "p" must be bin {k * mp.CIPHERTEXT_BYTES} and bin {k * rf.REFRESH_PROOF_BYTES}',
                          seq=seq, author=author)
        if answered != self.refresh_inputs():
            raise BadBody(f'"for" must be [handle, input card] of {" ".join(f"#{h}" for h in p.refresh)}, in order',
                          seq=seq, author=author)
        after = [mp.Ciphertext(data[i:i + 32], data[i + 32:i + 64]) for i in range(0, len(data), 64)]
        n = rf.REFRESH_PROOF_BYTES
        for i, (h, before, ct) in enumerate(zip(p.refresh, p.fresh, after)):
            if ct.c1 in self.seen_c1 or ct.c1 in {c.c1 for c in after[:i]}:
                raise BadRefresh(f"card #{h} repeats a C1 already in the game", seq=seq, author=author)
            if not own:
                try:
                    rf.verify_refresh(before, ct, proofs[n * i:n * i + n], self.joint_key,
                                      refresh_context(self.game, seq, author, h), self.names[seat])
                except rf.RefreshProofError as exc:
                    raise BadRefresh(f"card #{h}: {exc.reason}", seq=seq, author=author) from None
        self.seen_c1.update(ct.c1 for ct in after)
        p.fresh = after
        p.done += 1
        if p.kinds[p.done] != "refresh":     # every seat re-encrypted: the new cards take over
            for h, ct in zip(p.refresh, after):
                self.cipher[h] = ct
                self.shares.pop(h, None)

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
            self.seen_c1.update(ct.c1 for ct in p.deck)
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
