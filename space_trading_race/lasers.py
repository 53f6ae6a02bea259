"""Laser battles (SPEC §54.10): targets within one space, shots per token by distance, the
roll of each shot, damage, total disabling and the force field's answer."""
from __future__ import annotations

from .board import EARTH, SPACES, distance_at_most_one
from .money import charge, disable
from .state import ChanceRequest, State

SHOTS_PER_TOKEN = {0: 2, 1: 1}       # distance in spaces: same space 2, next space 1
DAMAGE_PER_PIP = 100
DISABLING_TOTAL = 12


def ships_at(state: State, space: int, shooter: int) -> list[int]:
    """Opposing ships in the game on `space`, in seat order from the shooter's left."""
    n = state.players
    order = [(shooter + k) % n for k in range(1, n)]
    return [s for s in order if state.alive[s] and state.pos[s] == space]


def laser_targets(state: State, seat: int) -> list[int]:
    """Spaces the ship may fire at now: within one space, not Earth, with an opponent there;
    nobody fires from Earth (SPEC §54.10)."""
    here = state.pos[seat]
    if here == EARTH:
        return []
    spaces = sorted({state.pos[s] for s in range(state.players) if s != seat and state.alive[s]})
    return [sp for sp in spaces if sp != EARTH and SPACES[sp].kind != "dot"
            and distance_at_most_one(here, sp) is not None]


def start_fire(state: State, space: int, free: bool) -> None:
    seat = state.seat
    if not free:
        state.tokens[seat] -= 1
        state.bank_tokens += 1          # spent tokens go back to the Federation
    state.shots = [space, SHOTS_PER_TOKEN[distance_at_most_one(state.pos[seat], space)]]


def next_shot(state: State) -> bool:
    """Ask chance for the next shot while shots and targets remain; False when the fire is over."""
    space, left = state.shots
    if left > 0 and ships_at(state, space, state.seat):
        state.pending.append(ChanceRequest("dice", "shot", seat=state.seat))
        return True
    state.shots = None
    return False


def shot(state: State, a: int, b: int) -> None:
    """One shot's roll: doubles damage every target there, double six disables them."""
    seat = state.seat
    state.last_roll = (a, b)
    state.shots[1] -= 1
    targets = ships_at(state, state.shots[0], seat)
    if a != b or not targets:
        return
    state.hits[seat] += 1
    if a + b == DISABLING_TOTAL:
        state.shield, state.victims = list(targets), list(targets)
        return
    for target in targets:
        charge(state, target, seat, DAMAGE_PER_PIP * (a + b))


def shield_passed(state: State) -> None:
    """A target answered `pass`: when all have, every ship hit is disabled."""
    state.shield.pop(0)
    if not state.shield:
        victims, state.victims = [s for s in state.victims if state.alive[s]], []
        state.shots = None
        disable(state, victims, state.seat)
