"""A seat leaving the game hands its part of the hidden cards over (SPEC §26.13).

Every card is encrypted under the joint key, the sum of every seat's public share, so a
card cannot be decrypted without the share of a seat that left. Before the seat stops being
polled, it writes one `hand-over` event for the handles the game says may still be dealt or
revealed: for each card (C1, C2) its decryption share D = x·C1 with its Chaum-Pedersen proof,
and the card re-masked under the remaining seats' key Y' = Y − Y_leaver,

    (C1 + r·G,  C2 − D + r·Y')      with a proof that log_G(r·G) = log_Y'(r·Y'),

so the card keeps its handle and its identity and needs only the remaining seats' shares from
then on. The fresh C1 makes every decryption share published for the old C1 useless (a card
the leaver once held was dealt to it with the other seats' shares in the log; with its own
share beside them it would open for anyone). The book then polls the remaining seats only.
Cards already dealt to a remaining seat are not touched: their holder and a claim's check
use the deal's shares, the leaver's among them.
"""
from __future__ import annotations

import struct
from typing import Sequence

from protocol.crypto import group as g
from protocol.crypto import proofs
from protocol.poker import deck as mp
from protocol.session.dealing import DeckBook, share_context
from protocol.session.errors import BadBody, BadShare

__all__ = ["make_hand_over", "accept_hand_over", "remask_context"]


def remask_context(game: bytes, seq: int, handle: int) -> bytes:
    """Fiat-Shamir context of a re-mask proof: the game, the event height and the handle."""
    return g.lp(b"p2p-asv/session-remask/v1", game, struct.pack(">Q", seq), struct.pack(">I", handle))


def _remaining_key(book: DeckBook, seat: int) -> bytes:
    return g.sub(book.joint_key, book.publics[seat])


def make_hand_over(book: DeckBook, key: mp.KeyShare, seq: int, seat: int, handles: Sequence[int]) -> dict:
    """The body of this seat's hand-over: `s` its shares, `m` the re-masked cards, `r` the
    re-mask proofs, `for` the handles, in order."""
    rest = _remaining_key(book, seat)
    shares, cards, remask = [], [], []
    for h in handles:
        ct = book.cipher[h]
        share = mp.decryption_share(key, ct, share_context(book.game, seq, h), book.names[seat])
        r = g.random_scalar()
        d1, d2 = g.base_mul(r), g.mul(r, rest)
        new = mp.Ciphertext(g.add(ct.c1, d1), g.add(g.sub(ct.c2, share.share), d2))
        proof = proofs.prove_equal_dlog(r, rest, remask_context(book.game, seq, h), public=d1, share=d2)
        shares.append(share.to_bytes())
        cards.append(new.to_bytes())
        remask.append(proof.to_bytes())
    return {"s": shares, "m": cards, "r": remask, "for": list(handles)}


def accept_hand_over(book: DeckBook, seq: int, seat: int, author: bytes, body: dict,
                     handles: Sequence[int], *, own: bool = False) -> None:
    """Check a hand-over against the handles the game names; then re-mask the cards, drop
    the shares and holders of their old C1, take the seat out of every later operation and
    the remaining seats' key for new decks. Refused with nothing changed."""
    if body["for"] != list(handles):
        raise BadBody(f'"for" must be the handles {list(handles)}, in order', seq=seq, author=author)
    n = len(handles)
    if not (len(body["s"]) == len(body["m"]) == len(body["r"]) == n):
        raise BadBody(f'"s", "m" and "r" must hold one item per handle ({n})', seq=seq, author=author)
    rest = _remaining_key(book, seat)
    new_cards = []
    for h, raw_share, raw_card, raw_proof in zip(handles, body["s"], body["m"], body["r"]):
        d = book._verified_share(seq, seat, author, h, raw_share, own)
        ct = book.cipher[h]
        try:
            new = mp.Ciphertext.from_bytes(raw_card)
            if not own:
                proof = proofs.Proof.from_bytes(raw_proof, "re-mask")
                d1, d2 = g.sub(new.c1, ct.c1), g.sub(new.c2, g.sub(ct.c2, d))
                proofs.verify_equal_dlog(d1, rest, d2, proof, remask_context(book.game, seq, h))
        except (proofs.InvalidProof, ValueError) as exc:
            raise BadShare(f"re-mask of #{h}: {exc}", seq=seq, author=author) from None
        new_cards.append(new)
    for h, new in zip(handles, new_cards):
        book.cipher[h] = new
        book.shares.pop(h, None)
        book.dealt_to.pop(h, None)
    book.departed.add(seat)
    book.joint_key = rest
