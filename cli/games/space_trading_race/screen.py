"""Space Trading Race's screen (SPEC §59.3, §34): its part of the one REPL. The path as text,
the due line in the toolbar, help on the rules, the deeds and the missions, a look at a
space, and the legal list grouped by kind when it is long (trade offers)."""
from __future__ import annotations

from typing import Iterable

from prompt_toolkit.completion import Completion
from prompt_toolkit.formatted_text import FormattedText

from space_trading_race.board import N_SPACES, SPACES
from space_trading_race.deeds import DEED_BY_SLUG
from space_trading_race.engine import due, to_move
from space_trading_race.missions import MISSION_BY_SLUG, MISSION_SLUGS

from cli.games.screen import ScreenBase

from . import render
from .help_topics import COMMANDS, NOTATION, RULES

__all__ = ["StrScreen"]


class StrScreen(ScreenBase):
    commands = COMMANDS
    notation, rules = NOTATION, RULES
    help_hint = "help, help rules, help notation, help missions or help deeds"

    def state(self):
        return self.driver.state()

    def _mission(self, seat: int) -> str | None:
        """A seat's mission as this seat may see it: its own, or one claimed."""
        state = self.state()
        if seat == self.driver.seat:
            return self.driver.view().mission(state)
        return state.names.get(state.hand[seat]) if state.hand[seat] >= 0 else None

    # -- what is shown ---------------------------------------------------------------------
    def welcome(self) -> str:
        state = self.state()
        seats = ", ".join(f"{render.COLOURS[s]}: {self.driver.labels[s]}" for s in range(state.players))
        return (f"Space Trading Race, {state.players} players ({seats}), {state.time_limit} rounds at most. "
                "Type help for commands, help rules for the rules, Tab to complete actions.")

    def board_text(self, size: str = "") -> FormattedText:
        return FormattedText([("", render.board_text(self.state(), self._mission) + "\n")])

    def toolbar(self, status: str):
        return FormattedText([("", render.due_text(self.state()) + (f"  ·  {status}" if status else ""))])

    def prompt(self) -> str:
        return f"{render.COLOURS[self.driver.seat]}> "

    def final(self) -> FormattedText:
        return FormattedText([("bold", render.final_text(self.state()) + "\n")])

    def whose_move(self) -> str:
        return render.due_text(self.state())

    def picture_caption(self) -> str:
        return f"as {render.COLOURS[self.driver.seat]} saw it after {self.state().step} actions"

    def help_completions(self, word: str, start: int) -> Iterable[Completion]:
        for topic in ("rules", "notation", "missions", "deeds", *MISSION_SLUGS, *sorted(DEED_BY_SLUG)):
            if topic.startswith(word):
                yield Completion(f"help {topic}", start, display=topic)

    def describe(self, event, *, own_echoed: bool = True) -> list[FormattedText]:
        notes = [FormattedText([("", f"  {note}\n")]) for note in event.notes]
        if event.seat == self.driver.seat:
            return notes if own_echoed else [FormattedText([("bold", f"you: {event.action.text()}\n")]), *notes]
        if event.seat < 0:
            return [FormattedText([("", f"chance: {event.action.text().removeprefix('chance ')}\n")]), *notes]
        colour = render.COLOURS[event.seat]
        return [FormattedText([("bold", colour),
                               ("", f" ({self.driver.labels[event.seat]}): {event.action.text()}\n")]), *notes]

    # -- what is typed ---------------------------------------------------------------------
    def command(self, word: str, rest: str) -> bool:
        if word == "look":
            self.look(rest)
            return True
        return False

    def question(self) -> str | None:
        """Asked outside this seat's own turn: a double six to answer, a debt to pay or an
        offer to answer; the live REPL shows it at once."""
        state = self.state()
        if state.over or to_move(state) != self.driver.seat or due(state) not in ("shield", "debt", "answer"):
            return None
        if due(state) == "answer":
            offerer, offer = state.offer
            return f"{render.COLOURS[offerer]} offers you: {offer.text()} (accept or reject)"
        return render.due_text(state).replace(render.COLOURS[self.driver.seat], "you", 1)

    def only_pass(self) -> bool:
        """A double six hit this seat and it holds no force field: pass is all it may answer."""
        legal = self.driver.legal()
        return due(self.state()) == "shield" and len(legal) == 1 and legal[0].text() == "pass"

    def turn_start(self):
        state = self.state()
        if state.over or to_move(state) != self.driver.seat or not self.driver.legal():
            return None
        return ("turn", state.turns, state.step), f"turn {state.turns}"

    def fold_legal(self, shown: list[tuple[int, str]]) -> None:
        """Many offers: every other action numbered, the offers counted."""
        offers = [t for _, t in shown if t.startswith("offer ")]
        for i, text in shown:
            if not text.startswith("offer "):
                self.say(f"{i:>3}. {text}")
        self.say(f"and {len(offers)} trade offers: type legal offer for them, or Tab to complete")

    def help_topic(self, topic: str) -> bool:
        if topic == "missions":
            for slug in MISSION_SLUGS:
                self.say(f"{slug}: {MISSION_BY_SLUG[slug].text}")
        elif topic == "deeds":
            for slug, deed in DEED_BY_SLUG.items():
                self.say(f"{slug}: {deed.group}, ${deed.price}, rent {', '.join(map(str, deed.rents))}")
        elif topic in MISSION_BY_SLUG:
            m = MISSION_BY_SLUG[topic]
            self.say(f"{m.title}: {m.text}")
        elif topic in DEED_BY_SLUG:
            self.say(render.deed_line(DEED_BY_SLUG[topic].index, self.state()))
        else:
            return False
        return True

    def look(self, where: str) -> None:
        state = self.state()
        if not (where.isascii() and where.isdigit() and 0 <= int(where) < N_SPACES):
            self.say(f"look needs a space 0..{N_SPACES - 1}", "fg:ansired")
            return
        space = SPACES[int(where)]
        ships = [render.COLOURS[s] for s in range(state.players) if state.alive[s] and state.pos[s] == space.index]
        text = render.space_label(space.index)
        if space.deed is not None:
            text += ": " + render.deed_line(space.deed, state)
        self.say(text + (f"; ships: {', '.join(ships)}" if ships else "; no ship"))
