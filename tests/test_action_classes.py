"""Each action class owns its verb, its argument forms and its parser (SPEC §11.1, §46.1):
the parse table is derived from the classes, and `verbs()` describes every action a game
lists, in both engines."""
from __future__ import annotations

import re

import pytest

import space_walk
from p2p_asv import actions as A
from p2p_asv.engine import legal_actions, parse_action
from p2p_asv.errors import MalformedAction
from p2p_asv.notation import special_token
from space_walk import actions as SWA
from space_walk.orbit import SIZES, parse_ship_code
from space_walk.selfplay import play_game as sw_play_game
from tests.test_engine_consistency import play


def asv_shape(shape: str, word: str) -> bool:
    patterns = {"N": r"[0-9]+", "#H": r"#[0-9]+", "#H:NAME": r"#[0-9]+:[a-z0-9-]+", "SQ": r"[A-M]-[0-9]{1,2}",
                "SQ/P": r"[A-M]-[0-9]{1,2}/[0-9]", "sN": r"s[0-9]+", "rR": r"r[0-3]"}
    if shape == "ARG":
        try:
            return special_token(word) == word
        except MalformedAction:
            return False
    if shape in patterns:
        return re.fullmatch(patterns[shape], word) is not None
    return shape == word


def sw_shape(shape: str, word: str) -> bool:
    checks = {"SQ": lambda w: re.fullmatch(r"[1-9][0-9]*", w) is not None, "SIZE": lambda w: w in SIZES,
              "SHIP": lambda w: parse_ship_code(w) is not None}
    return checks[shape](word) if shape in checks else shape == word


def fits(forms, words: list[str], shape_ok) -> bool:
    """Whether the words match one of the forms; `X...` takes the rest, each word an X."""
    for form in forms:
        i = 0
        for shape in form:
            if shape.endswith("..."):
                while i < len(words) and shape_ok(shape[:-3], words[i]):
                    i += 1
                continue
            if i >= len(words) or not shape_ok(shape, words[i]):
                break
            i += 1
        else:
            if i == len(words):
                return True
    return False


def test_the_parse_table_is_the_classes_verbs():
    classes = A.PLAYER_ACTIONS + A.CHANCE_ACTIONS
    assert set(A.PARSERS.values()) == set(classes) and len(A.PARSERS) == len(classes)
    assert all(A.PARSERS[cls.VERB] is cls for cls in classes)
    assert list(A.verbs()) == sorted(cls.VERB for cls in A.PLAYER_ACTIONS)
    assert not any(v.startswith("chance") for v in A.verbs())
    assert set(SWA.verbs()) == {"place", "move", "token move", "token step", "pass", "card"}
    assert all(SWA.PARSERS[cls.VERB] is cls for cls in SWA.ACTIONS)


def test_a_new_verb_would_need_a_class_unknown_verbs_are_malformed():
    with pytest.raises(MalformedAction, match="unknown action"):
        parse_action("teleport-home s1")
    with pytest.raises(MalformedAction, match="unknown action"):
        parse_action("chance cheat 1")
    with pytest.raises(space_walk.MalformedAction, match="a token is"):
        space_walk.parse_action("token jump 5")
    with pytest.raises(space_walk.MalformedAction, match="place, move, token, pass, card"):
        space_walk.parse_action("jump 5")


@pytest.mark.parametrize("players,seed,config", [(2, 31, None), (3, 32, {"advanced": True, "role_play": True}),
                                                 (4, 33, {"role_play": True, "captain_rookie": True})])
def test_every_listed_asv_action_fits_its_verbs_forms(players, seed, config):
    seen: set[str] = set()

    def check(state, views, seat, step):
        for action in legal_actions(state, views[seat]):
            verb = type(action).VERB
            words = action.text().split()
            assert words[0] == verb and fits(A.verbs()[verb], words[1:], asv_shape), action.text()
            assert parse_action(action.text()) == action
            seen.add(verb)

    play(players, seed, "random", config, check)
    assert {"draw-tile", "place", "move", "discard", "draw", "next"} <= seen


@pytest.mark.parametrize("players,seed,config", [(2, 41, None), (4, 42, {"action_cards": True}), (3, 43, {"action_cards": True})])
def test_every_listed_space_walk_action_fits_its_verbs_forms(players, seed, config):
    seen: set[str] = set()

    def on_event(state, seat, action):
        for s in range(players):
            for a in space_walk.legal_actions(state, s):
                verb = type(a).VERB
                words = a.text().split()
                n = len(verb.split())
                assert " ".join(words[:n]) == verb and fits(SWA.verbs()[verb], words[n:], sw_shape), a.text()
                assert space_walk.parse_action(a.text()) == a
                seen.add(verb)

    sw_play_game(players, seed, ["random"] * players, config, on_event)
    assert {"place", "move"} <= seen
