"""Space Walk's screen (SPEC §48, §34): its part of the one REPL. The orbit drawn as a ring,
the due line in the toolbar, help on the rules and the cards, a look at a square, and the
legal list grouped by ship or card for the placement round."""
from __future__ import annotations

from typing import Iterable

from prompt_toolkit.completion import Completion
from prompt_toolkit.formatted_text import FormattedText

from space_walk.engine import to_move
from space_walk.orbit import CARD_KINDS, CARD_TEXT, COLOURS, SIZE_NAMES, SIZES

from cli.games.screen import ScreenBase
from cli.games.space_walk import render as sw_render

__all__ = ["SwScreen", "COMMANDS", "NOTATION", "RULES"]

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



class SwScreen(ScreenBase):
    commands = COMMANDS
    notation, rules = NOTATION, RULES
    help_hint = "help, help rules, help notation or help " + ", help ".join(CARD_KINDS)

    def state(self):
        return self.driver.state()

    # -- what is shown ---------------------------------------------------------------------
    def welcome(self) -> str:
        state = self.state()
        seats = ", ".join(f"{COLOURS[s]}: {self.driver.labels[s]}" for s in range(state.players))
        variant = " with action cards" if state.action_cards else ""
        return (f"Space Walk{variant}, {state.players} players ({seats}). Type help for commands, "
                "help rules for the rules, Tab to complete actions.")

    def board_text(self, size: str = "") -> FormattedText:
        return sw_render.board(self.state(), self.driver.seat)

    def toolbar(self, status: str):
        due = sw_render.due_text(self.state())
        return FormattedText([("", due + (f"  ·  {status}" if status else ""))])

    def prompt(self) -> str:
        return f"{COLOURS[self.driver.seat]}> "

    def final(self) -> FormattedText:
        return sw_render.final(self.state())

    def whose_move(self) -> str:
        return sw_render.due_text(self.state())

    def picture_caption(self) -> str:
        return f"as {COLOURS[self.driver.seat]} saw it after {self.state().events} actions"

    def help_completions(self, word: str, start: int) -> Iterable[Completion]:
        for topic in ("rules", "notation", *CARD_KINDS):
            if topic.startswith(word):
                yield Completion(f"help {topic}", start, display=topic)

    def describe(self, event, *, own_echoed: bool = True) -> list[FormattedText]:
        """Another seat's action in its colour; this seat's own only when it was not echoed
        as typed (a resumed seat is told its own too)."""
        if event.seat == self.driver.seat:
            return [] if own_echoed else [FormattedText([("bold", f"you: {event.action.text()}\n")])]
        colour = COLOURS[event.seat]
        return [FormattedText([(sw_render.STYLE[colour] + " bold", colour),
                               ("", f" ({self.driver.labels[event.seat]}): {event.action.text()}\n")])]

    # -- what is typed ---------------------------------------------------------------------
    def command(self, word: str, rest: str) -> bool:
        if word == "look":
            self.look(rest)
            return True
        return False

    # -- the live REPL ---------------------------------------------------------------------
    def question(self) -> str | None:
        """A token window open to this seat: it may answer at once."""
        state = self.state()
        if state.due == "window" and not state.over and to_move(state) == self.driver.seat:
            return sw_render.due_text(state).replace(COLOURS[self.driver.seat], "you", 1)
        return None

    def turn_start(self):
        state = self.state()
        if state.over or to_move(state) != self.driver.seat or not self.driver.legal():
            return None
        if state.due == "place":
            return ("place", state.events), "place a ship"
        return ("turn", state.turns), f"turn {state.turns}"

    def fold_legal(self, shown: list[tuple[int, str]]) -> None:
        """A long list (the placement round): one line per kind of ship or card."""
        groups: dict[str, list[str]] = {}
        for _, text in shown:
            words = text.split()
            groups.setdefault(" ".join(words[:-1]), []).append(words[-1])
        for key, lasts in groups.items():
            self.say(f"{key}: {' '.join(lasts)}")
        self.say(f"({len(shown)} actions; type legal PREFIX for a numbered list, or Tab to complete)")

    def help_topic(self, topic: str) -> bool:
        if topic in CARD_KINDS:
            self.say(f"{topic}: {CARD_TEXT[topic]}")
            return True
        return False

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
