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


def test_partners_cannot_exchange_cards_through_city_of_banks():
    """SPEC §13.4: in the partnership game City of Banks takes only from the other team."""
    from helpers_engine import RiggedDealer
    from p2p_asv.setup import new_game
    from p2p_asv.view import PlayerView
    g = Game(4, dealer=RiggedDealer(5))
    g.state = new_game(4, {"partnership": True})
    g.views = [PlayerView(s) for s in range(4)]
    g.settle()
    state = g.state
    state.players[0].continuing.append("City of Banks")
    g.tiles()
    g.to_phase(DISCARD)
    g.act(A.Discard((state.players[0].hand[0],)))
    give = state.players[0].hand[0]
    partner, rival = state.players[2].hand[0], state.players[1].hand[0]
    legal = g.legal(0)
    assert A.Bank(rival, give) in legal and not any(a.take == partner for a in legal if isinstance(a, A.Bank))
    with pytest.raises(IllegalAction, match="partners"):
        apply(state.clone(), 0, A.Bank(partner, give))


def test_alien_artifact_lists_every_multi_card_discard_once():
    """SPEC §6.4, §11.2: with Alien Artifact every non-empty set of hand cards is a legal discard."""
    from itertools import combinations
    g = Game(2, seed=5)
    g.state.players[0].continuing.append("Alien Artifact")
    g.tiles()
    g.to_phase(DISCARD)
    hand = sorted(g.state.players[0].hand)
    discards = [a for a in g.legal(0) if isinstance(a, A.Discard)]
    assert len(discards) == 2 ** len(hand) - 1 == len({frozenset(a.cards) for a in discards})
    assert A.Discard(tuple(hand)) in discards and A.Discard(tuple(combinations(hand, 3))[7]) in discards
    g.act(A.Discard(tuple(hand[:4])))
    assert g.state.decks["junk"][-4:] == hand[:4] and g.state.phase == REFILL


def test_without_alien_artifact_only_single_discards_are_listed():
    g = Game(2, seed=5)
    g.tiles()
    g.to_phase(DISCARD)
    discards = [a for a in g.legal(0) if isinstance(a, A.Discard)]
    assert sorted(a.cards for a in discards) == [(h,) for h in sorted(g.state.players[0].hand)]


def test_automata_need_the_energy_to_keep_a_card_in_the_advanced_game():
    """SPEC §8.10, §13.5: a look with no energy left would leave no legal keep."""
    from helpers_engine import RiggedDealer
    from p2p_asv.setup import new_game
    from p2p_asv.view import PlayerView
    g = Game(2, dealer=RiggedDealer(5))
    g.state = new_game(2, {"advanced": True})
    g.views = [PlayerView(s) for s in range(2)]
    g.settle()
    state = g.state
    state.players[0].continuing.append("Automata")
    g.act(A.Discard((state.players[0].hand[0],)))
    assert A.LookAutomata() in g.legal(0)
    state.energy = 0
    assert A.LookAutomata() not in g.legal(0)
    with pytest.raises(IllegalAction, match="no energy"):
        apply(state.clone(), 0, A.LookAutomata())
