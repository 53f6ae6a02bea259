"""Typed refusals (SPEC §57.3): a refused action leaves the state exactly as it was."""
from __future__ import annotations


class TradingRaceError(ValueError):
    """Base class: the action was refused and the state is unchanged."""


class MalformedAction(TradingRaceError):
    """The text is not a Space Trading Race action at all (bad notation)."""


class OutOfTurn(TradingRaceError):
    """A well-formed action by a seat that may not write now, or chance while a player is due."""


class IllegalAction(TradingRaceError):
    """A well-formed action by the right writer that the rules forbid here."""


def require(condition: bool, message: str) -> None:
    if not condition:
        raise IllegalAction(message)
