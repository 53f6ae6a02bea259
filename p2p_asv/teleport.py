"""Teleport, a Response card played in the doom poll (SPEC §15.2): the card is played at once,
and its respond window asks the other seats from the player's left, who may cancel it with
Peace Talks or Time Warp ("cancel ANY other Special Action card", SPEC §14.3). Once the
window closes uncancelled the ship jumps home (`special_rules`' Teleport effect); a cancelled
Teleport leaves the ship doomed, and its owner is asked again."""
from __future__ import annotations

from .actions import PlaySpecial, Teleport
from .checks import play_from_hand
from .destruction import check_teleport
from .geometry import square_name
from .specials import LORD_DEWAR, open_response
from .state import GameState


def do_teleport(state: GameState, seat: int, action: Teleport) -> None:
    check_teleport(state, seat, action)
    play_from_hand(state, seat, action.card, action.name)
    if state.players[seat].role == LORD_DEWAR and not state.variants.advanced:
        state.players[seat].gain(1, "role")   # SPEC §13.3: a Special Response card is one too
    card = PlaySpecial(action.card, action.name, (f"s{action.ship}", square_name(action.square)))
    open_response(state, seat, card, targets=())
