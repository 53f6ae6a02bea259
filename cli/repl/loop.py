"""The REPL seat (SPEC §31): one prompt_toolkit loop, for every game, that turns typed
notation into actions.

The game source is a SeatDriver: the local driver (cli.repl.local) runs bots and a local
dealer in this process; the network driver (cli.netplay.driver) implements the same methods
and the live loop (cli.repl.live) besides. Everything a game shows or explains comes from its
screen (`driver.kit.screen(driver, repl)`, SPEC §34): the board, the prompt, the toolbar, the
lines an event earns, help, the legal list and its own read-only commands. The REPL holds no
rules: it parses with the kit, offers the legal actions for completion and says what the
engine says when it refuses an action.
"""
from __future__ import annotations

import os
import re
import sys
import textwrap
from pathlib import Path
from typing import Iterable, Protocol

from prompt_toolkit import PromptSession, print_formatted_text
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.history import FileHistory, History, InMemoryHistory

from cli.errors import NotSent
from cli.repl.flags import add_auto_pass
from cli.games.kit import GameKit, Happened
from cli.games.refusal_words import refused_line
from cli.picture.svg_doc import save_picture
from cli.repl.table_talk import table_command
from cli.terminal import natural_key, plain

__all__ = ["Repl", "SeatDriver", "ActionCompleter", "Happened", "default_history", "use_colour", "fit",
           "add_auto_pass",
           "natural_key", "CTRL_C", "LEAVE"]


class SeatDriver(Protocol):
    """What the REPL needs from a game source (local bots, or network peers)."""
    kit: GameKit
    seat: int
    labels: list[str]            # who sits in each seat, e.g. "you", "greedy bot", a peer name

    def state(self): ...
    def view(self): ...
    def legal(self) -> list: ...                    # legal actions of this seat now
    def submit(self, action) -> None: ...           # raises a kit engine error; state kept on refusal
    def wait_for_turn(self) -> list[Happened]: ...  # until this seat is due or the game is over
    def is_over(self) -> bool: ...


class ActionCompleter(Completer):
    """Completes the whole line to a legal action (or a command, or a help topic)."""

    def __init__(self, driver: SeatDriver, screen=None) -> None:
        self.driver = driver
        self.screen = screen if screen is not None else driver.kit.screen(driver, None)

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        typed = document.text_before_cursor
        low = typed.lstrip().lower()
        start = -len(typed)
        if low.startswith("help "):
            yield from self.screen.help_completions(low[5:].strip(), start)
            return
        for action in self.screen.legal_sorted():
            text = action.text()
            if text.lower().startswith(low):
                yield Completion(text, start, display_meta=self.screen.note(action))
        for name in self.screen.commands:
            if name.startswith(low) and low:
                yield Completion(name, start, display_meta="command")


def default_history(testing: bool = False) -> History:
    """FileHistory under ~/.config/asv (or $XDG_CONFIG_HOME/asv) unless testing."""
    if testing:
        return InMemoryHistory()
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "asv"
    try:
        base.mkdir(parents=True, exist_ok=True)
        return FileHistory(str(base / "play_history"))
    except OSError:
        return InMemoryHistory()


CONFIRM_WORDS = ("y", "yes")
LEAVE_WORDS = ("y", "yes", "quit", "exit")
CTRL_C = "(Ctrl-C clears the line; quit or Ctrl-D leaves the game)"
HISTORY_KEEP = 500
HANGING = re.compile(r"^(\s*\S.*?\S\s{2,})\S")


def fit(text: str, width: int) -> str:
    """Wrap each line longer than `width`; a continuation lines up under the text after the
    first run of two spaces (the description column of help lines), else under the start."""
    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        m = HANGING.match(line)
        indent = len(line) - len(line.lstrip())
        hang = len(m.group(1)) if m and len(m.group(1)) < width // 2 else (indent + 2 if indent else 0)
        out.append(textwrap.fill(line, width, subsequent_indent=" " * hang,
                                 break_on_hyphens=False, break_long_words=False))
    return "\n".join(out)


def use_colour(no_color_flag: bool) -> bool:
    """Colour only on a terminal, and never under --no-color or NO_COLOR (no-color.org)."""
    return not no_color_flag and not os.environ.get("NO_COLOR") and sys.stdout.isatty()


class _Leave:
    """The confirmed answer to 'leave the game?'."""

    @staticmethod
    def text() -> str:
        return "quit"


LEAVE = _Leave()


class Repl:
    """The seat's REPL. `run()` reads and plays line by line (the local game, whose bots
    answer at once); cli.repl.live.LiveRepl reads while the network plays (SPEC §31)."""

    def __init__(self, driver: SeatDriver, *, color: bool = True, input=None, output=None,
                 history: History | None = None, auto_pass: bool = False) -> None:
        self.driver = driver
        self.auto_pass = auto_pass     # answer by itself what has one answer (SPEC §31.8)
        self.kit = driver.kit
        self.color = color
        self.output = output
        self.transcript: list[str] = []     # plain text of everything said, for tests and logs
        self.happened: list[str] = []       # what the game did, for `history`
        self.status_items: dict[str, str] = {}   # toolbar items pushed by the driver (clock, peers)
        self.confirm: tuple[str, object] | None = None   # a question before an irreversible step
        self.repeat: tuple[str, list[str]] | None = None   # a line of several actions: the last played, the rest
        self.automatic_plays = 0       # actions auto-pass played (the keystroke figures count them)
        self._shown_board = ""
        self.screen = self.kit.screen(driver, self)
        self.session = PromptSession(
            input=input, output=output, history=history or InMemoryHistory(),
            completer=ActionCompleter(driver, self.screen), complete_while_typing=False,
            bottom_toolbar=self._toolbar)

    # -- output --------------------------------------------------------------------------------
    def say(self, text: FormattedText | str, style: str = "") -> None:
        """Print a message (a str is wrapped to the terminal's width, SPEC §31.6); the
        transcript keeps it unwrapped."""
        if isinstance(text, str):
            self.transcript.append(text)
            ft = FormattedText([(style, fit(text, self.width() - 1) + "\n")])
            shown = plain(ft)
        else:
            ft = text
            shown = plain(ft)
            self.transcript.append(shown.rstrip("\n"))
        if self.color:
            print_formatted_text(ft, end="", output=self.output)
        else:
            print_formatted_text(shown, end="", output=self.output)

    def say_command(self, command: str) -> None:
        """A command to copy, on one line of its own however long (never wrapped)."""
        self.say(FormattedText([("bold", f"  {command}\n")]))

    def width(self) -> int:
        try:
            return self.session.output.get_size().columns or 80
        except Exception:  # noqa: BLE001 - a dummy or closed output: assume a small terminal
            return 80

    def height(self) -> int:
        try:
            return self.session.output.get_size().rows or 24
        except Exception:  # noqa: BLE001
            return 24

    def _toolbar(self):
        ft = self.screen.toolbar(" · ".join(self.status_items.values()))
        return ft if self.color else plain(ft)

    def board_text(self, size: str = "") -> FormattedText:
        return self.screen.board_text(size)

    def show_board(self, size: str = "") -> None:
        ft = self.board_text(size)
        self._shown_board = plain(ft)
        self.say(ft)

    def _prompt_text(self) -> str:
        if self.confirm is not None:
            return f"{self.confirm[0]} [y/N]> "
        return self.screen.prompt()

    # -- the loop ------------------------------------------------------------------------------
    def read_line(self) -> str:
        return self.session.prompt(self._prompt_text)

    def welcome(self) -> None:
        self.say(self.screen.welcome(), "bold")

    def run(self) -> int:
        self.welcome()
        self.catch_up()
        seen = None
        while not self.driver.is_over():
            now = self.kit.state_hash(self.driver.state())
            if now != seen and plain(self.board_text()) != self._shown_board:
                self.show_board()
            seen = now
            if self.play_automatic():
                continue
            try:
                line = self.read_line()
            except KeyboardInterrupt:
                self.say(CTRL_C)
                continue
            except EOFError:             # Ctrl-D: as quit (asks first in a networked game)
                if not self.asked_to_leave() and self.leave():
                    continue
                self.say("bye")
                return 0
            if not self.handle(line):
                self.say("left the game")
                return 0
        self.finish()
        return 0

    def finish(self) -> None:
        self.show_board()
        self.say(self.screen.final())

    def catch_up(self) -> None:
        """Let the others play until this seat is due, with a line for each event."""
        self.tell(self.driver.wait_for_turn())

    def tell(self, events: list[Happened], *, own_echoed: bool = True) -> None:
        for event in events:
            for line in self.describe(event, own_echoed=own_echoed):
                self.happened.append(plain(line).rstrip("\n"))
                self.say(line)
        del self.happened[:-HISTORY_KEEP]

    def describe(self, event: Happened, *, own_echoed: bool = True) -> list[FormattedText]:
        """The lines one applied event earns (the action, unless it is this seat's own and was
        echoed as typed; a resumed seat is told its own too), as the game's screen says them."""
        return self.screen.describe(event, own_echoed=own_echoed)

    # -- one line of input ---------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Do what one typed line asks; False to leave the game. Never raises for bad input."""
        text = line.strip()
        if self.confirm is not None:
            question, action = self.confirm
            self.confirm = None
            if action is LEAVE:
                if text.lower() in LEAVE_WORDS:
                    return False
                self.say("staying in the game")
            elif text.lower() in CONFIRM_WORDS or text.lower() == action.text():
                self.play(action, confirmed=True)
                return True
            else:
                self.say("not done")
            if text.lower() in ("", "n", "no"):
                return True
        if not text:
            return True
        word, _, rest = text.partition(" ")
        word, rest = word.lower(), rest.strip()
        if word in ("quit", "exit"):
            return self.leave()
        if word == "help":
            self.screen.help(rest)
        elif word == "board":
            if rest.lower().startswith("--svg"):
                self.save_picture(rest[len("--svg"):].strip())
            elif rest.lower() not in self.screen.board_sizes:
                self.say(self.screen.board_usage, "fg:ansired")
            else:
                self.show_board(rest.lower())
        elif word == "legal":
            self.screen.list_legal(rest)
        elif word == "history" and "history" in self.screen.commands:
            self.history(rest)
        elif text.isascii() and text.isdigit():
            legal = self.legal_sorted()
            n = int(text)
            if not legal:
                self.not_your_turn()
            elif not 1 <= n <= len(legal):
                self.say(f"no legal action number {n} (type legal to list them)", "fg:ansired")
            else:
                self.play(legal[n - 1])
        elif table_command(self, word, rest):   # say, undo, yes, no (SPEC §29.17, §29.18)
            pass
        elif not self.screen.command(word, rest):
            steps = self.screen.sequence(text)
            text = steps[0]
            try:
                action = self.kit.parse_action(self.screen.read(text))
            except self.kit.engine_errors as exc:
                self.refused(exc)
                self.suggest(text)
                return True
            if not self.driver.legal() and not self.driver.is_over():
                self.not_your_turn()
                return True
            self.repeat = (text, steps[1:]) if len(steps) > 1 else None
            self.play(action)
        return True

    def go_on_repeating(self) -> None:
        """`draw refuel 4`, `draw-tile 1 2 4` (SPEC §31.4): the next action of the line, one at
        a time as the rules allow, while it is legal and this seat is due; it stops at the
        first that is not."""
        if self.repeat is None or self.confirm is not None or self.driver.is_over():
            return
        done, rest = self.repeat
        legal = self.driver.legal()
        if not legal:
            return                       # the deal is on its way (a networked game): wait
        if not rest:
            self.repeat = None
            return
        try:
            action = self.kit.parse_action(self.screen.read(rest[0]))
        except self.kit.engine_errors:
            action = None
        if action not in legal:
            self.say(f"({rest[0]} stops here: {len(rest)} more not allowed now)")
            self.repeat = None
            return
        self.repeat = (rest[0], rest[1:])
        self.play(action)

    def automatic(self):
        """The action auto-pass plays for this seat now, or None (SPEC §31.8)."""
        if not self.auto_pass or self.confirm is not None or self.driver.is_over():
            return None
        return self.screen.automatic()

    def play_automatic(self) -> bool:
        action = self.automatic()
        if action is None:
            return False
        self.say(f"(auto: {action.text()}, the only answer)", "fg:ansibrightblack")
        self.play(action)
        self.automatic_plays += 1
        return True

    def leave(self) -> bool:
        """`quit`: False leaves the game. In a game others wait on (the driver can say how to
        come back) it asks first (SPEC §31.2, §48.1); LiveRepl always asks."""
        if not hasattr(self.driver, "resume_hint"):
            return False
        return self.ask_to_leave()

    def asked_to_leave(self) -> bool:
        return self.confirm is not None and self.confirm[1] is LEAVE

    def ask_to_leave(self) -> bool:
        """Ask 'leave the game?' and say how to come back; True: the seat stays for now."""
        if self.driver.is_over():
            return False
        hint = getattr(self.driver, "resume_hint", lambda: None)()
        self.confirm = ("leave the game?", LEAVE)
        self.say("The others cannot go on without you until you come back"
                 + ("; come back with:" if hint else "."))
        if hint:
            self.say_command(hint)
        self.say("y or quit: leave, else stay.")
        return True

    def not_your_turn(self) -> None:
        self.say(f"not your turn: {self.screen.whose_move()}. Nothing was sent.", "fg:ansired")

    def legal_sorted(self) -> list:
        return self.screen.legal_sorted()

    def play(self, action, *, confirmed: bool = False) -> None:
        if not confirmed:
            guard = self.screen.guard(action)
            if guard is not None:
                why, question = guard
                self.confirm = (question, action)
                self.say(f"{why} y or {action.text()}: go on, else stay.")
                return
        stage_before = self.screen.stage()
        if not self.submit(action):
            return
        self.say(f"you: {action.text()}", "bold")
        self.happened.append(f"you: {action.text()}")   # history holds this seat's own too (issue 22)
        self.after_own_action(stage_before)

    def submit(self, action) -> bool:
        try:
            self.driver.submit(action)
        except (*self.kit.engine_errors, NotSent) as exc:   # refused, or not sent: nothing changed
            self.repeat = None
            self.refused(exc, action)
            return False
        except Exception as exc:  # an engine bug: say so, the driver kept the state
            self.say(f"internal error, state unchanged: {type(exc).__name__}: {exc}", "fg:ansired bold")
            return False
        return True

    def after_own_action(self, stage_before) -> None:
        self.catch_up()
        self.announce_phase(stage_before)
        self.go_on_repeating()

    def announce_phase(self, stage_before) -> None:
        """Say so when this seat's own action moved it to another phase (SPEC §31.5)."""
        line = self.screen.announce(stage_before)
        if line:
            self.say(line)

    def refused(self, exc: Exception, action=None) -> None:
        self.say(refused_line(exc, self.screen.explain(action) if action is not None else None), "fg:ansired")

    def suggest(self, typed: str) -> None:
        """A typo's nearest command or action word: 'did you mean move?'."""
        line = self.screen.suggest(typed)
        if line:
            self.say(line)

    def history(self, arg: str) -> None:
        if arg and not (arg.isascii() and arg.isdigit()):   # it showed the last 20 without a word
            self.say(f"history takes a number of lines, e.g. history 50 ({arg!r} is not one)", "fg:ansired")
            return
        n = int(arg) if arg else 20
        lines = self.happened[-n:] if n else []
        self.say("\n".join(lines) if lines else "nothing has happened yet")

    def save_picture(self, path: str) -> None:
        """board --svg FILE (SPEC §31.7). Only the public state is drawn, so the picture
        shows nothing this seat's view may not."""
        state = self.driver.state()
        caption = self.screen.picture_caption()
        ok, line = save_picture(path, lambda: self.kit.picture(state, caption=caption,
                                                               labels=list(self.driver.labels)))
        self.say(line, "" if ok else "fg:ansired")
