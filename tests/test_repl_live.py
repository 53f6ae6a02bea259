"""The live REPL (SPEC §31.2) against a driver whose other seats move only when the test
says so, as people on a network do: events appear while the prompt is open, commands answer
at any time, an action out of turn is refused and never played later."""
from __future__ import annotations

import threading
import time

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from cli.repl.local import LocalGame
from cli.repl.live import LiveRepl, NoteWriter
from protocol.session import CHANCE


class SlowOthers(LocalGame):
    """LocalGame (of any game) whose bots and dealer act one event per `step()`, pushed to
    the sink."""

    def __init__(self, *a, **kw) -> None:
        super().__init__(*a, **kw)
        self.sink = None
        self._told: list = []

    def attach(self, sink) -> None:
        self.sink = sink

    def poll(self) -> list:
        told, self._told = self._own + self._told, []
        self._own = []
        return told

    def others_due(self) -> bool:
        return not self.kit.is_over(self._state) and self.kit.to_move(self._state) != self.seat

    def step(self) -> None:
        due = self.kit.to_move(self._state)
        action = (self._dealer.outcome(self._state, self._views) if due == CHANCE
                  else self._bots[due].choose(self._state, self._views[due]))
        self._told.append(self._apply(due, action))
        self.sink.changed()


def wait_for(condition, timeout=10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def run_with_script(repl, pipe, script) -> None:
    """Run `repl` while `script` types into `pipe` from another thread; a failure in the script
    ends the input (so the REPL leaves instead of waiting) and is raised here."""
    failed: list[BaseException] = []

    def guarded() -> None:
        try:
            script()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test's thread
            failed.append(exc)
            pipe.close()

    feeder = threading.Thread(target=guarded, daemon=True)
    feeder.start()
    assert repl.run() == 0
    feeder.join(10)
    if failed:
        raise failed[0]


def test_live_repl_shows_others_as_they_play_and_refuses_out_of_turn_lines():
    driver = SlowOthers(2, 1, seed=3)            # seat 1: the bot in seat 0 plays first
    with create_pipe_input() as pipe:
        repl = LiveRepl(driver, color=False, input=pipe, output=DummyOutput())
        said = lambda: "\n".join(repl.transcript)   # noqa: E731

        def script() -> None:
            wait_for(lambda: repl.session.app.is_running and driver.sink is not None)
            while driver.others_due() and driver.state().turn == 0:
                driver.step()                    # the deals
            for _ in range(3):                   # the bot draws its first tile(s)
                driver.step()
            wait_for(lambda: "blue [B] (greedy bot): draw-tile" in said())
            assert "waiting" in repl._prompt_text()
            before = driver.state().hash()
            for line in ("scores", "draw-tile 1", "1", "next"):
                pipe.send_text(line + "\r")
            wait_for(lambda: said().count("not your turn") == 3)
            assert "tiles left" in said()        # scores answered during the bot's turn
            assert driver.state().hash() == before
            while driver.others_due():
                driver.step()                    # the bot's turn ends; this seat is due
            wait_for(lambda: "-- your turn (turn 2) --" in said())
            assert "your turn" in repl._prompt_text()
            assert driver.state().tiles_owed == driver.state().tiles_per_turn   # nothing was queued
            NoteWriter(repl).write("lost bob: connection closed\n")
            wait_for(lambda: "lost bob: connection closed" in said())
            repl.status("clock", "clock 0:42")
            wait_for(lambda: "clock 0:42" in repl.status_items.values())
            pipe.send_text("quit\r")
            wait_for(lambda: "y or quit: leave" in said())
            pipe.send_text("y\r")

        run_with_script(repl, pipe, script)
    assert "left the game" in said()
    assert "you:" not in said()                  # nothing typed out of turn was ever played


# -- two people on two terminals: `asv host` and `asv join` with human seats over TCP -------
import os  # noqa: E402
import re  # noqa: E402
import select  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ANSI = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07]*\x07|[()][0-9A-Za-z]|[=>])")


class Terminal:
    """One `asv` process on a pseudo-terminal of 80x24 in line mode (--plain), read as plain text."""

    def __init__(self, *argv: str) -> None:
        import fcntl
        import pty
        import struct
        import termios
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        env = dict(os.environ, NO_COLOR="1", TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1")
        # line mode (SPEC §31.9): this reads the terminal as a stream of lines
        self.proc = subprocess.Popen([sys.executable, "-m", "cli.main", argv[0], "--plain", *argv[1:]], cwd=ROOT, env=env,
                                     stdin=slave, stdout=slave, stderr=slave, start_new_session=True)
        os.close(slave)
        self.text = ""

    def read(self, seconds: float = 0.1) -> None:
        while select.select([self.master], [], [], seconds)[0]:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            self.text += ANSI.sub("", data.decode(errors="replace")).replace("\r", "")
            seconds = 0.05

    def expect(self, pattern: str, timeout: float = 30.0, since: int = 0) -> re.Match:
        deadline = time.monotonic() + timeout
        while True:
            found = re.search(pattern, self.text[since:])
            if found:
                return found
            assert time.monotonic() < deadline, f"no {pattern!r} in:\n{self.text[-3000:]}"
            self.read()

    def type(self, line: str) -> int:
        """Send a line; returns where the output after it starts."""
        self.read()
        mark = len(self.text)
        os.write(self.master, line.encode() + b"\r")
        return mark

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        os.close(self.master)


@pytest.mark.e2e
def test_two_people_on_two_terminals(tmp_path):
    """Issue 8 item 12: two human seats over TCP on pseudo-terminals. During the other's
    turn `scores` answers at once and an action is refused, not queued; the other's draw
    appears without typing; quitting asks, then prints the resume command."""
    host = Terminal("host", "--listen", "127.0.0.1", "--seats", "2", "--name", "alice", "--log-dir", str(tmp_path / "a"))
    joiner = None
    try:
        invite = host.expect(r"asv join (\S+)").group(1)
        joiner = Terminal("join", invite, "--new-key", "--listen", "127.0.0.1", "--name", "bob", "--log-dir", str(tmp_path / "b"))
        ready = r"· (your turn|\w+'s turn) · tiles \(3 to draw\)"
        host.expect(ready)
        joiner.expect(ready)
        time.sleep(0.5)
        host.read()
        active, waiting = (host, joiner) if "-- your turn (turn 1) --" in host.text else (joiner, host)
        assert "waiting>" in waiting.text
        mark = waiting.type("scores")
        waiting.expect(r"tiles left 79", since=mark, timeout=10)
        mark = waiting.type("draw-tile 1")
        waiting.expect(r"not your turn: \w+ to play\. Nothing was sent\.", since=mark, timeout=10)
        active.type("draw-tile 1")
        active.expect(r"you: draw-tile 1")
        name = "alice" if active is host else "bob"
        waiting.expect(rf"\({name}\): draw-tile 1")          # shown live, nothing typed
        assert waiting.text.count("you: draw-tile") == 0 and active.text.count("you: draw-tile") == 1
        mark = waiting.type("quit")
        waiting.expect(r"come back with:\s+asv join \S+ --resume \S+\.asvlog", since=mark, timeout=10)
        waiting.type("y")
        waiting.expect(r"left the game", timeout=10)
        assert waiting.proc.wait(30) == 1                     # left before the end
        active.expect(r"lost \S+", timeout=30)               # the other side hears of it
        active.type("quit")
        active.type("y")
        assert active.proc.wait(30) == 1
    finally:
        host.close()
        if joiner is not None:
            joiner.close()


def test_a_rejoining_seat_is_told_its_own_moves_too():
    """On (re)joining, the recap of the game so far shows this seat's own actions as
    'you: ...' (they were typed in another session, never echoed in this one)."""
    driver = SlowOthers(2, 0, seed=3)
    driver.wait_for_turn()
    draw = lambda: next(a for a in driver.legal() if a.text().startswith("draw-tile"))   # noqa: E731
    action = draw()
    driver.submit(action)
    with create_pipe_input() as pipe:
        repl = LiveRepl(driver, color=False, input=pipe, output=DummyOutput())
        repl.update(first=True)
        assert f"you: {action.text()}" in repl.transcript
        driver.attach(repl)
        while driver.others_due():     # the dealer reveals the tile drawn
            driver.step()
        repl.update()
        later = draw()                 # a turn draws 3 tiles: still this seat's to play
        echoed = lambda: sum(line == f"you: {later.text()}" for line in repl.transcript)   # noqa: E731
        before = echoed()
        repl.play(later)               # once live, an own action is echoed as typed, not told again
        assert echoed() == before + 1


def test_auto_pass_answers_a_window_when_no_card_fits():
    """--auto-pass (SPEC §14.2, a client setting): asked in a window with pass the only answer,
    the seat passes by itself after a short delay, once, and the log holds an ordinary pass."""
    from p2p_asv.state import Poll
    driver = SlowOthers(2, 0, seed=3)
    driver.wait_for_turn()
    state = driver.state()
    state.players[0].hand = []                    # nothing can fit: pass is all seat 0 may answer
    state.polls.append(Poll("moved", 1, (0,)))    # the other seat's moment asks seat 0
    assert [a.text() for a in driver.legal()] == ["pass"]
    with create_pipe_input() as pipe:
        repl = LiveRepl(driver, color=False, input=pipe, output=DummyOutput(), auto_pass=True)
        repl.AUTO_PASS_SECONDS = 0.2
        said = lambda: "\n".join(repl.transcript)   # noqa: E731

        def script() -> None:
            wait_for(lambda: "you: pass" in said())
            assert "(auto-pass: no card of yours fits)" in said() and not driver.state().polls
            pipe.send_text("quit\r")
            wait_for(lambda: "y or quit: leave" in said())
            pipe.send_text("y\r")

        run_with_script(repl, pipe, script)
    assert said().count("you: pass") == 1
