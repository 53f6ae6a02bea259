"""`asv learn`'s tutor (SPEC §31.10), for every game: the line REPL of a local game that
follows the game kit's lessons, checks each after every line, says when one is met and
introduces the next. `hint` and `lesson` are its own commands; everything else is the
REPL's."""
from __future__ import annotations

from cli.repl.loop import Repl

__all__ = ["TutorRepl"]


class TutorRepl(Repl):
    def __init__(self, driver, tutorial, **kw) -> None:
        super().__init__(driver, **kw)
        self.tutorial = tutorial
        self.mine: list = []           # this seat's own actions, in order
        self.done: list[str] = []      # lessons met, in order

    def current(self):
        return next((lesson for lesson in self.tutorial.lessons if lesson.key not in self.done), None)

    def welcome(self) -> None:
        self.say(self.tutorial.welcome, "bold")
        self.introduce()

    def introduce(self) -> None:
        lesson = self.current()
        if lesson is not None:
            number = self.tutorial.lessons.index(lesson) + 1
            self.say(f"Lesson {number} of {len(self.tutorial.lessons)}: {lesson.title}", "bold")
            self.say(lesson.intro)

    def tell(self, events, *, own_echoed: bool = True) -> None:
        super().tell(events, own_echoed=own_echoed)
        self.mine += [event.action for event in events if event.seat == self.driver.seat]
        self.check()

    def check(self) -> None:
        """Every lesson met by now, in order; the next one introduced."""
        state, seat = self.driver.state(), self.driver.seat
        moved = False
        while (lesson := self.current()) is not None and lesson.met(state, seat, self.mine):
            self.done.append(lesson.key)
            self.say(f"✓ {lesson.title}: done", "bold fg:ansigreen")
            moved = True
        if moved:
            if self.current() is None:
                self.say(self.tutorial.farewell, "bold")
            else:
                self.introduce()

    def handle(self, line: str) -> bool:
        word = line.strip().lower()
        lesson = self.current()
        if word == "hint":
            self.say(lesson.hint(self.driver.state(), self.legal_sorted()) if lesson is not None
                     else "every lesson is done: play on, or quit")
            return True
        if word == "lesson":
            if lesson is None:
                self.say(self.tutorial.farewell)
            else:
                self.introduce()
            return True
        return super().handle(line)
