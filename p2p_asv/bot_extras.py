"""What the greedy bot (SPEC §12.1) makes of ship cards and Space Ship Extras: when a Space
Port card is worth drawing, when a Laser Beam is ready, what a Photon Torpedo shot is worth and
where a ship armed with one should go. Rough worths in points, like the rest of GreedyBot."""
from __future__ import annotations

from .cards import CARD_BY_NAME, SPACE_SHIP
from .discovery import holds_planet_card
from .endgame import pirate_points
from .extras import (ADMIRAL, LASER, NANO, ROOKIE, TORPEDO, can_fire, is_opponent, laser_targets,
                     nothing_but_tiles)
from .geometry import king_steps
from .movement import ship_allowance, undiscovered_planets
from .state import MOVE, PLACE_PIECE, GameState
from .view import PlayerView


def laser_ready(state: GameState, seat: int) -> bool:
    """In phase 2 with nothing done but tiles: one of the seat's armed ships could fire at an
    opponent's ship in phase 3."""
    if state.phase != PLACE_PIECE or state.variants.advanced or not nothing_but_tiles(state):
        return False
    saved = state.phase
    state.phase = MOVE
    try:
        return any(can_fire(state, s) and any(t.kind == "ship" for t in laser_targets(state, s))
                   for s in state.ships_of(seat))
    finally:
        state.phase = saved


def wants_port_card(state: GameState, view: PlayerView) -> bool:
    """A hand without a Space Port card has nothing for phase 2 but pieces: one ship or extra
    in hand keeps a bigger ship or an extra within reach (SPEC §12.1)."""
    return not any(CARD_BY_NAME[name].category == SPACE_SHIP
                   for name in (view.name_of(h, state.names) for h in state.players[view.seat].hand)
                   if name)


def _pirate_worth(state: GameState, sq, segment: int) -> int:
    """What the pirate on this path would score its owner: SPEC §9.1 when the path is
    complete, its tiles so far (a guess of what it may grow to) when it is not."""
    middle = len(state.board.path_middle_squares(sq, segment))
    return pirate_points(middle) if state.board.path_state(sq, segment) == "complete" else middle


def torpedo_worth(state: GameState, view: PlayerView, sq, segment: int) -> int:
    """A Photon Torpedo shot (SPEC §15.5): the rival's pirate points denied; when the cleared
    path is complete and leads to a planet the seat can discover with the follow-up move (the
    pirate was blocking a route it wants), that discovery's worth as well, so the shot and the
    discovery beat a plain discovery."""
    worth = 6 + _pirate_worth(state, sq, segment)
    if state.board.path_state(sq, segment) == "complete" and holds_planet_card(state, view.seat, view):
        values = [state.board.tile_at(end).tile.planets[i]
                  for end, _ in state.board.path_planets(sq, segment) for i in undiscovered_planets(state, end)]
        if values:
            worth += 40 + max(values)
    return worth


def torpedo_spots(state: GameState, seat: int) -> dict:
    """Square -> the best pirate a Photon Torpedo could hit from a planet there: the planet
    ends of the paths of opponents' pirates (SPEC §15.5)."""
    spots: dict = {}
    for p in state.players:
        if not is_opponent(state, seat, p.seat):
            continue
        for sq, seg in p.pirates:
            worth = _pirate_worth(state, sq, seg)
            for end, _ in state.board.path_planets(sq, seg):
                spots[end] = max(spots.get(end, 0), worth)
    return spots


def torpedo_aim(state: GameState, sid: int, sq) -> int:
    """A ship armed with a Photon Torpedo heads for a planet from which it could shoot a
    rival's pirate: reaching one is worth the pirate, coming nearer is worth the squares gained;
    both beat an aimless move (-1)."""
    ship = state.ships.get(sid)
    if ship is None or TORPEDO not in ship.extras or state.torpedo_ship:
        return -1
    spots = torpedo_spots(state, ship.owner)
    if not spots or ship.square in spots:   # nothing to aim at, or already there to shoot
        return -1
    if sq in spots:
        return 1 + spots[sq]
    gained = min(king_steps(ship.square, t) for t in spots) - min(king_steps(sq, t) for t in spots)
    return gained if gained > 0 else -1


def attach_worth(state: GameState, seat: int, action) -> int:
    """An extra is free (SPEC §6.2), so it is always worth attaching (5); which ship takes it
    goes by its use there: a Fleet Admiral or Nano-computer that evicts Captain Rookie (onto
    the fastest rival ship the Admiral can reach), a Photon Torpedo on a ship that can shoot a
    pirate this very turn, a Laser Beam with the most targets in range, others on the ship that
    moves furthest."""
    ship = state.ships[action.ship]
    worth = 5
    if action.name in (ADMIRAL, NANO) and ROOKIE in ship.extras:
        worth += 4
        if action.evict.startswith("s"):
            target = state.ships[int(action.evict[1:])]
            worth += ship_allowance(target) if is_opponent(state, seat, target.owner) else -1
        return worth
    if action.name == TORPEDO:
        return worth + 2 + torpedo_spots(state, seat).get(ship.square, -2)
    if action.name == LASER:
        return worth + min(4, len(laser_targets(state, ship)))
    return worth + min(4, ship_allowance(ship))
