"""The full-screen game screen (SPEC §31.9), driven through prompt_toolkit's pipe input and a
dummy output, and drawn at a fixed size: the board stays in view after help, legal and a
long answer; the answer pane takes the feed's place; below 80x24 it says what it needs."""
from __future__ import annotations

import re

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from cli.commands import play as cmd_play
from cli.main import build_parser
from cli.repl.fullscreen import ScreenRepl, render_lines
from cli.repl.local import LocalGame
from cli.repl.loop import Repl

BOARD_TOP = re.compile(r"^ +A +B +C +D +E +F +G +H +I +J +K +L +M")


def board_in_view(lines: list[str]) -> bool:
    """The column header and all 13 rows of the board are on screen."""
    rows = [n for n in range(1, 14) if any(re.match(rf"^ ?{n} ", line) for line in lines)]
    return any(BOARD_TOP.match(line) for line in lines) and rows == list(range(1, 14))


class Snapshots(ScreenRepl):
    """Draws the 80x24 screen after every line typed, while the Application runs."""

    def __init__(self, *a, **kw) -> None:
        super().__init__(*a, **kw)
        self.shots: dict[str, list[str]] = {}

    def _line(self, text: str) -> None:
        super()._line(text)
        self.shots[text] = render_lines(self, 80, 24)


def test_the_board_stays_in_view_after_help_legal_and_a_long_answer():
    driver = LocalGame(2, 0, seed=3)
    with create_pipe_input() as pipe:
        repl = Snapshots(driver, color=False, input=pipe, output=DummyOutput(), auto_pass=True)
        pipe.send_text("help\rlegal\rhelp actions\rdraw-tile 1 2 3\rlegal\rscores\rquit\r")
        assert repl.run() == 0
    for line in ("help", "legal", "help actions", "draw-tile 1 2 3", "scores"):
        assert board_in_view(repl.shots[line]), (line, "\n".join(repl.shots[line]))
    help_shot = "\n".join(repl.shots["help"])
    assert "Commands:" in help_shot and "Esc or the next command closes this" in help_shot
    long_shot = "\n".join(repl.shots["help actions"])      # longer than the pane: it scrolls
    assert "PgUp/PgDn" in long_shot
    assert "you: draw-tile 3" in "\n".join(repl.shots["draw-tile 1 2 3"])   # the feed
    assert any(line.startswith("place #") for line in repl.shots["legal"] + repl.shots["draw-tile 1 2 3"]) \
        or "place #" in "\n".join(repl.shots["legal"][16:])
    assert "left the game" in "\n".join(repl.transcript)
    for shot in repl.shots.values():                        # the status line and the command line
        assert any(line.startswith(" T1 ") for line in shot) and shot[-1].startswith(">")


def test_the_answer_pane_scrolls_and_closes():
    driver = LocalGame(2, 0, seed=3)
    with create_pipe_input() as pipe:
        repl = ScreenRepl(driver, color=False, input=pipe, output=DummyOutput())
        repl.handle("help actions")
        first = render_lines(repl, 80, 24)
        repl.scroll_answer(+1)
        later = render_lines(repl, 80, 24)
        assert board_in_view(first) and board_in_view(later) and first != later
        repl.answer = None                                   # closed (Esc for real: the test below)
        assert "closes this" not in "\n".join(render_lines(repl, 80, 24))


def test_a_wide_terminal_shows_the_hand_pane_with_every_card():
    driver = LocalGame(2, 0, seed=3)
    with create_pipe_input() as pipe:
        repl = ScreenRepl(driver, color=False, input=pipe, output=DummyOutput())
        repl.catch_up()
        repl.handle("legal")
        text = "\n".join(render_lines(repl, 140, 44))
    state, view = driver.state(), driver.view()
    for h in state.players[0].hand:
        assert f"#{h:<4} {view.name_of(h, state.names)} (" in text
    assert "draw-tile 1" in text and board_in_view(text.split("\n"))


def test_below_80_by_24_it_says_what_it_needs_and_keeps_the_command_line():
    driver = LocalGame(2, 0, seed=3)
    with create_pipe_input() as pipe:
        repl = ScreenRepl(driver, color=False, input=pipe, output=DummyOutput())
        lines = render_lines(repl, 60, 20)
    assert "needs 80x24" in lines[0] and lines[-1].startswith(">")
    assert all(len(line) <= 60 for line in lines)


def test_plain_and_a_non_terminal_keep_the_line_mode():
    args = build_parser().parse_args(["play", "--plain"])
    assert args.plain is True
    with create_pipe_input() as pipe:
        pipe.send_text("quit\r")
        args = build_parser().parse_args(["play", "--seed", "3"])
        cmd_play.run(args, input=pipe, output=DummyOutput())
    assert type(cmd_play.run.last_repl) is Repl        # given input / output: line mode


def test_asv_play_in_a_real_80_by_24_terminal_opens_the_screen_and_leaves_cleanly():
    """A pty of 80x24: the game screen opens (the alternate screen), takes the lines typed,
    and `quit` ends it with exit code 0 and no traceback."""
    import fcntl
    import os
    import pty
    import select
    import struct
    import sys
    import termios
    import time
    pid, fd = pty.fork()
    if pid == 0:   # the child: asv play on the pty
        os.execv(sys.executable, [sys.executable, "-m", "cli.main", "play", "--seed", "3"])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    out = b""

    def shown() -> str:
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.decode("utf-8", "replace"))

    def pump_until(word: str, seconds: float = 20.0) -> None:
        nonlocal out
        end = time.monotonic() + seconds
        while time.monotonic() < end and word not in shown():
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    return
    try:
        steps = (("help\r", "tiles (3 to draw)"), ("draw-tile 1 2 3\r", "Commands"), ("quit\r", "revealed: #40"))
        for keys, wait in steps:      # each line is typed once what it follows is on screen
            pump_until(wait)
            os.write(fd, keys.encode())
        pump_until("left the game")
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    text = out.decode("utf-8", "replace")
    assert os.WEXITSTATUS(status) == 0 and "Traceback" not in text
    assert "\x1b[?1049h" in text                      # the alternate screen: full-screen mode
    assert "Commands" in shown() and "revealed: #40" in shown() and "left the game" in shown()


def test_the_live_game_screen_shows_others_as_they_play_with_the_board_in_view():
    """LiveScreenRepl (asv host / join on a terminal): others' events reach the feed while
    the screen is open, help opens over the feed, and quit asks first, as in line mode."""
    from cli.repl.fullscreen import LiveScreenRepl
    from tests.test_repl_live import SlowOthers, run_with_script, wait_for
    driver = SlowOthers(2, 1, seed=3)            # seat 1: the bot in seat 0 plays first
    with create_pipe_input() as pipe:
        repl = LiveScreenRepl(driver, color=False, input=pipe, output=DummyOutput())
        said = lambda: "\n".join(repl.transcript)   # noqa: E731
        shots: dict[str, list[str]] = {}

        def script() -> None:
            wait_for(lambda: repl.app.is_running and driver.sink is not None)
            while driver.others_due() and driver.state().turn == 0:
                driver.step()
            for _ in range(3):
                driver.step()
            wait_for(lambda: "blue [B] (greedy bot): draw-tile" in said())
            pipe.send_text("help\r")
            wait_for(lambda: repl.answer is not None)
            shots["help"] = list(repl.shots_now())
            pipe.send_text("quit\r")
            wait_for(lambda: "y or quit: leave" in said())
            pipe.send_text("y\r")

        repl.shots_now = lambda: render_lines(repl, 80, 24)   # drawn in the script's thread
        run_with_script(repl, pipe, script)
    assert board_in_view(shots["help"]) and "Commands:" in "\n".join(shots["help"])
    assert "left the game" in said()


def test_at_80x24_an_open_answer_gets_the_legend_and_question_rows_and_the_board_stays():
    """Issue 22: the answer pane showed 3 lines at 80x24; open, it takes the rows of the key
    under the board and of the question line (the status line still says whose move)."""
    driver = LocalGame(2, 0, seed=3)
    with create_pipe_input() as pipe:
        repl = Snapshots(driver, color=False, input=pipe, output=DummyOutput(), auto_pass=True)
        pipe.send_text("help\rquit\r")
        assert repl.run() == 0
    shot = repl.shots["help"]
    assert board_in_view(shot)
    footer = next(line for line in shot if "Esc or the next command closes this" in line)
    assert re.search(r"lines 1-(\d+) of", footer) and int(re.search(r"lines 1-(\d+) of", footer).group(1)) >= 6
    assert not any("worm hole" in line for line in shot)          # the legend made room


def test_esc_then_a_letter_at_once_closes_the_answer_and_types_the_letter():
    """Issue 22: Esc followed quickly by a letter was read as Meta-letter; with an answer
    open, Esc closes it at once and the letters type."""
    driver = LocalGame(2, 0, seed=3)
    with create_pipe_input() as pipe:
        repl = Snapshots(driver, color=False, input=pipe, output=DummyOutput(), auto_pass=True)
        pipe.send_text("help\r\x1blegal\rquit\r")
        assert repl.run() == 0
    assert "legal" in repl.shots, list(repl.shots)
    assert "Esc or the next command closes this" in "\n".join(repl.shots["legal"])


class BeforeEachLine(ScreenRepl):
    """Draws the 80x24 screen as each typed line arrives, before it is handled: what the keys
    typed before the line (Esc) left on the screen."""

    def __init__(self, *a, **kw) -> None:
        super().__init__(*a, **kw)
        self.before: dict[str, tuple[bool, list[str]]] = {}

    def _line(self, text: str) -> None:
        self.before[text] = (self.answer is not None, render_lines(self, 80, 24))
        super()._line(text)


def test_esc_pressed_closes_the_answer_pane_and_gives_the_feed_back():
    """Esc typed through the terminal's input (not the answer cleared by hand) closes the open
    answer before the next line is sent; without Esc the answer stays open until then."""
    def typed(keys: str) -> BeforeEachLine:
        driver = LocalGame(2, 0, seed=3)
        with create_pipe_input() as pipe:
            repl = BeforeEachLine(driver, color=False, input=pipe, output=DummyOutput(), auto_pass=True)
            pipe.send_text(keys)
            assert repl.run() == 0
        return repl
    pressed = typed("help\r\x1bscores\rquit\r")
    still_open, shot = pressed.before["scores"]
    assert not still_open and board_in_view(shot), "\n".join(shot)
    assert "Commands:" not in "\n".join(shot) and "closes this" not in "\n".join(shot)
    not_pressed = typed("help\rscores\rquit\r")
    still_open, shot = not_pressed.before["scores"]
    assert still_open and "Commands:" in "\n".join(shot)
