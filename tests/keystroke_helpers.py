"""A scripted human at the REPL, for the keystroke figures of SPEC §31.8: seat 0 plays what
the greedy bot would play, typed through the real Repl (no terminal), and every line it
types is counted, with where the turn stood when it was typed."""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from cli.repl.local import LocalGame
from cli.repl.loop import Repl
from p2p_asv.state import REFILL


@dataclass
class Count:
    lines: int = 0                 # everything typed
    turns: int = 0                 # own turns begun
    in_own_discovery: int = 0      # lines typed while a discovery of this seat's was open
    in_others_discovery: int = 0   # lines typed while the other seat's discovery was open
    own_discoveries: int = 0
    others_discoveries: int = 0
    automatic: int = 0             # answers auto-pass gave instead
    one_answer: list[str] = field(default_factory=list)   # lines typed when nothing else was legal
    log: list[str] = field(default_factory=list)


class CountingRepl(Repl):
    """Types the greedy bot's choice for its seat; `counts` (draw refuel N) when allowed."""

    def __init__(self, driver, count: Count, *, counts: bool, limit: int, **kw) -> None:
        self._input = create_pipe_input()
        self._pipe = self._input.__enter__()
        super().__init__(driver, color=False, input=self._pipe, output=DummyOutput(), **kw)
        self.count, self.counts, self.limit = count, counts, limit
        self._seen_discoveries: set = set()
        self._turn = None

    def read_line(self) -> str:
        state, seat = self.driver.state(), self.driver.seat
        count = self.count
        if count.lines >= self.limit:
            return "quit"
        self._note_discovery(state)
        if state.active == seat and state.turn != self._turn:
            self._turn = state.turn
            count.turns += 1
        if self.confirm is not None:
            line = "y"
        else:
            # a bot seeded by the step: the same choice in the same state, auto-pass or not
            bot = self.driver.kit.bot("greedy", f"typist/{state.step}")
            action = bot.choose(state, self.driver.view())
            line = action.text()
            if self.counts and state.phase == REFILL and line == "draw refuel" and not state.polls:
                room = 10 - len(state.players[seat].hand)
                line = f"draw refuel {room}" if room > 1 else line
            if self.counts and state.phase == REFILL and line == "draw port" and not state.polls:
                line = self._port_then_refuel(state, action) or line
            if self.counts and line.startswith("draw-tile ") and state.tiles_owed > 1 and not state.polls:
                line = "draw-tile" + f" {line.split()[1]}" * state.tiles_owed   # e.g. draw-tile 2 2 2
        count.lines += 1
        legal = self.driver.legal()
        if self.confirm is None and len(legal) == 1:
            count.one_answer.append(line)
        d = state.discovery
        if d is not None:
            if d.discoverer == seat:
                count.in_own_discovery += 1
            else:
                count.in_others_discovery += 1
        count.log.append(line)
        return line

    def _port_then_refuel(self, state, action) -> str | None:
        """`draw port refuel N` when the bot, after this port draw, would fill the rest of the
        hand from Refuel: what a person who wants that one face-up ship card types. Found by
        playing the draw on a copy of the whole local game (its dealer too), then asking the
        bot as the typist would."""
        seat = self.driver.seat
        room = 10 - len(state.players[seat].hand)
        if room < 2:
            return None
        ahead = copy.deepcopy(self.driver)
        ahead.submit(action)
        ahead.wait_for_turn()
        after = ahead.state()
        if after.active != seat or after.phase != REFILL or after.polls or not ahead.legal():
            return None
        then = ahead.kit.bot("greedy", f"typist/{after.step}").choose(after, ahead.view())
        return f"draw port refuel {room - 1}" if then.text() == "draw refuel" else None

    def _note_discovery(self, state) -> None:
        d = state.discovery
        if d is None:
            return
        key = (state.turn, d.discoverer)
        if key not in self._seen_discoveries:
            self._seen_discoveries.add(key)
            if d.discoverer == self.driver.seat:
                self.count.own_discoveries += 1
            else:
                self.count.others_discoveries += 1


def typed_game(seed: int, *, after: bool, limit: int = 2000) -> Count:
    """One two-player game, seat 0 typed; `after`: auto-pass on and counts used."""
    driver = LocalGame(2, 0, seed=seed, bots="greedy")
    count = Count()
    repl = CountingRepl(driver, count, counts=after, limit=limit, auto_pass=after)
    try:
        repl.run()
    finally:
        repl._input.__exit__(None, None, None)
    count.automatic = repl.automatic_plays
    return count
