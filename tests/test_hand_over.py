"""A leaving seat's hand-over (SPEC §26.13): a card whose other shares are all in the log is
first refreshed by every seat, the leaver included; the leaver's shares are checked; the
remaining seats alone then open a card; the shares published for the old C1 no longer open
it; a card the leaver shared already needs nothing from it; one only its share could open is
lost; and a wrong hand-over is refused with nothing changed."""
from __future__ import annotations

import os

import pytest

from protocol.poker import deck as mp
from protocol.session import BadBody, BadShare, DeckCorrupted, DeckRequest
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
    while book.due_kind() == "refresh" and not book.complete():
        seat = book.due_seat()
        cards, proofs = book.make_refresh(seq, seat, NAMES[seat].encode())
        book.accept_refresh(seq, seat, NAMES[seat].encode(), cards, proofs, book.refresh_inputs())
        seq += 1
    for seat in book.current.seats[book.current.done:]:
        book.accept_shares(seq, seat, b"x", book.make_shares(keys[seat], seq, seat))
        seq += 1
    label = book.private_labels(keys[to], to, seq)[0][1]
    book.finish(seq)
    return label, seq


def hand_over(book, keys, seat, handles, seq):
    """Every obligation of seat's hand-over, each checked as a receiver checks it."""
    book.begin_hand_over(seat, handles)
    refreshed = book.current.refresh
    while book.due_kind() == "refresh":
        s = book.due_seat()
        cards, proofs = book.make_refresh(seq, s, NAMES[s].encode())
        book.accept_refresh(seq, s, NAMES[s].encode(), cards, proofs, book.refresh_inputs())
        seq += 1
    assert book.due_seat() == seat and book.due_kind() == "hand-over"
    body = make_hand_over(book, keys[seat], seq, seat)
    accept_hand_over(book, seq, seat, NAMES[seat].encode(), body)
    return body, refreshed, seq + 1


def test_a_card_the_leaver_held_is_refreshed_by_every_seat_then_the_rest_alone_open_it():
    book, keys, seq = table_of_three()
    first, seq = deal(book, keys, 0, 0, seq)       # seat 0 holds card #0: seats 1, 2 shared it publicly
    old = book.cipher[0]
    old_shares = dict(book.shares[0])
    book.begin_hand_over(0, [0, 1, 2])            # seat 0 leaves; #0 went back to the pile
    assert book.current.seats == [0, 1, 2, 0] and book.current.refresh == (0,)
    book.current = None
    body, refreshed, seq = hand_over(book, keys, 0, [0, 1, 2], seq)
    assert refreshed == (0,) and book.departed == {0} and book.lost == {3, 4, 5}   # not handed over
    assert [c1 for _, c1 in body["for"]][0] != old.c1   # the share answers the refreshed card
    # the old public shares and the leaver's share no longer open the card for anybody
    leaked = mp.combine_shares(old, [old_shares[1], old_shares[2], body["s"][0][:32]])
    assert leaked != book.table.point(first)
    # seat 1 is dealt the card: only seat 2 is polled, and seat 1 reads the same identity
    book.begin(DeckRequest("deal", "d", (0,), 1), seq)
    assert book.current.seats == [2]
    book.current = None
    again, seq = deal(book, keys, 0, 1, seq)
    assert again == first
    book.begin(DeckRequest("reveal", "d", (1,)), seq)   # a public reveal: seats 1 and 2 only
    assert book.current.seats == [1, 2]


def test_a_card_the_leaver_shared_needs_nothing_from_it_and_its_own_card_is_lost():
    book, keys, seq = table_of_three()
    label1, seq = deal(book, keys, 1, 1, seq)      # seats 0 and 2 shared #1 for seat 1
    _, seq = deal(book, keys, 2, 2, seq)           # seat 2 holds #2: seat 2's share of it was never given
    book.begin_hand_over(2, [1, 3])                # seat 2 leaves; #1 lies in the pile again
    assert book.current.refresh == () and book.hand_over_due() == [3]   # seat 2 shared #1 already
    book.current = None
    body, _, seq = hand_over(book, keys, 2, [1, 3], seq)
    assert [h for h, _ in body["for"]] == [3] and 2 not in book.shares[1]
    assert book.lost == {0, 2, 4, 5}               # cards only seat 2's share could open (#2: its own)
    again, seq = deal(book, keys, 1, 1, seq)       # #1 to its old holder: seat 0 alone is polled
    assert again == label1
    with pytest.raises(DeckCorrupted, match="departed"):
        book.begin(DeckRequest("deal", "d", (2,), 0), seq)


def test_a_wrong_hand_over_is_refused_and_changes_nothing():
    book, keys, seq = table_of_three()
    book.begin_hand_over(2, [3, 4])
    body = make_hand_over(book, keys[2], seq, 2)
    cipher = dict(book.cipher)
    swapped = dict(body, s=[body["s"][1], body["s"][0]])          # shares swapped between handles
    with pytest.raises(BadShare):
        accept_hand_over(book, seq, 2, b"s2", swapped, own=False)
    with pytest.raises(BadBody):
        accept_hand_over(book, seq, 2, b"s2", dict(body, **{"for": body["for"][:1]}))
    wrong_key = make_hand_over(book, keys[1], seq, 2)             # another seat's shares under seat 2's name
    with pytest.raises(BadShare):
        accept_hand_over(book, seq, 2, b"s2", wrong_key)
    assert book.cipher == cipher and not book.departed and 2 not in book.shares.get(3, {})
    accept_hand_over(book, seq, 2, b"s2", body)
    assert book.departed == {2}


def test_a_seat_that_departs_without_a_hand_over_leaves_the_cards_it_shared_claimable():
    """The forfeit's departure (SPEC §26.14): no event of the seat, only its shares in the log."""
    book, keys, seq = table_of_three()
    label, seq = deal(book, keys, 1, 1, seq)       # seat 1 holds #1, dealt with seats 0 and 2's shares
    assert book.needing(2) == [0, 2, 3, 4, 5]
    assert book.depart(2) == [0, 2, 3, 4, 5] and book.lost == {0, 2, 3, 4, 5}
    share = book.make_claim_share(keys[1], seq, 1, 1)
    book.check_claim(seq, 1, b"s1", 1, label, share)                  # opens without seat 2
    with pytest.raises(DeckCorrupted, match="departed"):
        book.begin(DeckRequest("deal", "d", (3,), 0), seq)
