"""Build Space Walk positions by hand for tests (SPEC part III)."""
from __future__ import annotations

from space_walk.orbit import INITIALS, SIZES
from space_walk.state import State, new_game


def ship(code: str) -> tuple[int, int]:
    """"BL" -> (rank 0, seat 0)."""
    return SIZES.index(code[1]), INITIALS.index(code[0])


def position(players: int, ships: dict[int, list[str]], *, seat: int = 0, config: dict | None = None) -> State:
    """A game in play, past placement, `seat` to move, with `ships` = {square (1-based): codes}."""
    state = new_game(players, config)
    state.reserve = [[0, 0, 0] for _ in range(players)]
    for square, codes in ships.items():
        state.squares[square - 1] = sorted(ship(c) for c in codes)
    state.phase, state.due, state.seat, state.turns = "play", "turn", seat, 1
    return state


def codes_at(state: State, square: int) -> list[str]:
    return [INITIALS[s] + SIZES[r] for r, s in state.squares[square - 1]]
