"""The end of the game and the score (SPEC §45)."""
from __future__ import annotations

from .orbit import COLOURS, MAX_ROUNDS, POINTS, SIZES, TOKEN_POINTS
from .state import Due, Phase, State


def emptied_seats(state: State) -> list[int]:
    """Seats with no ship left in orbit, once play has begun."""
    have = [0] * state.players
    for ships in state.squares:
        for _, seat in ships:
            have[seat] += 1
    return [seat for seat in range(state.players) if have[seat] == 0]


def score(state: State, seat: int) -> int:
    """Points of one seat now: 4/3/1 per ship in orbit, 2 per unused token (SPEC §45.2)."""
    ships = sum(POINTS[rank] for _, rank in state.ships_in_orbit(seat))
    return ships + TOKEN_POINTS * state.tokens[seat]


def finish(state: State, reason: str) -> None:
    empty = emptied_seats(state)
    state.scores = [0 if seat in empty else score(state, seat) for seat in range(state.players)]
    best = max(state.scores)
    state.winners = [seat for seat, s in enumerate(state.scores) if s == best]
    state.phase, state.due, state.window, state.extra_turn_seat = Phase.OVER, Due.NOTHING, [], None
    state.end = reason


def check_end(state: State) -> bool:
    """End the game when a seat has no ship in orbit (SPEC §45.1); True if it ended."""
    empty = emptied_seats(state)
    if state.phase == Phase.PLAY and empty:
        names = ", ".join(COLOURS[s] for s in empty)
        finish(state, f"{names} {'has' if len(empty) == 1 else 'have'} no ship left in orbit")
        return True
    return False


def turn_limit_reached(state: State) -> bool:
    return state.turns > MAX_ROUNDS * state.players


def result(state: State) -> dict:
    """Scores (seat order), winners and what is left of each fleet."""
    empty = emptied_seats(state) if state.over else []
    breakdown = [{"no ship left": 0} if seat in empty else
                 {"ships": score(state, seat) - TOKEN_POINTS * state.tokens[seat],
                  "tokens": TOKEN_POINTS * state.tokens[seat]} for seat in range(state.players)]
    return {"scores": list(state.scores) if state.scores is not None else None, "breakdown": breakdown,
            "winners": list(state.winners), "end": state.end, "turns": state.turns,
            "variant": state.variant, "tokens": list(state.tokens),
            "ships": [{size: sum(1 for _, r in state.ships_in_orbit(seat) if r == rank)
                       for rank, size in enumerate(SIZES)} for seat in range(state.players)],
            "lost": [{size: state.lost[seat][rank] for rank, size in enumerate(SIZES)}
                     for seat in range(state.players)]}
