"""Where a ship may go (SPEC §7): king steps through tiles and empty squares, worm holes,
and whole-allowance trips along completed space paths."""
from __future__ import annotations

from collections import deque

from .cards import CARD_BY_NAME, effective_movement
from .geometry import BOARD_WORMHOLES, Square, king_neighbours
from .state import GameState, Ship


def wormhole_squares(state: GameState) -> list[Square]:
    """SPEC §7.3: uncovered board worm holes plus every placed tile showing a worm hole."""
    holes = [sq for sq in BOARD_WORMHOLES if state.board.tile_at(sq) is None]
    holes += [sq for sq, placed in state.board.tiles() if placed.tile.wormhole]
    return sorted(set(holes))


def _passable(state: GameState, sq: Square) -> bool:
    placed = state.board.tile_at(sq)
    return placed is None or placed.tile.kind != "sun"


def king_distances(state: GameState, start: Square, allowance: int) -> dict[Square, int]:
    """Fewest steps to each square within `allowance` (0-1 BFS: a worm hole jump is free)."""
    dist = {start: 0}
    queue = deque([start])
    holes = None
    while queue:
        sq = queue.popleft()
        d = dist[sq]
        if holes is None:
            holes = wormhole_squares(state)
        if sq in holes:  # SPEC §7.3: out of any other worm hole at no extra cost
            for other in holes:
                if other not in dist or dist[other] > d:
                    dist[other] = d
                    queue.appendleft(other)
        if d == allowance:
            continue
        for nxt in king_neighbours(sq):
            if _passable(state, nxt) and (nxt not in dist or dist[nxt] > d + 1):
                dist[nxt] = d + 1
                queue.append(nxt)
    return dist


def ship_allowance(ship: Ship) -> int:
    return effective_movement(ship.name, tuple(ship.extras))


def undiscovered_planets(state: GameState, sq: Square) -> list[int]:
    placed = state.board.tile_at(sq)
    if placed is None:
        return []
    return [i for i in range(len(placed.tile.planets))
            if (sq, i) not in state.planets and not state.board.planet_destroyed(sq, i)]


def discovered_planet_here(state: GameState, sq: Square) -> bool:
    placed = state.board.tile_at(sq)
    return placed is not None and any((sq, i) in state.planets for i in range(len(placed.tile.planets)))


def can_end_at(state: GameState, ship: Ship, sq: Square, may_discover: bool) -> bool:
    """SPEC §7.1: a move ends on a discovered planet, an own station, an undiscovered planet
    the mover can discover now, or (scouts and saucers) an empty square of deep space; never
    a tile under a Supernova's black disk (SPEC §15.1)."""
    if sq in state.black_disks:
        return False
    if discovered_planet_here(state, sq):
        return True
    if sq in state.players[ship.owner].stations:
        return True
    if may_discover and undiscovered_planets(state, sq):
        return True
    return state.board.tile_at(sq) is None and CARD_BY_NAME[ship.name].deep_space_stop


def path_destinations(state: GameState, ship: Ship) -> list[Square]:
    """SPEC §7.2: from a discovered planet along a completed path to the planet at its other end,
    unless an opponent's pirate sits on that path."""
    out = []
    placed = state.board.tile_at(ship.square)
    if placed is None:
        return out
    pirate_paths = {state.board.path_key(sq, seg): p.seat
                    for p in state.players for sq, seg in p.pirates}
    for planet in range(len(placed.tile.planets)):
        if (ship.square, planet) not in state.planets:
            continue
        for seg in state.board.planet_paths(ship.square, planet):
            if state.board.path_state(ship.square, seg) != "complete":
                continue
            owner = pirate_paths.get(state.board.path_key(ship.square, seg))
            if owner is not None and owner != ship.owner:
                continue
            for end_sq, end_planet in state.board.path_planets(ship.square, seg):
                if (end_sq, end_planet) != (ship.square, planet):
                    out.append(end_sq)
    return out


def destinations(state: GameState, ship: Ship, may_discover: bool) -> list[Square]:
    """Every square the ship may end its move on this turn, sorted."""
    frozen = [m[0] for m in state.meteor]   # SPEC §14.6 Meteor Shower: nothing leaves or lands
    if ship.square in frozen:
        return []
    found = set()
    card = CARD_BY_NAME[ship.name]
    allowance = ship_allowance(ship)
    if allowance > 0 and not card.path_only:
        for sq, d in king_distances(state, ship.square, allowance).items():
            if 0 < d <= allowance or (d == 0 and sq != ship.square):
                if can_end_at(state, ship, sq, may_discover):
                    found.add(sq)
    for sq in path_destinations(state, ship):
        if can_end_at(state, ship, sq, may_discover) and sq != ship.square:
            found.add(sq)
    found.discard(ship.square)
    found.difference_update(frozen)
    return sorted(found, key=lambda s: (s[1], s[0]))

