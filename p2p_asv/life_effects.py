"""The continuing effects of Automata and City of Banks (SPEC §8.10), used in phase 5."""
from __future__ import annotations

from .actions import Bank, BankGive, Keep, LookAutomata
from .blind_take import deal_hidden, take_blind
from .checks import require
from .state import REFILL, ChanceRequest, GameState
from .turn import hand_limit
from .variants import may_exchange

AUTOMATA, CITY_OF_BANKS = "Automata", "City of Banks"
AUTOMATA_LOOK = 4


def _owns(state: GameState, seat: int, card: str) -> bool:
    return card in state.players[seat].continuing


def can_look_automata(state: GameState, seat: int) -> bool:
    return (state.phase == REFILL and _owns(state, seat, AUTOMATA) and not state.automata_used
            and bool(state.decks["port"]) and len(state.players[seat].hand) < hand_limit(state, seat)
            and (not state.variants.advanced or state.energy >= 1))  # a card kept costs 1 (SPEC §8.10)


def do_look_automata(state: GameState, seat: int, action: LookAutomata) -> None:
    """Automata: see the top four Space Port cards (dealt to this seat alone), once a turn."""
    require(state.phase == REFILL, "Automata are used in phase 5")
    require(_owns(state, seat, AUTOMATA), "you have no Automata")
    require(not state.automata_used, "the Automata work once a turn")
    require(can_look_automata(state, seat),
            "your hand is full, the Space Port is empty or no energy is left to keep a card")
    seen = tuple(state.decks["port"][:AUTOMATA_LOOK])
    state.automata_used = True
    state.automata_seen = list(seen)
    state.pending.append(ChanceRequest("deal", "port", seen, seat=seat))


def keep_limit(state: GameState, seat: int) -> int:
    return min(2, hand_limit(state, seat) - len(state.players[seat].hand), len(state.automata_seen))


def do_keep(state: GameState, seat: int, action: Keep) -> None:
    """Keep one or two of the cards seen; the others go under the Space Port deck in order."""
    require(bool(state.automata_seen), "no Automata cards are waiting to be chosen")
    require(len(set(action.cards)) == len(action.cards), "a card is named twice")
    require(1 <= len(action.cards) <= max(1, keep_limit(state, seat)),
            "keep one or two of the cards the Automata showed (within your hand limit)")
    require(all(h in state.automata_seen for h in action.cards), "keep only cards the Automata showed")
    port = state.decks["port"]
    for h in state.automata_seen:
        port.remove(h)
    state.players[seat].hand.extend(action.cards)
    port.extend(h for h in state.automata_seen if h not in action.cards)
    state.automata_seen = []


def can_bank(state: GameState, seat: int) -> bool:
    return (state.phase == REFILL and _owns(state, seat, CITY_OF_BANKS) and not state.bank_used
            and bool(bank_sources(state, seat)))


def bank_sources(state: GameState, seat: int) -> list[int]:
    """The seats City of Banks may take from: any other seat holding cards but a partner (SPEC §13.4)."""
    return [p.seat for p in state.players if may_exchange(state.variants, seat, p.seat) and p.hand]


def do_bank(state: GameState, seat: int, action: Bank) -> None:
    """City of Banks, first half: the card at a position of another seat's reshuffled hand goes
    to the banker, blind (SPEC §8.10); a card must then be given back (`give`)."""
    require(state.phase == REFILL, "City of Banks works in phase 5")
    require(_owns(state, seat, CITY_OF_BANKS), "you have no City of Banks")
    require(not state.bank_used, "City of Banks works once a turn")
    require(0 <= action.seat < len(state.players) and action.seat != seat,
            "City of Banks takes from another player's hand")
    require(may_exchange(state.variants, seat, action.seat), "partners cannot exchange cards (SPEC §13.4)")
    held = len(state.players[action.seat].hand)
    require(0 <= action.position < held, f"seat {action.seat} holds {held} cards")
    take_blind(state, action.seat, action.position, seat)
    state.bank_used = True
    state.bank_owed = action.seat


def do_bank_give(state: GameState, seat: int, action: BankGive) -> None:
    """City of Banks, second half: any card of the banker's hand, the one just taken included,
    goes to the seat it took from, dealt to that seat alone."""
    require(action.card in state.players[seat].hand, f"#{action.card} is not in your hand")
    holder, state.bank_owed = state.bank_owed, None
    state.players[seat].hand.remove(action.card)
    state.players[holder].hand.append(action.card)
    deal_hidden(state, "hand", (action.card,), holder)
