"""The live REPL of a networked seat (SPEC §31.2), for every game: the prompt stays open
while the others play; their events are printed above it as they are applied.

prompt_toolkit runs the prompt on an asyncio loop in the main thread (`prompt_async`
under `patch_stdout`, printing through `run_in_terminal` so the prompt is redrawn below
each line). The network driver lives on a trio thread and calls this object as its UI
sink; each call only schedules work on the asyncio loop (`call_soon_threadsafe`), so the
screen is touched from one thread alone.
"""
from __future__ import annotations

import asyncio
import threading

from prompt_toolkit.patch_stdout import patch_stdout

from cli.repl.loop import CTRL_C, LEAVE, Repl
from cli.repl.table_talk import TABLE_HELP
from cli.terminal import plain

__all__ = ["LiveRepl", "UiSink", "NoteWriter"]


class UiSink:
    """What the driver may call, from any thread (SPEC §31.2 table)."""

    def changed(self) -> None: ...
    def note(self, text: str) -> None: ...
    def status(self, key: str, text: str | None) -> None: ...


class GameEnded(Exception):
    """Ends the open prompt when the game is over."""


class LiveRepl(Repl, UiSink):
    """Repl whose prompt is always open. The driver must offer `poll()` (events applied
    since the last call, without waiting) and `attach(sink)`; `resume_hint()` is optional."""

    POLL_SECONDS = 1.0   # re-read the driver now and then even without a push
    AUTO_PASS_SECONDS = 1.5   # SPEC §14.2: every automatic answer waits this long, the same for all

    def __init__(self, driver, **kw) -> None:
        super().__init__(driver, **kw)
        self._auto_step: int | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._board_turn = None        # the turn whose start this seat's board was shown for
        self._asked: str | None = None  # the question last put to this seat
        self._lock = threading.Lock()

    # -- the sink (any thread) ---------------------------------------------------------------
    def _soon(self, fn, *args) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(fn, *args)
            except RuntimeError:       # the loop closed meanwhile: the REPL has ended
                pass

    def changed(self) -> None:
        self._soon(self._poke)

    def note(self, text: str) -> None:
        self._soon(self.say, text, "fg:ansiyellow")

    def status(self, key: str, text: str | None) -> None:
        self._soon(self._set_status, key, text)

    def _poke(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def _set_status(self, key: str, text: str | None) -> None:
        if text is None:
            self.status_items.pop(key, None)
        else:
            self.status_items[key] = text
        self._redraw()

    # -- the loop (asyncio thread) -----------------------------------------------------------
    def run(self) -> int:
        return asyncio.run(self.run_async())

    async def run_async(self) -> int:
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self.welcome()
        self.say(TABLE_HELP)
        self.update(first=True)
        self.driver.attach(self)
        left = False
        with patch_stdout(raw=True):
            follower = asyncio.create_task(self.follow())
            try:
                left = await self.read_loop()
            finally:
                follower.cancel()
        if left:
            self.say("left the game")
            return 0
        self.update()
        if self.kit.is_over(self.driver.state()):
            self.finish()
        else:   # aborted or halted: no winner to name; say why once (an abort's line is held till here)
            reason = getattr(self.driver, "end_reason", lambda: None)()
            if reason:
                self.say(reason, "fg:ansiyellow")
            self.say("the game ended before its end; no final scoreboard", "bold")
        return 0

    async def read_loop(self) -> bool:
        """Lines until the game ends (False) or this seat leaves (True)."""
        while not self.driver.is_over():
            try:
                line = await self.session.prompt_async(self._prompt_text)
            except GameEnded:
                return False
            except KeyboardInterrupt:
                self.say(CTRL_C)
                continue
            except EOFError:             # Ctrl-D: ask, as quit does; Ctrl-D again leaves
                if self.confirm is not None and self.confirm[1] is LEAVE:
                    return True
                self.leave()
                continue
            if not self.handle(line):
                return True
        return False

    async def follow(self) -> None:
        """Print what the network applied; end the prompt when the game is over."""
        while True:
            try:
                await asyncio.wait_for(self._wake.wait(), self.POLL_SECONDS)
            except asyncio.TimeoutError:
                pass
            self._wake.clear()
            self.update()
            if self.driver.is_over():
                app = self.running_app()
                if app.is_running:
                    app.exit(exception=GameEnded())
                return

    RECENT = 12   # on (re)joining, the last events told; `history` has the rest

    def update(self, first: bool = False) -> None:
        """Tell the events applied since last time; show the board when this seat's turn
        starts; redraw the prompt and the toolbar (whose turn, which phase, the question)."""
        with self._lock:
            events = self.driver.poll()
        if first and len(events) > self.RECENT:
            earlier, events = events[:-self.RECENT], events[-self.RECENT:]
            for event in earlier:
                self.happened.extend(plain(line).rstrip("\n")
                                     for line in self.describe(event, own_echoed=False))
            self.say(f"({len(earlier)} earlier events; history N shows the last N lines)")
        self.tell(events, own_echoed=not first)   # on (re)joining, this seat's own moves too
        asked = None if self.driver.is_over() else self.screen.question()
        if asked is not None and asked != self._asked:
            self.say(f"-- {asked} --", "bold")     # the prompt asks too; this line stays
        self._asked = asked
        turn = None if self.driver.is_over() else self.screen.turn_start()
        if turn is not None and turn[0] != self._board_turn:
            self._board_turn = turn[0]
            self.show_board()
            self.say(f"-- your turn ({turn[1]}) --", "bold")
        self._redraw()
        self._schedule_auto_pass()
        self.go_on_repeating()

    # -- auto-pass (SPEC §14.2, §31.8: a client setting; the log holds an ordinary pass) -------
    def _schedule_auto_pass(self) -> None:
        if self._loop is None or self.automatic() is None:
            return
        step = self.kit.state_hash(self.driver.state())
        if self._auto_step != step:
            self._auto_step = step
            self._loop.call_later(self.AUTO_PASS_SECONDS, self._auto_pass, step)

    def _auto_pass(self, step: int) -> None:
        """Answer for this seat if it is still asked the same thing with one answer only."""
        if self.driver.is_over() or self.kit.state_hash(self.driver.state()) != step:
            return
        action = self.automatic()
        if action is None:
            return
        self.say("(auto-pass: no card of yours fits)" if action.text() == "pass"
                 else f"(auto: {action.text()}, the only move)")
        self.play(action)
        self.automatic_plays += 1

    def running_app(self):
        """The Application the seat types into (the prompt's; the game screen's own, §31.9)."""
        return self.session.app

    def _redraw(self) -> None:
        app = self.running_app()
        if app.is_running:
            app.invalidate()

    # -- what differs from the line-by-line loop ---------------------------------------------
    def after_own_action(self, phase_before) -> None:
        self.update()
        self.announce_phase(phase_before)

    def leave(self) -> bool:
        """`quit` in a live game asks first and says how to come back (SPEC §31.2)."""
        return self.ask_to_leave()


class NoteWriter:
    """A text file for cli.netplay.printer.Printer whose lines go to the REPL's sink instead of stdout."""

    def __init__(self, sink: UiSink, *, hold: tuple[str, ...] = ()) -> None:
        self.sink = sink
        self.hold = hold     # lines beginning so are not shown now: the REPL says them once at the end
        self._part = ""

    def write(self, text: str) -> int:
        self._part += text
        while "\n" in self._part:
            line, self._part = self._part.split("\n", 1)
            if line.strip() and not line.strip().startswith(self.hold or ("\0",)):
                self.sink.note(line.strip())
        return len(text)

    def flush(self) -> None:
        pass
