"""Automata and City of Banks, the continuing life forms used in phase 5 (SPEC §8.10)."""
from __future__ import annotations

import pytest

from tests.helpers_engine import DISCARD, REFILL, Game
from p2p_asv import actions as A
from p2p_asv.engine import apply, parse_action
from p2p_asv.errors import IllegalAction, MalformedAction


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


def _bank_game(players: int = 3, config: dict | None = None) -> Game:
    """Seat 0 owns City of Banks and stands in phase 5 with room in hand."""
    from tests.helpers_engine import RiggedDealer
    from p2p_asv.setup import new_game
    from p2p_asv.view import PlayerView
    g = Game(players, dealer=RiggedDealer(5))
    g.state = new_game(players, config)
    g.views = [PlayerView(s) for s in range(players)]
    g.settle()
    g.state.players[0].continuing.append("City of Banks")
    g.tiles()
    g.to_phase(DISCARD)
    g.act(A.Discard((g.state.players[0].hand[0],)))
    assert g.state.phase == REFILL
    return g


def test_city_of_banks_takes_blind_from_a_reshuffled_hand_then_gives_one_back():
    """SPEC §8.10: the holder's hand is reshuffled under fresh handles, the banker takes the
    card at a position, learns it alone, then gives back a card of its choice."""
    g = _bank_game()
    state, identity = g.state, g.dealer.identity
    banker, holder = state.players[0], state.players[1]
    old = list(holder.hand)
    names = sorted(identity[h] for h in old)
    banks = [a for a in g.legal(0) if isinstance(a, A.Bank)]
    assert sorted(banks) == [A.Bank(s, i) for s in (1, 2) for i in range(len(state.players[s].hand))]
    probe = apply(state.clone(), 0, A.Bank(1, 3))              # what the engine asks the decks for
    fresh = tuple(range(state.next_handle, state.next_handle + len(old)))
    assert [(r.kind, r.deck, r.handles, r.source, r.seat) for r in probe.pending] == [
        ("shuffle", "hand", fresh, tuple(old), None), ("deal", "hand", (fresh[3],), None, 0),
        ("deal", "hand", fresh[:3] + fresh[4:], None, 1)]
    g.act(A.Bank(1, 3))
    taken = banker.hand[-1]
    assert taken == fresh[3] and not set(old) & set(holder.hand + banker.hand)
    assert sorted(identity[h] for h in holder.hand + [taken]) == names
    assert taken in g.views[0].known and not set(holder.hand) & set(g.views[0].known)
    assert all(h in g.views[1].known for h in holder.hand) and taken not in g.views[1].known
    assert not set(holder.hand + [taken]) & set(g.views[2].known)   # the third seat learns nothing
    # Now the banker owes a card, and nothing else may come first.
    assert g.legal(0) == sorted((A.BankGive(h) for h in banker.hand), key=A.sort_key)
    with pytest.raises(IllegalAction, match="give a card back"):
        apply(state.clone(), 0, A.DrawCard("refuel"))
    give = banker.hand[0]
    g.act(A.BankGive(give))
    assert give in holder.hand and give not in banker.hand and len(holder.hand) == len(old)
    assert g.views[1].known[give] == identity[give] and give not in g.views[2].known
    assert not any(isinstance(a, (A.Bank, A.BankGive)) for a in g.legal(0))   # once a turn
    with pytest.raises(IllegalAction, match="once a turn"):
        apply(state.clone(), 0, A.Bank(2, 0))
    with pytest.raises(IllegalAction, match="owes nobody"):
        apply(state.clone(), 0, A.BankGive(banker.hand[0]))


def test_the_banker_may_give_back_the_card_it_took():
    """SPEC §8.10: the card given comes from the banker's hand after the take, so it may be
    the card just taken; the holder gets it back under the handle the banker saw."""
    g = _bank_game(2)
    g.act(A.Bank(1, 0))
    taken = g.state.players[0].hand[-1]
    assert A.BankGive(taken) in g.legal(0)
    g.act(A.BankGive(taken))
    assert taken in g.state.players[1].hand and g.views[1].known[taken] == g.dealer.identity[taken]


def test_bank_refusals_name_the_rule():
    g = _bank_game()
    held = len(g.state.players[1].hand)
    for action, reason in [(A.Bank(0, 0), "another player"), (A.Bank(7, 0), "another player"),
                           (A.Bank(1, held), f"holds {held} cards"),
                           (A.BankGive(g.state.players[0].hand[0]), "owes nobody")]:
        with pytest.raises(IllegalAction, match=reason):
            apply(g.state.clone(), 0, action)
    g.act(A.Bank(1, 0))
    with pytest.raises(IllegalAction, match="not in your hand"):
        apply(g.state.clone(), 0, A.BankGive(g.state.players[1].hand[0]))
    assert parse_action("bank 2 4") == A.Bank(2, 3) and parse_action("give #12") == A.BankGive(12)
    for text in ("bank 2 0", "bank #3 #4", "give 12", "give"):
        with pytest.raises(MalformedAction):
            parse_action(text)


def test_effects_need_the_card_in_front_of_you():
    g = _in_refill("Alien Ruins")
    with pytest.raises(IllegalAction, match="no Automata"):
        apply(g.state.clone(), 0, A.LookAutomata())
    with pytest.raises(IllegalAction, match="no City of Banks"):
        apply(g.state.clone(), 0, A.Bank(1, 0))


def test_partners_cannot_exchange_cards_through_city_of_banks():
    """SPEC §13.4: in the partnership game City of Banks takes only from the other team."""
    g = _bank_game(4, {"partnership": True})
    banks = [a for a in g.legal(0) if isinstance(a, A.Bank)]
    assert {a.seat for a in banks} == {1, 3}                      # never seat 2, the partner
    with pytest.raises(IllegalAction, match="partners"):
        apply(g.state.clone(), 0, A.Bank(2, 0))


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
    from tests.helpers_engine import RiggedDealer
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
