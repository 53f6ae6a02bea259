"""Bots (SPEC §46.4): a random-legal player and a greedy one. Nothing is hidden in Space Walk,
so a bot sees the whole state; it acts only for its own seat."""
from __future__ import annotations

from .engine import apply, legal_actions
from .orbit import POINTS, TOKEN_POINTS
from .seeded import SeededRandom
from .state import State


class RandomBot:
    name = "random"

    def __init__(self, seed: int | str) -> None:
        self.rng = SeededRandom(seed, "random-bot")

    def choose(self, state: State, seat: int):
        return self.rng.choice(legal_actions(state, seat))


def _standing(state: State, seat: int) -> int:
    """A cheap worth of a position for `seat`: its score minus the best other score, less
    half the worth of its ships sitting right before a black hole (one step from lost)."""
    if state.over:
        mine = state.scores[seat]
        return mine - max(s for i, s in enumerate(state.scores) if i != seat) + (1000 if seat in state.winners else -1000)

    def worth(who: int) -> int:
        total = TOKEN_POINTS * state.tokens[who]
        for square, rank in state.ships_in_orbit(who):
            danger = state.orbit.is_hole((square + 1) % state.orbit.length)
            total += 2 * POINTS[rank] - (POINTS[rank] if danger else 0)
        return total

    others = [worth(s) for s in range(state.players) if s != seat]
    return worth(seat) - max(others)


class GreedyBot:
    """Plays each legal action on a copy and keeps the best standing after it; ties at random."""
    name = "greedy"

    def __init__(self, seed: int | str) -> None:
        self.rng = SeededRandom(seed, "greedy-bot")

    def choose(self, state: State, seat: int):
        best, best_value = [], None
        for action in legal_actions(state, seat):
            trial = state.clone()
            apply(trial, seat, action)
            value = _standing(trial, seat)
            if best_value is None or value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return self.rng.choice(best)


BOTS = {"random": RandomBot, "greedy": GreedyBot}
