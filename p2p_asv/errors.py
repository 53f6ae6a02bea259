"""Typed rejections (SPEC §11.3): every refused action says which rule refused it."""
from __future__ import annotations


class EngineError(ValueError):
    """Base class: the action was refused and the state is unchanged."""


class MalformedAction(EngineError):
    """The text or value is not an action at all (bad notation, wrong field types)."""


class OutOfTurn(EngineError):
    """A well-formed action by someone who may not act now (or chance when a player is due)."""


class IllegalAction(EngineError):
    """A well-formed action by the right actor that the rules forbid here."""
