"""The one error a command raises for what its user typed or chose (SPEC §30): `main()`
prints its message on stderr and exits with its code (1 unless said), never a traceback."""
from __future__ import annotations

__all__ = ["UserError", "NotSent"]


class UserError(Exception):
    """A refused command line or a situation the user can fix: `str(exc)` is the whole
    message (it names the command, e.g. "asv play: ..."), `code` the exit code."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


class NotSent(Exception):
    """A seat's action was not sent (its peer stopped, or the game moved on): nothing
    changed; the REPL says it as it says a refusal."""
