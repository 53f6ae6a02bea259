"""Every registered game has the kit interface's shape (SPEC §35.1, /work/kit-interface.md):
distinct keys and rules names, the two bots, the plain game first among its variants, and
every variant a game the engine and the session both set up."""
from __future__ import annotations

import pytest

from protocol.session import CHANCE
from tests.conformance.cases import KITS, counts


def test_keys_and_rules_names_are_distinct():
    assert len(KITS) >= 2
    assert len({k.key for k in KITS}) == len(KITS)
    assert len({k.rules_name for k in KITS}) == len(KITS)


@pytest.mark.parametrize("kit", KITS, ids=lambda k: k.key)
def test_a_kit_has_the_interface(kit):
    assert kit.title and 1 <= kit.min_players <= kit.max_players
    assert {"random", "greedy"} <= set(kit.bot_kinds)
    assert kit.engine_errors and all(issubclass(e, Exception) for e in kit.engine_errors)
    assert kit.session_rules().name == kit.rules_name
    for players in counts(kit):
        configs = kit.variant_configs(players)
        assert configs[0] == ("basic", {}), players
        assert len({name for name, _ in configs}) == len(configs)
        for name, config in configs:
            state = kit.new_state(players, dict(config))
            assert not kit.is_over(state)
            seat = kit.to_move(state)
            assert seat == CHANCE or 0 <= seat < players, (name, seat)
            kit.session_rules().new_state(players, dict(config))


@pytest.mark.parametrize("kit", KITS, ids=lambda k: k.key)
def test_garbage_text_is_refused_with_the_kits_errors(kit):
    for text in ("", " ", "\x00", "no such action", "move", "#", "9" * 60, "é" * 3):
        with pytest.raises(kit.engine_errors):
            kit.parse_action(text)
