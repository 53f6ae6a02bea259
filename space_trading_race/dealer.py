"""A seeded local dealer (SPEC §53.4) for tests, selfplay and bots: it rolls the dice, knows
every mission's identity and teaches a dealt seat's view. Networked games use the protocol's
fair dice and mental-poker decks instead."""
from __future__ import annotations

from .actions import ChanceDeal, ChanceDice, ChanceShuffle
from .missions import MISSION_SLUGS
from .seeded import SeededRandom
from .state import State
from .view import PlayerView


class LocalDealer:
    def __init__(self, seed: int | str) -> None:
        self._rng = SeededRandom(seed, "dealer")
        self.identity: dict[int, str] = {}

    def roll(self) -> ChanceDice:
        return ChanceDice(1 + self._rng.below(6), 1 + self._rng.below(6))

    def outcome(self, state: State, views: list[PlayerView] | None = None):
        """The chance action answering state.pending[0]; a deal teaches the receiver's view."""
        request = state.pending[0]
        if request.kind == "dice":
            return self.roll()
        if request.kind == "shuffle":
            names = list(MISSION_SLUGS)
            self._rng.shuffle(names)
            self.identity = dict(zip(state.deck, names))
            return ChanceShuffle()
        if views is not None:
            views[request.seat].learn(request.handle, self.identity[request.handle])
        return ChanceDeal(request.seat, request.handle)
