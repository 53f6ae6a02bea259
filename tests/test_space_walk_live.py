"""Space Walk in the one live REPL (SPEC §48.1, §31.2): the prompt stays open while the
others play, their moves are told as they happen, commands answer at any time, and a move
typed out of turn is refused and never played later."""
from __future__ import annotations

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from cli.games import kit_for
from cli.repl.live import LiveRepl
from tests.test_repl_live import SlowOthers, run_with_script, wait_for

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


@pytest.mark.e2e
def test_space_walk_live_repl_over_the_network(tmp_path):
    """`asv host --game space-walk` with a human seat runs the live REPL over the one network
    driver against a bot peer: help answers, the seat's turn is announced, a move is played
    and echoed, and quit asks first and says how to come back."""
    import threading

    from cli.main import build_parser
    from cli.netplay.seat import play_networked

    args = build_parser().parse_args(["host", "--listen", "127.0.0.1", "--game", "space-walk", "--seats", "2",
                                      "--bots", "1", "--bot-kind", "random", "--name", "alice",
                                      "--log-dir", str(tmp_path)])
    play_networked.last_repl = None
    failed: list[BaseException] = []
    with create_pipe_input() as pipe:
        def script() -> None:
            try:
                wait_for(lambda: play_networked.last_repl is not None
                         and play_networked.last_repl.session.app.is_running, 60)
                repl = play_networked.last_repl
                assert isinstance(repl, LiveRepl)
                said = lambda: "\n".join(repl.transcript)   # noqa: E731
                pipe.send_text("help rules\r")
                wait_for(lambda: "only ships still in orbit score" in said())
                wait_for(lambda: "-- your turn (place a ship) --" in said(), 60)
                move = repl.driver.legal()[0].text()
                pipe.send_text(move + "\r")
                wait_for(lambda: f"you: {move}" in said(), 30)
                pipe.send_text("quit\r")
                wait_for(lambda: "y or quit: leave" in said())
                pipe.send_text("y\r")
            except BaseException as exc:  # noqa: BLE001 - re-raised in the test's thread
                failed.append(exc)
                pipe.close()

        feeder = threading.Thread(target=script, daemon=True)
        feeder.start()
        code = play_networked(args, host=True, input=pipe, color=False)
        feeder.join(30)
    if failed:
        raise failed[0]
    text = "\n".join(play_networked.last_repl.transcript)
    assert code == 1 and "left the game" in text and "--resume" in text
    assert text.index("-- your turn (place a ship) --") < text.index("you: place") < text.index("left the game")
