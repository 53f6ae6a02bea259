"""The full-screen game screen (SPEC §31.9), for every game: one prompt_toolkit Application
whose layout keeps the board in view.

    +-------------------------------+------------------+
    | board (the game's board_text) | hand (wide only) |
    |                               +------------------+
    |                               | feed / answer    |   (narrow: feed / answer below the board)
    +-------------------------------+------------------+
    | question line (the prompt's words)                |
    | status (the screen's toolbar: turn, phase, ...)   |
    | > command line, with completion                   |
    +---------------------------------------------------+

The event feed scrolls by itself; help, legal and any answer longer than the feed open in
an answer pane that takes the feed's place (never the board's) until the next command or
Esc. The completion menu floats inside the lower part only, so it never covers the board.
Below 80x24 the layout says what it needs. Everything else is the line REPL's (`Repl`):
the same commands, the same words, the same transcript; this class only says them into
panes instead of printing them.
"""
from __future__ import annotations

import asyncio

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import set_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.data_structures import Point, Size
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import FormattedText, to_formatted_text
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.layout import (ConditionalContainer, Dimension, Float, FloatContainer, HSplit, Layout,
                                   VSplit, Window)
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.screen import Screen, WritePosition
from prompt_toolkit.layout.mouse_handlers import MouseHandlers

from cli.repl.flags import add_plain, wants_screen
from cli.repl.live import GameEnded, LiveRepl
from cli.repl.loop import CTRL_C, ActionCompleter, Repl, fit
from cli.repl.table_talk import TABLE_HELP
from cli.terminal import plain

__all__ = ["ScreenRepl", "LiveScreenRepl", "render_lines", "wants_screen", "add_plain", "MIN_COLUMNS", "MIN_ROWS",
           "ANSWER_COMMANDS"]

MIN_COLUMNS, MIN_ROWS = 80, 24
WIDE = 120            # from this many columns the hand has a pane of its own, right of the board
FEED_KEEP = 400       # lines of the feed kept for scrolling back
ANSWER_COMMANDS = ("help", "legal", "hand", "scores", "look", "history")


class ScreenRepl(Repl):
    """The REPL as a full-screen Application. `run()` plays the local game (bots answer at
    once); `handle` is the line REPL's, so every command works the same way."""

    def __init__(self, driver, **kw) -> None:
        super().__init__(driver, **kw)
        self.feed: list[FormattedText] = []
        self.answer: list[FormattedText] | None = None   # the answer pane's text, when open
        self._capture: list[FormattedText] | None = None
        self.input_buffer = Buffer(multiline=False, completer=ActionCompleter(driver, self.screen),
                                   complete_while_typing=False, accept_handler=self._accept,
                                   history=self.session.history)
        self.app = self._application(kw.get("input"), kw.get("output"))
        self._exit_code = 0

    # -- saying into panes -----------------------------------------------------------------
    printing = False      # after the screen closed: lines are printed as the line REPL does

    def say(self, text, style: str = "") -> None:
        if self.printing:
            super().say(text, style)
            return
        if isinstance(text, str):
            self.transcript.append(text)
            ft = FormattedText([(style, fit(text, self.pane_width() - 1) + "\n")])
        else:
            ft = text
            self.transcript.append(plain(ft).rstrip("\n"))
        if not self.color:
            ft = FormattedText([("", plain(ft))])
        if self._capture is not None:
            self._capture.append(ft)
        else:
            self.feed.append(ft)
            del self.feed[:-FEED_KEEP]
        if hasattr(self, "app"):
            self.app.invalidate()

    def show_board(self, size: str = "") -> None:
        """The board is always in view; `board full|compact` chooses its size."""
        if size:
            self.board_size = size
        self._shown_board = plain(self.board_text())

    board_size = ""

    def board_text(self, size: str = ""):
        """The full board when it fits with the lower part (SPEC §31.9), else the compact one;
        `board full` / `board compact` choose."""
        size = size or self.board_size
        if size or not {"full", "compact"} <= set(self.screen.board_sizes):
            return self.screen.board_text(size)
        full = self.screen.board_text("full")
        rows = plain(full).rstrip("\n").count("\n") + 1
        below = 5 if self.width() >= WIDE else 5 + 3     # question, status, command (+ the feed)
        return full if rows + below <= self.height() else self.screen.board_text("compact")

    def width(self) -> int:
        try:
            return self.app.output.get_size().columns or MIN_COLUMNS
        except Exception:  # noqa: BLE001 - before the app exists, or a closed output
            return MIN_COLUMNS

    def height(self) -> int:
        try:
            return self.app.output.get_size().rows or MIN_ROWS
        except Exception:  # noqa: BLE001
            return MIN_ROWS

    def handle(self, line: str) -> bool:
        """The line REPL's handling; what a command answers opens the answer pane when it is
        one of ANSWER_COMMANDS, or an answer (nothing played) longer than the feed can show."""
        word = line.strip().split(" ", 1)[0].lower()
        self.answer = None
        self._capture = []
        before = self.kit.state_hash(self.driver.state())
        try:
            keep = super().handle(line)
        finally:
            said, self._capture = self._capture, None
        lines = sum(plain(ft).count("\n") for ft in said)
        played = self.kit.state_hash(self.driver.state()) != before   # what happened: the feed's
        if said and (word in ANSWER_COMMANDS or (lines > self._feed_rows() and not played)):
            self.answer, self.answer_top = said, 0
        else:
            self.feed.extend(said)
        return keep

    def _feed_rows(self) -> int:
        return max(3, self.height() - self._board_rows() - 4)

    def _board_rows(self) -> int:
        """The board's rows; while the answer pane is open, without the key lines under the
        board (the screen's `key_rows`), which go to the answer (issue 22: at 80x24 the pane
        had 3 lines)."""
        rows = plain(self.board_text()).rstrip("\n").count("\n") + 1
        if self.answer is not None:
            rows -= min(rows - 1, max(0, getattr(self.screen, "key_rows", lambda: 0)()))
        return rows

    def _board_columns(self) -> int:
        return max(len(line) for line in plain(self.board_text()).split("\n"))

    def pane_width(self) -> int:
        """The feed's and the answer pane's width: beside the board when wide, else all of it."""
        if self.width() >= WIDE:
            return max(20, self.width() - self._board_columns() - 1)
        return self.width()

    # -- the layout --------------------------------------------------------------------------
    def _application(self, input, output) -> Application:
        too_small = Condition(lambda: self.width() < MIN_COLUMNS or self.height() < MIN_ROWS)
        wide = Condition(lambda: self.width() >= WIDE)
        has_hand = Condition(lambda: self.screen.hand_text() is not None)
        board = Window(FormattedTextControl(self._board_fragments), wrap_lines=False,
                       width=lambda: Dimension.exact(self._board_columns()),
                       height=lambda: Dimension.exact(self._board_rows()))
        feed = Window(FormattedTextControl(self._feed_fragments, get_cursor_position=self._feed_end),
                      wrap_lines=True, height=Dimension(min=3))
        answer = self.answer_window = Window(FormattedTextControl(self._answer_fragments), wrap_lines=False,
                                             height=Dimension(min=3))
        lower_pane = HSplit([
            ConditionalContainer(answer, filter=Condition(lambda: self.answer is not None)),
            ConditionalContainer(feed, filter=Condition(lambda: self.answer is None)),
        ])
        hand = Window(FormattedTextControl(self._hand_fragments), wrap_lines=False,
                      height=Dimension(max=14), dont_extend_height=True)
        right = HSplit([ConditionalContainer(hand, filter=has_hand), lower_pane])
        top = HSplit([
            ConditionalContainer(VSplit([board, Window(width=1, char="│"), right]), filter=wide),
            ConditionalContainer(HSplit([board, lower_pane]), filter=~wide),
        ])
        # the question repeats the status line's whose-move words: its row goes to an open answer
        question = ConditionalContainer(
            Window(FormattedTextControl(self._question_fragments), height=1, wrap_lines=False),
            filter=Condition(lambda: self.answer is None))
        status = Window(FormattedTextControl(self._status_fragments), wrap_lines=False, style="reverse",
                        height=lambda: Dimension.exact(plain(self._toolbar()).rstrip("\n").count("\n") + 1))
        command = VSplit([Window(FormattedTextControl(lambda: [("bold", "> ")]), width=2),
                          Window(BufferControl(self.input_buffer), height=1)])
        bottom = FloatContainer(HSplit([question, status, command]), floats=[
            # the menu opens upward from the command line, within the lower part only
            Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=6, scroll_offset=1))])
        body = FloatContainer(HSplit([top, bottom]), floats=[])
        # below 80x24: no board (its rows would wrap), the rest as usual, and a line saying why
        small = HSplit([Window(FormattedTextControl(self._too_small_fragments), wrap_lines=True,
                               height=Dimension.exact(2)), lower_pane, bottom])
        root = HSplit([ConditionalContainer(small, filter=too_small),
                       ConditionalContainer(body, filter=~too_small)])
        keys = KeyBindings()

        # eager: Esc closes an open answer at once, so a letter typed right after it types, not
        # read as Meta-letter (terminals send Alt+letter as Esc, letter: issue 22)
        @keys.add("escape", eager=True, filter=Condition(lambda: self.answer is not None))
        def _close(event) -> None:
            self.answer = None

        @keys.add("escape")
        def _nothing_open(event) -> None:
            self.answer = None

        @keys.add("pagedown")
        def _down(event) -> None:
            self.scroll_answer(+1)

        @keys.add("pageup")
        def _up(event) -> None:
            self.scroll_answer(-1)

        @keys.add("c-c")
        def _clear(event) -> None:
            if self.input_buffer.text:
                self.input_buffer.reset()
            else:
                self.say(CTRL_C)

        @keys.add("c-d")
        def _eof(event) -> None:
            if not self.input_buffer.text:
                self._line("quit")

        return Application(layout=Layout(root, focused_element=self.input_buffer), key_bindings=keys,
                           full_screen=True, input=input, output=output, mouse_support=False)

    def _board_fragments(self):
        board = self.board_text()
        return to_formatted_text(board if self.color else plain(board))

    def _feed_fragments(self):
        out: list = []
        for ft in self.feed:
            out.extend(ft)
        return out or [("", "(what happens appears here; help lists the commands)\n")]

    def _feed_end(self) -> Point:
        text = "".join(t for ft in self.feed for _, t, *_ in ft)
        return Point(x=0, y=max(0, text.count("\n") - 1))    # the feed scrolls to its last line

    answer_top = 0

    def _answer_lines(self) -> list[str]:
        return "".join(plain(ft) for ft in self.answer or []).rstrip("\n").split("\n")

    def _answer_rows(self, drawing: bool = False) -> int:
        info = self.answer_window.render_info
        if info is not None and not drawing:   # as last drawn (a scroll between draws)
            return max(2, info.window_height - 1)
        if self.width() < WIDE:   # below the board: what board, status and command line leave
            status = plain(self._toolbar()).rstrip("\n").count("\n") + 1
            return max(2, self.height() - self._board_rows() - status - 1 - 1)
        return max(2, (info.window_height if info is not None else self._feed_rows()) - 1)

    def scroll_answer(self, pages: int) -> None:
        if self.answer is None:
            return
        rows = self._answer_rows()
        last = max(0, len(self._answer_lines()) - rows)
        self.answer_top = min(last, max(0, self.answer_top + pages * rows))

    def _answer_fragments(self):
        lines = self._answer_lines()
        rows = self._answer_rows(drawing=True)
        shown = lines[self.answer_top:self.answer_top + rows]
        end = self.answer_top + len(shown)
        more = f"lines {self.answer_top + 1}-{end} of {len(lines)}, PgUp/PgDn; " if len(lines) > rows else ""
        return [("", "\n".join(shown) + "\n"), ("italic", f"({more}Esc or the next command closes this)")]

    def _hand_fragments(self):
        text = self.screen.hand_text()
        return to_formatted_text(text if text is not None and self.color else plain(text or ""))

    def _question_fragments(self):
        words = self._prompt_text().rstrip().rstrip(">").rstrip()
        return [("bold", words)]

    def _status_fragments(self):
        return to_formatted_text(self._toolbar())

    def _too_small_fragments(self):
        return [("", f"The game screen needs {MIN_COLUMNS}x{MIN_ROWS}; this terminal is "
                     f"{self.width()}x{self.height()}. Enlarge it, or start again with --plain.\n")]

    # -- the loop ----------------------------------------------------------------------------
    def _accept(self, buffer: Buffer) -> bool:
        self._line(buffer.text)
        return False          # the buffer is cleared (kept in history)

    def _line(self, text: str) -> None:
        if not self.handle(text):
            self.say("left the game")
            self.app.exit(result=0)
            return
        self.after_line()

    def after_line(self) -> None:
        """Between lines the local game plays the others at once; auto-pass answers."""
        while not self.driver.is_over() and self.play_automatic():
            pass
        if self.driver.is_over() and self.app.is_running:
            self.app.exit(result=0)

    def closed(self) -> None:
        """The screen is gone: the last lines of the feed, then print as the line REPL."""
        self.printing = True
        for ft in self.feed[-6:]:
            super().say(ft)

    def run(self) -> int:
        self.welcome()
        self.catch_up()
        self.after_line()
        if not self.driver.is_over():
            try:
                self.app.run()
            except EOFError:      # the input ended
                self.say("bye")
        self.closed()
        if self.driver.is_over():
            self.finish()             # the board and the final scoreboard, printed to stay
        return 0


class LiveScreenRepl(ScreenRepl, LiveRepl):
    """The game screen of a networked seat: LiveRepl's sink, follower and auto-pass timer,
    the screen's Application instead of the prompt (SPEC §31.2, §31.9)."""

    def running_app(self):
        return self.app

    def run(self) -> int:
        return LiveRepl.run(self)

    def after_line(self) -> None:
        """The live loop's follower and timer do what the local loop does between lines."""

    def _line(self, text: str) -> None:
        if not self.handle(text):
            self.app.exit(result=True)            # this seat leaves

    async def read_loop(self) -> bool:
        try:
            left = await self.app.run_async()
        except GameEnded:
            return False
        except EOFError:          # the input ended: as a confirmed quit
            return True
        return bool(left)

    async def run_async(self) -> int:
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self.welcome()
        self.say(TABLE_HELP)
        self.update(first=True)
        self.driver.attach(self)
        follower = asyncio.create_task(self.follow())
        try:
            left = await self.read_loop()
        finally:
            follower.cancel()
        self.closed()
        if left:
            self.say("left the game")
            return 0
        self.update()
        if self.kit.is_over(self.driver.state()):
            self.finish()
        else:
            reason = getattr(self.driver, "end_reason", lambda: None)()
            if reason:
                self.say(reason, "fg:ansiyellow")
            self.say("the game ended before its end; no final scoreboard", "bold")
        return 0


def render_lines(repl: ScreenRepl, columns: int = MIN_COLUMNS, rows: int = MIN_ROWS) -> list[str]:
    """The screen as text, drawn at a fixed size (for tests: what a person would see). Inside
    the running screen it draws at once; outside, on an event loop of its own (the command
    line's history loads on one)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_drawn(repl, columns, rows))
    return draw(repl, columns, rows)


async def _drawn(repl: ScreenRepl, columns: int, rows: int) -> list[str]:
    return draw(repl, columns, rows)


def draw(repl: ScreenRepl, columns: int, rows: int) -> list[str]:
    screen = Screen()
    output = repl.app.output
    size = output.get_size
    output.get_size = lambda: Size(rows=rows, columns=columns)   # type: ignore[method-assign]
    repl.app.render_counter += 1      # the controls cache their text per render
    try:
        with set_app(repl.app):
            repl.app.layout.container.write_to_screen(
                screen, MouseHandlers(), WritePosition(0, 0, columns, rows),
                parent_style="", erase_bg=False, z_index=None)
            screen.draw_all_floats()
    finally:
        output.get_size = size   # type: ignore[method-assign]
    return ["".join(screen.data_buffer[y][x].char for x in range(columns)).rstrip() for y in range(rows)]
