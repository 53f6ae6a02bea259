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


class ImpossibleState(EngineError):
    """The state holds what no true game can (e.g. a second copy of a one-copy card, which
    only a search bot's sampled world may). The effect raises it before it changes anything,
    though the window that led to it may already be closed."""
