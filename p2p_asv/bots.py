"""Bots (SPEC §12): a random-legal player, a greedy one that takes the best immediate gain, and
the search bot (SPEC §12.3, package p2p_asv.search).

Bots see only the public state and their own view, like any player.
"""
from __future__ import annotations

from .engine import legal_actions
from .greedy_best import greedy_choice
from .greedy_score import greedy_score
from .search import SearchBot
from .seeded import SeededRandom
from .state import GameState
from .view import PlayerView


class RandomBot:
    name = "random"

    def __init__(self, seed: int | str) -> None:
        self.rng = SeededRandom(seed, "random-bot")

    def choose(self, state: GameState, view: PlayerView):
        return self.rng.choice(legal_actions(state, view))


class GreedyBot:
    """Ranks each legal action by a cheap estimate of the points it gains now; ties at random."""
    name = "greedy"

    def __init__(self, seed: int | str) -> None:
        self.rng = SeededRandom(seed, "greedy-bot")

    def score(self, state: GameState, view: PlayerView, action) -> int:
        return greedy_score(state, view, action)

    def choose(self, state: GameState, view: PlayerView):
        """One of the legal actions with the best score, drawn from those in notation order
        (p2p_asv/greedy_best.py finds them without listing every action)."""
        return greedy_choice(state, view, self.rng)


BOTS = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}


def make_bot(kind: str, seed: int | str, **search_options):
    """A bot of `kind` (KeyError if unknown). The options (think, iterations, clock, horizon)
    are the search bot's budget (SPEC §12.3) and mean nothing to the other bots."""
    if BOTS[kind] is SearchBot:
        return SearchBot(seed, **search_options)
    return BOTS[kind](seed)
