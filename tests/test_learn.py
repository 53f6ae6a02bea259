"""`asv learn` (SPEC §31.10): a guided solitaire game whose lessons are checked after every
line. A newcomer who types what `hint` suggests meets every lesson in order; a line that does
not fit the lesson leaves it open; a game without a tutorial says so."""
from __future__ import annotations

import re

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from cli.commands import learn
from cli.errors import UserError
from cli.games import kit_for
from cli.main import build_parser
from cli.repl.local import LocalGame
from cli.repl.tutor import TutorRepl


class Newcomer(TutorRepl):
    """Types the command the current lesson's hint suggests (else next), then quit."""

    def __init__(self, *a, pipe, **kw) -> None:
        super().__init__(*a, input=pipe, output=DummyOutput(), color=False, **kw)
        self.pipe, self.typed = pipe, []

    def read_line(self) -> str:
        lesson = self.current()
        if lesson is None or len(self.typed) > 80:
            line = "quit"
        else:
            m = re.match(r"try: (.+?)(   \(|$)", lesson.hint(self.driver.state(), self.legal_sorted()))
            line = m.group(1) if m else "next"
        self.typed.append(line)
        self.pipe.send_text(line + "\r")
        return super().read_line()


def test_following_the_hints_meets_every_lesson_in_order():
    tutorial = kit_for("asv").tutorial()
    with create_pipe_input() as pipe:
        repl = Newcomer(LocalGame(tutorial.players, 0, tutorial.seed), tutorial, pipe=pipe, auto_pass=True)
        assert repl.run() == 0
    assert repl.done == [lesson.key for lesson in tutorial.lessons]
    text = "\n".join(repl.transcript)
    ticks = [text.index(f"✓ {lesson.title}: done") for lesson in tutorial.lessons]
    assert ticks == sorted(ticks)
    assert "Lesson 7 of 8: A discovery" in text and tutorial.farewell in text
    assert len(repl.typed) < 40          # short: one turn, then a discovery and a card


def test_a_line_that_does_not_fit_leaves_the_lesson_open_and_hint_and_lesson_answer():
    tutorial = kit_for("asv").tutorial()
    with create_pipe_input() as pipe:
        repl = TutorRepl(LocalGame(tutorial.players, 0, tutorial.seed), tutorial, color=False,
                         input=pipe, output=DummyOutput(), auto_pass=True)
        repl.welcome()
        repl.catch_up()
        repl.handle("next")                      # not allowed while tiles are owed
        repl.handle("discard #1")
        assert repl.done == [] and repl.current().key == "draw"
        repl.handle("hint")
        repl.handle("lesson")
        text = "\n".join(repl.transcript)
        assert "not allowed" in text and "try: draw-tile 1" in text
        assert text.count("Lesson 1 of 8: Phase 1: draw tiles") == 2
        repl.handle("draw-tile 1 2 3")
        assert repl.done == ["draw"] and "Lesson 2 of 8" in "\n".join(repl.transcript)


def test_asv_learn_runs_and_a_game_without_lessons_says_so():
    with create_pipe_input() as pipe:
        pipe.send_text("quit\r")
        assert learn.run(build_parser().parse_args(["learn"]), input=pipe, output=DummyOutput()) == 0
    assert "Lesson 1 of 8" in "\n".join(learn.run.last_repl.transcript)
    with pytest.raises(UserError, match="has no tutorial yet"):
        learn.run(build_parser().parse_args(["learn", "--game", "space-walk"]))
