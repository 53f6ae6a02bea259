"""Whole games between bots in one process (SPEC §46.5)."""
from __future__ import annotations

from .bots import BOTS
from .engine import apply, to_move
from .scoring import result
from .state import State, new_game


def play_game(players: int, seed: int, bots: list[str] | None = None, config: dict | None = None,
              on_event=None) -> tuple[State, dict]:
    """Play one game to the end; `on_event(state, seat, action)` after each action."""
    kinds = bots or ["greedy"] * players
    agents = [BOTS[kind](f"{seed}/{seat}") for seat, kind in enumerate(kinds)]
    state = new_game(players, config)
    while not state.over:
        seat = to_move(state)
        action = agents[seat].choose(state, seat)
        apply(state, seat, action)
        if on_event is not None:
            on_event(state, seat, action)
    summary = result(state)
    summary.update({"seed": seed, "players": players, "events": state.events,
                    "winner": state.winners[0] if len(state.winners) == 1 else None,
                    "state_hash": state.hash(), "bots": kinds})
    return state, summary
