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
from .movement import destinations, ship_allowance, undiscovered_planets
from .state import MOVE, PLACE_PIECE, GameState
from .turn import HAND_LIMIT
from .view import PlayerView


def fire_worth(state: GameState, seat: int, action) -> int:
    """A Laser Beam shot (SPEC §15.4) by what it takes from the rivals: a ship (the prize), a
    station with the rival ships standing on it, a pirate by the points it would score, a probe
    by the galaxy it is waiting on."""
    if action.kind == "ship":
        target = state.ships.get(action.index)
        return 30 + (ship_allowance(target) if target is not None else 0)
    if action.kind == "station":
        guests = sum(1 for s in state.ships.values()
                     if s.square == action.square and is_opponent(state, seat, s.owner))
        return 10 + state.board.station_value(action.square) + 30 * guests
    if action.kind == "pirate":
        return 8 + _pirate_worth(state, action.square, action.index)
    return 6 + len(state.board.galaxy_squares(action.square, action.index))


def laser_ready(state: GameState, view: PlayerView) -> int:
    """In phase 2 with nothing done but tiles: the best Laser Beam shot one of the seat's ships
    could fire in phase 3 (0 for none, or when a discovery in reach would be played instead)."""
    seat = view.seat
    if state.phase != PLACE_PIECE or state.variants.advanced or not nothing_but_tiles(state):
        return 0
    saved = state.phase
    state.phase = MOVE
    try:
        shots = [fire_worth(state, seat, t) for s in state.ships_of(seat) if can_fire(state, s)
                 for t in laser_targets(state, s)]
        if not shots or discovery_in_reach(state, view):
            return 0
        return max(shots)
    finally:
        state.phase = saved


def discovery_in_reach(state: GameState, view: PlayerView) -> bool:
    """One of the seat's ships could move onto an undiscovered planet and discover it now."""
    if not holds_planet_card(state, view.seat, view):
        return False
    return any(undiscovered_planets(state, sq) for s in state.ships_of(view.seat)
               for sq in destinations(state, s, may_discover=True))


def cyber_jump_worth(state: GameState, view: PlayerView, action) -> int:
    """Cyber Jump (SPEC §14.6) by what the repeated phase is worth now: a second move onto a
    planet to discover beats the rest; another tile or piece is worth about what one scores;
    discarding two cards only clears a full hand of its least useful cards."""
    mode = action.args[0] if action.args else ""
    if mode == "move":
        ship = state.ships.get(state.moved_ship)
        if ship is not None and holds_planet_card(state, view.seat, view) and any(
                undiscovered_planets(state, sq) for sq in destinations(state, ship, may_discover=True)):
            return 12
        return 1
    if mode == "tile":
        return 3 if state.tiles_left() else -1
    if mode == "piece":
        return 3
    if len(state.players[view.seat].hand) < HAND_LIMIT:   # room to draw: keep the cards
        return -5
    names = [view.name_of(int(t[1:]), state.names) for t in action.args[1:] if t.startswith("#")]
    values = [CARD_BY_NAME[n].value or 0 for n in names if n]
    return -sum(max(0, v) for v in values)


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


TORPEDO_SHOT = 44   # above a plain discovery's 40 + tile value: see torpedo_worth


def torpedo_worth(state: GameState, view: PlayerView, sq, segment: int) -> int:
    """A Photon Torpedo shot (SPEC §15.5): the rival's pirate points denied, on top of a base
    above a plain discovery's worth: a ship stands where it can shoot a rival's pirate only
    seldom (a few times in a hundred games), while a discovery waits for the next turn as well;
    when the cleared path is complete and leads to a planet the seat can discover with the
    follow-up move (the pirate was blocking a route it wants), that discovery's worth too."""
    worth = TORPEDO_SHOT + _pirate_worth(state, sq, segment)
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
        return 10 + spots[sq]
    gained = min(king_steps(ship.square, t) for t in spots) - min(king_steps(sq, t) for t in spots)
    return gained if gained > 0 else -1


def torpedo_setup(state: GameState, sid: int, sq) -> int:
    """A discovery that leaves a ship armed with a Photon Torpedo on a planet from which it can
    shoot a rival's pirate next turn: the pirate's worth on top (0 otherwise)."""
    ship = state.ships.get(sid)
    if ship is None or TORPEDO not in ship.extras:
        return 0
    return torpedo_spots(state, ship.owner).get(sq, 0)


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
