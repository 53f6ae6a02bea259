"""A seat that forfeits (SPEC §56.5): the protocol's hook when a seat withholds and the others
vote it out (§33.8). It leaves as if bankrupt to the bank, and the game goes on without it."""
from __future__ import annotations

from .errors import IllegalAction
from .money import disable, eliminate
from .state import BANK, State
from .turn import advance


def leave(state: State, seat: int) -> State:
    """Remove `seat` from the game: its deeds return to the bank unowned, its Federons and
    laser tokens to the bank, its mission is retired unseen; whatever waited on it is dropped
    (its turn passes on, its answer to a shot or an offer is not awaited, its debt is void)."""
    if state.phase != "play" or not 0 <= seat < state.players or not state.alive[seat]:
        raise IllegalAction(f"seat {seat} is not in a game in play")
    for d in state.deeds_of(seat):
        state.owner[d] = BANK
    state.cash[seat] = 0
    state.bank_tokens += state.tokens[seat]
    state.tokens[seat] = 0
    if seat == state.seat:          # its own turn: the rolls and choices it owed go with it
        state.pending, state.shots, state.shield, state.victims, state.offer = [], None, [], [], None
    eliminate(state, seat, "left")
    state.victims = [v for v in state.victims if v != seat]
    if state.victims and not state.shield and not state.over:
        victims, state.victims, state.shots = state.victims, [], None   # all others had passed
        disable(state, victims, state.seat)
    state.step += 1
    advance(state)
    return state
