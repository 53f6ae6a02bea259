"""The action-card variant (SPEC §44): every card, copy included, the own pile, no tokens."""
from __future__ import annotations

import pytest

from space_walk import IllegalAction, OutOfTurn, apply_text, legal_actions, new_game, to_move
from tests.sw_helpers import codes_at, position

CARDS = {"action_cards": True}


def texts(state, seat):
    return [a.text() for a in legal_actions(state, seat)]


def test_eight_cards_and_no_tokens():
    state = new_game(3, CARDS)
    assert state.tokens == [0, 0, 0] and state.hands == [[4, 1, 1, 1, 1]] * 3


def test_move_card():
    state = position(2, {2: ["BL", "YS"], 9: ["YM"]}, config=CARDS)
    with pytest.raises(OutOfTurn, match="play a card"):
        apply_text(state, 0, "move 2")
    with pytest.raises(OutOfTurn):
        apply_text(state, 0, "token step L 2")
    apply_text(state, 0, "card move 2")
    assert codes_at(state, 3) == ["BL"] and codes_at(state, 4) == ["YS"]
    assert state.hands[0] == [3, 1, 1, 1, 1] and state.discards[0] == [1, 0, 0, 0, 0]
    assert to_move(state) == 1 and state.due == "turn"   # no token window in this variant


def test_twice_card_moves_two_groups():
    state = position(2, {2: ["BL"], 5: ["BS", "YM"], 10: ["YS"]}, config=CARDS)
    apply_text(state, 0, "card twice 2")
    assert to_move(state) == 0 and state.due == "second"
    assert texts(state, 0) == ["move 3", "move 5"]
    apply_text(state, 0, "move 5")
    assert codes_at(state, 6) == ["YM"] and codes_at(state, 7) == [] and state.lost[0] == [0, 0, 1]
    assert to_move(state) == 1


def test_step_card_moves_one_own_ship_one_square():
    state = position(2, {2: ["BL", "BS", "YM"], 10: ["YS"]}, config=CARDS)
    with pytest.raises(IllegalAction, match="no M ship"):
        apply_text(state, 0, "card step M 2")
    apply_text(state, 0, "card step S 2")
    assert codes_at(state, 2) == ["BL", "YM"] and codes_at(state, 3) == ["BS"]


def test_skip_card_moves_nothing():
    state = position(2, {2: ["BL"], 10: ["YS"]}, config=CARDS)
    squares = [list(s) for s in state.squares]
    apply_text(state, 0, "card skip")
    assert state.squares == squares and to_move(state) == 1 and state.hands[0][4] == 0


def test_copy_card():
    """Copy does what the previous player's last card did: nothing to copy at first; a copied
    twice gives two moves; a copy of a copy does what that copy did (SPEC §44.3)."""
    state = position(3, {2: ["BL"], 4: ["YL"], 6: ["GL"], 9: ["BS"], 11: ["YS"], 16: ["GS"]}, config=CARDS)
    assert not any(t.startswith("card copy") for t in texts(state, 0))
    with pytest.raises(IllegalAction, match="none yet"):
        apply_text(state, 0, "card copy skip")
    apply_text(state, 0, "card twice 2")
    apply_text(state, 0, "move 9")
    assert [t for t in texts(state, 1) if t.startswith("card copy")] == ["card copy twice 4", "card copy twice 11"]
    with pytest.raises(IllegalAction, match="was twice"):
        apply_text(state, 1, "card copy move 4")
    apply_text(state, 1, "card copy twice 4")
    assert state.due == "second" and to_move(state) == 1
    apply_text(state, 1, "move 11")
    assert codes_at(state, 5) == ["YL"] and codes_at(state, 12) == ["YS"]
    apply_text(state, 2, "card copy twice 6")   # yellow's copy did twice: so does green's
    apply_text(state, 2, "move 16")
    assert codes_at(state, 7) == [] and state.lost[2] == [1, 0, 0] and codes_at(state, 17) == ["GS"]
    assert state.hands[2] == [4, 1, 0, 1, 1]
    apply_text(state, 0, "card skip")
    assert [t for t in texts(state, 1) if t.startswith("card copy")] == []   # yellow's copy is spent


def test_copy_of_a_step_and_of_a_skip():
    state = position(2, {2: ["BL"], 4: ["YL", "YS"]}, config=CARDS)
    apply_text(state, 0, "card step L 2")
    assert "card copy step S 4" in texts(state, 1)
    apply_text(state, 1, "card copy step S 4")
    assert codes_at(state, 5) == ["YS"]
    state = position(2, {2: ["BL"], 4: ["YL", "YS"]}, config=CARDS)
    apply_text(state, 0, "card skip")
    apply_text(state, 1, "card copy skip")
    assert state.last_effect == ["skip", "skip"] and codes_at(state, 4) == ["YL", "YS"]


def test_the_pile_comes_back_when_the_hand_is_empty():
    state = position(2, {2: ["BL"], 10: ["YS"]}, config=CARDS)
    state.hands[0], state.discards[0] = [0, 0, 0, 0, 1], [4, 1, 1, 1, 0]
    with pytest.raises(IllegalAction, match="no move card in hand"):
        apply_text(state, 0, "card move 2")
    assert texts(state, 0) == ["card skip"]
    apply_text(state, 0, "card skip")
    assert state.hands[0] == [4, 1, 1, 1, 1] and state.discards[0] == [0, 0, 0, 0, 0]
