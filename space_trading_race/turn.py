"""The turn (SPEC §54): rolling, moving over black dots and orbits, doubles, landing, and the
driver that, after every action, moves the game on to the next decision or chance request."""
from __future__ import annotations

from .board import AMALTHEA, CLAIM, COLLECT, EARTH, FIRE, PAY, SPACES, TO_DOCK, TO_EARTH, TOKEN, next_of_kind, walk
from .deeds import DEEDS, rent
from .lasers import laser_targets, next_shot
from .money import charge, collect, finish_by_assets, give_tokens
from .state import BANK, ChanceRequest, State

EARTH_PAY = 500            # each pass or landing on Earth, SPEC §54.5
DOUBLES_PAY = 100          # each roll of doubles, SPEC §54.3
AMALTHEA_ESCAPE = 5        # a ship on Amalthea leaves on a roll of 5 or more, SPEC §54.6
ALL_OWNED_PAY = 500        # a blue dot's free deed when none is left, SPEC §50.3


def start_turn(state: State, seat: int) -> None:
    state.seat, state.stage, state.doubles, state.offers_made = seat, "roll", False, 0
    state.turns += 1


def next_turn(state: State) -> None:
    """The next ship still in the game, clockwise; a new round when the order wraps; the
    time limit ends the game before a turn of a round beyond it (SPEC §56.4)."""
    n = state.players
    for k in range(1, n + 1):
        seat = (state.seat + k) % n
        if state.alive[seat]:
            break
    if seat <= state.seat:
        state.round += 1
    if state.round > state.time_limit:
        finish_by_assets(state)
        return
    start_turn(state, seat)


def move_roll(state: State, a: int, b: int) -> None:
    """The outcome of a movement roll (SPEC §54.1-§54.3, §54.6)."""
    seat, total = state.seat, a + b
    state.last_roll = (a, b)
    if a == b:
        collect(state, seat, DOUBLES_PAY)
    if state.stuck[seat]:
        if total < AMALTHEA_ESCAPE:           # stays, and pays the owner again
            state.doubles = False
            state.stage = "settle"
            owner = state.owner[SPACES[AMALTHEA].deed]
            if owner not in (BANK, seat):
                charge(state, seat, owner, rent(DEEDS[SPACES[AMALTHEA].deed],
                                                state.count_in_group(owner, "jupiter")))
            return
        state.stuck[seat] = False
    state.doubles = a == b
    travel(state, seat, walk(state.pos[seat], total))


def travel(state: State, seat: int, route) -> None:
    for _ in range(route.passed_earth):
        collect(state, seat, EARTH_PAY)
        state.laps[seat] += 1
    state.pos[seat] = route.end
    state.landed[seat] = False
    state.visits[route.end] += 1
    if not route.pulled_back and (state.doubles or route.end == AMALTHEA):
        state.stage = "choose"
    else:
        land(state)


def land(state: State) -> None:
    """The space's requirements (SPEC §54.4-§54.9); `stage` says what the mover decides next,
    or `settle` when nothing is left but debts and chance."""
    seat = state.seat
    space = SPACES[state.pos[seat]]
    state.landed[seat] = True
    state.stage = "settle"
    if space.index == AMALTHEA:
        state.stuck[seat] = True
    if space.deed is not None:
        deed = DEEDS[space.deed]
        owner = state.owner[deed.index]
        if owner == BANK:
            if state.cash[seat] >= deed.price:
                state.stage = "buy"
        elif owner != seat:
            if deed.kind == "dock":
                state.pending.append(ChanceRequest("dice", "fuel", seat=seat))
            else:
                charge(state, seat, owner, rent(deed, state.count_in_group(owner, deed.group)))
    elif space.kind == "station":
        cash, tokens = space.order
        collect(state, seat, cash)
        give_tokens(state, seat, tokens)
    elif space.kind == "earth":
        if state.deck:             # a pile emptied by a forfeit offers nothing (SPEC §53.5)
            state.stage = "exchange"
    elif space.kind == "blue":
        _blue(state, seat, *space.order)


def _blue(state: State, seat: int, kind: str, amount: int) -> None:
    if kind == PAY:
        charge(state, seat, BANK, amount)
    elif kind == COLLECT:
        collect(state, seat, amount)
    elif kind == TOKEN:
        give_tokens(state, seat, amount)
    elif kind == FIRE:
        if laser_targets(state, seat):
            state.stage = "free-fire"
    elif kind == CLAIM:
        if BANK in state.owner:
            state.stage = "pick"
        else:
            collect(state, seat, ALL_OWNED_PAY)
    elif kind in (TO_EARTH, TO_DOCK):
        target, passed = (EARTH, True) if kind == TO_EARTH else next_of_kind(state.pos[seat], "dock")
        if passed:
            collect(state, seat, EARTH_PAY)
            state.laps[seat] += 1
        state.pos[seat] = target
        state.visits[target] += 1
        land(state)


def fuel_fee(state: State, a: int, b: int) -> None:
    seat = state.seat
    deed = DEEDS[SPACES[state.pos[seat]].deed]
    owner = state.owner[deed.index]
    state.last_roll = (a, b)
    if owner not in (BANK, seat):
        charge(state, seat, owner, (a + b) * deed.rents[state.count_in_group(owner, "docks") - 1])


def finish_landing(state: State) -> None:
    """Doubles roll again once the space's requirements are met; otherwise the turn's end."""
    state.stage = "roll" if state.doubles else "after"


def advance(state: State) -> None:
    """After any action: run what needs no decision until a player or chance is due."""
    while not state.over:
        if state.pending or state.shield or state.debts or state.offer is not None:
            return
        if not state.alive[state.seat]:
            next_turn(state)
            return
        if state.shots is not None:
            if next_shot(state):
                return
            continue
        if state.stage == "settle":
            finish_landing(state)
        return
