"""Engine phases are enums, not compared strings (issue 20), with the values the state hash
always held: turn phases an IntEnum (SPEC §6.1), discovery stages and window kinds StrEnums (SPEC §8.1, §14.2),
Space Walk's phase and what is due StrEnums (SPEC §41)."""
from __future__ import annotations

import json

from p2p_asv.selfplay import play_game
from p2p_asv.state import PHASE_NAMES, Phase, Stage, Window
from space_walk.selfplay import play_game as sw_play_game
from space_walk.state import Due
from space_walk.state import Phase as SwPhase

# Space Walk's engine has no rule change pending: this hash of a fixed game was taken before
# its phases became enums, and must not move.
SW_FIXED = "2ea06da5f8056a8e5cf8123abd718e96351a3c58856d47ae4c939d82bfaaa2bb"


def test_asv_phases_and_stages_are_enum_members_through_a_game():
    seen_phases, seen_stages, seen_windows = set(), set(), set()

    def on_event(state, seat, action):
        assert type(state.phase) is Phase
        assert all(type(p) is Phase for p in state.closed_phases)
        seen_phases.add(state.phase)
        if state.discovery is not None:
            assert type(state.discovery.stage) is Stage
            seen_stages.add(state.discovery.stage)
        for poll in state.polls:
            assert type(poll.kind) is Window
            seen_windows.add(poll.kind)

    play_game(2, 5, ["greedy", "greedy"], on_event=on_event, config={"advanced": True})
    play_game(3, 5, ["greedy", "random", "greedy"], on_event=on_event)
    assert seen_phases >= {Phase.TILES, Phase.PLACE_PIECE, Phase.MOVE, Phase.DISCARD, Phase.REFILL}
    assert seen_stages >= {Stage.PLANET, Stage.ENVIRONMENT, Stage.LIFE_FORM, Stage.EXPLORER}
    assert seen_windows >= {Window.RESPOND, Window.MOVED, Window.PLANET, Window.ENVIRONMENT, Window.LIFE_FORM}


def test_the_enums_hash_and_print_as_the_old_values():
    assert json.dumps([Phase.MOVE, Stage.LIFE_FORM, Window.SCORED, SwPhase.PLAY, Due.WINDOW]) == \
        '[3, "life_form", "scored", "play", "window"]'
    assert [int(p) for p in Phase] == list(range(7)) and f"{Phase.REFILL}" == "5"
    assert PHASE_NAMES[Phase.PLACE_PIECE] == "pieces" and Phase.TILES.label == "tiles"
    assert f"{Stage.BINARY}" == "binary" and Due.NOTHING == ""


def test_a_fixed_space_walk_game_keeps_its_hash():
    seen = set()

    def on_event(state, seat, action):
        assert type(state.phase) is SwPhase and type(state.due) is Due
        seen.add(state.due)

    _, summary = sw_play_game(3, 5, ["random"] * 3, on_event=on_event)
    assert summary["state_hash"] == SW_FIXED
    assert {Due.PLACE, Due.TURN, Due.WINDOW} <= seen
