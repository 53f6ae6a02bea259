"""The Space Walk REPL (SPEC §48) through prompt_toolkit's pipe input: a whole game, the ring,
completion, help rules, refusals."""
from __future__ import annotations

from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from cli.games import kit_for
from cli.repl.local import LocalGame
from cli.repl.loop import ActionCompleter, Repl, default_history

SPACE_WALK = kit_for("space-walk")


def SwLocalGame(*args, **kw) -> LocalGame:
    """The one local driver, playing Space Walk."""
    return LocalGame(*args, kit=SPACE_WALK, **kw)


class ScriptedSwRepl(Repl):
    MAX_LINES = 400

    def __init__(self, driver, pipe, script) -> None:
        super().__init__(driver, input=pipe, output=DummyOutput(), color=False, history=default_history(True))
        self.pipe, self.script, self.typed = pipe, script, []

    def read_line(self) -> str:
        assert len(self.typed) < self.MAX_LINES, self.typed[-5:]
        line = self.script(self)
        self.typed.append(line)
        self.pipe.send_text(line + "\r")
        return super().read_line()


def test_a_whole_game_in_the_repl():
    driver = SwLocalGame(2, 1, seed=3, bots=["random", None])
    extra = ["help rules", "help", "board", "legal", "look 7", "look 99", "place L 7", "place Q 1", "help twice"]

    def script(repl):
        return extra.pop(0) if extra else "1"

    with create_pipe_input() as pipe:
        repl = ScriptedSwRepl(driver, pipe, script)
        assert repl.run() == 0
    said = "\n".join(repl.transcript)
    assert driver.is_over() and "Game over" in said
    assert "only ships still in orbit score" in said                # help rules
    assert "14 (@) hole" in said and " 7 (@) hole" in said           # the ring with both holes
    assert "place L: 1 2 3 4 5 6 8" in said                          # grouped legal list
    assert "square 7 is a black hole" in said and "look needs a square 1..14" in said
    assert "not allowed: square 7 is a black hole" in said and "not understood" in said
    assert "twice: do that twice" in said
    assert "blue (random bot): place" in said and "you: place" in said


def test_completion_offers_the_legal_actions_and_help_topics():
    driver = SwLocalGame(3, 0, seed=1, bots="greedy", config={"action_cards": True})
    completer = ActionCompleter(driver)

    def complete(text):
        return [c.text for c in completer.get_completions(Document(text), CompleteEvent())]

    assert complete("place S 2") == ["place S 2", "place S 20"]
    assert complete("help r") == ["help rules"]
    assert "help copy" in complete("help ")
    assert complete("boa") == ["board"]


def test_ctrl_c_says_how_to_leave_as_in_the_main_repl():
    """Ctrl-C gave a fresh prompt and nothing else; like the main REPL it says how to leave."""
    from cli.repl.loop import CTRL_C
    driver = SwLocalGame(2, 1, seed=3, bots=["random", None])
    with create_pipe_input() as pipe:
        pipe.send_text("\x03quit\r")
        repl = Repl(driver, input=pipe, output=DummyOutput(), color=False, history=default_history(True))
        assert repl.run() == 0
    said = "\n".join(repl.transcript)
    assert CTRL_C in said and "quit or Ctrl-D leaves the game" in said and "left the game" in said
    assert said.index(CTRL_C) < said.index("left the game")


def test_in_a_networked_game_quit_and_ctrl_d_ask_before_leaving():
    """SPEC §48.1: with others waiting on this seat (a driver that can say how to come back),
    quit asks first; n stays; Ctrl-D asks too, and a second Ctrl-D leaves. Locally it did
    and does leave at once (the test above)."""
    class Networked(LocalGame):
        def resume_hint(self):
            return "asv join --resume game.asvlog"

    driver = Networked(2, 1, seed=3, bots=["random", None], kit=SPACE_WALK)
    with create_pipe_input() as pipe:
        pipe.send_text("quit\rn\r\x04\x04")
        repl = Repl(driver, input=pipe, output=DummyOutput(), color=False, history=default_history(True))
        assert repl.run() == 0
    said = repl.transcript
    asked = [i for i, line in enumerate(said) if "The others cannot go on without you" in line]
    assert len(asked) == 2
    assert "asv join --resume game.asvlog" in said[asked[0] + 1]   # how to come back, to copy
    assert "staying in the game" in said[asked[0] + 3]
    assert said[-1] == "bye" and not driver.is_over()
