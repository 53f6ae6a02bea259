"""Typed errors of the fair-dice primitive (SPEC §33.7).

Every error names the seat that broke the rule (`.seat`, an int in seat order) so the
session can turn it into signed evidence against that seat's event, or name the seat in
a co-signed abort or forfeit. They are ProtocolErrors (and ValueErrors, like the other
crypto-layer refusals), raised before anything in the ledger changes.
"""
from __future__ import annotations

from protocol.errors import ProtocolError

__all__ = [
    "DiceError", "BadDiceBody", "BadChainCommit", "WrongLink", "WrongRoll", "AlreadyOpened",
    "OpeningTooEarly", "SeatNotActive",
]


class DiceError(ProtocolError, ValueError):
    """Base of the dice errors; `seat` is the seat at fault, `reason` says what it did."""

    def __init__(self, seat: int | None, reason: str) -> None:
        self.seat = seat
        self.reason = reason
        who = "?" if seat is None else str(seat)
        super().__init__(f"{type(self).__name__} by seat {who}: {reason}")


class BadDiceBody(DiceError):
    """A `dice-chain` or `dice-open` body has missing or extra fields, or a field of the
    wrong type or size (SPEC §33.6)."""


class BadChainCommit(DiceError):
    """A chain commitment that may not be taken now: the wrong generation, a length out of
    range, a seat that still has unopened links, or a roll whose openings have begun."""


class WrongLink(DiceError):
    """An opened link does not hash to the seat's previous link at its position: a made-up
    value, a link of another position, seat, chain or game (SPEC §33.2)."""

    def __init__(self, seat: int, reason: str, *, roll: int, position: int) -> None:
        self.roll = roll
        self.position = position
        super().__init__(seat, reason)


class WrongRoll(DiceError):
    """An opening names a roll index other than the one being rolled (a replay of an
    opening of an earlier roll, or one made ahead of time)."""


class AlreadyOpened(DiceError):
    """A second, different opening by one seat for one roll attempt."""


class OpeningTooEarly(DiceError):
    """An opening while some active seat has no unopened link: that seat must commit a
    fresh chain first (`.waiting_for`), and no link of the roll may be seen before it does."""

    def __init__(self, seat: int, waiting_for: list[int]) -> None:
        self.waiting_for = waiting_for
        super().__init__(seat, f"opened before seats {waiting_for} committed a fresh chain")


class SeatNotActive(DiceError):
    """The seat is not in the game's dice: outside the table, or forfeited."""
