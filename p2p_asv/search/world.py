"""One determinised world for the search bot (SPEC §12.3): a private copy of the state, every
hidden identity filled in, and a dealer that answers chance requests from those identities.

Every seat of a world sees everything (one shared identity map), which is what a playout
needs: each simulated player chooses among its own hand, whose cards the world has drawn.
"""
from __future__ import annotations

from ..actions import ChanceDeal, ChanceReveal, ChanceShuffle
from ..engine import apply
from ..errors import EngineError, ImpossibleState
from ..state import CHANCE, GameState
from ..view import PlayerView


class World:
    __slots__ = ("state", "draws", "identity", "views", "rng", "actions")

    def __init__(self, state: GameState, draws, rng) -> None:
        self.state = state
        self.draws = draws
        self.identity = identity = draws.identity
        self.views = [PlayerView(p.seat, identity) for p in state.players]
        self.rng = rng
        self.actions = 0   # events simulated in this world (benchmarks)

    @classmethod
    def sample(cls, state: GameState, determiniser, rng) -> "World":
        """A world consistent with the determiniser's view: the state is cloned, never touched."""
        return cls(state.clone(), determiniser.sample(rng), rng)

    def chance(self):
        """The outcome of the due chance request, drawn from this world's identities."""
        request = self.state.pending[0]
        if request.kind == "shuffle":
            if request.contents is not None:
                contents = list(request.contents)
            else:
                contents = [self.draws.name(h) for h in request.source]
            self.rng.shuffle(contents)
            self.identity.update(zip(request.handles, contents))
            return ChanceShuffle(request.deck)
        if request.kind == "reveal":
            return ChanceReveal(tuple((h, self.draws.name(h)) for h in request.handles))
        for h in request.handles:  # the receiver now knows them: draw them
            self.draws.name(h)
        return ChanceDeal(request.seat, request.handles)

    def play(self, seat: int, action) -> None:
        if action is None:   # policy_action found no legal action: a world the game cannot reach
            raise ImpossibleWorld(f"seat {seat} has no legal action")
        _apply(self.state, seat, action)
        self.actions += 1

    def play_chance(self):
        action = self.chance()
        _apply(self.state, CHANCE, action)
        self.actions += 1
        return action


class ImpossibleWorld(Exception):
    """The engine failed on this world with an error other than a typed refusal: the world
    holds what the true game cannot (e.g. a second copy of a one-copy card), so a rule's effect
    met a state its check did not foresee. The playout ends there (SPEC §12.3)."""


def _apply(state: GameState, seat: int, action) -> None:
    try:
        apply(state, seat, action)
    except ImpossibleState as exc:   # typed, but a refusal no true game meets
        raise ImpossibleWorld(f"{exc} (playing {action!r})") from exc
    except EngineError:
        raise
    except Exception as exc:   # noqa: BLE001 - any engine failure on an impossible world
        raise ImpossibleWorld(f"{type(exc).__name__}: {exc} (playing {action!r})") from exc
