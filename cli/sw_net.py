"""Space Walk's parts of networked play (SPEC §47.7-§47.8): progress lines for bot peers,
the recording rules and the REPL seat's driver over a running Node."""
from __future__ import annotations

import trio

from space_walk import apply, legal_actions, parse_action
from space_walk.orbit import COLOURS
from space_walk.scoring import score

from .repl import Happened
from .sw_adapter import SpaceWalkRules


def progress_line(state) -> str:
    """One line per regular turn for a bot peer's progress: who moves, points now."""
    points = "  ".join(f"{COLOURS[s]}:{score(state, s)}" for s in range(state.players))
    ships = sum(len(sq) for sq in state.squares)
    return f"turn {state.turns:3d}  {COLOURS[state.seat]:6s} to move  ships in orbit {ships:2d}  points {points}"


class SwRecordingRules(SpaceWalkRules):
    """SpaceWalkRules that remember every (seat, action text) applied, for the REPL."""

    def __init__(self) -> None:
        self.applied: list[tuple[int, str]] = []

    def apply_action(self, state, seat: int, action) -> None:
        action = self.read(action) if isinstance(action, str) else action   # the session passes it read
        super().apply_action(state, seat, action)
        self.applied.append((seat, action.text()))


class SwNetDriver:
    """The Space Walk REPL's driver over a running Node (call only from outside the trio
    thread); the same methods as cli.sw_local.SwLocalGame."""

    def __init__(self, node, token, rules: SwRecordingRules, address: str | None = None) -> None:
        self.node, self.token, self.rules, self.address = node, token, rules, address
        self._seen = 0
        self._refresh()
        s = node.session
        self.seat = s.seat
        names = [s.names[s.roster.index(k)] for k in s.seat_keys]
        self.labels = ["you" if i == self.seat else names[i] for i in range(s.players)]
        self.colours = list(COLOURS[:s.players])

    def _take(self):
        s = self.node.session
        return (s.state.clone(), s.pending_obligation() == "action", self.node.over,
                list(self.rules.applied[self._seen:]))

    def _refresh(self) -> list[tuple[int, str]]:
        state, due, over, new = trio.from_thread.run_sync(self._take, trio_token=self.token)
        self._snap = (state, due, over)
        self._seen += len(new)
        return new

    def state(self):
        return self._snap[0]

    def view(self) -> int:
        return self.seat

    def is_over(self) -> bool:
        return self._snap[2]

    def legal(self) -> list:
        return legal_actions(self.state(), self.seat) if self._snap[1] else []

    def submit(self, action) -> None:
        """Check on a copy (a SpaceWalkError says why, nothing changes), then write it."""
        apply(self.state().clone(), self.seat, action)
        trio.from_thread.run(self.node.submit, action.text(), trio_token=self.token)
        self._refresh()

    def wait_for_turn(self) -> list[Happened]:
        happened: list[Happened] = []
        while True:
            for seat, text in self._refresh():
                if seat != self.seat:
                    happened.append(Happened(seat, parse_action(text)))
            if self._snap[1] or self._snap[2]:
                return happened
            trio.from_thread.run(self._wait, trio_token=self.token)

    def resume_hint(self) -> str | None:
        """The command that brings this seat back (SPEC §29.7): the log and a peer's address."""
        from .net_driver import peer_address
        if self.node.log_path is None:
            return None
        address = self.address
        if address is None:
            try:
                address = trio.from_thread.run_sync(peer_address, None, self.node, trio_token=self.token)
            except trio.RunFinishedError:
                address = None
        return f"asv join {address or 'HOST:PORT'} --resume {self.node.log_path}"

    async def _wait(self) -> None:
        with trio.move_on_after(1.0):
            await self.node.wait_changed()
