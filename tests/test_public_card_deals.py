"""A card whose identity is public and that no deck ever held (a starting Star-T taken from
Space Junk by The Scavenger) is never dealt: it lies under no ciphertext, so no seat could
make a share for it (a networked peer once crashed with KeyError 218 making one), and
everyone knows it already (SPEC §10.2, §26.4)."""
from __future__ import annotations

import pytest

from p2p_asv.actions import BankGive, Pick, PlaySpecial
from p2p_asv.hidden_specials import TRADING_POST, do_pick
from p2p_asv.life_effects import do_bank_give
from p2p_asv.setup import new_game
from p2p_asv.state import Poll
from protocol.crypto import group as g
from protocol.poker import deck as mp
from protocol.session.dealing import DeckBook, initial_ciphertexts
from protocol.session.errors import DeckCorrupted
from protocol.session.game_rules import DeckRequest


def _star_t_in_hand():
    state = new_game(2, {})
    star_t = next(h for h, name in state.names.items() if name == "Star-T Ship")
    state.players[0].hand.append(star_t)   # as The Scavenger takes it from Space Junk
    return state, star_t


def _dealt(state) -> list[int]:
    return [h for r in state.pending if r.kind == "deal" for h in r.handles]


def test_a_public_card_given_back_for_city_of_banks_is_not_dealt():
    state, star_t = _star_t_in_hand()
    state.bank_owed = 1
    before = list(state.pending)
    do_bank_give(state, 0, BankGive(star_t))
    assert star_t in state.players[1].hand
    assert state.pending == before   # nothing to deal: seat 1 sees the public name


def test_a_trading_post_deals_only_the_hidden_cards_of_the_swap():
    state, star_t = _star_t_in_hand()
    hidden = state.players[0].hand[0]
    theirs = state.players[1].hand[0]
    card = PlaySpecial(500, TRADING_POST, ("@1", f"#{star_t}", f"#{hidden}"))
    state.polls.append(Poll("trade", 0, (0,), card, (1,)))
    do_pick(state, 0, Pick((theirs, state.players[1].hand[1])))
    assert star_t in state.players[1].hand and star_t not in _dealt(state)
    assert state.pending[-1].handles == (hidden,) and state.pending[-1].seat == 1


def test_a_deal_of_a_card_under_no_ciphertext_is_a_clear_error():
    """Should a game still ask it, every replica halts alike with a typed error instead of
    the peer owing the shares crashing on a missing ciphertext."""
    table = mp.CardTable(["card:A", "card:Star-T Ship"])
    joint = g.base_mul(g.random_scalar())
    book = DeckBook(b"g" * 16, table, ["p0", "p1"], [joint, joint], joint)
    book.cipher = {10: initial_ciphertexts(table, joint, ["card:A"])[0]}
    with pytest.raises(DeckCorrupted, match="#218"):
        book.begin(DeckRequest("deal", "hand", (10, 218), seat=1), seq=7)
    with pytest.raises(DeckCorrupted, match="#218"):
        book.begin(DeckRequest("reveal", "hand", (218,)))
    book.begin(DeckRequest("deal", "hand", (10,), seat=1))
    assert book.due_seat() == 0
