"""Chance outcomes (SPEC §10.2): shuffles, public reveals and private deals arrive as events,
in the order the engine requested them."""
from __future__ import annotations

from .actions import ChanceDeal, ChanceReveal, ChanceShuffle
from .checks import require
from .state import SETUP, GameState
from .setup import ROOKIE_ROLE, role_cards
from .tiles import TILE_BY_ID
from .turn import after_tile_revealed, start_turn


def _next_request(state: GameState, kind: str):
    require(bool(state.pending), "no chance event is due")
    request = state.pending[0]
    require(request.kind == kind, f"the due chance event is a {request.kind}, not a {kind}")
    return request


def _done(state: GameState) -> None:
    state.pending.pop(0)
    if state.phase == SETUP and not state.pending:
        start_turn(state, 0)


def do_shuffle(state: GameState, action: ChanceShuffle) -> None:
    request = _next_request(state, "shuffle")
    require(action.deck == request.deck, f"the due shuffle is of {request.deck}, not {action.deck}")
    _done(state)


def do_reveal(state: GameState, action: ChanceReveal) -> None:
    request = _next_request(state, "reveal")
    require(tuple(h for h, _ in action.cards) == request.handles,
            f"the due reveal is of {list(request.handles)}")
    if request.deck == "tiles":
        for _, name in action.cards:
            require(name in TILE_BY_ID, f"{name!r} is not a tile")
    if request.deck == "roles":
        for _, name in action.cards:
            require(name in role_cards(state.variants), f"{name!r} is not a role card")
    for handle, name in action.cards:
        state.names[handle] = name
    if request.deck == "roles":  # dealt face up in seat order
        for player, (handle, name) in zip(state.players, action.cards):
            player.role = name
            if name == ROOKIE_ROLE:  # SPEC §15.6: he starts aboard the seat's Star-T ship
                ship = state.ships_of(player.seat)[0]
                ship.extras.append(name)
                ship.extra_cards.append(handle)
    _done(state)
    if request.deck == "tiles":
        for handle, _ in action.cards:
            after_tile_revealed(state, handle)


def do_deal(state: GameState, action: ChanceDeal) -> None:
    request = _next_request(state, "deal")
    require(action.seat == request.seat and action.cards == request.handles,
            f"the due deal is {list(request.handles)} to seat {request.seat}")
    _done(state)


CHANCE_HANDLERS = {ChanceShuffle: do_shuffle, ChanceReveal: do_reveal, ChanceDeal: do_deal}
