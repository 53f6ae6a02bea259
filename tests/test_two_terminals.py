"""Two people on two real terminals of 80x24 with the full game screen (SPEC §31.9, issue 22
item 10): `asv host` and `asv join` over TCP on 127.0.0.1, each in a tmux pane of exactly
80x24 on a private tmux server, read back with capture-pane (what a person sees, after the
terminal has drawn it). After `help`, `legal`, a long answer and the other's move, the
whole board is still on each screen."""
from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.test_full_screen import board_in_view

ROOT = Path(__file__).resolve().parents[1]
TMUX = "/usr/bin/tmux"

pytestmark = [pytest.mark.e2e,
              pytest.mark.skipif(not os.access(TMUX, os.X_OK), reason="needs tmux at /usr/bin/tmux")]


class Panes:
    """A private tmux server (its own socket: `tmux -L NAME`), one 80x24 session a player."""

    def __init__(self, name: str) -> None:
        self.base = [TMUX, "-L", name, "-f", "/dev/null"]
        self.pids: list[int] = []

    def tmux(self, *args: str) -> str:
        return subprocess.run([*self.base, *args], capture_output=True, text=True, timeout=10, check=True).stdout

    def start(self, session: str, *argv: str) -> None:
        env = "NO_COLOR=1 TERM=xterm-256color PROMPT_TOOLKIT_NO_CPR=1"
        command = f"exec env {env} {shlex.quote(sys.executable)} -m cli.main {shlex.join(argv)}"
        self.tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", "-c", str(ROOT), command)
        self.tmux("set-option", "-g", "status", "off")            # all 24 rows are the game's
        self.tmux("set-option", "-g", "remain-on-exit", "on")     # a crash stays readable
        self.pids.append(int(self.tmux("display", "-p", "-t", session, "#{pane_pid}")))

    def size(self, session: str) -> str:
        return self.tmux("display", "-p", "-t", session, "#{pane_width}x#{pane_height}").strip()

    def screen(self, session: str, joined: bool = False) -> list[str]:
        return self.tmux("capture-pane", "-p", *(["-J"] if joined else []), "-t", session).split("\n")

    def keys(self, session: str, line: str) -> None:
        """Type `line` and Enter, as a person would."""
        self.tmux("send-keys", "-t", session, "-l", line)
        self.tmux("send-keys", "-t", session, "Enter")

    def wait(self, session: str, test, what: str, timeout: float = 30.0) -> list[str]:
        deadline = time.monotonic() + timeout
        while True:
            lines = self.screen(session)
            if test(lines):
                return lines
            assert time.monotonic() < deadline, f"{session}: no {what} within {timeout:g} s:\n" + "\n".join(lines)
            time.sleep(0.2)

    def close(self) -> None:
        try:
            subprocess.run([*self.base, "kill-server"], capture_output=True, timeout=10)
        finally:
            for pid in self.pids:          # the asv processes themselves, should a hangup not end them
                deadline = time.monotonic() + 5
                while time.monotonic() < deadline and _alive(pid):
                    time.sleep(0.1)
                if _alive(pid):
                    os.kill(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def has(text: str):
    return lambda lines: text in "\n".join(lines)


def test_two_terminals_at_80x24_keep_the_board_in_view(tmp_path):
    panes = Panes(f"asv-e2e-{os.getpid()}")
    try:
        panes.start("host", "host", "--listen", "127.0.0.1", "--seats", "2", "--name", "alice", "--new-key",
                    "--log-dir", str(tmp_path / "a"))
        panes.wait("host", has("asv join "), "invite")
        invite = re.search(r"asv join (\S+)", "\n".join(panes.screen("host", joined=True))).group(1)
        panes.start("join", "join", invite, "--listen", "127.0.0.1", "--name", "bob", "--new-key",
                    "--log-dir", str(tmp_path / "b"))
        for pane in ("host", "join"):
            assert panes.size(pane) == "80x24"
            panes.wait(pane, lambda lines: board_in_view(lines) and "tiles (3 to draw)" in "\n".join(lines),
                       "game screen with the board", timeout=60)
        active = "host" if "you to play" in "\n".join(panes.screen("host")) else "join"
        waiting = "join" if active == "host" else "host"

        def after(pane: str, line: str, shows: str) -> list[str]:
            panes.keys(pane, line)
            shot = panes.wait(pane, has(shows), f"{shows!r} after {line!r}", timeout=20)
            assert board_in_view(shot), (pane, line, "\n".join(shot))
            assert len(shot[:24]) == 24 and all(len(row) <= 80 for row in shot), "\n".join(shot)
            return shot

        for pane in (active, waiting):
            after(pane, "help", "Commands:")
            long = after(pane, "help actions", "Actions (type them")      # longer than its pane
            assert "PgUp/PgDn" in "\n".join(long)
        after(active, "legal", "1. draw-tile 1")
        after(waiting, "legal", "nothing to do now")
        after(active, "draw-tile 1 2 3", "you: draw-tile 3")
        name = "alice" if active == "host" else "bob"
        panes.tmux("send-keys", "-t", waiting, "Escape")                  # closes the answer: the feed again
        shot = panes.wait(waiting, has(f"({name}): draw-tile 3"), "the other's moves, shown live", timeout=20)
        assert board_in_view(shot), "\n".join(shot)
        after(waiting, "scores", "tiles left")
        panes.keys(waiting, "quit")
        panes.wait(waiting, has("leave"), "the question before leaving")
        panes.keys(waiting, "y")
        for pane in ("host", "join"):
            assert "Traceback" not in "\n".join(panes.screen(pane, joined=True))
    finally:
        panes.close()
