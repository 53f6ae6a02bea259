"""Space Walk over the network (SPEC §47.7): peers on loopback TCP play to the end; joiners
learn the game from the first hello; every log verifies and all end at one head."""
from __future__ import annotations

import os
from types import SimpleNamespace

import pytest
import trio

from cli.games import game_of_log, kit_for
from cli.main import main
from cli.netplay.printer import scoreboard
from cli.netplay.wiring import game_chooser
from cli.games.space_walk.adapter import SpaceWalkRules
from tests.net_helpers import Runner, wait_until
from protocol.crypto import Identity
from protocol.node import Node, NodeOptions
from protocol.session import verify_log

# Space Walk between peers over TCP and between processes: end to end, so `make check` leaves it out (SPEC §35.4)
pytestmark = pytest.mark.e2e

bot_agent = kit_for("space-walk").agent   # a session Agent for a bot seat

GAME_LIMIT = 90


async def test_three_peers_play_space_walk_to_the_end(tmp_path):
    game = os.urandom(16)
    options = dict(keepalive=0.5, peer_timeout=5.0)
    creator = Node(Identity.generate("c"), SpaceWalkRules(), game, tmp_path, agent=bot_agent("random", "t/0"),
                   options=NodeOptions(seats=3, **options))
    joiners = []
    for i in (1, 2):
        args = SimpleNamespace(bot="random")
        asv_rules = kit_for("asv").session_rules()     # a joiner need not know the game: the hello names it
        joiners.append(Node(Identity.generate(f"j{i}"), asv_rules, game, tmp_path, agent=None,
                            options=NodeOptions(**options), choose_game=game_chooser(args, f"t/{i}"),
                            creator=creator.identity.fingerprint))
    with trio.fail_after(GAME_LIMIT):
        async with trio.open_nursery() as nursery:
            runner = Runner(nursery)
            await runner.start(creator)
            for node in joiners:
                await runner.start(node)
                await node.connect(*creator.mesh.address)
            creator.start(await creator.wait_lobby_full())
            nodes = [creator, *joiners]
            await wait_until(lambda: all(n.over for n in nodes))
    assert all(n.session.finished for n in nodes)
    assert all(n.rules.name == "space-walk/3" for n in nodes)
    heads = set()
    for node in nodes:
        assert game_of_log(node.log_path).key == "space-walk"
        report, session = verify_log(node.log_path, SpaceWalkRules())
        assert report.valid and report.finished and report.exit_code == 0, report
        assert session.state.over and 0 in report.scores
        heads.add(report.head)
    assert len(heads) == 1
    windows = [n for n in creator.session.notes if n.startswith("token ")]
    assert windows, "a random game uses tokens: the out-of-turn response went through the session"


def test_asv_host_with_bot_seats_plays_space_walk(tmp_path):
    code = main(["host", "--listen", "127.0.0.1", "--game", "space-walk", "--seats", "2", "--bots", "1", "--bot", "random",
                 "--bot-kind", "random", "--variant", "action-cards", "--log-dir", str(tmp_path), "--quiet"])
    assert code == 0
    logs = sorted(tmp_path.glob("*.asvlog"))
    assert len(logs) == 2
    for log in logs:
        report, session = verify_log(log, SpaceWalkRules())
        assert report.exit_code == 0 and session.state.action_cards
        board = scoreboard(session)
        assert "Winner:" in board and ("blue" in board and "yellow" in board)


def test_the_repl_seat_plays_space_walk_over_the_network(tmp_path):
    """`asv host --game space-walk` with a human seat: the Space Walk REPL drives the seat
    through the node against a bot peer, past the placement round into play (SPEC §48)."""
    from prompt_toolkit.input import create_pipe_input

    from cli.main import build_parser
    from cli.netplay.seat import play_networked
    from tests.test_space_walk_repl import ScriptedSwRepl

    args = build_parser().parse_args(["host", "--listen", "127.0.0.1", "--game", "space-walk", "--seats", "2", "--bots", "1",
                                      "--bot-kind", "random", "--name", "alice", "--log-dir", str(tmp_path)])
    script = ["help rules", "board"]
    with create_pipe_input() as pipe:
        code = play_networked(args, host=True, input=pipe, color=False,
                              repl_class=lambda driver, **kw: ScriptedSwRepl(
                                  driver, pipe, lambda repl: script.pop(0) if script else
                                  ("quit" if repl.driver.state().turns >= 4 else "1")))
    repl = play_networked.last_repl
    text = "\n".join(repl.transcript)
    assert "only ships still in orbit score" in text and "14 (@) hole" in text
    assert "(bot1-random): place" in text and "you: place" in text and "you: move" in text
    if code == 1:   # the human left mid-game: its log is a valid prefix, and it can come back
        assert "left the game" in text and "--resume" in text
    for log in tmp_path.glob("*.asvlog"):
        assert verify_log(log, SpaceWalkRules())[0].valid


def test_asv_demo_plays_space_walk_between_processes(tmp_path):
    """SPEC §47.8: host and joiner processes over TCP; the joiner learns the game from the
    hello; every log verifies with one head."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-m", "cli.main", "demo", "--game", "space-walk", "--players", "2",
                           "--out", str(tmp_path)], cwd=root, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Space Walk demo" in done.stdout and "to move" in done.stdout and "Winner:" in done.stdout
    assert "verdict: all 2 logs valid with the same head" in done.stdout
    assert all(game_of_log(p).key == "space-walk" for p in tmp_path.glob("*.asvlog"))
