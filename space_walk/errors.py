"""Typed refusals (SPEC §46.3): every refused Space Walk action says which rule refused it."""
from __future__ import annotations


class SpaceWalkError(ValueError):
    """Base class: the action was refused and the state is unchanged."""


class MalformedAction(SpaceWalkError):
    """The text is not a Space Walk action at all (bad notation)."""


class OutOfTurn(SpaceWalkError):
    """A well-formed action by a seat that may not act now, or of a kind not due now."""


class IllegalAction(SpaceWalkError):
    """A well-formed action by the right seat that the rules forbid here."""
