"""The Space Trading Race rules engine (SPEC Part IV): pure, deterministic, no I/O, no clock,
no randomness. Chance (dice, the mission pile) arrives as actions answering `state.pending`.

Build a game with `new_game(players, config)`, ask `to_move` (CHANCE while chance is due),
list `legal_actions(state, view)` or `chance_outcomes(state)`, `apply(state, seat, action)`;
actions print and parse (`parse_action(a.text()) == a`).
"""
from .actions import parse_action
from .dealer import LocalDealer
from .engine import CHANCE, apply, apply_text, chance_outcomes, legal_actions, to_move
from .errors import IllegalAction, MalformedAction, OutOfTurn, TradingRaceError
from .leaving import leave
from .state import State, new_game
from .view import PlayerView

__all__ = ["CHANCE", "IllegalAction", "LocalDealer", "MalformedAction", "OutOfTurn", "PlayerView", "State",
           "TradingRaceError", "apply", "apply_text", "chance_outcomes", "leave", "legal_actions", "new_game",
           "parse_action", "to_move"]
