"""cli.netplay.driver.NetDriver's bookkeeping (SPEC §31.2-§31.3): every event the session applies
is told once, this seat's own actions included (their score lines), and a driver made for a
game already under way (a resume) tells the game so far."""
from __future__ import annotations

import threading
from types import SimpleNamespace

import trio

from cli.games.asv.narrate import before, score_lines
from cli.netplay.driver import NetDriver, RecordingRules
from cli.repl.loop import Happened
from p2p_asv.dealer import LocalDealer
from p2p_asv.engine import apply, legal_actions, parse_action, to_move
from p2p_asv.setup import new_game
from p2p_asv.state import CHANCE
from p2p_asv.view import PlayerView


class FakeNode:
    """Just what NetDriver reads of a protocol Node: a session whose state the engine moves,
    every event recorded by the rules as the real session's RecordingRules does."""

    def __init__(self, rules: RecordingRules, seat: int = 0, players: int = 2) -> None:
        self.rules, self.over, self.log_path = rules, False, None
        self.views = [PlayerView(s) for s in range(players)]
        self.dealer = LocalDealer(seed=5)
        keys = [bytes([s]) * 32 for s in range(players)]
        self.session = SimpleNamespace(state=new_game(players), view=self.views[seat], seat=seat,
                                       players=players, roster=keys, seat_keys=keys,
                                       names=[f"p{s}" for s in range(players)],
                                       pending_obligation=self._obligation)

    def _obligation(self) -> str | None:
        return "action" if to_move(self.session.state) == self.session.seat else None

    def record(self, seat: int, action) -> None:
        state = self.session.state
        was = before(state)
        apply(state, seat, action)
        self.rules.applied.append(Happened(seat, action, score_lines(was, state, action)))

    def deal_until_due(self) -> None:
        while to_move(self.session.state) == CHANCE:
            self.record(CHANCE, self.dealer.outcome(self.session.state, self.views))

    async def submit(self, text: str) -> None:
        self.record(self.session.seat, parse_action(text))


def with_trio(test) -> None:
    """Run `test(token)` in this thread while trio runs in another (as the REPL does)."""
    handoff: list = []
    ready, done = threading.Event(), trio.Event

    async def main() -> None:
        stop = done()
        handoff.append((trio.lowlevel.current_trio_token(), stop))
        ready.set()
        await stop.wait()

    worker = threading.Thread(target=trio.run, args=(main,), daemon=True)
    worker.start()
    assert ready.wait(10)
    token, stop = handoff[0]
    try:
        test(token)
    finally:
        trio.from_thread.run_sync(stop.set, trio_token=token)
        worker.join(10)


def test_own_actions_and_the_game_so_far_are_told():
    def test(token) -> None:
        rules = RecordingRules()
        node = FakeNode(rules)
        node.deal_until_due()
        dealt = len(rules.applied)
        driver = NetDriver(node, token, rules)
        # made mid-game (a resume, or the REPL starting after the deal): the game so far
        assert len(driver.poll()) == dealt
        assert driver.poll() == []
        action = legal_actions(node.session.state, node.views[0])[0]
        driver.submit(action)
        told = driver.poll()     # the submit refreshed the snapshot; the event is not lost
        assert [(e.seat, e.action) for e in told] == [(0, action)]
        assert driver.poll() == []

    with_trio(test)


def test_own_score_line_is_told_to_the_one_who_scored():
    def test(token) -> None:
        rules = RecordingRules()
        node = FakeNode(rules)
        driver = NetDriver(node, token, rules)
        driver.poll()
        # play seat 0's legal actions until one of its own earns a score line
        for _ in range(400):
            node.deal_until_due()
            state = node.session.state
            if state.over:
                break
            seat = to_move(state)
            if seat != 0:
                node.record(seat, legal_actions(state, node.views[seat])[0])
                driver.poll()
                continue
            driver._refresh()
            driver.submit(legal_actions(state, node.views[0])[0])
            own = [e for e in driver.poll() if e.seat == 0]
            if own and own[0].notes:
                assert own[0].notes[0].startswith("+") and "blue" in own[0].notes[0]
                return
        raise AssertionError("seat 0 never scored with its own action")

    with_trio(test)


def test_an_action_not_sent_is_said_as_a_refusal_not_an_internal_error():
    """The peer stopped under the seat (the game ended meanwhile): the REPL says the action
    was not sent, as a refusal, and nothing changed."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from cli.netplay.driver import PeerStopped
    from cli.repl.local import LocalGame
    from cli.repl.loop import Repl

    class Stopped(LocalGame):
        def submit(self, action) -> None:
            raise PeerStopped("the game has ended on this peer (see above); nothing was sent")

    driver = Stopped(2, 0, seed=3)
    driver.wait_for_turn()
    before_hash = driver.state().hash()
    with create_pipe_input() as pipe:
        repl = Repl(driver, color=False, input=pipe, output=DummyOutput())
        repl.play(next(a for a in driver.legal() if a.text().startswith("draw-tile")))
    said = "\n".join(repl.transcript)
    assert "not sent: the game has ended on this peer (see above); nothing was sent" in said   # §31.11
    assert "internal error" not in said and "you:" not in said and driver.state().hash() == before_hash
