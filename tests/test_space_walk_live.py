"""Space Walk in the one live REPL (SPEC §48.1, §31.2): the prompt stays open while the
others play, their moves are told as they happen, commands answer at any time, and a move
typed out of turn is refused and never played later."""
from __future__ import annotations

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from cli.games import kit_for
from cli.repl.live import LiveRepl
from test_repl_live import SlowOthers, run_with_script, wait_for

SPACE_WALK = kit_for("space-walk")


def test_space_walk_gets_the_live_repl():
    driver = SlowOthers(2, 1, seed=3, bots=["random", None], kit=SPACE_WALK)   # blue (seat 0) places first
    with create_pipe_input() as pipe:
        repl = LiveRepl(driver, color=False, input=pipe, output=DummyOutput())
        said = lambda: "\n".join(repl.transcript)   # noqa: E731

        def script() -> None:
            wait_for(lambda: repl.session.app.is_running and driver.sink is not None)
            assert driver.others_due()
            before = SPACE_WALK.state_hash(driver.state())
            for line in ("place L 5", "1", "help rules", "look 7"):
                pipe.send_text(line + "\r")
            wait_for(lambda: said().count("not your turn") == 2 and "square 7 is a black hole" in said())
            assert "only ships still in orbit score" in said()      # help answers out of turn
            assert "blue places a ship" in said()                  # whose move it is, in the refusal
            assert SPACE_WALK.state_hash(driver.state()) == before   # nothing was played or queued
            driver.step()                                           # blue places, as a peer would
            wait_for(lambda: "blue (random bot): place" in said())
            wait_for(lambda: "-- your turn (place a ship) --" in said())
            mine = driver.legal()[0].text()
            pipe.send_text(mine + "\r")
            wait_for(lambda: f"you: {mine}" in said())
            assert driver.others_due()                              # played once, the turn passed on
            pipe.send_text("quit\r")
            wait_for(lambda: "y or quit: leave" in said())
            pipe.send_text("y\r")

        run_with_script(repl, pipe, script)
    assert "left the game" in said()
    assert said().count("you: place") == 1                  # only the move typed in turn was played
