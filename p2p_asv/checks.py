"""Small checks shared by the rule modules; each raises IllegalAction with the reason."""
from __future__ import annotations

from .cards import CARD_BY_NAME, Card
from .errors import IllegalAction, MalformedAction
from .state import GameState


def require(condition: bool, reason: str) -> None:
    if not condition:
        raise IllegalAction(reason)


def card_claim(state: GameState, seat: int, handle: int, name: str, *categories: str) -> Card:
    """A card the seat says it holds and plays: in its hand, a real card, of the right kind.

    The engine cannot see a hidden card; the protocol proves the claimed identity (SPEC §10.3).
    Where the identity is already public it must agree.
    """
    card = CARD_BY_NAME.get(name)
    if card is None:
        raise MalformedAction(f"no card named {name!r}")
    require(handle in state.players[seat].hand, f"card #{handle} is not in seat {seat}'s hand")
    known = state.names.get(handle)
    require(known is None or known == name, f"card #{handle} is {known!r}, not {name!r}")
    require(card.category in categories,
            f"{name} is a {card.category} card; this needs {' or '.join(categories)}")
    return card


def play_from_hand(state: GameState, seat: int, handle: int, name: str) -> None:
    """The card leaves the hand face up: its identity becomes public."""
    state.players[seat].hand.remove(handle)
    state.names[handle] = name
