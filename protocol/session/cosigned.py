"""Co-signed statements (SPEC §29.6, §29.17, §29.20): an abort, a clock pass and a takeback
each carry one signed statement from every seat of a given list, in that list's order.
This is the one check of such a list; each caller says which seats, and what makes one
statement the one it wants (its kind, height, head and body)."""
from __future__ import annotations

from collections.abc import Callable

from protocol.errors import EventError
from protocol.log import SignedEvent, parse_event

__all__ = ["cosigned_problem"]


def cosigned_problem(game: bytes, want: list[bytes], wires: list, *, count: str, noun: str,
                     about: Callable[[SignedEvent], str | None], order: str) -> str | None:
    """Why `wires` are not one sound statement by each key of `want`, in that order, or None.

    count: the reason when the number is wrong; noun: what one statement is called ("a vote");
    about(statement): why a parsed, correctly signed statement is not the wanted one, or None;
    order: the reason when a sound statement is by the wrong seat."""
    if len(wires) != len(want):
        return count
    for key, wire in zip(want, wires):
        if not isinstance(wire, bytes):
            return f"{noun} must be bin"
        try:
            statement = parse_event(wire, expected_game=game)   # its signature is checked here
        except EventError as exc:
            return f"{noun} is not a valid signed event: {exc.reason}"
        reason = about(statement)
        if reason is None and statement.author != key:
            reason = order
        if reason is not None:
            return reason
    return None
