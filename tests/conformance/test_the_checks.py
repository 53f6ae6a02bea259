"""The conformance checks fail on the faults they are for (SPEC §35.2): a kit whose refusals
change the state, or whose action texts do not parse back, is caught by `play`."""
from __future__ import annotations

import pytest

from tests.conformance.cases import KITS
from tests.conformance.play import play

KIT = next(k for k in KITS if k.key == "space-walk")    # the quickest game to play


class Leaky:
    """The kit with one fault put in by `fault`; everything else passed through."""

    def __init__(self, kit, fault: str) -> None:
        self._kit, self._fault = kit, fault

    def __getattr__(self, name):
        return getattr(self._kit, name)

    def apply(self, state, seat, action) -> None:
        try:
            self._kit.apply(state, seat, action)
        except self._kit.engine_errors:
            if self._fault == "refusal-changes-state":
                state.turns += 1            # a counter in the hashed state
            raise

    def parse_action(self, text: str):
        action = self._kit.parse_action(text)
        if self._fault == "text-does-not-round-trip" and text.startswith("place"):
            return self._kit.parse_action("pass")
        return action


@pytest.mark.parametrize("fault, words", [("refusal-changes-state", "changed the state"),
                                          ("text-does-not-round-trip", "parses to")])
def test_a_faulty_kit_is_caught(fault, words):
    with pytest.raises(AssertionError, match=words):
        play(Leaky(KIT, fault), 2, {}, "random", 1)


def test_the_kit_as_it_is_passes():
    game, tally = play(Leaky(KIT, "none"), 2, {}, "random", 1)
    assert KIT.is_over(game.state) and tally.refusals > 0
