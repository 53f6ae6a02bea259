"""A finished game's result as the session and the kit give it (SPEC §59.1): the engine's
summary plus `scores`, each seat's assets (Federons and the face value of its deeds), their
`breakdown` per seat and the `title`, how the game ended (the scoreboard prints both)."""
from __future__ import annotations

from space_trading_race.selfplay import result
from space_trading_race.state import State

__all__ = ["result_of"]


def result_of(state: State) -> dict:
    out = result(state)
    out["scores"] = [state.assets(s) for s in range(state.players)]
    out["breakdown"] = [{"cash": state.cash[s], "deeds": state.deed_value(s)} if state.alive[s]
                        else {"out": state.out[s]} for s in range(state.players)]
    out["title"] = state.end
    return out
