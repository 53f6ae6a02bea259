"""Why the engine refused an action or offers only `next`, in a player's words (SPEC §31.5).

The engine gives a short reason; for a move and a draw, where its reason is the least
helpful, this reads the same public queries the engine uses (movement.destinations,
turn.can_draw) and says what stands in the way. It decides nothing: the engine already did.
"""
from __future__ import annotations

import re

from p2p_asv import actions as A
from p2p_asv.cards import CARD_BY_NAME
from p2p_asv.geometry import square_name
from p2p_asv.movement import destinations, king_distances, ship_allowance, undiscovered_planets
from p2p_asv.state import DISCARD, MOVE, PLACE_PIECE, REFILL, GameState
from p2p_asv.tiles import TILE_BY_ID
from p2p_asv.turn import hand_limit

FAR = 40  # more king steps than the board needs: the true distance for "N steps away"


def _squares(squares) -> str:
    names = [square_name(s) for s in squares]
    return ", ".join(names[:12]) + (f" and {len(names) - 12} more" if len(names) > 12 else "")


def move_refusal(state: GameState, seat: int, action: A.Move) -> str | None:
    """Why `move sN SQ` cannot end there, and where sN can go."""
    ship = state.ships.get(action.ship)
    if ship is None or ship.owner != seat:
        return None
    card = CARD_BY_NAME[ship.name]
    allowance = ship_allowance(ship)
    target = square_name(action.square)
    reach = destinations(state, ship, may_discover=True)
    steps = king_distances(state, ship.square, FAR).get(action.square)
    placed = state.board.tile_at(action.square)
    if action.square == ship.square:
        why = f"s{ship.id} is already on {target}"
    elif card.path_only:
        why = f"a {ship.name} moves only along complete space paths from a discovered planet"
    elif placed is not None and placed.tile.kind == "sun":
        why = f"{target} is a sun: no ship may enter it"
    elif steps is None:
        why = f"{target} cannot be reached: suns block every way there"
    elif steps > allowance:
        why = f"{target} is {steps} steps away and s{ship.id} ({ship.name}) moves {allowance}"
    elif placed is None:
        why = f"{target} is empty space: only scouts and flying saucers stop there"
    elif undiscovered_planets(state, action.square):
        why = f"{target}'s planet is undiscovered and you hold no planet card to discover it"
    else:
        why = f"{target} has no discovered planet and no station of yours to stop at"
    where = f"s{ship.id} can reach {_squares(reach)}" if reach else f"s{ship.id} has nowhere to go this turn"
    return f"{why}; {where}"


def draw_refusal(state: GameState, seat: int, action: A.DrawCard) -> str | None:
    player = state.players[seat]
    limit = hand_limit(state, seat)
    if state.phase == REFILL and len(player.hand) >= limit:
        return f"your hand is full ({len(player.hand)} of {limit} cards): next ends your turn"
    if state.phase == REFILL and action.deck == "port" and not state.decks["port"]:
        return "the Space Port is empty: draw refuel instead"
    return None


SIDE_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}
EDGE_WORDS = {"G": "galaxy", "D": "deep space", "P": "a space path", "S": "sun"}
MISMATCH = re.compile(r"([NESW]) side shows ([GDPS]) but tile (\S+) on (\S+) shows ([GDPS]) on its ([NESW]) side")


def _mismatch_words(m: re.Match) -> str:
    mine, tile, where, theirs, side = m.group(2), m.group(3), m.group(4), m.group(5), m.group(1)
    return (f"its {SIDE_WORDS[side]} side is {EDGE_WORDS[mine]} but {where} next to it ({tile}) "
            f"shows {EDGE_WORDS[theirs]} there")


def place_refusal(state: GameState, action: A.PlaceTile) -> str | None:
    """A placement's sides that do not match, in the words of `help place` and `help galaxy`
    (galaxy, deep space, space path), not the engine's side letters (SPEC §31.5)."""
    name = state.names.get(action.tile)
    tile = TILE_BY_ID.get(name) if name else None
    if tile is None:
        return None
    why = state.board.can_place(tile, action.square, action.rotation % 4)
    if why is None or not MISMATCH.search(why):
        return None
    parts = "; ".join(_mismatch_words(m) for m in MISMATCH.finditer(why))
    return (f"{name} turned r{action.rotation} does not fit on {square_name(action.square)}: {parts}. "
            "Touching sides must match: galaxy to galaxy, deep space to deep space, path to path "
            f"(look #{action.tile} shows its sides in each turn; legal place #{action.tile} where it fits)")


def explain(state: GameState, seat: int, action) -> str | None:
    """A better reason than the engine's for a refused action, or None to keep the engine's."""
    if isinstance(action, A.PlaceTile):
        return place_refusal(state, action)
    if isinstance(action, A.Move) and state.phase == MOVE and not state.moved:
        return move_refusal(state, seat, action)
    if isinstance(action, A.DrawCard):
        return draw_refusal(state, seat, action)
    return None


def only_next(state: GameState, seat: int) -> str:
    """Why `next` is the only thing to do in this phase."""
    player = state.players[seat]
    if state.phase == PLACE_PIECE:
        return ("no piece fits: you have no ship card to play or upgrade with, and no probe, "
                "station or pirate has room on a tile placed this turn (or you used your piece)")
    if state.phase == MOVE:
        if state.moved:
            return "you have moved this turn"
        if not state.ships_of(seat):
            return "you have no ship on the board"
        return "none of your ships can reach a place to stop (help move)"
    if state.phase == DISCARD:
        return "you have no card to discard"
    if state.phase == REFILL:
        limit = hand_limit(state, seat)
        if len(player.hand) >= limit:
            return f"your hand is full ({len(player.hand)} of {limit} cards)"
        return "both decks are empty"
    return "nothing else is allowed in this phase"


def next_guard(state: GameState, legal: list) -> tuple[str, str] | None:
    """(why, question) before `next` would skip a move or a draw still open (SPEC §31.5)."""
    if state.variants.advanced:
        return None
    texts = [a.text() for a in legal]
    if state.phase == MOVE and any(t.startswith("move ") for t in texts):
        ships = sorted({t.split()[1] for t in texts if t.startswith("move ")})
        return f"{', '.join(ships)} can still move.", "end the move phase without moving?"
    if state.phase == REFILL and any(t.startswith("draw ") for t in texts):
        hand = len(state.players[state.active].hand)
        return (f"you hold {hand} of {hand_limit(state, state.active)} cards and may still draw.",
                "end your turn without drawing?")
    return None
