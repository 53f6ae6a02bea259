"""Rigged positions for the destruction and Space Ship Extra tests (SPEC §15): synthetic
planet and path tiles put on empty squares, ships and cards taken off the decks by name."""
from __future__ import annotations

from p2p_asv.geometry import parse_square
from p2p_asv.state import PlanetRecord, Ship
from p2p_asv.tile_model import DEEP, PATH, PathSegment, Tile

ROUTE = [parse_square(s) for s in ("C-12", "D-12", "E-12", "F-12")]


def route(g, west_owner=0, east_owner=1) -> None:
    """A complete four-tile path in row 12: planet - path - path - planet."""
    end_w = Tile("t-end-w", "planet", 1, (DEEP, PATH, DEEP, DEEP),
                 paths=(PathSegment((1,), "planet", 0),), planets=(1,))
    middle = Tile("t-mid", "path", 1, (DEEP, PATH, DEEP, PATH), paths=(PathSegment((1, 3)),),
                  path_shape="straight")
    end_e = Tile("t-end-e", "planet", 1, (DEEP, DEEP, DEEP, PATH),
                 paths=(PathSegment((3,), "planet", 0),), planets=(1,))
    for tile, sq in zip((end_w, middle, middle, end_e), ROUTE):
        g.state.board.place(tile, sq, 0, setup=True)
    if west_owner is not None:
        g.state.planets[(ROUTE[0], 0)] = PlanetRecord(west_owner, False)
    if east_owner is not None:
        g.state.planets[(ROUTE[3], 0)] = PlanetRecord(east_owner, False)


def planet(g, square: str, owner: int | None = None, home: bool = False):
    """A one-planet tile on an empty square, discovered by `owner` if given."""
    sq = parse_square(square)
    g.state.board.place(Tile(f"t-{square}", "planet", 1, (DEEP,) * 4, planets=(1,)), sq, 0, setup=True)
    if owner is not None:
        g.state.planets[(sq, 0)] = PlanetRecord(owner, home)
    return sq


def ship(g, seat: int, name: str, sq, extras=()) -> int:
    """A ship of `seat` made from a Space Port card, with extras already aboard."""
    state = g.state
    handle = state.decks["port"].pop(0)
    state.names[handle] = name
    sid = state.next_ship
    state.next_ship += 1
    new = Ship(sid, seat, handle, name, sq)
    for extra in extras:
        h = state.decks["port"].pop(0)
        state.names[h] = extra
        new.extras.append(extra)
        new.extra_cards.append(h)
    state.ships[sid] = new
    return sid


def give(g, seat: int, name: str) -> int:
    """A card named `name` put into seat's hand (the next Refuel handle), known to that seat."""
    handle = g.state.decks["refuel"].pop(0)
    g.state.players[seat].hand.append(handle)
    g.views[seat].learn(handle, name)
    return handle
