"""Trading and selling between players (SPEC §55): an offer by the player whose turn it is,
then the other's answer. A half-made trade changes nothing but the pending offer."""
from __future__ import annotations

from .actions import Offer
from .deeds import DEEDS
from .errors import require
from .state import MAX_OFFERS_PER_TURN, State


def check_offer(state: State, seat: int, offer: Offer) -> None:
    require(state.offers_made < MAX_OFFERS_PER_TURN, f"at most {MAX_OFFERS_PER_TURN} offers a turn")
    require(0 <= offer.to < state.players and offer.to != seat, f"seat {offer.to} is not an opponent")
    require(state.alive[offer.to], f"seat {offer.to} is out of the game")
    check_holdings(state, seat, offer)


def check_holdings(state: State, seat: int, offer: Offer) -> None:
    """Both sides hold what the offer names, now."""
    for d in offer.give:
        require(state.owner[d] == seat, f"you do not own {DEEDS[d].name}")
    for d in offer.get:
        require(state.owner[d] == offer.to, f"seat {offer.to} does not own {DEEDS[d].name}")
    require(offer.give_cash <= state.cash[seat], f"you have only ${state.cash[seat]}")
    require(offer.get_cash <= state.cash[offer.to], f"seat {offer.to} has only ${state.cash[offer.to]}")


def make_offer(state: State, seat: int, offer: Offer) -> None:
    state.offer = (seat, offer)
    state.offers_made += 1


def accept(state: State) -> None:
    seat, offer = state.offer
    check_holdings(state, seat, offer)
    for d in offer.give:
        state.owner[d] = offer.to
    for d in offer.get:
        state.owner[d] = seat
    state.cash[seat] += offer.get_cash - offer.give_cash
    state.cash[offer.to] += offer.give_cash - offer.get_cash
    state.offer = None


def face_value_offers(state: State, seat: int) -> list[Offer]:
    """The offers `legal_actions` lists (SPEC §55.2): one deed sold to, or bought from, each
    opponent at its face value, when the buyer can pay. `apply` accepts any other offer too."""
    if state.offers_made >= MAX_OFFERS_PER_TURN:
        return []
    found = []
    for other in state.alive_seats():
        if other == seat:
            continue
        for d, owner in enumerate(state.owner):
            price = DEEDS[d].price
            if owner == seat and state.cash[other] >= price:
                found.append(Offer(other, (d,), 0, (), price))
            elif owner == other and state.cash[seat] >= price:
                found.append(Offer(other, (), price, (d,), 0))
    return found
