"""The local Space Walk seat driver: one human seat against bots in one process (SPEC §48.1).
It offers the same methods as cli.repl.local.LocalGame, so the Space Walk REPL can also run
over a network driver."""
from __future__ import annotations

from space_walk.bots import BOTS
from space_walk.engine import apply, legal_actions, to_move
from space_walk.orbit import COLOURS
from space_walk.state import State, new_game

from cli.repl.local import seat_bot_kinds
from cli.repl.loop import Happened

MAX_EVENTS_BETWEEN_TURNS = 100_000  # bots that never hand back are a bug: fail loudly


class SwLocalGame:
    def __init__(self, players: int, seat: int, seed: int, bots: list[str | None] | str = "greedy",
                 config: dict | None = None) -> None:
        kinds = seat_bot_kinds(players, seat, bots, BOTS)
        self.seat = seat
        self._state = new_game(players, config)
        self._bots = {s: BOTS[kinds[s] or "greedy"](f"{seed}/{s}") for s in range(players) if s != seat}
        self.labels = ["you" if s == seat else f"{self._bots[s].name} bot" for s in range(players)]
        self.colours = list(COLOURS[:players])

    def state(self) -> State:
        return self._state

    def view(self) -> int:
        return self.seat

    def legal(self) -> list:
        return legal_actions(self._state, self.seat)

    def is_over(self) -> bool:
        return self._state.over

    def submit(self, action) -> None:
        """Apply the human's action; a SpaceWalkError leaves the state as it was."""
        apply(self._state, self.seat, action)

    def wait_for_turn(self) -> list[Happened]:
        happened: list[Happened] = []
        while not self._state.over:
            due = to_move(self._state)
            if due == self.seat:
                break
            action = self._bots[due].choose(self._state, due)
            apply(self._state, due, action)
            happened.append(Happened(due, action))
            if len(happened) > MAX_EVENTS_BETWEEN_TURNS:
                raise RuntimeError("the other seats did not hand the turn back")
        return happened
