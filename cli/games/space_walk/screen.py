"""The Space Walk REPL (SPEC §48): type notation, Tab completes the legal actions, the orbit
is drawn as a ring whenever it changed; `help rules` tells the rules. Holds no rules itself:
it parses with space_walk.parse_action and says what the engine says when it refuses."""
from __future__ import annotations

from typing import Iterable

from prompt_toolkit import PromptSession, print_formatted_text
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.history import History, InMemoryHistory

from space_walk import SpaceWalkError, parse_action
from space_walk.orbit import CARD_KINDS, CARD_TEXT, COLOURS, SIZE_NAMES, SIZES

from cli.games.space_walk import render as sw_render
from cli.picture.svg_doc import save_picture
from cli.games.space_walk.board_svg import board_svg
from cli.games.asv.render import plain
from cli.repl.loop import CTRL_C, Happened

COMMANDS = {
    "help": "help                commands and notation; help rules: the rules; help CARD: a card",
    "board": "board               draw the orbit\n"
             "board --svg FILE    save the orbit and scores as an SVG picture to share",
    "legal": "legal [PREFIX]      the actions you may take now, numbered; type a number to play one",
    "look": "look SQUARE         the ships on a square, largest first",
    "quit": "quit                leave the game (also Ctrl-D)",
}

NOTATION = """\
Actions (Tab completes the legal ones; squares are 1..L clockwise, ships are colour initial + size):
  place L 5                put one of your ships (L, M or S) on square 5     placement round
  move 5                   move every ship on square 5 (one of them yours)   your turn
  move 5 BM YM GS          ... in this order, when two colours share a size there
  token move 5             after your turn: a token for another turn
  token step L 5           a token: your large ship on square 5 one square on
  pass                     use no token now
  card move 5 | card twice 5 | card step L 5 | card skip | card copy ...   action-card variant"""

RULES = """\
Space Walk: keep your ships out of the black holes; only ships still in orbit score.
- Two players play the small orbit (14 squares, black holes on 7 and 14), three to five the
  large one (21 squares, holes on 7, 14 and 21). Everyone has 3 large, 3 medium, 3 small ships.
- Placement: in turn, each puts one ship on any square that is not a hole and holds no ship of
  that size yet (colours do not matter), until all ships are out.
- A turn: pick a square holding one of your ships and move every ship on it, anyone's: large
  first, then medium, then small; you order equal sizes. The 1st ship moves 1 square, the 2nd
  2, the 3rd 3 and so on (a lone ship moves 1). A ship landing on a black hole is lost.
- Tokens (4 each, 3 with five players), at most one a round (from your turn to your next):
  right after your turn, another whole turn or one of your ships one square; or, before another
  player's turn, one of your ships one square. You are asked when you may use one.
- The game ends when someone has no ship left in orbit: that player scores 0; the others score
  4 per large, 3 per medium, 1 per small ship in orbit and 2 per unused token. Best score wins.
- Action-card variant (--variant action-cards): no tokens; each turn play one of your 8 cards:
  4 move, twice, copy (do what the previous player's last card did), step, skip. Played cards
  go on your own pile; when your hand is empty you take the pile back."""


LEGAL_LIST_LIMIT = 30


class SwCompleter(Completer):
    def __init__(self, driver) -> None:
        self.driver = driver

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        typed = document.text_before_cursor
        low = typed.lstrip().lower()
        start = -len(typed)
        if low.startswith("help "):
            for topic in ("rules", "notation", *CARD_KINDS):
                if topic.startswith(low[5:].strip()):
                    yield Completion(f"help {topic}", start, display=topic)
            return
        for action in self.driver.legal():
            text = action.text()
            if text.lower().startswith(low):
                yield Completion(text, start)
        for name in COMMANDS:
            if low and name.startswith(low):
                yield Completion(name, start, display_meta="command")


class SwRepl:
    def __init__(self, driver, *, color: bool = True, input=None, output=None,
                 history: History | None = None) -> None:
        self.driver = driver
        self.color = color
        self.output = output
        self.transcript: list[str] = []
        self._shown = ""
        self.leaving = False   # asked "leave the game?" (networked only), waiting for the answer
        self.session = PromptSession(input=input, output=output, history=history or InMemoryHistory(),
                                     completer=SwCompleter(driver), complete_while_typing=False,
                                     bottom_toolbar=lambda: sw_render.due_text(self.driver.state()))

    def say(self, text: FormattedText | str, style: str = "") -> None:
        ft = FormattedText([(style, text + "\n")]) if isinstance(text, str) else text
        self.transcript.append(plain(ft).rstrip("\n"))
        print_formatted_text(ft if self.color else plain(ft), end="", output=self.output)

    def say_command(self, command: str) -> None:
        """A command to copy, on one line of its own however long (never wrapped)."""
        self.say(FormattedText([("bold", f"  {command}\n")]))

    def board_text(self) -> FormattedText:
        return sw_render.board(self.driver.state(), self.driver.seat)

    def show_board(self) -> None:
        ft = self.board_text()
        self._shown = plain(ft)
        self.say(ft)

    def save_picture(self, path: str) -> None:
        """board --svg FILE (SPEC §31.7): Space Walk hides nothing, so this is everyone's picture."""
        state = self.driver.state()
        caption = f"as {COLOURS[self.driver.seat]} saw it after {state.events} actions"
        ok, line = save_picture(path, lambda: board_svg(state, caption=caption, labels=list(self.driver.labels)))
        self.say(line, "" if ok else "fg:ansired")

    def read_line(self) -> str:
        return self.session.prompt(f"{COLOURS[self.driver.seat]}> ")

    def run(self) -> int:
        state = self.driver.state()
        seats = ", ".join(f"{COLOURS[s]}: {self.driver.labels[s]}" for s in range(state.players))
        variant = " with action cards" if state.action_cards else ""
        self.say(f"Space Walk{variant}, {state.players} players ({seats}). Type help for commands, "
                 "help rules for the rules, Tab to complete actions.", "bold")
        self.catch_up()
        while not self.driver.is_over():
            if plain(self.board_text()) != self._shown:
                self.show_board()
            try:
                line = self.read_line()
            except KeyboardInterrupt:   # as the main REPL: say how to leave (SPEC §48)
                self.say(CTRL_C)
                continue
            except EOFError:             # Ctrl-D: as quit (asks first in a networked game)
                if not self.may_leave():
                    continue
                self.say("bye")
                return 0
            if not self.handle(line):
                self.say("left the game")
                return 0
        self.show_board()
        self.say(sw_render.final(self.driver.state()))
        return 0

    def catch_up(self) -> None:
        for event in self.driver.wait_for_turn():
            self.say(self.describe(event))

    def describe(self, event: Happened) -> FormattedText:
        colour = COLOURS[event.seat]
        return FormattedText([(sw_render.STYLE[colour] + " bold", colour),
                              ("", f" ({self.driver.labels[event.seat]}): {event.action.text()}\n")])

    def may_leave(self) -> bool:
        """Whether the seat leaves now: at once against bots on this machine; in a networked
        game (the driver can say how to come back) only when asked twice, because the others
        cannot go on without this seat, as the main REPL does (SPEC §48.1, §31.2)."""
        if self.leaving or not hasattr(self.driver, "resume_hint"):
            return True
        self.leaving = True
        self.say("The others cannot go on without you until you come back. "
                 "y or quit (or Ctrl-D): leave, else stay.")
        return False

    def handle(self, line: str) -> bool:
        """Do what one typed line asks; False to leave. Never raises for bad input."""
        text = line.strip()
        if self.leaving:                 # the answer to "leave the game?"
            self.leaving = False
            if text.lower() in ("y", "yes", "quit", "exit"):
                return False
            self.say("staying in the game")
            if text.lower() in ("", "n", "no"):
                return True
        if not text:
            return True
        word, _, rest = text.partition(" ")
        word = word.lower()
        if word in ("quit", "exit"):
            return not self.may_leave()
        if word == "help":
            self.help(rest.strip().lower())
        elif word == "board":
            if rest.strip().lower().startswith("--svg"):
                self.save_picture(rest.strip()[len("--svg"):].strip())
            else:
                self.show_board()
        elif word == "legal":
            self.list_legal(rest.strip())
        elif word == "look":
            self.look(rest.strip())
        elif text.isascii() and text.isdigit():
            legal = self.driver.legal()
            n = int(text)
            if 1 <= n <= len(legal):
                self.play(legal[n - 1])
            else:
                self.say(f"no legal action number {n} (type legal to list them)", "fg:ansired")
        else:
            try:
                action = parse_action(text)
            except SpaceWalkError as exc:
                self.refused(exc)
                return True
            self.play(action)
        return True

    def play(self, action) -> None:
        try:
            self.driver.submit(action)
        except SpaceWalkError as exc:
            self.refused(exc)
            return
        self.say(f"you: {action.text()}", "bold")
        self.catch_up()

    def refused(self, exc: SpaceWalkError) -> None:
        kind = {"MalformedAction": "not understood", "OutOfTurn": "not your move",
                "IllegalAction": "not allowed"}.get(type(exc).__name__, "refused")
        self.say(f"{kind}: {exc}", "fg:ansired")

    def list_legal(self, prefix: str = "") -> None:
        legal = self.driver.legal()
        if not legal:
            self.say("nothing to do now: it is not your move")
            return
        shown = [(i, a.text()) for i, a in enumerate(legal, 1) if a.text().startswith(prefix)]
        if not shown:
            self.say(f"no legal action starts with {prefix!r}")
        elif prefix or len(shown) <= LEGAL_LIST_LIMIT:
            for i, text in shown:
                self.say(f"{i:>3}. {text}")
        else:  # a long list (the placement round): one line per kind of ship or card
            groups: dict[str, list[str]] = {}
            for _, text in shown:
                words = text.split()
                groups.setdefault(" ".join(words[:-1]), []).append(words[-1])
            for key, lasts in groups.items():
                self.say(f"{key}: {' '.join(lasts)}")
            self.say(f"({len(shown)} actions; type legal PREFIX for a numbered list, or Tab to complete)")

    def help(self, topic: str) -> None:
        if not topic:
            self.say("Commands:", "bold")
            for text in COMMANDS.values():
                self.say("  " + text.replace("\n", "\n  "))
            self.say(NOTATION)
        elif topic == "rules":
            self.say(RULES)
        elif topic == "notation":
            self.say(NOTATION)
        elif topic in CARD_KINDS:
            self.say(f"{topic}: {CARD_TEXT[topic]}")
        else:
            self.say(f"no help on {topic!r}: try help, help rules, help notation or help "
                     + ", help ".join(CARD_KINDS), "fg:ansired")

    def look(self, where: str) -> None:
        state = self.driver.state()
        if not (where.isascii() and where.isdigit() and 1 <= int(where) <= state.orbit.length):
            self.say(f"look needs a square 1..{state.orbit.length}", "fg:ansired")
            return
        square = int(where) - 1
        if state.orbit.is_hole(square):
            self.say(f"square {where} is a black hole")
            return
        ships = state.squares[square]
        names = [f"{COLOURS[s]} {SIZE_NAMES[r]} ({COLOURS[s][0].upper()}{SIZES[r]})" for r, s in ships]
        self.say(f"square {where}: " + (", ".join(names) if names else "empty"))
