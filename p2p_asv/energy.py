"""The Advanced Strategy variant (SPEC §13.5): seven energy points a turn, phases in any order,
each phase left behind closed for the rest of the turn."""
from __future__ import annotations

from . import actions as A
from .cards import ANY_TIME_EXTRAS, ENVIRONMENT, LIFE_FORM, PLANET
from .checks import require
from .state import DISCARD, MOVE, PLACE_PIECE, REFILL, TILES, GameState, Phase, Window

ENERGY_PER_TURN = 7
MAX_TILES = 3
TILE_COST = 2

# The one phase table of the Advanced Strategy game (SPEC §13.5): the phase an action belongs
# to. `apply` enters this phase before the action, and `legal_actions` lists an action only
# from its own phase's generator, evaluated as if the turn stood in that phase, so nothing
# listed is refused for standing in the wrong phase. Actions not named here (next, scoring,
# Captain Rookie, Special Action cards) belong to no phase and are listed in the phase the
# turn is in.
PHASE_OF = {A.DrawTile: TILES, A.PlaceTile: TILES, A.ScrapTile: TILES,
            A.NewShip: PLACE_PIECE, A.Upgrade: PLACE_PIECE, A.AttachExtra: PLACE_PIECE,
            A.PlaceProbe: PLACE_PIECE, A.PlaceStation: PLACE_PIECE, A.PlacePirate: PLACE_PIECE,
            A.Move: MOVE, A.Fire: MOVE, A.Torpedo: MOVE, A.Plunder: MOVE, A.PlayExplorer: MOVE,
            A.Discard: DISCARD,
            A.DrawCard: REFILL, A.Peek: REFILL, A.TakePeeked: REFILL,
            A.LookAutomata: REFILL, A.Keep: REFILL, A.Bank: REFILL, A.BankGive: REFILL}


def phase_of(action):
    """The phase `action` belongs to, None for none (the table above; an extra played "at any
    time" belongs to no phase, SPEC §5.7)."""
    if type(action) is A.AttachExtra and action.name in ANY_TIME_EXTRAS:
        return None
    return PHASE_OF.get(type(action))


# Roles whose cards of one category cost nothing (SPEC §13.5, with §13.3).
FREE_FOR_ROLE = {"Dr. Nevets Yahsel": PLANET, "Giant Meema": LIFE_FORM, "The Kaygus": ENVIRONMENT}


def advanced(state: GameState) -> bool:
    return state.variants.advanced


def card_cost(state: GameState, seat: int, category: str) -> int:
    return 0 if FREE_FOR_ROLE.get(state.players[seat].role or "") == category else 1


def cost(state: GameState, seat: int, action) -> int:
    """Energy the action costs `seat` (only the active seat pays; cards played into another
    seat's discovery are free)."""
    if not advanced(state) or seat != state.active:
        return 0
    match action:
        case A.DrawTile():
            return TILE_COST
        case A.Move():  # the restricted move after a Photon Torpedo was paid with it (SPEC §15.5)
            return 0 if state.torpedo_ship else 1
        case A.NewShip() | A.Upgrade() | A.AttachExtra() | A.PlaceProbe() | A.PlaceStation() \
                | A.PlacePirate() | A.DrawCard() | A.TakePeeked() | A.Fire() | A.Torpedo() \
                | A.Plunder() | A.PlayRookie() | A.Reassign():
            return 1
        case A.Keep(cards=cards):
            return len(cards)                  # each card kept is a card drawn
        case A.Bank():
            return 1
        case A.Discover() | A.BinaryDiscover():
            return card_cost(state, seat, PLANET)
        case A.PlayEnvironment():
            return card_cost(state, seat, ENVIRONMENT)
        case A.PlayLifeForms(cards=cards):
            return card_cost(state, seat, LIFE_FORM) * len(cards)
        case A.PlayExplorer():
            return 1
        case A.PlaySpecial(name=name):
            return special_cost(state, seat, name)
    return 0


def special_cost(state: GameState, seat: int, name: str) -> int:
    """SPEC §14.7: 1 energy, except a response to a card, Shift of Funds, Sneak Attack and
    Cyber Jump, and every card for Lord DeWar."""
    if name in ("Shift of Funds", "Sneak Attack", "Cyber Jump") or state.players[seat].role == "Lord DeWar":
        return 0
    return 0 if state.polls and state.polls[-1].kind == Window.RESPOND else 1


def start_turn(state: GameState) -> None:
    state.energy = ENERGY_PER_TURN
    state.closed_phases = []
    state.phase_used = False
    state.tiles_owed = MAX_TILES


def phase_open(state: GameState, phase: Phase) -> bool:
    return phase not in state.closed_phases and (phase == TILES or not state.drawn)


def switch_phase(state: GameState, phase: Phase) -> None:
    """Enter `phase` for the next action; the phase left behind closes if anything was done
    in it. The caller restores the three fields if the action is then refused."""
    require(phase not in state.closed_phases, "that phase is over for this turn (SPEC §13.5)")
    require(phase == TILES or not state.drawn, "place the tile you drew first")
    if state.phase != phase:
        if state.phase_used:
            state.closed_phases.append(state.phase)
        state.phase = phase
        state.phase_used = False


def refund_tile(state: GameState) -> None:
    """A sun or quest tile, or a tile with no legal place, costs nothing (SPEC §13.5)."""
    if advanced(state):
        state.energy += TILE_COST


def can_afford_discovery(state: GameState, seat: int) -> bool:
    """Moving onto an undiscovered planet commits to its planet card: both must be paid."""
    return not advanced(state) or state.energy >= 1 + card_cost(state, seat, PLANET)
