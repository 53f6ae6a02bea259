"""GreedyBot's choice as it was before its fast path (SPEC §12.1), kept word for word as the
reference that tests/test_greedy_sameness.py holds the bot to: every legal action listed by
the engine, each scored by greedy_score, one of the best at random (one draw from the bot's
SeededRandom, over the best in the engine's notation order)."""
from __future__ import annotations

from p2p_asv.engine import legal_actions
from p2p_asv.greedy_score import greedy_score
from p2p_asv.seeded import SeededRandom
from p2p_asv.state import GameState
from p2p_asv.view import PlayerView


def reference_choose(rng: SeededRandom, state: GameState, view: PlayerView):
    options = legal_actions(state, view)
    scored = [(greedy_score(state, view, a), a) for a in options]
    best = max(s for s, _ in scored)
    return rng.choice([a for s, a in scored if s == best])
