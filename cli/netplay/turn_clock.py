"""The per-turn clock set by the host (`asv host --turn-clock S`, SPEC §29.14).

The clock's length travels in the game config (`turn_clock`, whole seconds), so every
peer knows it and measures it itself. A seat's turn starts when the move passes to it
from another seat (the rules' `to_move`; chance events in between do not count) and
runs while it keeps the move. At zero nothing is played for the seat: it is told to
everyone, and from then on it counts as gone for the silent-peer rule (§29.13), so if it
still has not moved after a further --timeout the game is aborted as for a peer that
left. The engines never see the key: `game_options` takes it out of the config.
"""
from __future__ import annotations

import time

from cli.games.table import CLOCK_KEY, MAX_CLOCK, MIN_CLOCK, check_clock, game_options

__all__ = ["CLOCK_KEY", "MIN_CLOCK", "MAX_CLOCK", "check_clock", "game_options", "TurnClock"]


class TurnClock:
    """Measures the clock on one node. `observe(node)` after every applied event;
    called with a key it says how many seconds that peer is past its clock (0 if not;
    the node's `overtime` hook, SPEC §29.13-§29.14)."""

    def __init__(self, node) -> None:
        self.node = node
        self._seat: int | None = None
        self.since = time.monotonic()

    @property
    def seconds(self) -> int | None:
        s = self.node.session
        return None if s is None or not s.config else s.config.get(CLOCK_KEY)

    def observe(self, *_ignored) -> None:
        s = self.node.session
        if s is None or s.phase != "play" or s.state is None:
            return
        seat = s.rules.to_move(s.state)
        if isinstance(seat, int) and seat >= 0 and seat != self._seat:   # CHANCE is -1
            self._seat, self.since = seat, time.monotonic()

    def on_clock(self) -> tuple[int, float] | None:
        """(seat on the clock, seconds left; negative once over), or None: no clock, or
        no seat to move."""
        self.observe()   # a resumed peer has applied nothing yet: the turn starts now for it
        s, seconds = self.node.session, self.seconds
        if seconds is None or self._seat is None or s is None or s.phase != "play" or self.node.over:
            return None
        return self._seat, seconds - (time.monotonic() - self.since)

    def __call__(self, key: bytes) -> float:
        clock = self.on_clock()
        if clock is None:
            return 0.0
        seat, left = clock
        return -left if left < 0 and self.node.session.seat_keys[seat] == key else 0.0
