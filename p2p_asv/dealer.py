"""A seeded local dealer (SPEC §10.5) for tests, selfplay and bots: it knows every identity and
answers the engine's chance requests. Networked games use mental-poker decks instead."""
from __future__ import annotations

from .actions import ChanceDeal, ChanceReveal, ChanceShuffle
from .seeded import SeededRandom
from .state import GameState
from .view import PlayerView


class LocalDealer:
    def __init__(self, seed: int | str) -> None:
        self._rng = SeededRandom(seed, "dealer")
        self.identity: dict[int, str] = {}

    def outcome(self, state: GameState, views: list[PlayerView]):
        """The chance action answering state.pending[0]; private deals teach the receiver's view."""
        request = state.pending[0]
        if request.kind == "shuffle":
            if request.contents is not None:
                contents = list(request.contents)
            else:
                # a card whose identity was public from the start (a starting Star-T) was never dealt
                contents = [self.identity.get(h) or state.names[h] for h in request.source]
            self._rng.shuffle(contents)
            self.identity.update(zip(request.handles, contents))
            return ChanceShuffle(request.deck)
        if request.kind == "reveal":
            return ChanceReveal(tuple((h, self.identity[h]) for h in request.handles))
        for h in request.handles:
            views[request.seat].learn(h, self.identity[h])
        return ChanceDeal(request.seat, request.handles)
