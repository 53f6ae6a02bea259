"""The REPL seat (SPEC §31): a prompt_toolkit loop that turns typed notation into actions.

The game source is a SeatDriver: the local driver (cli.local_game) runs bots and a local
dealer in this process; the network driver (cli.net_driver) implements the same methods and
the live loop (cli.repl_live) besides. The read-only commands are in cli.repl_commands. The REPL holds
no rules: it parses with engine.parse_action, offers engine.legal_actions for completion and
prints what the engine says when it refuses an action.
"""
from __future__ import annotations

import difflib
import os
import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Protocol

from prompt_toolkit import PromptSession, print_formatted_text
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.history import FileHistory, History, InMemoryHistory

from p2p_asv import actions as A
from p2p_asv.cards import CARDS
from p2p_asv.endgame import result
from p2p_asv.errors import EngineError
from p2p_asv.engine import parse_action
from p2p_asv.state import CHANCE, GameState
from p2p_asv.tiles import TILE_BY_ID
from p2p_asv.view import PlayerView

from . import explain, narrate, render
from .narrate import natural_key
from .repl_commands import COMMANDS, InfoCommands, note_of


@dataclass(frozen=True)
class Happened:
    """One event applied: seat CHANCE (-1) for a deck operation. `notes` are the lines the
    event earns besides its own (score changes with their reasons, SPEC §31.3); `settled` the
    Special Actions it cancelled or redirected (narrate.Settled, SPEC §31.3)."""
    seat: int
    action: object
    notes: tuple[str, ...] = ()
    settled: tuple = ()


class SeatDriver(Protocol):
    """What the REPL needs from a game source (local bots now, network peers later)."""
    seat: int
    labels: list[str]            # who sits in each seat, e.g. "you", "greedy bot", a peer name

    def state(self) -> GameState: ...
    def view(self) -> PlayerView: ...
    def legal(self) -> list: ...                    # legal actions of this seat now
    def submit(self, action) -> None: ...           # raises EngineError; state kept on refusal
    def wait_for_turn(self) -> list[Happened]: ...  # until this seat is due or the game is over
    def is_over(self) -> bool: ...


class ActionCompleter(Completer):
    """Completes the whole line to a legal action (or a command, or a card name after help)."""

    def __init__(self, driver: SeatDriver) -> None:
        self.driver = driver

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        typed = document.text_before_cursor
        low = typed.lstrip().lower()
        start = -len(typed)
        if low.startswith("help "):
            word = low[5:].strip()
            for card in CARDS:
                if card.name.lower().startswith(word):
                    yield Completion(f"help {card.name}", start, display=card.name,
                                     display_meta=card.category.replace("_", " "))
            return
        state = self.driver.state()
        for action in sorted(self.driver.legal(), key=lambda a: natural_key(a.text())):
            text = action.text()
            if text.startswith(low):
                yield Completion(text, start, display_meta=note_of(state, action))
        for name in COMMANDS:
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


SQUARE_TOKEN = re.compile(r"^([A-Ma-m])-?(\d{1,2})(/\d)?$")
CONFIRM_WORDS = ("y", "yes")
CTRL_C = "(Ctrl-C clears the line; quit or Ctrl-D leaves the game)"
ACTION_WORDS = tuple(A.verbs())      # the engine's action verbs (SPEC §11.1)
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


def normal_squares(text: str) -> str:
    """Words that name a square in any usual way (d4, D4, d-4) become the notation's D-4."""
    out = []
    for word in text.split():
        m = SQUARE_TOKEN.match(word)
        out.append(f"{m.group(1).upper()}-{m.group(2)}{m.group(3) or ''}" if m else word)
    return " ".join(out)


# Which arguments of an action word name a card (`#N:name`, SPEC §11.1); None: every one.
NAMED_ARGS = {"ship": (0,), "upgrade": (1,), "extra": (1,), "rookie": (0,), "quest": (0,),
              "discover": (0,), "binary": (0,), "env": (0,), "life": None, "explorer": (0,),
              "teleport": (1,), "special": (0,)}
BARE_HANDLE = re.compile(r"^#(\d+)$")


def name_handles(text: str, name_of) -> str:
    """A card typed by handle alone (`env #92`, as hands and prompts show it) gets the name
    the notation wants (`env #92:very-hot`) when `name_of(handle)` knows it; other words
    are left as typed, so the engine's own message still explains a bad one."""
    words = text.split()
    if not words or words[0].lower() not in NAMED_ARGS:
        return text
    slots = NAMED_ARGS[words[0].lower()]
    for i in range(1, len(words)):
        m = BARE_HANDLE.match(words[i])
        if m and (slots is None or i - 1 in slots):
            name = name_of(int(m.group(1)))
            if name:
                words[i] = f"#{m.group(1)}:{A.slug(name)}"
    return " ".join(words)


def _stage(state: GameState) -> tuple:
    """Where the turn stands: a change (a new phase, a discovery ended) earns a phase line."""
    return state.turn, state.phase, state.discovery is None


class Repl(InfoCommands):
    """The seat's REPL. `run()` reads and plays line by line (the local game, whose bots
    answer at once); cli.repl_live.LiveRepl reads while the network plays (SPEC §31)."""

    def __init__(self, driver: SeatDriver, *, color: bool = True, input=None, output=None,
                 history: History | None = None) -> None:
        self.driver = driver
        self.color = color
        self.output = output
        self.transcript: list[str] = []     # plain text of everything said, for tests and logs
        self.happened: list[str] = []       # what the game did, for `history`
        self.status_items: dict[str, str] = {}   # toolbar items pushed by the driver (clock, peers)
        self.confirm: tuple[str, object] | None = None   # a question before an irreversible step
        self._shown_board = ""
        self.session = PromptSession(
            input=input, output=output, history=history or InMemoryHistory(),
            completer=ActionCompleter(driver), complete_while_typing=False,
            bottom_toolbar=self._toolbar)

    # -- output --------------------------------------------------------------------------------
    def say(self, text: FormattedText | str, style: str = "") -> None:
        """Print a message (a str is wrapped to the terminal's width, SPEC §31.6); the
        transcript keeps it unwrapped."""
        if isinstance(text, str):
            self.transcript.append(text)
            ft = FormattedText([(style, fit(text, self.width() - 1) + "\n")])
            plain = render.plain(ft)
        else:
            ft = text
            plain = render.plain(ft)
            self.transcript.append(plain.rstrip("\n"))
        if self.color:
            print_formatted_text(ft, end="", output=self.output)
        else:
            print_formatted_text(plain, end="", output=self.output)

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
        ft = render.toolbar(self.driver.state(), self.driver.view(), width=self.width(),
                            status=" · ".join(self.status_items.values()), letters=not self.color)
        return ft if self.color else render.plain(ft)

    def board_text(self, size: str = "") -> FormattedText:
        """The board, compact on a terminal too short for the full one unless `size` says."""
        state = self.driver.state()
        compact = size == "compact" or (size != "full" and self.height() < render.FULL_BOARD_ROWS)
        return render.board(state, tuple(state.placed_this_turn), compact=compact, letters=not self.color)

    def show_board(self, size: str = "") -> None:
        ft = self.board_text(size)
        self._shown_board = render.plain(ft)
        self.say(ft)

    def _prompt_text(self) -> str:
        if self.confirm is not None:
            return f"{self.confirm[0]} [y/N]> "
        return narrate.prompt(self.driver.state(), self.driver.seat, self.driver.legal())

    # -- the loop ------------------------------------------------------------------------------
    def read_line(self) -> str:
        return self.session.prompt(self._prompt_text)

    def welcome(self) -> None:
        state = self.driver.state()
        seats = ", ".join(f"{p.colour}{render.seat_mark(p.colour, not self.color)}: "
                          f"{self.driver.labels[p.seat]}" for p in state.players)
        self.say(f"Amazing Space Venture, {len(state.players)} players ({seats}). "
                 "Type help for commands, help rules for the game, Tab to complete actions.", "bold")

    def run(self) -> int:
        self.welcome()
        self.catch_up()
        seen_step = None
        while not self.driver.is_over():
            step = self.driver.state().step
            if step != seen_step and render.plain(self.board_text()) != self._shown_board:
                self.show_board()
            seen_step = step
            try:
                line = self.read_line()
            except KeyboardInterrupt:
                self.say(CTRL_C)
                continue
            except EOFError:
                self.say("bye")
                return 0
            if not self.handle(line):
                self.say("left the game")
                return 0
        self.finish()
        return 0

    def finish(self) -> None:
        state = self.driver.state()
        self.show_board()
        self.say(render.final(state, result(state)))

    def catch_up(self) -> None:
        """Let the others play until this seat is due, with a line for each event."""
        self.tell(self.driver.wait_for_turn())

    def tell(self, events: list[Happened], *, own_echoed: bool = True) -> None:
        for event in events:
            for line in self.describe(event, own_echoed=own_echoed):
                self.happened.append(render.plain(line).rstrip("\n"))
                self.say(line)
        del self.happened[:-HISTORY_KEEP]

    def describe(self, event: Happened, *, own_echoed: bool = True) -> list[FormattedText]:
        """The lines one applied event earns: the action (not for this seat's own when it was
        echoed as typed; a resumed seat is told its own too), a hidden card dealt, then each
        score change with its reason."""
        state, seat = self.driver.state(), self.driver.seat
        action = event.action
        out: list[FormattedText] = []
        if event.seat == seat and not own_echoed:
            out.append(FormattedText([("bold", f"you: {action.text()}\n")]))
        elif event.seat != CHANCE and event.seat != seat:
            colour = state.players[event.seat].colour
            note = note_of(state, action)
            out.append(FormattedText([
                (render.STYLE[colour] + " bold", f"{colour}{render.seat_mark(colour, not self.color)}"),
                ("", f" ({self.driver.labels[event.seat]}): {action.text()}"
                     + (f"  [{note}]" if note else "") + "\n")]))
        elif event.seat == CHANCE:
            line = self._chance_line(action)
            if line is not None:
                out.append(line)
        for what in event.settled:   # before the score lines: a cancel is why none came
            text = narrate.settled_line(what, [p.colour for p in state.players], self.driver.labels, seat)
            out.append(FormattedText([("bold", f"  {text}\n")]))
        for text in event.notes:
            out.append(FormattedText([("bold", f"  {text}\n")]))
        return out

    def _chance_line(self, action) -> FormattedText | None:
        state, seat = self.driver.state(), self.driver.seat
        dim = render.DIM
        if isinstance(action, A.ChanceShuffle):
            return FormattedText([(dim, f"  (the {action.deck} deck is shuffled)\n")])
        if isinstance(action, A.ChanceReveal):
            names = ", ".join(f"#{h} {render.card_line(n)}" for h, n in action.cards)
            text = textwrap.fill(names, self.width() - 1, initial_indent="  revealed: ",
                                 subsequent_indent="    ", break_on_hyphens=False)
            line = [(dim, text + "\n")]
            you = state.active == seat
            drawer = "you" if you else state.players[state.active].colour
            draws, takes = ("draw", "take") if you else ("draws", "takes")
            for _, name in action.cards:   # SPEC §31.3: a sun or quest tile drawn is news
                kind = TILE_BY_ID[name].kind if name in TILE_BY_ID else None
                if kind == "sun":
                    line.append(("bold", f"  ☼ a sun: {drawer} {draws} one more tile; "
                                         "it scores when placed\n"))
                elif kind == "quest":
                    line.append(("bold", f"  a quest tile: {drawer} {takes} a special quest and "
                                         f"{draws} one more tile\n"))
            return FormattedText(line)
        if isinstance(action, A.ChanceDeal):
            if action.seat == seat:
                view = self.driver.view()
                names = ", ".join(f"#{h} {view.name_of(h, state.names) or '?'}" for h in action.cards)
                text = textwrap.fill(names, self.width() - 1, initial_indent="  you receive: ",
                                     subsequent_indent="    ", break_on_hyphens=False)
                return FormattedText([("bold", text + "\n")])
            colour = state.players[action.seat].colour
            return FormattedText([(dim, f"  {colour} receives {len(action.cards)} hidden card(s)\n")])
        return None

    # -- one line of input ---------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Do what one typed line asks; False to leave the game. Never raises for bad input."""
        text = line.strip()
        if self.confirm is not None:
            question, action = self.confirm
            self.confirm = None
            if text.lower() in CONFIRM_WORDS or text.lower() == action.text():
                self.play(action, confirmed=True)
                return True
            self.say("not done")
            if text.lower() in ("", "n", "no"):
                return True
        if not text:
            return True
        word, _, rest = text.partition(" ")
        word = word.lower()
        if word in ("quit", "exit"):
            return self.leave()
        if word == "help":
            self.help(rest.strip())
        elif word == "board":
            size = rest.strip().lower()
            if size.startswith("--svg"):
                self.save_picture(rest.strip()[len("--svg"):].strip())
            elif size not in ("", "full", "compact"):
                self.say("board, board full or board compact (or board --svg FILE)", "fg:ansired")
            else:
                self.show_board(size)
        elif word == "hand":
            self.say(render.hand(self.driver.state(), self.driver.view()))
        elif word == "scores":
            self.say(render.scores(self.driver.state()))
        elif word == "legal":
            self.list_legal(normal_squares(rest.strip()))
        elif word == "look":
            self.look(normal_squares(rest.strip()))
        elif word == "history":
            self.history(rest.strip())
        elif text.isascii() and text.isdigit():
            legal = self.legal_sorted()
            n = int(text)
            if not legal:
                self.not_your_turn()
            elif not 1 <= n <= len(legal):
                self.say(f"no legal action number {n} (type legal to list them)", "fg:ansired")
            else:
                self.play(legal[n - 1])
        else:
            try:
                action = parse_action(name_handles(normal_squares(text), self.name_of))
            except EngineError as exc:
                self.refused(exc)
                self.suggest(text)
                return True
            if not self.driver.legal() and not self.driver.is_over():
                self.not_your_turn()
                return True
            self.play(action)
        return True

    def name_of(self, handle: int) -> str | None:
        """The card a handle names, as far as this seat knows."""
        return self.driver.view().name_of(handle, self.driver.state().names)

    def leave(self) -> bool:
        """`quit`: False leaves the game. LiveRepl asks first in a live game."""
        return False

    def not_your_turn(self) -> None:
        state = self.driver.state()
        self.say(f"not your turn: {render.whose_move(state, self.driver.seat)}. Nothing was sent.",
                 "fg:ansired")

    def legal_sorted(self) -> list:
        return sorted(self.driver.legal(), key=lambda a: natural_key(a.text()))

    def play(self, action, *, confirmed: bool = False) -> None:
        state = self.driver.state()
        if isinstance(action, A.Next) and not confirmed:
            guard = explain.next_guard(state, self.driver.legal())
            if guard is not None:
                why, question = guard
                self.confirm = (question, action)
                self.say(f"{why} y or next: go on, else stay.")
                return
        phase_before = _stage(state)
        if not self.submit(action):
            return
        self.say(f"you: {action.text()}", "bold")
        self.after_own_action(phase_before)

    def submit(self, action) -> bool:
        try:
            self.driver.submit(action)
        except EngineError as exc:
            self.refused(exc, action)
            return False
        except Exception as exc:  # an engine bug: say so, the driver kept the state
            self.say(f"internal error, state unchanged: {type(exc).__name__}: {exc}", "fg:ansired bold")
            return False
        return True

    def after_own_action(self, phase_before) -> None:
        self.catch_up()
        self.announce_phase(phase_before)

    def announce_phase(self, phase_before) -> None:
        """Say so when this seat's own action moved it to another phase (SPEC §31.5)."""
        state, seat = self.driver.state(), self.driver.seat
        if state.over or _stage(state) == phase_before or state.active != seat:
            return
        legal = self.driver.legal()
        if not legal:
            return
        if narrate.next_is_forced(state, legal):
            self.say(f"now {render.phase_text(state)}: only next ({explain.only_next(state, seat)})")
        else:
            firsts = sorted({a.text().split()[0] for a in legal}, key=natural_key)
            self.say(f"now {render.phase_text(state)}: {' / '.join(firsts)}")

    def refused(self, exc: EngineError, action=None) -> None:
        kind = {"MalformedAction": "not understood", "OutOfTurn": "not your move",
                "IllegalAction": "not allowed"}.get(type(exc).__name__, "refused")
        better = explain.explain(self.driver.state(), self.driver.seat, action) if action is not None else None
        self.say(f"{kind}: {better or exc}", "fg:ansired")

    def suggest(self, typed: str) -> None:
        """A typo's nearest command or action word: 'did you mean move?'."""
        word = typed.split()[0].lower() if typed.split() else ""
        if word in ACTION_WORDS:     # the word is right, its arguments are not
            self.say(f"help {word} shows how to write it")
            return
        close = difflib.get_close_matches(word, [*COMMANDS, *ACTION_WORDS], n=1, cutoff=0.6)
        if close:
            self.say(f"did you mean {close[0]}? (help {close[0]})")

