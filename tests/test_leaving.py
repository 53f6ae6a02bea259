"""Thinking is not leaving; leaving is seen (SPEC §29.13): a connected peer that takes its
time is never aborted; a peer gone (no connection, so no keepalive) longer than the timeout
is, and everyone is told who left and when."""
from __future__ import annotations

import os
import time

import pytest
import trio

from cli.netplay.node_notes import speaker
from tests.net_helpers import Runner, bot_node, wait_until

# whole networked games in which seats leave: end to end, so `make check` leaves it out (SPEC §35.4)
pytestmark = pytest.mark.e2e

LIMIT = 90


async def test_a_connected_player_thinking_past_the_timeout_is_not_aborted_but_a_gone_one_is(tmp_path):
    game = os.urandom(16)
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as nursery:
            runner = Runner(nursery)
            bot = bot_node(0, game, tmp_path, seats=2, timeout=1.0, host="127.0.0.1")
            notes: list[str] = []
            bot.on_note = speaker(bot, notes.append)
            await runner.start(bot)
            human = bot_node(1, game, tmp_path, timeout=1.0, creator=bot, host="127.0.0.1")
            human.agent = None                      # a human seat: nothing is typed
            await runner.start(human)
            await human.connect(*bot.mesh.address)
            bot.start(await bot.wait_lobby_full())
            await wait_until(lambda: human.session is not None and human.session.pending_obligation() == "action")
            await trio.sleep(4.0)                   # four timeouts of thinking, connected all along
            assert not bot.over and not human.over
            assert bot.absent_for(human.me) == 0.0
            runner.kill(human)                      # the laptop closes
            await wait_until(lambda: bot.over)
    assert bot.session.phase == "aborted"
    lost = [n for n in notes if n.startswith("lost ")]
    assert lost and "bot1 (" in lost[0] and "asv join --resume LOG" in lost[0]


async def test_a_seat_past_the_turn_clock_counts_as_gone_and_the_game_is_aborted(tmp_path):
    """SPEC §29.14: the host's clock is in the config; at zero the connected seat counts as
    gone, and after a further timeout the usual abort names it."""
    from cli.netplay.wiring import clocked
    game = os.urandom(16)
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as nursery:
            runner = Runner(nursery)
            bot = bot_node(0, game, tmp_path, seats=2, timeout=1.0, host="127.0.0.1")
            bot.config = {"turn_clock": 5}
            clock = clocked(bot)
            await runner.start(bot)
            human = bot_node(1, game, tmp_path, timeout=1.0, creator=bot, host="127.0.0.1")
            human.agent = None
            clocked(human)
            await runner.start(human)
            await human.connect(*bot.mesh.address)
            bot.start(await bot.wait_lobby_full())
            await wait_until(lambda: human.session is not None and human.session.pending_obligation() == "action")
            assert human.session.config == {"turn_clock": 5}         # every peer knows the clock
            await wait_until(lambda: clock.on_clock() is not None and clock.on_clock()[0] == human.session.seat)
            await trio.sleep(3.0)
            assert not bot.over and 0 < clock.on_clock()[1] < 5 and clock(human.me) == 0.0
            await wait_until(lambda: bot.over)
            assert bot.absent_for(human.me) == 0.0                    # connected all along
    assert bot.session.phase == "aborted"
    assert bot.session.chain.events[-1].body["silent"] == human.me


def test_the_clock_is_checked_and_never_reaches_the_engine():
    import pytest
    from cli.games.asv.adapter import AsvRules
    from cli.netplay.turn_clock import game_options
    from protocol.session import GameRuleError
    assert game_options({"turn_clock": 60, "nine_planets": True}) == {"nine_planets": True}
    assert AsvRules().new_state(2, {"turn_clock": 60}) is not None
    for bad in (0, 4, 10 ** 6, "60", 60.0, True):
        with pytest.raises(GameRuleError, match="turn_clock"):
            AsvRules().new_state(2, {"turn_clock": bad})


def test_a_player_who_leaves_is_named_and_a_gone_one_is_aborted_without_a_traceback(tmp_path):
    """Two human seats on pseudo-terminals: the one to play leaves; the other sees who and
    since when, and after the timeout the abort ends the game: exit 2, the reason printed,
    no 'Winner:' without a name, no traceback (issue 8 item 3)."""
    import re
    from tests.test_repl_live import Terminal
    common = ["--listen", "127.0.0.1", "--timeout", "3"]
    host = Terminal("host", *common, "--seats", "2", "--name", "alice", "--log-dir", str(tmp_path / "a"))
    joiner = None
    try:
        invite = host.expect(r"asv join (\S+)").group(1)
        assert re.search(r"listening on 127\.0\.0\.1:\d+", host.text)
        joiner = Terminal("join", invite, "--new-key", *common, "--name", "bob", "--log-dir", str(tmp_path / "b"))
        ready = r"· (your turn|\w+'s turn) · tiles \(3 to draw\)"
        host.expect(ready)
        joiner.expect(ready)
        assert re.search(r"you are \S+ \(bob, a new key for this game only\); listening on 127\.0\.0\.1:\d+",
                         joiner.text)
        time.sleep(0.5)
        host.read()
        leaver, stayer, name = ((host, joiner, "alice") if "-- your turn (turn 1) --" in host.text
                                else (joiner, host, "bob"))
        leaver.type("quit")
        leaver.type("y")
        assert leaver.proc.wait(30) == 1
        stayer.expect(rf"lost \w+ {name} \([^)\]]*\) at \d\d:\d\d:\d\d", timeout=30)
        stayer.expect(r"abort", timeout=60)
        deadline = time.monotonic() + 30
        while stayer.proc.poll() is None:        # keep reading: a full pty would block its writes
            assert time.monotonic() < deadline, stayer.text[-2000:]
            stayer.read(0.2)
        assert stayer.proc.returncode == 2, stayer.text[-2000:]
        stayer.read()
        assert "Traceback" not in stayer.text and "Winner:" not in stayer.text
        assert "no final scoreboard" in stayer.text
        # the abort names the gone seat by colour and name, once (SPEC §29.13)
        assert len(re.findall(rf"game aborted: \w+ {name} stayed gone", stayer.text)) == 1, stayer.text[-2000:]
    finally:
        host.close()
        if joiner is not None:
            joiner.close()
