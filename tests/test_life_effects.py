"""Automata and City of Banks, the continuing life forms used in phase 5 (SPEC §8.10)."""
from __future__ import annotations

import pytest

from helpers_engine import DISCARD, REFILL, Game
from p2p_asv import actions as A
from p2p_asv.engine import apply
from p2p_asv.errors import IllegalAction


def _in_refill(card: str) -> Game:
    g = Game(2, seed=5)
    g.state.players[0].continuing.append(card)
    g.tiles()
    g.to_phase(DISCARD)
    g.act(A.Discard((g.state.players[0].hand[0],)))   # room in hand
    assert g.state.phase == REFILL
    return g


def test_automata_show_four_ship_cards_and_one_or_two_are_kept():
    g = _in_refill("Automata")
    state = g.state
    top = state.decks["port"][:4]
    assert A.LookAutomata() in g.legal(0)
    g.act(A.LookAutomata())
    assert all(h in g.views[0].known for h in top) and not any(h in g.views[1].known for h in top)
    assert all(isinstance(a, A.Keep) for a in g.legal(0))          # the choice comes first
    with pytest.raises(IllegalAction, match="Automata showed"):
        apply(state.clone(), 0, A.DrawCard("refuel"))
    g.act(A.Keep((top[1],)))                                        # hand 9 -> 10: one card fits
    assert top[1] in state.players[0].hand
    assert state.decks["port"][-3:] == [top[0], top[2], top[3]]     # the rest under the deck
    assert A.LookAutomata() not in g.legal(0)                       # once a turn


def test_keeping_is_limited_to_two_cards_the_automata_showed():
    g = _in_refill("Automata")
    g.state.players[0].hand.pop()                                   # room for two
    top = g.state.decks["port"][:4]
    g.act(A.LookAutomata())
    with pytest.raises(IllegalAction):
        apply(g.state.clone(), 0, A.Keep((top[0], g.state.decks["refuel"][0])))
    g.act(A.Keep((top[0], top[3])))
    assert {top[0], top[3]} <= set(g.state.players[0].hand)


def test_city_of_banks_takes_one_card_blind_and_gives_one_back():
    g = _in_refill("City of Banks")
    state = g.state
    take, give = state.players[1].hand[0], state.players[0].hand[0]
    assert A.Bank(take, give) in g.legal(0)
    g.act(A.Bank(take, give))
    assert take in state.players[0].hand and give in state.players[1].hand
    assert take in g.views[0].known and give in g.views[1].known   # each learns what it got
    assert not any(isinstance(a, A.Bank) for a in g.legal(0))      # once a turn
    with pytest.raises(IllegalAction, match="once a turn"):
        apply(state.clone(), 0, A.Bank(state.players[1].hand[0], state.players[0].hand[0]))


def test_effects_need_the_card_in_front_of_you():
    g = _in_refill("Alien Ruins")
    with pytest.raises(IllegalAction, match="no Automata"):
        apply(g.state.clone(), 0, A.LookAutomata())
    with pytest.raises(IllegalAction, match="no City of Banks"):
        apply(g.state.clone(), 0, A.Bank(g.state.players[1].hand[0], g.state.players[0].hand[0]))
