"""A leaving seat's hand-over (SPEC §26.13): its shares and the re-masked cards are checked,
the remaining seats alone then open a card, the shares published for the old C1 no longer
open it, and a wrong re-mask is refused with nothing changed."""
from __future__ import annotations

import os

import pytest

from protocol.poker import deck as mp
from protocol.session import BadBody, BadShare, DeckRequest
from protocol.session.core import card_table
from protocol.session.dealing import DeckBook
from protocol.session.hand_over import accept_hand_over, make_hand_over

LABELS = tuple(f"card:{i}" for i in range(6))
NAMES = ["s0", "s1", "s2"]


def table_of_three():
    keys = [mp.KeyShare.generate() for _ in NAMES]
    publics = [k.public for k in keys]
    joint = mp.joint_public_key(publics)
    book = DeckBook(os.urandom(16), card_table(LABELS), NAMES, publics, joint)
    seq = 10
    book.begin(DeckRequest("shuffle", "d", tuple(range(6)), labels=LABELS), seq)
    for seat in range(3):
        data, proof = book.make_shuffle(seq, NAMES[seat].encode())
        book.accept_shuffle(seq, seat, NAMES[seat].encode(), data, proof, own=True)
        seq += 1
    book.finish(seq)
    return book, keys, seq


def deal(book, keys, handle, to, seq):
    book.begin(DeckRequest("deal", "d", (handle,), to), seq)
    for seat in book.current.seats:
        book.accept_shares(seq, seat, b"x", book.make_shares(keys[seat], seq, seat))
        seq += 1
    label = book.private_labels(keys[to], to, seq)[0][1]
    book.finish(seq)
    return label, seq


def test_after_a_hand_over_the_remaining_seats_alone_open_a_card_and_old_shares_do_not():
    book, keys, seq = table_of_three()
    first, seq = deal(book, keys, 0, 0, seq)       # seat 0 holds card #0: seats 1, 2 shared it publicly
    old_shares = dict(book.shares[0])
    body = make_hand_over(book, keys[0], seq, 0, [0, 1, 2])   # seat 0 leaves; #0 went back to the pile
    before = book.cipher[0]
    accept_hand_over(book, seq, 0, b"s0", body, [0, 1, 2])
    assert book.departed == {0} and book.cipher[0].c1 != before.c1 and 0 not in book.shares
    # the old public shares and the leaver's new one no longer open the card for anybody
    leaked = mp.combine_shares(book.cipher[0], [old_shares[1], old_shares[2], body["s"][0][:32]])
    assert leaked != book.table.point(first)
    # seat 1 is dealt the card: only seat 2 is polled, and seat 1 reads the same identity
    book.begin(DeckRequest("deal", "d", (0,), 1), seq + 1)
    assert book.current.seats == [2]
    book.current = None
    again, seq = deal(book, keys, 0, 1, seq + 1)
    assert again == first
    book.begin(DeckRequest("reveal", "d", (1,)), seq)   # a public reveal: seats 1 and 2 only
    assert book.current.seats == [1, 2]


def test_a_wrong_re_mask_or_handle_list_is_refused_and_changes_nothing():
    book, keys, seq = table_of_three()
    body = make_hand_over(book, keys[2], seq, 2, [3, 4])
    cipher = dict(book.cipher)
    forged = dict(body, m=[body["m"][1], body["m"][0]])          # cards swapped between handles
    with pytest.raises(BadShare):
        accept_hand_over(book, seq, 2, b"s2", forged, [3, 4])
    with pytest.raises(BadBody):
        accept_hand_over(book, seq, 2, b"s2", body, [3, 4, 5])
    wrong_key = make_hand_over(book, keys[1], seq, 2, [3, 4])    # another seat's shares under seat 2's name
    with pytest.raises(BadShare):
        accept_hand_over(book, seq, 2, b"s2", wrong_key, [3, 4])
    assert book.cipher == cipher and not book.departed
    accept_hand_over(book, seq, 2, b"s2", body, [3, 4])
    assert book.departed == {2}
