"""A new game (SPEC §6.0): start tiles, pieces, handles for every deck, and the opening chance requests."""
from __future__ import annotations

from .board import Board
from .cards import CARD_BY_NAME, EXPLORER, REFUEL_DECK, SPACE_PORT_DECK, STARTING_SHIP
from .geometry import HOME_SQUARE, seat_colours
from .quests import QUEST_DECK
from .state import ChanceRequest, GameState, PlanetRecord, Player, Ship
from .tiles import SPACE_TILES, START_LAYOUT, TILE_BY_ID
from .variants import Variants

HAND_SIZE = 10
PILE_COUNT = 4


def tiles_per_turn(players: int) -> int:
    """SPEC §6.1: three tiles a turn for one or two players, two for three or four."""
    return 3 if players <= 2 else 2


def _allocate(state: GameState, count: int) -> list[int]:
    handles = list(range(state.next_handle, state.next_handle + count))
    state.next_handle += count
    return handles


def _split_piles(handles: list[int]) -> list[list[int]]:
    """SPEC §6.0: the shuffled tile deck cut into four piles as even as possible (20, 20, 20, 19)."""
    piles, start = [], 0
    for i in range(PILE_COUNT):
        size = len(handles) // PILE_COUNT + (1 if i < len(handles) % PILE_COUNT else 0)
        piles.append(handles[start:start + size])
        start += size
    return piles


def port_contents(players: int, variants: Variants | None = None) -> tuple[str, ...]:
    """The Space Port deck once each seat has taken its starting Star-T Ship card (and, with
    the captain_rookie option, without Captain Rookie, who is dealt among the roles)."""
    contents = list(SPACE_PORT_DECK)
    for _ in range(players):
        contents.remove(STARTING_SHIP)
    if variants is not None and variants.captain_rookie:
        contents.remove(ROOKIE_ROLE)
    return tuple(contents)


def refuel_contents(variants: Variants) -> tuple[str, ...]:
    """The Refuel deck; in the role-play variant the explorers are dealt as roles instead."""
    if not variants.role_play:
        return REFUEL_DECK
    return tuple(n for n in REFUEL_DECK if CARD_BY_NAME[n].category != EXPLORER)


ROLES = tuple(n for n in REFUEL_DECK if CARD_BY_NAME[n].category == EXPLORER)
ROOKIE_ROLE = "Captain Rookie"   # SPEC §15.6: an optional unlucky role


def role_cards(variants: Variants) -> tuple[str, ...]:
    return ROLES + ((ROOKIE_ROLE,) if variants.captain_rookie else ())


def new_game(players: int, config: dict | None = None) -> GameState:
    """A new game; `config` holds the variant options (SPEC §13), {} for the basic game."""
    if not 1 <= players <= 4:
        raise ValueError(f"Amazing Space Venture seats 1 to 4 players, not {players}")
    variants = Variants.from_config(config)
    variants.check_players(players)
    board = Board()
    for tile_id, square, rotation in START_LAYOUT:
        board.place(TILE_BY_ID[tile_id], square, rotation, setup=True)
    colours = seat_colours(players)
    state = GameState(players=[Player(seat, colour) for seat, colour in enumerate(colours)],
                      board=board, piles=[], decks={}, names={}, next_handle=0,
                      tiles_per_turn=variants.tiles_per_turn or tiles_per_turn(players),
                      variants=variants)
    tile_handles = _allocate(state, len(SPACE_TILES))
    state.piles = _split_piles(tile_handles)
    port = port_contents(players, variants)
    refuel = refuel_contents(variants)
    state.decks = {"refuel": _allocate(state, len(refuel)), "port": _allocate(state, len(port)),
                   "junk": [], "quests": _allocate(state, len(QUEST_DECK))}
    state.pending = [
        ChanceRequest("shuffle", "tiles", tuple(tile_handles), contents=SPACE_TILES),
        ChanceRequest("shuffle", "refuel", tuple(state.decks["refuel"]), contents=refuel),
        ChanceRequest("shuffle", "port", tuple(state.decks["port"]), contents=port),
        ChanceRequest("shuffle", "quests", tuple(state.decks["quests"]), contents=QUEST_DECK),
    ]
    for player in state.players:
        home = HOME_SQUARE[player.colour]
        state.planets[(home, 0)] = PlanetRecord(owner=player.seat, home=True)
        # SPEC §6.0: the starting Star-T card lies face up, so its identity is public.
        card = _allocate(state, 1)[0]
        state.names[card] = STARTING_SHIP
        state.ships[state.next_ship] = Ship(state.next_ship, player.seat, card, STARTING_SHIP, home)
        state.next_ship += 1
    if variants.role_play:  # SPEC §13.3: one explorer each, face up; the rest out of play
        cards = role_cards(variants)
        roles = _allocate(state, len(cards))
        state.pending.append(ChanceRequest("shuffle", "roles", tuple(roles), contents=cards))
        state.pending.append(ChanceRequest("reveal", "roles", tuple(roles[:players])))
    for player in state.players:
        hand = state.decks["refuel"][:HAND_SIZE]
        del state.decks["refuel"][:HAND_SIZE]
        player.hand.extend(hand)
        state.pending.append(ChanceRequest("deal", "refuel", tuple(hand), seat=player.seat))
    return state
