"""The per-turn clock set by the host (`asv host --turn-clock S --on-clock pass|abort`,
SPEC §29.14, §29.20).

The clock's length and what its end does travel in the game config (`turn_clock`, whole
seconds; `on_clock`), so every peer knows them and measures the clock itself. A seat's clock
counts its own decisions only: in each turn of the game (the rules' `turn_of`; a new turn
sets every seat's clock back to full) the clock of the seat to move (`to_move`) runs, and
every other seat's stands still, so the time a seat spends answering a window or a poll in
another seat's turn is on its own clock, never on the turn owner's; chance steps count for
nobody. At zero, with `on_clock: pass`, the others pass the seat's turn by a co-signed vote
(protocol/node/_clock_pass.py) when the game declares a pass move there; otherwise (and with
`abort`) the seat counts as gone for the silent-peer rule (§29.13), so if it still has not
moved after a further --timeout the game is aborted. The engines never see the keys:
`game_options` takes them out of the config.
"""
from __future__ import annotations

import time

from cli.games.table import (CLOCK_KEY, MAX_CLOCK, MIN_CLOCK, ON_CLOCK_KEY, check_clock, check_on_clock,
                             game_options)
from protocol.session import CHANCE

__all__ = ["CLOCK_KEY", "ON_CLOCK_KEY", "MIN_CLOCK", "MAX_CLOCK", "check_clock", "check_on_clock",
           "game_options", "TurnClock"]


class TurnClock:
    """Measures the clock on one node. `observe()` after every applied event; called with a
    key it says how many seconds that peer is past its clock (0 if not; the node's
    `overtime` hook, SPEC §29.13-§29.14)."""

    def __init__(self, node, now=time.monotonic) -> None:
        self.node = node
        self.now = now
        self._turn: object = None
        self._spent: dict[int, float] = {}   # seconds each seat was to move this turn, stretches closed
        self._seat: int | None = None        # the seat to move now (None: chance, nobody)
        self.since = now()                   # when the seat to move got the move
        self.abort_cause: str | None = None  # "clock": the abort named a connected seat out of time

    @property
    def seconds(self) -> int | None:
        s = self.node.session
        return None if s is None or not s.config else s.config.get(CLOCK_KEY)

    @property
    def passes(self) -> bool:
        """The table agreed that the clock's end passes the turn (`on_clock: pass`)."""
        s = self.node.session
        return s is not None and bool(s.config) and s.config.get(ON_CLOCK_KEY) == "pass"

    def observe(self, *_ignored) -> None:
        s = self.node.session
        if s is None or s.phase != "play" or s.state is None or not s.config or s.config.get(CLOCK_KEY) is None:
            return   # no clock in this game (its config is fixed by the first hello): nothing to measure
        seat = s.rules.to_move(s.state)
        seat = seat if isinstance(seat, int) and seat != CHANCE else None
        turn_of = getattr(s.rules, "turn_of", None)
        turn = turn_of(s.state) if turn_of is not None else seat
        now = self.now()
        if turn != self._turn:                     # a new turn: every clock is full again
            self._turn, self._spent, self._seat, self.since = turn, {}, seat, now
        elif seat != self._seat:                   # the move changes hands within the turn
            if self._seat is not None:
                self._spent[self._seat] = self._spent.get(self._seat, 0.0) + now - self.since
            self._seat, self.since = seat, now

    @property
    def turn(self) -> object:
        """The game's turn the clock measures now (the rules' `turn_of`)."""
        return self._turn

    def opens_turn(self, seat: int) -> bool:
        """`seat` is to move and no other seat has decided anything in this turn yet: the
        turn is its own (an answer in another seat's turn comes after that seat's moves)."""
        return seat == self._seat and not any(t > 0 for s, t in self._spent.items() if s != seat)

    def used(self, seat: int) -> float:
        """Seconds `seat` has spent deciding in this turn."""
        running = self.now() - self.since if seat == self._seat else 0.0
        return self._spent.get(seat, 0.0) + running

    def on_clock(self) -> tuple[int, float] | None:
        """(seat on the clock, seconds left; negative once over), or None: no clock, or
        no seat to move."""
        s, seconds = self.node.session, self.seconds
        if seconds is None:
            return None
        self.observe()   # a resumed peer has applied nothing yet: the turn starts now for it
        if self._seat is None or s is None or s.phase != "play" or self.node.over:
            return None
        return self._seat, seconds - self.used(self._seat)

    def __call__(self, key: bytes) -> float:
        clock = self.on_clock()
        if clock is None:
            return 0.0
        seat, left = clock
        return -left if left < 0 and self.node.session.seat_keys[seat] == key else 0.0

    def aborted(self, ev) -> None:
        """The game was just aborted by `ev`: remember whether it named a seat that was
        connected and past its clock, so the last line says so (not "stayed gone")."""
        s, seconds, silent = self.node.session, self.seconds, ev.body.get("silent")
        if seconds is None or s is None or silent not in getattr(s, "seat_of", {}):
            return
        seat = s.seat_of[silent]
        if seat == self._seat and self.used(seat) > seconds and self.node.absent_for(silent) == 0:
            self.abort_cause = "clock"
