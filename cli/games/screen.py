"""What every game's screen shares (SPEC §34): a screen is the game's part of the REPL, made
by `kit.screen(driver, repl)`. It reads the driver (state, view, seat, labels, legal) and
speaks through the REPL (`say`, `width`); with no REPL (a completer alone) it only answers.

A screen offers: welcome(), board_text(size), board_sizes, board_usage, toolbar(status),
prompt(), describe(event, own_echoed), final(), commands (name -> help text), command(word,
rest) -> bool, help(topic), help_completions(word, start), list_legal(prefix), note(action),
read(text), sequence(text), guard(action), stage(), announce(stage_before), explain(action),
suggest(typed), whose_move(), picture_caption(), automatic(), hand_text(), and for the live REPL
question(), turn_start() and only_pass(). The words a refusal leads with are every game's,
in cli/games/refusal_words.py (SPEC §31.11)."""
from __future__ import annotations

from cli.terminal import natural_key

__all__ = ["ScreenBase"]


class ScreenBase:
    commands: dict[str, str] = {}   # command name -> its help lines
    board_sizes: tuple[str, ...] = ("",)
    legal_list_limit = 30         # longer lists are folded by fold_legal
    notation = ""                 # help's notation text
    rules = ""                    # help rules' text
    help_hint = "help, help rules or help notation"   # what `help X` may name, for a miss
    board_usage = "board (or board --svg FILE)"

    def key_rows(self) -> int:
        """How many last lines of board_text() are a key to it (no board rows): the full
        screen hides them while an answer is open, to give the answer their room."""
        return 0

    def __init__(self, driver, repl=None) -> None:
        self.driver = driver
        self.repl = repl

    # -- speaking through the REPL ----------------------------------------------------------
    def say(self, text, style: str = "") -> None:
        self.repl.say(text, style)

    def width(self) -> int:
        return self.repl.width() if self.repl is not None else 80

    def height(self) -> int:
        return self.repl.height() if self.repl is not None else 24

    @property
    def color(self) -> bool:
        return self.repl.color if self.repl is not None else False

    def legal_sorted(self) -> list:
        """The legal actions in the order `legal` numbers them: natural order (A-2 before A-12)."""
        return sorted(self.driver.legal(), key=lambda a: natural_key(a.text()))

    def list_legal(self, prefix: str = "") -> None:
        """`legal [PREFIX]`: the legal actions numbered in natural order; a long list without a
        prefix goes to fold_legal, so the game can show it a line a kind (SPEC §31.4)."""
        legal = self.legal_sorted()
        if not legal:
            self.say(f"nothing to do now: {self.whose_move()}")
            return
        shown = [(i, a.text()) for i, a in enumerate(legal, 1) if a.text().startswith(prefix)]
        if not shown:
            self.say(f"no legal action starts with {prefix!r}")
        elif prefix or len(shown) <= self.legal_list_limit:
            for i, text in shown:
                self.say(f"{i:>3}. {text}")
        else:
            self.fold_legal(shown)

    def whose_move(self) -> str:
        """Whose move it is and what is asked, in words (every game's screen says it)."""
        raise NotImplementedError

    def fold_legal(self, shown: list[tuple[int, str]]) -> None:
        for i, text in shown:
            self.say(f"{i:>3}. {text}")

    def help(self, topic: str) -> None:
        """`help`: the commands and the notation; `help rules`, `help notation`; any other topic
        is the game's (help_topic)."""
        topic = topic.lower()
        if not topic:
            self.say("Commands:", "bold")
            for text in self.commands.values():
                self.say("  " + text.replace("\n", "\n  "))
            self.say(self.notation)
        elif topic == "rules":
            self.say(self.rules)
        elif topic == "notation":
            self.say(self.notation)
        elif not self.help_topic(topic):
            self.say(f"no help on {topic!r}: try {self.help_hint}", "fg:ansired")

    def help_topic(self, topic: str) -> bool:
        """Say the help on a game's own topic (a card, a deed); False when there is none."""
        return False

    # -- what a game may leave as it is -----------------------------------------------------
    def note(self, action) -> str:
        return ""

    def read(self, text: str) -> str:
        """The typed line as the notation wants it."""
        return text

    def command(self, word: str, rest: str) -> bool:
        return False

    def guard(self, action):
        return None

    def sequence(self, text: str) -> list[str]:
        """A typed line that stands for several actions played one after another (`draw
        refuel 4`, `draw-tile 1 2 4`): their texts; else [text]."""
        return [text]

    def stage(self):
        return None

    def announce(self, stage_before) -> str | None:
        return None

    def explain(self, action) -> str | None:
        return None

    def suggest(self, typed: str) -> str | None:
        return None

    def question(self) -> str | None:
        return None

    def turn_start(self):
        return None

    def only_pass(self) -> bool:
        return False

    def hand_text(self):
        """The hand pane's text on a wide game screen (SPEC §31.9): every card with its name
        and value; None when the game has no hand to show."""
        return None

    def automatic(self):
        """The action this seat may be spared typing (SPEC §31.8): its one legal answer, when
        nothing else is allowed, or None. Here: a window answered only by pass."""
        return self.driver.legal()[0] if self.only_pass() else None
