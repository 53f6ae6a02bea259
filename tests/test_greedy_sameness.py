"""GreedyBot's fast path (SPEC §12.1) chooses what the plain procedure chooses: at every
greedy decision of seeded games (two to four players, the variants), the bot's action and the
draws it takes from its random source equal those of tests/greedy_reference.py, run from a
copy of the same source on the same state and view; and choosing leaves the state as it was."""
from __future__ import annotations

import copy

import pytest

from p2p_asv import actions as A
from p2p_asv.bots import GreedyBot
from p2p_asv.dealer import LocalDealer
from p2p_asv.engine import apply, legal_actions, to_move
from p2p_asv.greedy_best import _draw
from p2p_asv.greedy_score import greedy_score
from p2p_asv.seeded import SeededRandom
from p2p_asv.setup import new_game
from p2p_asv.state import CHANCE
from p2p_asv.view import PlayerView
from tests.greedy_reference import reference_choose

GAMES = [   # (players, config, seed)
    (4, {}, 11), (4, {}, 12), (3, {}, 5), (2, {}, 7), (2, {}, 8),
    (4, {"partnership": True}, 3),
    (3, {"advanced": True}, 4), (2, {"advanced": True}, 9),
    (2, {"role_play": True, "captain_rookie": True}, 6),
    (4, {"role_play": True, "captain_rookie": True}, 13),
    (4, {"nine_planets": True, "tiles_per_turn": 1}, 2),
    (3, {"tiles_per_turn": 3}, 10),
]


def _checked_game(players: int, config: dict, seed: int) -> tuple[int, int]:
    """Plays one greedy game, checking each choice against the reference; (decisions, ties
    broken among more than one best action)."""
    state = new_game(players, config)
    dealer = LocalDealer(seed)
    views = [PlayerView(seat) for seat in range(players)]
    bots = [GreedyBot(f"{seed}/{seat}") for seat in range(players)]
    decisions = ties = 0
    while not state.over:
        seat = to_move(state)
        if seat == CHANCE:
            action = dealer.outcome(state, views)
        else:
            rng = copy.copy(bots[seat].rng)
            expected = reference_choose(rng, state, views[seat])
            was = state.hash()
            action = bots[seat].choose(state, views[seat])
            assert state.hash() == was   # choosing changes nothing
            assert (action, bots[seat].rng._counter) == (expected, rng._counter), \
                f"seed {seed}, event {decisions}: {action.text()} instead of {expected.text()}"
            decisions += 1
            ties += _tied(state, views[seat])
        apply(state, seat, action)
    return decisions, ties


def _tied(state, view) -> bool:
    """Whether more than one action shares the best greedy score (the random draw matters)."""
    scores = [greedy_score(state, view, a) for a in legal_actions(state, view)]
    return scores.count(max(scores)) > 1


@pytest.mark.parametrize("players,config,seed", GAMES)
def test_the_greedy_bot_chooses_as_the_reference_procedure(players, config, seed):
    decisions, ties = _checked_game(players, config, seed)
    assert decisions > 100 and ties > 10   # whole games, with ties broken at random


class _Fixed(SeededRandom):
    """A random source that always draws the k-th of n."""

    def __init__(self, k: int) -> None:
        super().__init__(0)
        self.k = k

    def below(self, n: int) -> int:
        assert 0 <= self.k < n
        return self.k


def test_the_draw_orders_placements_among_other_actions_as_their_notation_does():
    """Handles of one, two and three digits, squares whose names are prefixes of others
    (A-1, A-10), a scrap and Special Action plays sorting on either side of the placements."""
    squares = [(0, 0), (0, 9), (0, 1), (1, 0), (12, 12), (5, 10)]
    groups = [(0, [(h, sq, r) for sq in squares for r in (0, 3)]) for h in (7, 12, 100)]
    groups.append((-1, [(8, (2, 2), 1)]))   # below the best: never drawn
    scored = [(0, A.ScrapTile(9)), (0, A.PlaySpecial(5, "Acid Rain")), (0, A.DrawTile(1)),
              (0, A.Next()), (1 - 2, A.Pass())]
    expected = sorted([A.PlaceTile(h, sq, r) for _, group in groups[:3] for h, sq, r in group]
                      + [a for s, a in scored if s == 0], key=A.sort_key)
    drawn = [_draw(_Fixed(k), scored, groups) for k in range(len(expected))]
    assert drawn == expected
