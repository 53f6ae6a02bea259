"""Phases 1, 2, 4 and 5 of a turn and the turn's start and end (SPEC §6)."""
from __future__ import annotations

from .actions import (Discard, DrawCard, DrawTile, NewShip, Peek, PlaceProbe, PlacePirate,
                      PlaceStation, PlaceTile, ScoreStation, ScrapTile, TakePeeked, Upgrade)
from .cards import CARD_BY_NAME, SPACE_SHIP, STARTING_SHIP
from .checks import card_claim, play_from_hand, require
from . import energy
from .endgame import finish_game
from .state import DISCARD, PLACE_PIECE, REFILL, TILES, ChanceRequest, GameState, Phase, Ship
from .tiles import QUEST_TILE_ID, TILE_BY_ID

PIECE_LIMIT = 2          # SPEC §6.2: two of each piece in play
BIG_SHIP = 2             # SPEC §6.2: at most one ship above M+2
HAND_LIMIT, RUINS_HAND_LIMIT = 10, 12


def start_turn(state: GameState, seat: int) -> None:
    state.active = seat
    state.turn += 1
    state.phase = TILES
    state.tiles_owed = state.tiles_per_turn
    state.drawn = []
    state.placed_this_turn = []
    state.piece_placed = False
    state.moved = False
    state.moved_ship = 0
    state.peeked = []
    state.peek_used = False
    state.automata_seen, state.automata_used, state.bank_used = [], False, False
    state.turn_actions, state.only_action, state.fresh_extras = [], None, []
    state.torpedo_ship, state.torpedo_to, state.plunder_from = 0, [], []
    state.specials_used, state.sneak, state.busy = [], False, False
    state.meteor = [m for m in state.meteor if m[2] != seat]  # SPEC §14.6: frozen until then
    if state.variants.advanced:
        energy.start_turn(state)


def end_turn(state: GameState) -> None:
    """SPEC §9.1: the game ends when the turn in which the last tile was drawn is over."""
    if state.tiles_left() == 0:
        finish_game(state)
        return
    seat = (state.active + 1) % len(state.players)
    while seat in state.skips:      # SPEC §14.6 Shift of Funds: that seat misses this turn
        state.skips.remove(seat)
        seat = (seat + 1) % len(state.players)
    start_turn(state, seat)


def advance(state: GameState) -> None:
    """Next: leave the current phase (SPEC §6.1); in the Advanced Strategy game, end the turn."""
    if state.phase == REFILL or state.variants.advanced:
        end_turn(state)
    else:
        state.phase = Phase(state.phase + 1)


# -- phase 1: tiles (SPEC §6.1) ---------------------------------------------------------------
def tiles_to_draw(state: GameState) -> bool:
    return state.tiles_owed > 0 and state.tiles_left() > 0


def do_draw_tile(state: GameState, seat: int, action: DrawTile) -> None:
    require(state.phase == TILES, "tiles are drawn in phase 1 only")
    require(tiles_to_draw(state), "no more tiles to draw this turn")
    require(not (state.variants.advanced and state.drawn), "place the tile you drew first")
    require(0 <= action.pile < len(state.piles) and state.piles[action.pile],
            f"pile {action.pile + 1} is empty or does not exist")
    handle = state.piles[action.pile].pop(0)
    state.tiles_owed -= 1
    state.drawn.append(handle)
    state.pending.append(ChanceRequest("reveal", "tiles", (handle,)))


def after_tile_revealed(state: GameState, handle: int) -> None:
    """SPEC §6.1: a sun or quest tile earns another draw; a quest tile leaves the board's way
    and its drawer is dealt a hidden quest."""
    kind = TILE_BY_ID[state.names[handle]].kind
    if kind == "sun":
        state.tiles_owed += 1
        energy.refund_tile(state)
    elif state.names[handle] == QUEST_TILE_ID:
        state.tiles_owed += 1
        energy.refund_tile(state)
        state.drawn.remove(handle)
        if state.decks["quests"]:
            quest = state.decks["quests"].pop(0)
            state.players[state.active].quests.append(quest)
            state.pending.append(ChanceRequest("deal", "quests", (quest,), seat=state.active))
    _tiles_done(state)  # the piles may have run out with nothing left to place


def _drawn_tile(state: GameState, handle: int):
    require(state.phase == TILES, "tiles are placed in phase 1 only")
    require(state.variants.advanced or not tiles_to_draw(state),
            "draw all of this turn's tiles before placing")
    require(handle in state.drawn, f"tile #{handle} is not waiting to be placed")
    return TILE_BY_ID[state.names[handle]]


def _tiles_done(state: GameState) -> None:
    if not state.drawn and not tiles_to_draw(state) and not state.variants.advanced:
        state.phase = PLACE_PIECE


def do_place_tile(state: GameState, seat: int, action: PlaceTile) -> None:
    tile = _drawn_tile(state, action.tile)
    reason = state.board.can_place(tile, action.square, action.rotation)
    require(reason is None, f"cannot place {tile.id} there: {reason}")
    report = state.board.place(tile, action.square, action.rotation)
    state.drawn.remove(action.tile)
    state.placed_this_turn.append(action.square)
    player = state.players[seat]
    if tile.kind == "sun":  # SPEC §6.1: suns score 1, 2, 3, 4 in the order played
        state.suns_drawn += 1
        player.gain(state.suns_drawn, "suns")
    score_completed_galaxies(state, report.completed_galaxies)
    remove_ruined_pirates(state, report.ruined_paths)
    _tiles_done(state)


def do_scrap_tile(state: GameState, seat: int, action: ScrapTile) -> None:
    tile = _drawn_tile(state, action.tile)
    require(not state.board.legal_placements(tile), f"{tile.id} has a legal place; it cannot be scrapped")
    state.drawn.remove(action.tile)
    state.tiles_owed += 1  # SPEC §6.1: a tile with no place leaves the game and is replaced
    energy.refund_tile(state)
    _tiles_done(state)


def score_completed_galaxies(state: GameState, galaxies) -> None:
    """SPEC §8.3: the most probes in a completed galaxy score 2 a tile (a two-tile galaxy 2);
    every probe in it then returns to its owner."""
    for sq, part in galaxies:
        key = state.board.galaxy_key(sq, part)
        counts = [sum(1 for psq, ppart in p.probes if state.board.galaxy_key(psq, ppart) == key)
                  for p in state.players]
        best = max(counts)
        tiles = len(state.board.galaxy_squares(sq, part))
        points = 2 if tiles == 2 else 2 * tiles
        for p, n in zip(state.players, counts):
            if best and n == best:
                p.gain(points, "galaxies")
            p.probes = [pr for pr in p.probes if state.board.galaxy_key(*pr) != key]


def remove_ruined_pirates(state: GameState, paths) -> None:
    """SPEC §8.5: a pirate whose path is ruined goes back to its owner at once, unscored."""
    keys = {state.board.path_key(sq, seg) for sq, seg in paths}
    for p in state.players:
        p.pirates = [pr for pr in p.pirates if state.board.path_key(*pr) not in keys]


# -- phase 2: one piece (SPEC §6.2) -------------------------------------------------------------
def _piece_phase(state: GameState) -> None:
    require(state.phase == PLACE_PIECE, "pieces are placed in phase 2 only")
    require(not state.piece_placed, "only one piece may be placed per turn")


def _big_ships(state: GameState, seat: int, skip: int | None = None) -> int:
    return sum(1 for s in state.ships_of(seat)
               if s.id != skip and CARD_BY_NAME[s.name].movement > BIG_SHIP)


def second_star_t(state: GameState, seat: int, name: str, skip: int | None = None) -> bool:
    """SPEC §6.2: a seat has one Star-T piece, so a Star-T card is refused while another of
    its ships (other than `skip`, the one being upgraded) is a Star-T."""
    return name == STARTING_SHIP and any(s.name == STARTING_SHIP and s.id != skip
                                         for s in state.ships_of(seat))


def home_squares(state: GameState, seat: int) -> list:
    return sorted({sq for (sq, _), r in state.planets.items() if r.owner == seat and r.home},
                  key=lambda s: (s[1], s[0]))


def do_new_ship(state: GameState, seat: int, action: NewShip) -> None:
    _piece_phase(state)
    card = card_claim(state, seat, action.card, action.name, SPACE_SHIP)
    require(card.movement is not None, f"{action.name} is a ship extra, not a ship")
    require(len(state.ships_of(seat)) < PIECE_LIMIT, "you already have two ships in play")
    require(card.movement <= BIG_SHIP or _big_ships(state, seat) == 0,
            "only one ship above M+2 may be in play")
    require(not second_star_t(state, seat, action.name), "you have one Star-T piece and it is in play")
    require(action.square in home_squares(state, seat), "a new ship starts on one of your home planets")
    play_from_hand(state, seat, action.card, action.name)
    state.ships[state.next_ship] = Ship(state.next_ship, seat, action.card, action.name, action.square)
    state.next_ship += 1
    state.piece_placed = True


def _own_ship(state: GameState, seat: int, ship_id: int):
    ship = state.ships.get(ship_id)
    require(ship is not None and ship.owner == seat, f"s{ship_id} is not one of your ships")
    return ship


def do_upgrade(state: GameState, seat: int, action: Upgrade) -> None:
    _piece_phase(state)
    ship = _own_ship(state, seat, action.ship)
    card = card_claim(state, seat, action.card, action.name, SPACE_SHIP)
    require(card.movement is not None, f"{action.name} is a ship extra, not a ship")
    require(card.movement > CARD_BY_NAME[ship.name].movement, "an upgrade needs a higher M-number")
    require(card.movement <= BIG_SHIP or _big_ships(state, seat, skip=ship.id) == 0,
            "only one ship above M+2 may be in play")
    require(all(action.name in CARD_BY_NAME[e].fits for e in ship.extras),
            f"this ship's extras do not fit a {action.name}")
    require(not second_star_t(state, seat, action.name, skip=ship.id),
            "you have one Star-T piece and it is in play")
    play_from_hand(state, seat, action.card, action.name)
    state.players[seat].pile.append(ship.name)  # SPEC §6.2: the old card stays under the new one
    ship.card, ship.name = action.card, action.name
    state.piece_placed = True


def _just_placed(state: GameState, sq) -> object:
    require(sq in state.placed_this_turn, "pieces go on a tile placed this turn")
    return state.board.tile_at(sq).tile


def do_place_probe(state: GameState, seat: int, action: PlaceProbe) -> None:
    _piece_phase(state)
    tile = _just_placed(state, action.square)
    require(0 <= action.part < len(tile.galaxies), "no such galaxy part on that tile")
    require(len(state.players[seat].probes) < PIECE_LIMIT, "you already have two probes in play")
    require(not state.board.galaxy_complete(action.square, action.part), "that galaxy is already complete")
    state.players[seat].probes.append((action.square, action.part))
    state.piece_placed = True


def station_at(state: GameState, sq) -> bool:
    return any(sq in p.stations for p in state.players)


def do_place_station(state: GameState, seat: int, action: PlaceStation) -> None:
    _piece_phase(state)
    tile = _just_placed(state, action.square)
    require(tile.kind != "sun", "a station cannot go on a sun")
    require(not station_at(state, action.square), "that tile already holds a station")
    require(len(state.players[seat].stations) < PIECE_LIMIT, "you already have two stations in play")
    state.players[seat].stations.append(action.square)
    state.piece_placed = True


def pirate_on_path(state: GameState, sq, seg) -> bool:
    key = state.board.path_key(sq, seg)
    return any(state.board.path_key(*pr) == key for p in state.players for pr in p.pirates)


def opponent_planet_next_to(state: GameState, seat: int, sq, seg) -> bool:
    """SPEC §6.2: the tiles the pirate's path segment runs into may hold an undiscovered
    planet, the placer's own planet or more path; not another seat's planet."""
    for node in state.board.joined_segments(sq, seg):
        end = state.board.segment_planet(*node)
        record = state.planets.get(end) if end is not None else None
        if record is not None and record.owner != seat:
            return True
    return False


def do_place_pirate(state: GameState, seat: int, action: PlacePirate) -> None:
    _piece_phase(state)
    tile = _just_placed(state, action.square)
    require(not tile.planets, "pirates go on tiles without a planet")
    require(0 <= action.segment < len(tile.paths), "no such path on that tile")
    require(state.board.path_state(action.square, action.segment) != "ruined", "that path is ruined")
    require(not pirate_on_path(state, action.square, action.segment), "that path already has a pirate")
    require(not opponent_planet_next_to(state, seat, action.square, action.segment),
            "a pirate's tile may not connect to another player's planet")
    require(len(state.players[seat].pirates) < PIECE_LIMIT, "you already have two pirates in play")
    state.players[seat].pirates.append((action.square, action.segment))
    state.piece_placed = True


def do_score_station(state: GameState, seat: int, action: ScoreStation) -> None:
    require(free_scoring_now(state), "stations are scored after the tiles are placed")
    require(action.square in state.players[seat].stations, "you have no station there")
    require(state.board.surrounded(action.square), "a station scores mid-game only when surrounded")
    state.players[seat].gain(state.board.station_value(action.square), "stations")
    state.players[seat].stations.remove(action.square)


# -- phase 4: discard (SPEC §6.4) ---------------------------------------------------------------
def do_discard(state: GameState, seat: int, action: Discard) -> None:
    require(state.phase == DISCARD, "cards are discarded in phase 4")
    player = state.players[seat]
    many = "Alien Artifact" in player.continuing
    require(len(action.cards) == 1 or (many and len(action.cards) >= 1),
            "discard exactly one card (any number with Alien Artifact)")
    require(len(set(action.cards)) == len(action.cards), "a card is named twice")
    for h in action.cards:
        require(h in player.hand, f"card #{h} is not in your hand")
    for h in action.cards:
        player.hand.remove(h)
        state.decks["junk"].append(h)
    if state.variants.advanced:
        state.closed_phases.append(DISCARD)  # one discard a turn (SPEC §13.5)
    else:
        state.phase = REFILL


# -- phase 5: refill (SPEC §6.5) ----------------------------------------------------------------
def free_scoring_now(state: GameState) -> bool:
    """SPEC §6.6: stations and quests score after the tiles (any time but mid-tile, §13.5)."""
    if state.variants.advanced:
        return not state.drawn
    return PLACE_PIECE <= state.phase <= REFILL


def hand_limit(state: GameState, seat: int) -> int:
    return RUINS_HAND_LIMIT if "Alien Ruins" in state.players[seat].continuing else HAND_LIMIT


def can_draw(state: GameState, seat: int, deck: str) -> bool:
    if len(state.players[seat].hand) >= hand_limit(state, seat):
        return False
    if deck == "port":
        return bool(state.decks["port"])
    return bool(state.decks["refuel"] or state.decks["junk"])


def do_draw_card(state: GameState, seat: int, action: DrawCard) -> None:
    require(state.phase == REFILL, "cards are drawn in phase 5")
    require(can_draw(state, seat, action.deck), f"cannot draw from {action.deck} now")
    if action.deck == "refuel" and not state.decks["refuel"]:
        # SPEC §6.5: Space Junk is shuffled into a new Refuel deck under fresh handles.
        source = tuple(state.decks["junk"])
        fresh = list(range(state.next_handle, state.next_handle + len(source)))
        state.next_handle += len(source)
        state.decks["junk"] = []
        state.decks["refuel"] = fresh
        state.pending.append(ChanceRequest("shuffle", "refuel", tuple(fresh), source=source))
    handle = state.decks[action.deck].pop(0)
    state.players[seat].hand.append(handle)
    state.pending.append(ChanceRequest("deal", action.deck, (handle,), seat=seat))


SEER = "Madam Maxine"


def can_peek(state: GameState, seat: int) -> bool:
    return (state.phase == REFILL and state.players[seat].role == SEER and not state.peek_used
            and len(state.players[seat].hand) < hand_limit(state, seat)
            and bool(state.decks["refuel"] or state.decks["port"]))


def do_peek(state: GameState, seat: int, action: Peek) -> None:
    """SPEC §13.3: Madam Maxine sees the top two cards of Refuel and of Space Port, once a turn."""
    require(state.phase == REFILL, "Madam Maxine looks ahead in phase 5")
    require(state.players[seat].role == SEER, "only Madam Maxine may look ahead")
    require(not state.peek_used, "Madam Maxine looks ahead once a turn")
    require(can_peek(state, seat), "your hand is full or both decks are empty")
    handles = tuple(state.decks["refuel"][:2] + state.decks["port"][:2])
    state.peek_used = True
    state.peeked = list(handles)
    state.pending.append(ChanceRequest("deal", "peek", handles, seat=seat))


def peeked_in_deck(state: GameState, handle: int) -> str | None:
    for deck in ("refuel", "port"):
        if handle in state.decks[deck]:
            return deck
    return None


def do_take_peeked(state: GameState, seat: int, action: TakePeeked) -> None:
    require(state.phase == REFILL and action.card in state.peeked, f"#{action.card} was not seen this turn")
    deck = peeked_in_deck(state, action.card)
    require(deck is not None, f"#{action.card} has left its deck")
    require(len(state.players[seat].hand) < hand_limit(state, seat), "your hand is full")
    state.decks[deck].remove(action.card)
    state.players[seat].hand.append(action.card)
    state.peeked = []  # one card only; the others stay where they were, unseen by the rest


PHASE_ACTIONS = {DrawTile: do_draw_tile, PlaceTile: do_place_tile, ScrapTile: do_scrap_tile,
                 NewShip: do_new_ship, Upgrade: do_upgrade,
                 PlaceProbe: do_place_probe, PlaceStation: do_place_station,
                 PlacePirate: do_place_pirate, ScoreStation: do_score_station,
                 Discard: do_discard, DrawCard: do_draw_card, Peek: do_peek,
                 TakePeeked: do_take_peeked}
