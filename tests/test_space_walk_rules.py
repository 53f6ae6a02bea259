"""Space Walk basic rules (SPEC §40-§42, §45): orbits, placement, group moves, black holes, end."""
from __future__ import annotations

import pytest

from space_walk import IllegalAction, MalformedAction, OutOfTurn, apply_text, legal_actions, new_game, to_move
from space_walk.actions import parse_action
from space_walk.orbit import LARGE_ORBIT, SMALL_ORBIT
from space_walk.selfplay import play_game
from tests.sw_helpers import codes_at, position


def test_orbits_for_two_and_for_three_to_five():
    """SPEC §40.2: two players on the small orbit with two holes, 3-5 on the large with three."""
    assert new_game(2).orbit is SMALL_ORBIT and len(SMALL_ORBIT.holes) == 2
    for n in (3, 4, 5):
        assert new_game(n).orbit is LARGE_ORBIT and len(LARGE_ORBIT.holes) == 3
    assert [h + 1 for h in LARGE_ORBIT.holes] == [7, 14, 21]
    assert new_game(4).tokens == [4] * 4 and new_game(5).tokens == [3] * 5
    assert new_game(3).reserve == [[3, 3, 3]] * 3   # nine ships: 3 large, 3 medium, 3 small
    for bad in (1, 6, True):
        with pytest.raises(ValueError):
            new_game(bad)
    with pytest.raises(ValueError, match="no option"):
        new_game(3, {"tiles_per_turn": 2})


def test_rulebook_four_ship_example():
    """SPEC §42.3, the rulebook's example: one large, two medium and one small on a square:
    the large moves 1, the mediums 2 and 3 (in the mover's order), the small 4."""
    state = position(3, {1: ["BL", "BM", "YM", "GS"]})
    moves = [a.text() for a in legal_actions(state, 0)]
    assert moves == ["move 1 BL BM YM GS", "move 1 BL YM BM GS"]
    apply_text(state, 0, "move 1 BL YM BM GS")
    assert codes_at(state, 1) == [] and codes_at(state, 2) == ["BL"]
    assert codes_at(state, 3) == ["YM"] and codes_at(state, 4) == ["BM"] and codes_at(state, 5) == ["GS"]


def test_a_lone_ship_moves_one_square_whatever_its_size():
    state = position(2, {3: ["BS"], 9: ["YL"]})
    apply_text(state, 0, "move 3")
    assert codes_at(state, 4) == ["BS"]


def test_an_order_is_written_only_when_there_is_a_choice():
    state = position(3, {2: ["BL", "BM", "BS"], 10: ["YS"], 11: ["GS"]})
    with pytest.raises(IllegalAction, match="one order only"):
        apply_text(state, 0, "move 2 BL BM BS")
    state = position(3, {2: ["BM", "YM"], 10: ["GS"]})
    before = state.hash()
    with pytest.raises(IllegalAction, match="list the order"):
        apply_text(state, 0, "move 2")
    with pytest.raises(IllegalAction, match="exactly the ships"):
        apply_text(state, 0, "move 2 BM GM")
    assert state.hash() == before  # a refusal changes nothing


def test_a_turn_needs_one_of_your_ships_and_moves_the_others_too():
    state = position(3, {2: ["YL", "BS"], 5: ["YM"], 9: ["GS"]})
    with pytest.raises(IllegalAction, match="none of your ships"):
        apply_text(state, 0, "move 5")
    apply_text(state, 0, "move 2")   # blue's small moves yellow's large as well
    assert codes_at(state, 3) == ["YL"] and codes_at(state, 4) == ["BS"]


def test_black_holes_swallow_what_lands_and_not_what_jumps():
    """SPEC §42.4: square 7 is a black hole; the large lands on it and is lost, the medium
    jumps it (lands on 8)."""
    state = position(2, {6: ["BL", "YM"], 10: ["BS"], 11: ["YS"]})
    apply_text(state, 0, "move 6")
    assert codes_at(state, 7) == [] and codes_at(state, 8) == ["YM"]
    assert state.lost[0] == [1, 0, 0] and not state.over
    # the orbit wraps: square 14 is the last black hole; a ship on 13 stepping one is lost
    state = position(2, {13: ["BM"], 1: ["BS"], 2: ["YS"]})
    apply_text(state, 0, "move 13")
    assert state.lost[0] == [0, 1, 0]


def test_placement_round():
    """SPEC §42.1: seats place one ship at a time, never on a hole or beside a ship of its size."""
    state = new_game(2)
    apply_text(state, 0, "place L 1")
    with pytest.raises(OutOfTurn):
        apply_text(state, 0, "place M 1")
    with pytest.raises(IllegalAction, match="already holds a L"):
        apply_text(state, 1, "place L 1")
    with pytest.raises(IllegalAction, match="black hole"):
        apply_text(state, 1, "place M 7")
    with pytest.raises(OutOfTurn, match="not what is due"):
        apply_text(state, 1, "move 1")
    apply_text(state, 1, "place M 1")   # other sizes may share, whatever the colour
    assert codes_at(state, 1) == ["BL", "YM"]
    while state.phase == "place":
        seat = to_move(state)
        apply_text(state, seat, legal_actions(state, seat)[0].text())
    assert state.reserve == [[0, 0, 0], [0, 0, 0]] and sum(len(s) for s in state.squares) == 18
    assert all(len({r for r, _ in s}) == len(s) for s in state.squares)
    assert state.phase == "play"


def test_end_and_scoring():
    """SPEC §45: the game ends when a seat has no ship left; it scores 0, the others 4/3/1 per
    ship and 2 per unused token; the best score wins."""
    state = position(3, {6: ["BS"], 2: ["YL", "YM"], 9: ["GM", "GS"]})
    state.tokens = [4, 1, 3]
    apply_text(state, 0, "move 6")   # blue's last ship into the hole on 7
    assert state.over and state.end == "blue has no ship left in orbit"
    assert state.scores == [0, 4 + 3 + 2, 3 + 1 + 6] and state.winners == [2]
    with pytest.raises(OutOfTurn, match="over"):
        apply_text(state, 1, "pass")
    assert to_move(state) is None and legal_actions(state, 1) == []


def test_shared_win():
    """SPEC §45.2: equal best scores share the win."""
    state = position(3, {6: ["BS"], 2: ["YL"], 9: ["GL"]})
    state.tokens = [4, 2, 2]
    apply_text(state, 0, "move 6")
    assert state.scores == [0, 8, 8] and state.winners == [1, 2]


def test_five_players_place_every_ship_and_play_to_the_end():
    """SPEC §40.2: 45 ships fit the large orbit's 18 free squares (15 of a size, 18 places)."""
    final, summary = play_game(5, seed=3, bots=["greedy", "random", "greedy", "random", "greedy"])
    assert final.over and final.orbit is LARGE_ORBIT and len(summary["scores"]) == 5
    in_orbit = sum(len(ships) for ships in final.squares)
    assert in_orbit + sum(map(sum, final.lost)) == 45          # every ship was placed
    assert summary["scores"].count(0) >= 1 and all(0 <= t <= 3 for t in final.tokens)


@pytest.mark.parametrize("text", ["move", "move 0", "move 05", "move 2²", "place X 3", "place L",
                                  "token jump", "card draw", "card copy copy", "card skip 3",
                                  "move 3 XL", "pass  ", "step L 3", "move  3"])
def test_malformed_notation(text):
    with pytest.raises(MalformedAction):
        parse_action(text)


def test_notation_round_trips_over_whole_games():
    for players, config in ((2, {}), (3, {"action_cards": True})):
        seen = []
        play_game(players, seed=11, bots=["random"] * players, config=config,
                  on_event=lambda s, seat, a: seen.append(a))
        assert seen and all(parse_action(a.text()) == a for a in seen)


def test_same_games_same_hashes_under_any_hash_seed():
    """SPEC §41.3: the state hash after the same actions is equal under any PYTHONHASHSEED."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = ("import json\nfrom space_walk.selfplay import play_game\n"
            "print(json.dumps([play_game(n, 5, [b] * n, c)[1]['state_hash'] for n, b, c in "
            "((2, 'greedy', {}), (3, 'random', {'action_cards': True}), (5, 'random', {}))]))")
    root = Path(__file__).resolve().parent.parent
    runs = []
    for seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True,
                             text=True, timeout=120, check=True)
        runs.append(json.loads(out.stdout))
    assert runs[0] == runs[1] and len(set(runs[0])) == 3


def test_turn_limit_ends_a_game_that_would_not_end():
    """SPEC §45.3: a regular turn that would begin after 100 rounds ends the game instead."""
    state = position(2, {2: ["BL"], 9: ["YM"]})
    state.tokens = [0, 0]
    state.turns = 100 * 2
    apply_text(state, 0, "move 2")
    assert state.over and state.end == "the turn limit was reached" and state.scores == [4, 3]
    state = position(2, {2: ["BL"], 9: ["YM"]})
    state.tokens, state.turns = [0, 0], 100 * 2 - 1
    apply_text(state, 0, "move 2")
    assert not state.over and to_move(state) == 1
