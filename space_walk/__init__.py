"""The Space Walk rules engine (SPEC part III): pure, deterministic, no I/O, no clock, no chance.

Build a game with `new_game(players, config)`, ask `to_move`, list `legal_actions(state, seat)`,
`apply(state, seat, action)`; actions print and parse (`parse_action(a.text()) == a`).
"""
from .actions import parse_action, verbs
from .engine import apply, apply_text, legal_actions, to_move
from .errors import IllegalAction, MalformedAction, OutOfTurn, SpaceWalkError
from .scoring import result
from .state import State, new_game

__all__ = ["IllegalAction", "MalformedAction", "OutOfTurn", "SpaceWalkError", "State", "apply",
           "apply_text", "legal_actions", "new_game", "parse_action", "result", "to_move", "verbs"]
