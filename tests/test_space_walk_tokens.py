"""Space Walk tokens (SPEC §43): after your turn another turn or one ship one square; before
another player's turn one ship one square; one token a round; polled like any response."""
from __future__ import annotations

import pytest

from space_walk import IllegalAction, OutOfTurn, apply_text, legal_actions, to_move
from tests.sw_helpers import codes_at, position


def texts(state, seat):
    return [a.text() for a in legal_actions(state, seat)]


def test_after_your_turn_another_complete_turn():
    state = position(3, {2: ["BL"], 4: ["BS", "YS"], 9: ["GM"], 12: ["YM"]})
    apply_text(state, 0, "move 2")
    assert to_move(state) == 0 and state.due == "window"   # the mover is asked first
    assert "token move 3" in texts(state, 0) and "token step L 3" in texts(state, 0)
    apply_text(state, 0, "token move 4 BS YS")
    assert codes_at(state, 5) == ["BS"] and codes_at(state, 6) == ["YS"]
    assert state.tokens == [3, 4, 4] and state.token_used[0]
    # the window goes on with the others, but never the next mover (yellow) nor blue again
    assert to_move(state) == 2 and "token move 9" not in texts(state, 2)
    apply_text(state, 2, "pass")
    assert to_move(state) == 1 and state.due == "turn"


def test_after_your_turn_one_ship_one_square():
    state = position(2, {2: ["BL"], 5: ["BS"], 9: ["YM"]})
    apply_text(state, 0, "move 2")
    apply_text(state, 0, "token step S 5")
    assert codes_at(state, 6) == ["BS"] and state.tokens == [3, 4]
    assert to_move(state) == 1 and state.due == "turn"


def test_out_of_turn_step_before_the_next_players_turn():
    """Green saves its large ship from yellow's coming move: yellow would carry it into a hole."""
    state = position(3, {2: ["BL"], 5: ["GL", "YM"], 10: ["GS"], 12: ["YS"]})
    apply_text(state, 0, "move 2")
    apply_text(state, 0, "pass")
    assert to_move(state) == 2
    with pytest.raises(IllegalAction, match="only for the player right after"):
        apply_text(state, 2, "token move 5")
    with pytest.raises(IllegalAction, match="no M ship"):
        apply_text(state, 2, "token step M 5")
    apply_text(state, 2, "token step L 5")
    assert codes_at(state, 6) == ["GL"] and codes_at(state, 5) == ["YM"]
    assert state.tokens == [4, 4, 3] and to_move(state) == 1


def test_one_token_a_round():
    """Green (seat 2 of 4) uses a token after red's turn; it is not asked again until its own
    turn has begun; then it may use one again (SPEC §43.3)."""
    ships = {1: ["BS"], 3: ["YS"], 5: ["GS"], 9: ["RS"], 16: ["BM"], 17: ["YM"], 18: ["GM"], 19: ["RM"]}
    state = position(4, ships, seat=3)
    apply_text(state, 3, "move 9")            # red moves; window: red, yellow, green
    apply_text(state, 3, "pass")
    apply_text(state, 1, "pass")
    apply_text(state, 2, "token step S 5")
    assert state.due == "turn" and to_move(state) == 0
    apply_text(state, 0, "move 1")            # window: blue, green (skipped: used), red
    apply_text(state, 0, "pass")
    assert to_move(state) == 3
    with pytest.raises(OutOfTurn):
        apply_text(state, 2, "token step S 6")
    apply_text(state, 3, "pass")
    apply_text(state, 1, "move 3")            # yellow's turn; window: yellow, red, blue
    for seat in (1, 3, 0):
        apply_text(state, seat, "pass")
    assert to_move(state) == 2 and not state.token_used[2]   # green's round begins
    apply_text(state, 2, "move 6")
    assert to_move(state) == 2 and "token move 18" in texts(state, 2)


def test_no_token_left_means_not_asked():
    state = position(2, {2: ["BL"], 9: ["YM"]})
    state.tokens = [0, 4]
    apply_text(state, 0, "move 2")
    assert to_move(state) == 1 and state.due == "turn"


def test_a_token_can_end_the_game():
    state = position(2, {2: ["BL"], 13: ["YS"], 4: ["BS"]})
    apply_text(state, 0, "move 2")
    apply_text(state, 0, "pass")
    apply_text(state, 1, "move 13")           # yellow's last ship into the hole on 14
    assert state.over and state.scores == [4 + 1 + 8, 0]
