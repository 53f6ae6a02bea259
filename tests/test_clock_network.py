"""The turn clock over real loopback TCP (SPEC §29.14, §29.20): a connected seat that lets
its clock run out has its turn passed by the others' co-signed vote and the game goes on to
the end, every log verifying at one head; with `on_clock: abort` the seat is aborted as
before, and the last line says its clock ran out (never that it "stayed gone")."""
from __future__ import annotations

import os

import pytest
import trio

from cli.games import kit_for
from cli.games.asv.adapter import AsvRules
from cli.netplay.peer_names import abort_line, pass_line
from cli.netplay.wiring import clocked
from p2p_asv.state import Phase
from tests.log_helpers import verify_logs
from tests.net_helpers import Runner, bot_agent, bot_node, wait_until

# whole networked games: end to end, so `make check` leaves it out (SPEC §35.4)
pytestmark = pytest.mark.e2e

LIMIT = 300   # a hang guard: a three-peer game takes about 30 s on an idle 2-core machine


async def _table(nursery, tmp_path, config, seats=3):
    """A creator bot, seats - 2 more bots and a "human" seat (no agent) that the test drives:
    every node with the turn clock. Returns (nodes, human, clocks)."""
    game = os.urandom(16)
    runner = Runner(nursery)
    creator = bot_node(0, game, tmp_path, seats=seats, timeout=2.0, host="127.0.0.1")
    creator.config = dict(config)
    nodes, clocks = [creator], [clocked(creator)]
    await runner.start(creator)
    for i in range(1, seats):
        node = bot_node(i, game, tmp_path, timeout=2.0, creator=creator, host="127.0.0.1")
        clocks.append(clocked(node))
        await runner.start(node)
        await node.connect(*creator.mesh.address)
        nodes.append(node)
    human = nodes[-1]
    human.agent = None
    creator.start(await creator.wait_lobby_full())
    await wait_until(lambda: human.session is not None and human.session.phase == "play")
    human.session.agent = None
    return nodes, human, clocks


async def _play_until_pass_is_next(human) -> None:
    """Play the human seat's moves (as the greedy bot would) until it is due in its own
    turn's piece phase, where the game's pass move ("next") is legal."""
    kit, bot = kit_for("asv"), kit_for("asv").bot("greedy", "clock-test")
    while True:
        s = human.session
        st = s.state
        if s.pending_obligation() == "action":
            if st.phase == Phase.PLACE_PIECE and not st.polls and s.rules.timeout_action(st, s.seat) == "next":
                return
            await human.submit(bot.choose(kit.copy_state(st), s.view).text())
        await trio.sleep(0.02)


async def test_a_seat_out_of_time_is_passed_by_the_others_co_signed_vote_and_the_game_goes_on(tmp_path):
    config = {"turn_clock": 5, "on_clock": "pass"}
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as nursery:
            nodes, human, clocks = await _table(nursery, tmp_path, config)
            await _play_until_pass_is_next(human)
            start = human.height
            with pytest.raises(Exception, match="turn clock ran out"):
                await wait_until(lambda: human.passing() is not None)
                await human.submit("next")   # once out of time the seat's own move is refused
            await wait_until(lambda: any(e.kind == "clock-pass" for e in human.session.chain.events[start:]))
            seat = human.session.seat
            # the turn passes: another seat writes an action once the passes are done
            await wait_until(lambda: any(e.kind == "action" and e.author != human.me
                                         for e in human.session.chain.events[start:]))
            human.session.agent = human.agent = bot_agent("greedy", "clock-test/human")
            await wait_until(lambda: all(n.over for n in nodes))
    passes = [e for e in nodes[0].session.chain.events if e.kind == "clock-pass"]
    assert passes and all(e.body["seat"] == human.me and e.author != human.me for e in passes)
    assert all(len(e.body["votes"]) == 2 for e in passes)              # both other seats co-signed each
    assert {e.body["a"] for e in passes} <= {"next", "pass"}
    assert all(n.session.finished for n in nodes)
    assert len({n.session.chain.head for n in nodes}) == 1
    reports = verify_logs([n.log_path for n in nodes], AsvRules)
    assert all(r.valid and r.finished for r in reports), reports
    assert {r.head for r in reports} == {nodes[0].session.chain.head.hex()}
    line = pass_line(nodes[0].session, passes[0])
    assert "turn clock ran out: the others played 'next' for them" in line and "co-signed by 2" in line
    assert pass_line(human.session, passes[0], human.me).startswith("your turn clock ran out")
    assert seat == human.session.seat_of[human.me]
    assert all(not n.rejected for n in nodes)


async def test_with_on_clock_abort_the_seat_out_of_time_is_aborted_and_told_so_in_words(tmp_path):
    config = {"turn_clock": 5, "on_clock": "abort"}
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as nursery:
            nodes, human, clocks = await _table(nursery, tmp_path, config, seats=2)
            await _play_until_pass_is_next(human)
            await wait_until(lambda: nodes[0].over)
    s = nodes[0].session
    assert s.phase == "aborted" and s.chain.events[-1].body["silent"] == human.me
    assert not any(e.kind == "clock-pass" for e in s.chain.events)
    assert clocks[0].abort_cause == "clock"
    line = abort_line(s, clocks[0].abort_cause)
    assert "turn clock ran out" in line and "stayed gone" not in line
