"""The Amazing Space Venture rules engine: pure, deterministic, no I/O, no clock, no randomness.

The front door (SPEC §11): build a game with `new_game`, ask `to_move` who writes next,
list `legal_actions(state, view)`, and `apply(state, seat, action)`. Chance events
(shuffles, reveals, deals) come from a dealer: `LocalDealer` for tests and bots, the
protocol's mental-poker decks in networked play.
"""
from .actions import verbs
from .dealer import LocalDealer
from .endgame import result
from .engine import apply, chance_request, legal_actions, parse_action, to_move
from .errors import EngineError, IllegalAction, MalformedAction, OutOfTurn
from .setup import new_game
from .state import CHANCE, GameState
from .view import PlayerView

__all__ = ["CHANCE", "EngineError", "GameState", "IllegalAction", "LocalDealer", "MalformedAction",
           "OutOfTurn", "PlayerView", "apply", "chance_request", "legal_actions", "new_game",
           "parse_action", "result", "to_move", "verbs"]
