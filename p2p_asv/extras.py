"""The Space Ship Extras (SPEC §15.3-§15.8): attaching them, the Laser Beam, the Photon
Torpedo, the Pirate Crew, Captain Rookie and the Only Action bookkeeping they share."""
from __future__ import annotations

from .actions import (AttachExtra, DrawTile, Fire, Next, PlaceTile, Plunder, PlayRookie, Reassign,
                      ScrapTile, Torpedo)
from .cards import ANY_TIME_EXTRAS, CARD_BY_NAME, SPACE_SHIP
from .blind_take import take_blind
from .checks import card_claim, play_from_hand, require
from .destruction import destroy_pirate, destroy_probe, destroy_station, doom_ships
from .movement import can_end_at, king_distances, ship_allowance
from .state import MOVE, PLACE_PIECE, ChanceRequest, GameState
from .variants import may_exchange

ROOKIE, ADMIRAL, NANO = "Captain Rookie", "Fleet Admiral", "Nano-computer"
LASER, TORPEDO, CREW = "Laser Beam", "Photon Torpedo", "Pirate Crew"
GAVIN = "Gavin's Raiders"
TILE_VERBS = ("draw-tile", "place", "scrap")
MOVE_VERBS = ("move", "discover", "binary", "env", "life", "explorer", "pass", "plunder")


def verb(action) -> str:
    return action.text().split()[0]


# -- Only Actions (SPEC §15.3) -------------------------------------------------------------------
def record(state: GameState, seat: int, action) -> None:
    """Remember what the active seat did this turn (its `next`s aside)."""
    if seat == state.active and not isinstance(action, Next):
        state.turn_actions.append(verb(action))


def nothing_but_tiles(state: GameState) -> bool:
    return all(v in TILE_VERBS for v in state.turn_actions)


def allowed_after_only_action(state: GameState, action) -> bool:
    """After an Only Action the active seat may still place its tiles and end the turn;
    after Gavin's Raiders' second move, only end it."""
    if state.only_action == "move":
        return isinstance(action, Next)
    return isinstance(action, (Next, DrawTile, PlaceTile, ScrapTile))


def is_opponent(state: GameState, seat: int, other: int) -> bool:
    """Another seat that is not a partner (SPEC §13.4)."""
    return may_exchange(state.variants, seat, other)


# -- attaching extras (SPEC §15.4-§15.8) ---------------------------------------------------------
def rookie_welcome(state: GameState, ship) -> bool:
    """Captain Rookie may be put on this ship: not a Shuttle, no Admiral or Nano-computer, and
    he is not already aboard."""
    return (ship.name in CARD_BY_NAME[ROOKIE].fits and ADMIRAL not in ship.extras
            and NANO not in ship.extras and ROOKIE not in ship.extras)


def rookie_targets(state: GameState, seat: int, skip: int = 0) -> list[int]:
    """Ships of other seats than `seat` that would take Captain Rookie."""
    return [sid for sid, s in sorted(state.ships.items())
            if s.owner != seat and sid != skip and rookie_welcome(state, s)]


def attach_options(state: GameState, seat: int, ship, name: str) -> list[str]:
    """The `evict` values an `extra` of this card on this ship may take ([] when refused)."""
    card = CARD_BY_NAME[name]
    if name == ROOKIE or ship.name not in card.fits or name in ship.extras:
        return []
    if name == ADMIRAL and ROOKIE in ship.extras:
        return ["port"] + [f"s{sid}" for sid in rookie_targets(state, seat, skip=ship.id)]
    return [""]


def _evict_rookie(state: GameState, ship, evict: str) -> None:
    """Captain Rookie leaves the ship: onto another seat's ship, or into the Space Port deck,
    which is then reshuffled under fresh handles (SPEC §15.6)."""
    i = ship.extras.index(ROOKIE)
    handle = ship.extra_cards[i]
    del ship.extras[i], ship.extra_cards[i]
    if evict == "port":
        source = tuple(state.decks["port"] + [handle])
        fresh = list(range(state.next_handle, state.next_handle + len(source)))
        state.next_handle += len(source)
        state.decks["port"] = fresh
        state.pending.append(ChanceRequest("shuffle", "port", tuple(fresh), source=source))
    else:
        target = state.ships[int(evict[1:])]
        target.extras.append(ROOKIE)
        target.extra_cards.append(handle)


def attach_time(state: GameState, name: str) -> bool:
    """Whether an extra of this name may be attached now (by the active seat)."""
    if name in ANY_TIME_EXTRAS:
        return rookie_time(state)
    return state.phase == PLACE_PIECE


def do_attach_extra(state: GameState, seat: int, action: AttachExtra) -> None:
    require(attach_time(state, action.name),
            f"{action.name} is attached after the tiles" if action.name in ANY_TIME_EXTRAS
            else "extras are attached in phase 2")
    ship = state.ships.get(action.ship)
    require(ship is not None and ship.owner == seat, f"s{action.ship} is not one of your ships")
    card = card_claim(state, seat, action.card, action.name, SPACE_SHIP)
    require(card.ship_extra, f"{action.name} is a ship, not an extra")
    require(action.name != ROOKIE, "Captain Rookie goes on another player's ship (`rookie`)")
    require(ship.name in card.fits, f"{action.name} cannot go on a {ship.name}")
    require(action.name not in ship.extras, f"s{ship.id} already carries {action.name}")
    options = attach_options(state, seat, ship, action.name)
    require(action.evict in options, "a Fleet Admiral evicts Captain Rookie to `port` or to another "
            "player's ship" if options != [""] else "nothing to evict here")
    play_from_hand(state, seat, action.card, action.name)
    if ROOKIE in ship.extras:  # Fleet Admiral (as chosen) or Nano-computer (to the port deck)
        _evict_rookie(state, ship, action.evict or "port")
    ship.extras.append(action.name)
    ship.extra_cards.append(action.card)
    state.fresh_extras.append(action.card)


# -- Captain Rookie (SPEC §15.6) ------------------------------------------------------------------
def do_play_rookie(state: GameState, seat: int, action: PlayRookie) -> None:
    require(rookie_time(state), "Captain Rookie is played after your tiles, outside a discovery")
    card_claim(state, seat, action.card, action.name, SPACE_SHIP)
    require(action.name == ROOKIE, f"{action.name} is not Captain Rookie")
    require(action.ship in rookie_targets(state, seat),
            "Captain Rookie goes on another player's ship: not a Shuttle, no Fleet Admiral or "
            "Nano-computer aboard")
    play_from_hand(state, seat, action.card, action.name)
    target = state.ships[action.ship]
    target.extras.append(ROOKIE)
    target.extra_cards.append(action.card)


def rookie_time(state: GameState) -> bool:
    """Phases 2-5 of the seat's own turn (any time but mid-tile in the Advanced game)."""
    if state.discovery is not None or state.doom is not None:
        return False
    if state.variants.advanced:
        return not state.drawn
    return PLACE_PIECE <= state.phase <= 5


def rookie_carrier(state: GameState, seat: int):
    return next((s for _, s in sorted(state.ships.items()) if s.owner == seat and ROOKIE in s.extras), None)


def do_reassign(state: GameState, seat: int, action: Reassign) -> None:
    require(rookie_time(state), "Captain Rookie is reassigned after your tiles, outside a discovery")
    source = state.ships.get(action.source)
    require(source is not None and source.owner == seat and ROOKIE in source.extras,
            f"Captain Rookie is not aboard your s{action.source}")
    require(nothing_but_tiles(state), "reassigning Captain Rookie is the only action of the turn")
    require(action.target in rookie_targets(state, seat),
            "Captain Rookie goes to another player's ship: not a Shuttle, no Fleet Admiral or "
            "Nano-computer aboard")
    _evict_rookie(state, source, f"s{action.target}")
    state.only_action = "reassign"


# -- Laser Beam (SPEC §15.4) ----------------------------------------------------------------------
def laser_range(state: GameState, ship) -> list:
    return list(king_distances(state, ship.square, ship_allowance(ship)))


def laser_targets(state: GameState, ship) -> list[Fire]:
    seat, reach = ship.owner, laser_range(state, ship)
    out = [Fire(ship.id, "ship", index=sid) for sid, s in sorted(state.ships.items())
           if s.square in reach and is_opponent(state, seat, s.owner)]
    for p in state.players:
        if not is_opponent(state, seat, p.seat):
            continue
        out += [Fire(ship.id, "probe", sq, part) for sq, part in p.probes if sq in reach]
        out += [Fire(ship.id, "pirate", sq, seg) for sq, seg in p.pirates if sq in reach]
        out += [Fire(ship.id, "station", sq) for sq in p.stations if sq in reach]
    return out


def can_fire(state: GameState, ship) -> bool:
    return (LASER in ship.extras and ship.extra_cards[ship.extras.index(LASER)] not in state.fresh_extras
            and state.phase == MOVE and not state.moved and nothing_but_tiles(state))


def do_fire(state: GameState, seat: int, action: Fire) -> None:
    ship = state.ships.get(action.ship)
    require(ship is not None and ship.owner == seat, f"s{action.ship} is not one of your ships")
    require(LASER in ship.extras, f"s{ship.id} carries no Laser Beam")
    require(state.phase == MOVE and not state.moved, "a Laser Beam fires instead of the move")
    require(ship.extra_cards[ship.extras.index(LASER)] not in state.fresh_extras,
            "a Laser Beam fires from the turn after it was attached")
    require(nothing_but_tiles(state), "firing a Laser Beam is the only action of the turn")
    require(action in laser_targets(state, ship),
            "the target must be an opponent's ship, probe, pirate or station within the ship's M-number")
    state.moved, state.moved_ship, state.only_action = True, 0, "fire"
    if action.kind == "ship":
        doom_ships(state, [action.index], LASER)
        return
    owner = next(p.seat for p in state.players if is_opponent(state, seat, p.seat) and (
        (action.kind == "probe" and (action.square, action.index) in p.probes)
        or (action.kind == "pirate" and (action.square, action.index) in p.pirates)
        or (action.kind == "station" and action.square in p.stations)))
    if action.kind == "probe":
        destroy_probe(state, owner, (action.square, action.index))
    elif action.kind == "pirate":
        destroy_pirate(state, owner, (action.square, action.index))
    else:
        destroy_station(state, owner, action.square)
        doom_ships(state, [sid for sid, s in sorted(state.ships.items())
                           if s.square == action.square and is_opponent(state, seat, s.owner)], LASER)


# -- Photon Torpedo (SPEC §15.5) ------------------------------------------------------------------
def torpedo_targets(state: GameState, ship) -> list[Torpedo]:
    if TORPEDO not in ship.extras or state.phase != MOVE or state.moved:
        return []
    placed = state.board.tile_at(ship.square)
    if placed is None:
        return []
    here = [(ship.square, i) for i in range(len(placed.tile.planets))]
    return [Torpedo(ship.id, sq, seg) for p in state.players if is_opponent(state, ship.owner, p.seat)
            for sq, seg in p.pirates if any(end in here for end in state.board.path_planets(sq, seg))]


def do_torpedo(state: GameState, seat: int, action: Torpedo) -> None:
    ship = state.ships.get(action.ship)
    require(ship is not None and ship.owner == seat, f"s{action.ship} is not one of your ships")
    require(TORPEDO in ship.extras, f"s{ship.id} carries no Photon Torpedo")
    require(state.phase == MOVE and not state.moved, "a Photon Torpedo is fired in place of the move")
    require(action in torpedo_targets(state, ship),
            "the ship must stand on a planet at an end of the path of an opponent's pirate")
    owner = next(p.seat for p in state.players if (action.square, action.segment) in p.pirates)
    ends = state.board.path_planets(action.square, action.segment)
    complete = state.board.path_state(action.square, action.segment) == "complete"
    destroy_pirate(state, owner, (action.square, action.segment))
    state.moved, state.moved_ship = True, ship.id
    state.torpedo_ship = ship.id
    state.torpedo_to = sorted({sq for sq, _ in ends if complete and sq != ship.square
                               and can_end_at(state, ship, sq, may_discover=True)},
                              key=lambda s: (s[1], s[0]))


# -- Pirate Crew (SPEC §15.7) ---------------------------------------------------------------------
def after_move(state: GameState, ship) -> None:
    """A ship with a Pirate Crew ended a move: the seats it may take a card from."""
    if CREW not in ship.extras:
        state.plunder_from = []
        return
    state.plunder_from = sorted({s.owner for s in state.ships.values()
                                 if s.square == ship.square and is_opponent(state, ship.owner, s.owner)
                                 and state.players[s.owner].hand})


def can_plunder(state: GameState, seat: int) -> bool:
    return (bool(state.plunder_from) and state.discovery is None and state.doom is None
            and seat == state.active and (state.phase == MOVE or state.variants.advanced))


def do_plunder(state: GameState, seat: int, action: Plunder) -> None:
    """The victim's hand is reshuffled under fresh handles first (each card stays hidden), then
    the card at the named position goes to the taker; each side is dealt what it now holds."""
    require(can_plunder(state, seat), "a Pirate Crew takes a card right after its ship's move")
    require(action.seat in state.plunder_from, f"no ship of seat {action.seat} shares that tile")
    victim = state.players[action.seat]
    require(0 <= action.position < len(victim.hand), f"seat {action.seat} holds {len(victim.hand)} cards")
    take_blind(state, action.seat, action.position, seat)
    state.plunder_from = []


# -- Gavin's Raiders (role-play with Advanced Strategy, SPEC §15.8) -------------------------------
def gavin_second_move(state: GameState, seat: int) -> bool:
    """The role may move the same ship a second time when the turn held nothing but one move
    (and its discovery)."""
    return (state.variants.advanced and state.players[seat].role == GAVIN and state.moved
            and not state.torpedo_ship and state.turn_actions.count("move") == 1
            and all(v in MOVE_VERBS for v in state.turn_actions) and state.moved_ship in state.ships)


EXTRA_ACTIONS = {AttachExtra: do_attach_extra, PlayRookie: do_play_rookie, Reassign: do_reassign,
                 Fire: do_fire, Torpedo: do_torpedo, Plunder: do_plunder}
