"""The search bot's reward (SPEC §12.3): the bot's value against a soft maximum of its rivals'
values, so that a rival close behind the leader counts too; at two players the soft maximum
of the one rival is that rival, and the reward is the plain margin's."""
from __future__ import annotations

import math

from p2p_asv.search.playout import RIVAL_SOFTNESS, evaluate, seat_value, soft_max
from p2p_asv.setup import new_game


def scored(players: int, scores: list[int]):
    state = new_game(players)
    for player, score in zip(state.players, scores):
        player.score = score
    return state


def test_soft_max_is_the_maximum_for_one_value_and_above_it_for_several():
    assert soft_max([17.5]) == 17.5
    assert soft_max([10.0, 10.0]) == 10.0 + RIVAL_SOFTNESS * math.log(2)
    assert 30.0 < soft_max([30.0, 5.0, 0.0]) < 30.6   # rivals far behind add little


def test_four_players_hurting_the_close_second_rival_raises_the_reward():
    base = evaluate(scored(4, [30, 40, 38, 10]), 0, {})
    second_hurt = evaluate(scored(4, [30, 40, 30, 10]), 0, {})
    last_hurt = evaluate(scored(4, [30, 40, 38, 2]), 0, {})
    leader_up = evaluate(scored(4, [30, 45, 38, 10]), 0, {})
    assert second_hurt > base + 0.02        # the plain maximum saw no change at all
    assert 0 < last_hurt - base < (second_hurt - base) / 10
    assert leader_up < base


def test_two_players_reward_is_the_plain_margin_to_the_one_rival():
    state = scored(2, [50, 35])
    margin = seat_value(state, 0, {}) - seat_value(state, 1, {})
    assert evaluate(state, 0, {}) == 0.5 + 0.5 * math.tanh(margin / 20.0)
    assert 0.5 < evaluate(state, 0, {}) < 1.0 and evaluate(state, 1, {}) < 0.5
