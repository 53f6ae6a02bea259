"""The state hash's cached encoding (SPEC §10.4): GameState.canonical_json() is
json.dumps(plain()) byte for byte at every state, whether the board and the public names
changed since the last hash or not, on clones, and after a name changed in place."""
from __future__ import annotations

import json

from p2p_asv.selfplay import play_game
from p2p_asv.setup import new_game


def reference(state) -> str:
    return json.dumps(state.plain(), separators=(",", ":"), ensure_ascii=True)


def test_every_state_of_whole_games_encodes_as_plain_does_and_so_does_each_clone():
    clones = []

    def check(state, seat, action):
        assert state.canonical_json() == reference(state), f"after {action.text()} at step {state.step}"
        if state.step % 97 == 0:
            clones.append((state.clone(), reference(state)))
        # a clone carries the board's cached text and then goes its own way
        for copy, text in clones[-3:]:
            assert copy.canonical_json() == reference(copy) == text

    play_game(2, 3, config={"role_play": True}, on_event=check)
    play_game(4, 8, config={"advanced": True}, on_event=check)
    assert len(clones) > 10


def test_a_changed_name_or_board_is_encoded_again():
    state = new_game(2, {})
    first = state.canonical_json()
    handle = next(iter(state.names))
    state.names[handle] = state.names[handle] + "x"     # the same handles, another name
    assert state.canonical_json() == reference(state) != first
    clone = state.clone()
    clone.board.destroy_planet(*next((sq, 0) for sq, placed in clone.board.tiles() if placed.tile.planets))
    assert clone.canonical_json() == reference(clone) != state.canonical_json() == reference(state)
