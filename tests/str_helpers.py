"""Build Space Trading Race positions by hand for tests (SPEC Part IV)."""
from __future__ import annotations

from space_trading_race import CHANCE, LocalDealer, PlayerView, apply, new_game
from space_trading_race.actions import ROLL, ChanceDice
from space_trading_race.deeds import DEED_BY_SLUG
from space_trading_race.state import State


def started(players: int = 2, seed: int | str = 0, config: dict | None = None):
    """A game past setup (missions shuffled and dealt): seat 0 to roll. Returns state, views, dealer."""
    state = new_game(players, config)
    views = [PlayerView(s) for s in range(players)]
    dealer = LocalDealer(seed)
    while state.pending:
        apply(state, CHANCE, dealer.outcome(state, views))
    return state, views, dealer


def deed(slug: str) -> int:
    return DEED_BY_SLUG[slug].index


def give(state: State, seat: int, *slugs: str) -> None:
    for slug in slugs:
        state.owner[deed(slug)] = seat


def roll(state: State, a: int, b: int) -> None:
    """The seat due rolls and the dice show a and b."""
    apply(state, state.seat, ROLL)
    apply(state, CHANCE, ChanceDice(a, b))


def dice(state: State, a: int, b: int) -> None:
    apply(state, CHANCE, ChanceDice(a, b))


def set_mission(state: State, views, seat: int, slug: str) -> int:
    """Teach `seat`'s view that its mission card is `slug` (the dealer's secret, for tests)."""
    handle = state.hand[seat]
    views[seat].known[handle] = slug
    return handle
