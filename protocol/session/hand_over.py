"""A seat leaving the game hands its part of the hidden cards over (SPEC §26.13).

Every card is encrypted under the joint key, the sum of every seat's public share, so a
card cannot be opened without the share of a seat that left. Before the seat stops being
polled it publishes, in one `hand-over` event, its decryption share D = x·C1 of each card
the game may still deal or reveal whose current ciphertext does not carry its share yet.
Every card whose leaver's share is in the log then drops it: (C1, C2 − D) is the same card
under the remaining seats' key Y' = Y − Y_leaver (`DeckBook.depart`).

Publishing D can complete a card: a card the leaver once held was dealt to it with every
other seat's share in the log. Such cards are first refreshed by every seat, the leaver
included, in seat order (§25.11, the `refresh` events of a deal, §26.4), so the share
answers a ciphertext of which no other share was ever published. One mechanism, the
refresh, makes old shares useless both when a card changes hands and when a seat leaves.
"""
from __future__ import annotations

from protocol.poker import deck as mp
from protocol.session.dealing import DeckBook, share_context
from protocol.session.errors import BadBody

__all__ = ["make_hand_over", "accept_hand_over"]


def make_hand_over(book: DeckBook, key: mp.KeyShare, seq: int, seat: int) -> dict:
    """The body of this seat's hand-over: `s` its shares, `for` [handle, C1] of each."""
    due = book.hand_over_due()
    return {"s": [mp.decryption_share(key, book.cipher[h], share_context(book.game, seq, h),
                                      book.names[seat]).to_bytes() for h in due],
            "for": [[h, book.cipher[h].c1] for h in due]}


def accept_hand_over(book: DeckBook, seq: int, seat: int, author: bytes, body: dict, *, own: bool = False) -> None:
    """Check a hand-over against the cards the book says are due (every share's proof);
    then the leaver's shares join the log's and the seat departs (`DeckBook.depart`).
    Refused with nothing changed."""
    due = book.hand_over_due()
    if body["for"] != [[h, book.cipher[h].c1] for h in due]:
        raise BadBody(f'"for" must be [handle, C1] of {" ".join(f"#{h}" for h in due) or "no card"}, in order',
                      seq=seq, author=author)
    if len(body["s"]) != len(due):
        raise BadBody(f'"s" must hold one share per handle ({len(due)})', seq=seq, author=author)
    verified = [book._verified_share(seq, seat, author, h, raw, own) for h, raw in zip(due, body["s"])]
    for h, d in zip(due, verified):
        book.shares.setdefault(h, {})[seat] = d
    book.current = None
    book.depart(seat)
