"""The search bot's playout policy is the greedy bot (SPEC §12.1, §12.3): one scorer serves
both, and the playout's shortcuts (phase 1 without listing every placement, phases 4 and 5
without listing at all) choose what greedy would."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from p2p_asv import actions as A
from p2p_asv.bots import GreedyBot
from p2p_asv.dealer import LocalDealer
from p2p_asv.engine import apply, legal_actions, to_move
from p2p_asv.greedy_score import greedy_score, special_ceiling
from p2p_asv.search.playout import _plain_end_of_turn, policy_action, ranked
from p2p_asv.search.rng import FastRandom
from p2p_asv.setup import new_game
from p2p_asv.state import CHANCE, REFILL
from p2p_asv.view import PlayerView


def _world(state, identity: dict[int, str], seed: str):
    """What policy_action reads of a search world: the state, views that know every
    identity, and the playout's random numbers."""
    known = {**identity, **state.names}
    return SimpleNamespace(state=state.clone(), rng=FastRandom(seed),
                           views=[PlayerView(p.seat, known) for p in state.players])


def _greedy_positions(players: int, seed: int):
    """Every position of a greedy game where the seat to move has a choice, with its view
    and the dealer's identities (which a search world would have drawn)."""
    state, dealer = new_game(players), LocalDealer(seed)
    views = [PlayerView(s) for s in range(players)]
    bots = [GreedyBot(f"{seed}/{s}") for s in range(players)]
    while not state.over:
        seat = to_move(state)
        if seat == CHANCE:
            apply(state, seat, dealer.outcome(state, views))
            continue
        options = legal_actions(state, views[seat])
        if len(options) > 1:
            yield state, views[seat], options, dealer.identity
        apply(state, seat, bots[seat].choose(state, views[seat]))


@pytest.mark.parametrize("players,seed", [(2, 1), (4, 3)])
def test_the_playout_plays_an_action_greedy_scores_best(players, seed):
    """Position after position of a greedy game (tiles, pieces, moves, discoveries, Special
    Actions, discards, draws), the playout's choice, shortcuts included, is one GreedyBot
    scores highest, and the search's ranking puts such an action first; no Special Action
    card played on its own turn scores above the ceiling the shortcuts assume."""
    kinds = set()
    for state, view, options, identity in _greedy_positions(players, seed):
        best = max(greedy_score(state, view, a) for a in options)
        world = _world(state, identity, f"{seed}/{state.step}")
        pick = policy_action(world, view.seat)
        assert pick in options, (state.step, pick)
        assert greedy_score(state, view, pick) == best, (state.step, pick)
        top = ranked(state, view, options, FastRandom(state.step))[0]
        assert greedy_score(state, view, top) == best
        kinds.add(type(pick))
        if not state.polls and state.discovery is None:   # the shortcuts trust these ceilings
            for a in options:
                if type(a) is A.PlaySpecial:
                    assert greedy_score(state, view, a) <= special_ceiling(a.name), a
    assert {A.DrawTile, A.PlaceTile, A.Move, A.DrawCard, A.Discard} <= kinds


def _refill_position():
    """A 2-player game at seat 0's first phase 5 where it may draw, with nothing but drawing
    and ending the turn to do (the playout's shortcut applies, whatever its hand)."""
    for state, view, options, identity in _greedy_positions(2, 5):
        kinds = {type(a) for a in options}
        if state.phase == REFILL and view.seat == 0 and kinds == {A.Next, A.DrawCard} and len(options) == 3:
            return state, identity
    raise AssertionError("no phase 5 found")


def test_the_playout_draws_from_space_port_while_the_hand_holds_no_space_port_card():
    """SPEC §12.1, §12.3: greedy draws from Space Port while its hand holds no ship or extra
    card; the playout's phase-5 shortcut does the same, and draws from Refuel otherwise."""
    state, identity = _refill_position()
    hand = state.players[0].hand
    plain = dict(identity)
    for i, h in enumerate(hand):   # Refuel cards only: no Space Port card
        plain[h] = ("Zyam", "Water", "Geo Traders")[i % 3]
    world = _world(state, plain, "port")
    assert _plain_end_of_turn(world.state, 0, world.views[0], world.rng) == A.DrawCard("port")   # the shortcut
    assert policy_action(world, 0) == A.DrawCard("port")
    assert GreedyBot("g").choose(state, world.views[0]) == A.DrawCard("port")
    with_ship = dict(plain)
    with_ship[hand[0]] = "Fighter Ship"
    world = _world(state, with_ship, "refuel")
    assert _plain_end_of_turn(world.state, 0, world.views[0], world.rng) == A.DrawCard("refuel")
    assert policy_action(world, 0) == A.DrawCard("refuel")
    assert GreedyBot("g").choose(state, world.views[0]) == A.DrawCard("refuel")
