"""The turn clock told in lines (SPEC §31.12): the full screen's status line counts down, but
line mode (`--plain`, output not a terminal, a screen reader) has no toolbar that stays, so
a seat is told its own clock as lines of the feed: once when its turn starts, with the time
it has, and once when WARN_AT seconds are left. The line when it runs out is the driver's
(`_clock_words`, SPEC §29.14)."""
from __future__ import annotations

from cli.netplay.turn_clock import TurnClock

__all__ = ["ClockLines", "WARN_AT", "mm_ss"]

WARN_AT = 10   # seconds left when the warning line is said


def mm_ss(seconds: float) -> str:
    whole = int(abs(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


class ClockLines:
    """Says each line once: the start line once a turn, the warning once a turn (a seat's
    own time only runs down within a turn; a new turn gives it a full clock again)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self._started: object = object()   # the turn whose start line was said
        self._warned: object = object()    # the turn whose warning was said

    def lines(self, clock: TurnClock, seat: int, left: float) -> list[str]:
        """The lines due now, `seat` being on the clock with `left` seconds (clock.on_clock())."""
        if seat != self.seat or left < 0:
            return []
        said, turn = [], clock.turn
        if turn != self._started and clock.opens_turn(seat):
            self._started = turn
            said.append(f"your turn clock: {mm_ss(left)} for this turn (it runs only while you are to move)")
        if left <= WARN_AT and turn != self._warned:
            self._warned = turn
            said.append(f"{int(left)} s left on your turn clock")
        return said
