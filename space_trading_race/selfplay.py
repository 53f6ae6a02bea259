"""Whole games between bots in one process, with the local dealer (SPEC §57.6)."""
from __future__ import annotations

from .bots import BOTS
from .dealer import LocalDealer
from .engine import CHANCE, apply, to_move
from .state import State, new_game
from .view import PlayerView


def result(state: State) -> dict:
    return {"winners": list(state.winners), "end": state.end, "rounds": state.round, "turns": state.turns,
            "events": state.step, "cash": list(state.cash), "assets": [state.assets(s) for s in range(state.players)],
            "alive": list(state.alive), "out": list(state.out), "deeds": [len(state.deeds_of(s)) for s in range(state.players)],
            "missions": {str(h): n for h, n in sorted(state.names.items())}}


def play_game(players: int, seed: int | str, bots: list[str] | None = None, config: dict | None = None,
              on_event=None) -> tuple[State, dict]:
    """Play one game to the end; `on_event(state, seat, action)` after each action."""
    kinds = bots or ["greedy"] * players
    agents = [BOTS[kind](f"{seed}/{seat}") for seat, kind in enumerate(kinds)]
    views = [PlayerView(seat) for seat in range(players)]
    dealer = LocalDealer(f"{seed}/dealer")
    state = new_game(players, config)
    while not state.over:
        seat = to_move(state)
        action = dealer.outcome(state, views) if seat == CHANCE else agents[seat].choose(state, views[seat])
        apply(state, seat, action)
        if on_event is not None:
            on_event(state, seat, action)
    summary = result(state)
    summary.update({"seed": seed, "players": players, "winner": state.winners[0] if len(state.winners) == 1 else None,
                    "state_hash": state.hash(), "bots": kinds})
    return state, summary
