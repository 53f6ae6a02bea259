"""Destroying planets, ships and pieces (SPEC §15.1-§15.3), for every card that destroys.

API for the cards (Black Hole, Supernova, Kamikaze Attack, Sabotage, Laser Beam):

- `planet_refusal(state, planet)` -> None, or why that planet may not be destroyed (the
  only-home-planet protection, a planet already gone). `destroyable_planets(state)` lists the
  rest, sorted.
- `destroy_planet(state, planet, cause)`: the planet leaves the board for good (its paths
  are ruined, pirates on them go home, quests that needed it are no longer complete); with
  cause "Supernova" its tile gets the black disk (no ship ends a move there again). Every ship
  on the tile is then doomed (below): with "Black Hole" they may flee within their M-number.
- `doom_ships(state, ship_ids, cause)`: opens the doom poll. `to_move` then names each doomed
  ship's owner in turn (from the active seat's left); the owner answers `escape sN SQ`
  (Black Hole only), `teleport sN #H:teleport SQ` (a Teleport card from hand: the ship jumps
  to one of its owner's home planets) or `pass` (the ship is lost). When the last ship is
  answered `state.doom` is None again and play goes on where it was.
- `lose_ship(state, ship_id, cards_to)`: removes a ship at once (no poll).
- `destroy_probe/destroy_pirate/destroy_station`: a Laser Beam's other targets.
- `may_land(state, sq)`: False on a black disk.

`cause` is a card name in BLASTS; it fixes whether ships may flee and where a lost ship's
cards go. Call these only after the card's own checks; they check their own arguments.
"""
from __future__ import annotations

from dataclasses import dataclass

from .actions import Escape, Pass, Teleport
from .cards import SPECIAL_ACTION
from .checks import card_claim, require
from .geometry import Square
from .movement import king_distances, ship_allowance
from .state import Doom, GameState, Window
from .turn import home_squares, remove_ruined_pirates

JUNK, PILE = "junk", "pile"
TELEPORT = "Teleport"
CAPTAIN_ROOKIE = "Captain Rookie"


@dataclass(frozen=True)
class Blast:
    escape: bool       # ships may flee within their M-number (Black Hole)
    cards_to: str      # JUNK: Space Junk; PILE: the owner's personal pile, out of the game
    black_disk: bool   # Supernova: nothing lands on the tile again


# SPEC §15.1-§15.2: what each destroying card does to the ships it catches.
BLASTS = {
    "Black Hole": Blast(escape=True, cards_to=PILE, black_disk=False),
    "Supernova": Blast(escape=False, cards_to=JUNK, black_disk=True),
    "Kamikaze Attack": Blast(escape=False, cards_to=JUNK, black_disk=False),
    "Sabotage": Blast(escape=False, cards_to=PILE, black_disk=False),
    "Laser Beam": Blast(escape=False, cards_to=PILE, black_disk=False),
}


def _blast(cause: str) -> Blast:
    if cause not in BLASTS:
        raise ValueError(f"{cause!r} destroys nothing (known: {', '.join(BLASTS)})")
    return BLASTS[cause]


# -- planets (SPEC §15.1) ------------------------------------------------------------------------
def planet_refusal(state: GameState, planet: tuple[Square, int]) -> str | None:
    sq, index = planet
    placed = state.board.tile_at(sq)
    if placed is None or not 0 <= index < len(placed.tile.planets):
        return "there is no such planet"
    if state.board.planet_destroyed(sq, index):
        return "that planet is already destroyed"
    record = state.planets.get(planet)
    if record is not None and record.home:
        homes = sum(1 for r in state.planets.values() if r.owner == record.owner and r.home)
        if homes == 1:
            return "a player's only home planet cannot be destroyed"
    return None


def destroyable_planets(state: GameState) -> list[tuple[Square, int]]:
    out = [(sq, i) for sq, placed in state.board.tiles() for i in range(len(placed.tile.planets))
           if planet_refusal(state, (sq, i)) is None]
    return sorted(out, key=lambda n: (n[0][1], n[0][0], n[1]))


def destroy_planet(state: GameState, planet: tuple[Square, int], cause: str) -> None:
    blast = _blast(cause)
    reason = planet_refusal(state, planet)
    require(reason is None, f"{cause}: {reason}")
    sq, index = planet
    ruined = state.board.destroy_planet(sq, index)
    state.planets.pop(planet, None)     # its points stay scored; its cards stay where they are
    remove_ruined_pirates(state, ruined)
    if blast.black_disk and sq not in state.black_disks:
        state.black_disks.append(sq)
    doom_ships(state, ships_on(state, sq), cause)


def may_land(state: GameState, sq: Square) -> bool:
    """SPEC §15.1: no ship ends a move on a tile under a black disk."""
    return sq not in state.black_disks


# -- ships (SPEC §15.2) --------------------------------------------------------------------------
def ships_on(state: GameState, sq: Square) -> list[int]:
    return [sid for sid, ship in sorted(state.ships.items()) if ship.square == sq]


def doom_ships(state: GameState, ship_ids, cause: str) -> None:
    """Open the doom poll for these ships (nothing happens for none)."""
    blast = _blast(cause)
    require(state.doom is None, "ships are already being destroyed")
    for sid in ship_ids:
        require(sid in state.ships, f"s{sid} is not in play")
    n = len(state.players)
    order = sorted(set(ship_ids),
                   key=lambda sid: ((state.ships[sid].owner - state.active - 1) % n, sid))
    if order:
        state.doom = Doom(order, blast.escape, blast.cards_to, cause)


def doomed_owner(state: GameState) -> int:
    return state.ships[state.doom.ships[0]].owner


def lose_ship(state: GameState, ship_id: int, cards_to: str) -> None:
    """The ship leaves play. Its cards go to Space Junk or, out of the game, to its owner's
    personal pile; Captain Rookie always goes to the pile, lost in space (SPEC §15.2)."""
    require(cards_to in (JUNK, PILE), f"cards go to {JUNK!r} or {PILE!r}")
    ship = state.ships.pop(ship_id)
    owner = state.players[ship.owner]
    cards = [(ship.card, ship.name)] + list(zip(ship.extra_cards, ship.extras))
    for handle, name in cards:
        if cards_to == JUNK and name != CAPTAIN_ROOKIE:
            state.decks["junk"].append(handle)
        else:
            owner.pile.append(name)


def capture(state: GameState, ship_id: int) -> None:
    """SPEC §8.8: a ship caught in the Web leaves play for good; its cards go to its owner's
    personal pile and it no longer counts against the ship limit."""
    ship = state.ships.pop(ship_id)
    state.players[ship.owner].pile.extend([ship.name] + ship.extras)


def escape_squares(state: GameState, ship) -> list[Square]:
    """Discovered planets within the ship's M-number, off its own tile, not webbed or black."""
    out = []
    for sq, d in king_distances(state, ship.square, ship_allowance(ship)).items():
        if sq == ship.square or sq in state.webs or not may_land(state, sq):
            continue
        placed = state.board.tile_at(sq)
        if placed is not None and any((sq, i) in state.planets for i in range(len(placed.tile.planets))):
            out.append(sq)
    return sorted(out, key=lambda s: (s[1], s[0]))


def teleport_squares(state: GameState, ship) -> list[Square]:
    """The owner's home planets, other than the ship's own tile and webbed ones."""
    return [sq for sq in home_squares(state, ship.owner)
            if sq != ship.square and sq not in state.webs and may_land(state, sq)]


def _polled_ship(state: GameState, seat: int, ship_id: int):
    require(state.doom is not None, "no ship is being destroyed")
    require(ship_id == state.doom.ships[0], f"s{state.doom.ships[0]} answers first")
    ship = state.ships[ship_id]
    require(ship.owner == seat, f"s{ship_id} is not your ship")
    return ship


def _answered(state: GameState) -> None:
    state.doom.ships.pop(0)
    while state.doom.ships and state.doom.ships[0] not in state.ships:
        state.doom.ships.pop(0)
    if not state.doom.ships:
        state.doom = None


def do_escape(state: GameState, seat: int, action: Escape) -> None:
    ship = _polled_ship(state, seat, action.ship)
    require(state.doom.escape, f"a ship cannot flee {state.doom.cause}; only a Teleport saves it")
    require(action.square in escape_squares(state, ship),
            "a fleeing ship goes to a discovered planet within its M-number")
    ship.square = action.square   # not the turn's move (SPEC §15.2)
    _answered(state)


def teleport_window_open(state: GameState) -> bool:
    """A Teleport played in the doom poll waits in its own respond window (SPEC §15.2)."""
    return any(p.kind == Window.RESPOND and p.action.name == TELEPORT for p in state.polls)


def doom_due(state: GameState) -> bool:
    """The doom poll asks now: a doom is open and no Teleport's window stands above it."""
    return state.doom is not None and not teleport_window_open(state)


def may_teleport(state: GameState, seat: int) -> bool:
    """SPEC §14.4: after Sneak Attack no other seat answers the active seat with a card, and
    a Teleport is such an answer (a Response card)."""
    return not state.sneak or seat == state.active


def check_teleport(state: GameState, seat: int, action: Teleport) -> None:
    ship = _polled_ship(state, seat, action.ship)
    card = card_claim(state, seat, action.card, action.name, SPECIAL_ACTION)
    require(card.name == TELEPORT, f"{action.name} is not a Teleport")
    require(may_teleport(state, seat), "after a Sneak Attack no card answers the active player this turn")
    require(action.square in teleport_squares(state, ship), "a ship teleports to one of your home planets")


def teleport_ship(state: GameState, ship_id: int, square: Square) -> None:
    """A Teleport that nobody cancelled: the doomed ship jumps home (not the turn's move)."""
    state.ships[ship_id].square = square
    _answered(state)


def do_abandon(state: GameState, seat: int, action: Pass) -> None:
    ship_id = state.doom.ships[0] if state.doom else 0
    _polled_ship(state, seat, ship_id)
    lose_ship(state, ship_id, state.doom.cards_to)
    _answered(state)


# The doom poll's answers; a Teleport's (`teleport.do_teleport`) opens a window, so it lives
# above the windows' module.
DOOM_ACTIONS = {Escape: do_escape, Pass: do_abandon}


def doom_legal(state: GameState, view) -> list:
    ship = state.ships[state.doom.ships[0]]
    out: list = [Pass()]
    if state.doom.escape:
        out += [Escape(ship.id, sq) for sq in escape_squares(state, ship)]
    teleports = [h for h in state.players[view.seat].hand
                 if view.name_of(h, state.names) == TELEPORT and may_teleport(state, view.seat)]
    out += [Teleport(ship.id, h, TELEPORT, sq) for h in teleports for sq in teleport_squares(state, ship)]
    return out


# -- pieces (a Laser Beam's other targets, SPEC §15.3) --------------------------------------------
def destroy_probe(state: GameState, seat: int, probe: tuple[Square, int]) -> None:
    require(probe in state.players[seat].probes, "no such probe")
    state.players[seat].probes.remove(probe)


def destroy_pirate(state: GameState, seat: int, pirate: tuple[Square, int]) -> None:
    require(pirate in state.players[seat].pirates, "no such pirate")
    state.players[seat].pirates.remove(pirate)


def destroy_station(state: GameState, seat: int, sq: Square) -> None:
    """The station goes back to its owner's supply. Ships standing on it are the caller's
    to doom (the Laser Beam dooms the opponents' ships there, SPEC §15.3)."""
    require(sq in state.players[seat].stations, "no such station")
    state.players[seat].stations.remove(sq)


__all__ = ["BLASTS", "JUNK", "PILE", "planet_refusal", "destroyable_planets", "destroy_planet",
           "may_land", "ships_on", "doom_ships", "lose_ship", "escape_squares", "teleport_squares",
           "DOOM_ACTIONS", "doom_legal", "doom_due", "check_teleport", "teleport_ship", "may_teleport", "destroy_probe", "destroy_pirate", "destroy_station"]
