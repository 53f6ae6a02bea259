"""Whole games in one process with the local dealer and bots (SPEC §12.2)."""
from __future__ import annotations

from .bots import make_bot
from .cards import CARD_BY_NAME, SPECIAL_ACTION
from .dealer import LocalDealer
from .endgame import result
from .engine import apply, to_move
from .setup import new_game
from .state import CHANCE, GameState
from .view import PlayerView


def play_game(players: int, seed: int, bots: list[str] | None = None, on_event=None,
              config: dict | None = None, bot_options: dict | None = None) -> tuple[GameState, dict]:
    """Play one game to the end. `on_event(state, seat, action)` is called after each event;
    `config` picks variants (SPEC §13); `bot_options` is the search bot's budget (SPEC §12.3)."""
    kinds = bots or ["greedy"] * players
    agents = [make_bot(kind, f"{seed}/{seat}", **(bot_options or {})) for seat, kind in enumerate(kinds)]
    state = new_game(players, config)
    dealer = LocalDealer(seed)
    views = [PlayerView(seat) for seat in range(players)]
    events = 0
    played: dict[str, int] = {}
    while not state.over:
        seat = to_move(state)
        if seat == CHANCE:
            action = dealer.outcome(state, views)
        else:
            action = agents[seat].choose(state, views[seat])
        apply(state, seat, action)
        events += 1
        _count_card(played, action)
        if on_event is not None:
            on_event(state, seat, action)
    summary = result(state)
    summary.update({"seed": seed, "players": players, "turns": state.turn, "events": events,
                    "winner": state.winners[0] if len(state.winners) == 1 else None,
                    "state_hash": state.hash(), "bots": kinds,
                    "cards_played": dict(sorted(played.items()))})
    return state, summary


def _count_card(played: dict[str, int], action) -> None:
    """SPEC §12.2: the Special Actions and Space Ship Extras played, by card name."""
    card = CARD_BY_NAME.get(getattr(action, "name", None) or "")
    if card is not None and (card.category == SPECIAL_ACTION or card.ship_extra):
        played[card.name] = played.get(card.name, 0) + 1
