"""A card that lay face up from the setup and was never in a deck (the starting Star-T
Ship) can be reshuffled into one: it enters as the public encryption of its label, the
same on every peer (SPEC §26.4, §27.3)."""
from __future__ import annotations

import pytest

from protocol.crypto import group as g
from protocol.poker import deck as mp
from protocol.session.dealing import DeckBook, initial_ciphertexts
from protocol.session.errors import DeckCorrupted
from protocol.session.game_rules import DeckRequest

LABELS = ["card:A", "card:B", "card:Star-T Ship"]


def book():
    table = mp.CardTable(LABELS)
    joint = g.base_mul(g.random_scalar())
    b = DeckBook(b"g" * 16, table, ["p0", "p1"], [joint, joint], joint)
    b.cipher = dict(zip((10, 11), initial_ciphertexts(table, joint, ["card:A", "card:B"])))
    return b, table, joint


def test_a_face_up_card_enters_a_reshuffle_as_its_public_encryption():
    b, table, joint = book()
    request = DeckRequest("shuffle", "refuel", (20, 21, 22), source=(10, 99, 11),
                          face_up=((99, "card:Star-T Ship"), (10, "card:ignored")))
    b.begin(request)
    expected = initial_ciphertexts(table, joint, ["card:Star-T Ship"])[0]
    # a handle with a ciphertext keeps it (its label is only a fallback)
    assert b.current.deck == (b.cipher[10], expected, b.cipher[11])


def test_a_source_handle_under_no_card_is_a_clear_error():
    b, _, _ = book()
    with pytest.raises(DeckCorrupted, match="#99"):
        b.begin(DeckRequest("shuffle", "refuel", (20, 21), source=(10, 99)))
