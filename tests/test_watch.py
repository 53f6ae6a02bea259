"""The spectator (SPEC §29.16): a read-only connection the players' meshes serve within a
bound and drop the moment it sends an event; a watch id that never takes a seat; and
`asv watch`'s watcher, whose verdict on a live networked game is `asv verify`'s on a
player's log, naming a cheating insider."""
from __future__ import annotations

import io
import json
import os
import socket
import sys
from pathlib import Path

import pytest
import trio

from cli.games.asv.adapter import AsvRules
from cli.netplay.invite import Invite, parse_invite, spectator_invite
from cli.netplay.printer import Printer
from cli.netplay.watch import Watcher, WatchTimes
from tests.net_helpers import Runner, bot_node, bot_agent, open_game, wait_until
from protocol.crypto import Identity, fingerprint
from protocol.log.events import sign_event
from protocol.log.program import log_program_line
from protocol.net import Mesh, PeerRefused, TransportError, watch_id
from protocol.node import Node, NodeOptions
from protocol.session import verify_log
from protocol.session.verify import FILE_FIELDS
from tests.session_helpers import craft

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 300    # a hang guard for one networked bot game (far more than it takes)


def game_verdict(report: dict) -> dict:
    """A verdict without the fields of the log file (its header's program line and format,
    SPEC §23.2): a watcher has no file, so it gives the game's verdict only."""
    return {k: v for k, v in report.items() if k not in FILE_FIELDS}


def _spectator(game: bytes, on_event=lambda k, e: None, downs=None) -> Mesh:
    return Mesh(Identity.generate("spectator"), watch_id(game), lambda k: True, on_event,
                listen=False, watching=True, keepalive_interval=0.5, peer_timeout=5.0,
                on_peer_down=(lambda k, err: downs.append(err)) if downs is not None else None)


async def test_a_spectator_is_served_apart_from_the_peers_and_bounded():
    game = os.urandom(16)
    player = Mesh(Identity.generate("p"), game, lambda k: True, lambda k, e: None, spectators=1,
                  keepalive_interval=0.5, peer_timeout=5.0)
    async with trio.open_nursery() as nursery:
        await nursery.start(player.run)
        first, second = _spectator(game), _spectator(game)
        await nursery.start(first.run)
        await nursery.start(second.run)
        await first.connect(*player.address)
        await wait_until(lambda: player.spectator_count() == 1)
        assert player.peer_keys() == []          # never a peer: not counted, not polled
        try:
            await second.connect(*player.address)
            raise AssertionError("a spectator past the bound was admitted")
        except PeerRefused as err:
            assert err.code == "spectators-full"
        assert player.spectator_count() == 1
        for m in (player, first, second):
            m.close()


async def test_a_spectator_that_sends_an_event_is_refused_and_dropped():
    game = os.urandom(16)
    got = []
    player_id = Identity.generate("p")
    player = Mesh(player_id, game, lambda k: True, lambda k, e: got.append(e), spectators=2,
                  keepalive_interval=0.5, peer_timeout=5.0)
    downs: list = []
    async with trio.open_nursery() as nursery:
        await nursery.start(player.run)
        spy = _spectator(game, downs=downs)
        await nursery.start(spy.run)
        key = await spy.connect(*player.address)
        await wait_until(lambda: player.spectator_count() == 1)
        forged = sign_event(spy.identity, game, 0, bytes(32), "hello", {"rules": "x"})
        await spy.send_event(key, forged)
        await wait_until(lambda: player.spectator_count() == 0 and downs)
        assert isinstance(downs[0], PeerRefused) and downs[0].code == "read-only"
        assert got == []                          # nothing it sent was delivered
        for m in (player, spy):
            m.close()


async def test_a_spectator_with_two_catch_up_requests_in_flight_is_dropped():
    """A peer may have four answers in flight; a spectator one (each may be the whole chain)."""
    game = os.urandom(16)

    async def slow_answer(key, from_seq):
        await trio.sleep(1.0)
        return []
    player = Mesh(Identity.generate("p"), game, lambda k: True, lambda k, e: None, spectators=1,
                  on_catchup_request=slow_answer, keepalive_interval=0.5, peer_timeout=5.0)
    downs: list = []
    async with trio.open_nursery() as nursery:
        await nursery.start(player.run)
        spy = _spectator(game, downs=downs)
        await nursery.start(spy.run)
        key = await spy.connect(*player.address)

        async def ask():
            try:
                await spy.request_since(key, 0, timeout=3.0)
            except TransportError:
                pass
        nursery.start_soon(ask)
        nursery.start_soon(ask)
        with trio.fail_after(10):
            await wait_until(lambda: downs)
        assert isinstance(downs[0], PeerRefused) and downs[0].code == "flood"
        assert player.spectator_count() == 0
        for m in (player, spy):
            m.close()


async def test_a_spectator_invite_cannot_take_a_seat(tmp_path):
    game = os.urandom(16)
    watch = spectator_invite(Invite("127.0.0.1", 1, game, "AAAA-AAAA-AAAA-AAAA"))
    assert watch.game == watch_id(game) != game and game.hex() not in watch.text()
    assert parse_invite("asv watch " + watch.text()) == watch
    async with trio.open_nursery() as nursery:
        runner = Runner(nursery)
        creator = await runner.start(bot_node(0, game, tmp_path, seats=2))
        # a joiner pasting the spectator invite presents the watch id as its game
        intruder = Node(Identity.generate("intruder"), AsvRules(), watch.game, tmp_path,
                        agent=bot_agent("greedy", "x"), creator=creator.identity.fingerprint,
                        options=NodeOptions(seats=None, keepalive=0.5, peer_timeout=5.0))
        await runner.start(intruder)
        try:
            await intruder.connect(*creator.mesh.address)
        except PeerRefused:
            pass
        await trio.sleep(1.0)
        assert creator.lobby == [creator.me] and creator.mesh.peer_keys() == []
        nursery.cancel_scope.cancel()


async def _watch(node: Node, out: io.StringIO, **times) -> Watcher:
    invite = spectator_invite(Invite(*node.mesh.address, node.game, node.identity.fingerprint))
    return Watcher(invite, Printer(out), times=WatchTimes(**times))


@pytest.mark.e2e   # an `asv watch` process beside a networked game
async def test_a_watcher_of_an_honest_game_ends_with_verifys_verdict(tmp_path):
    """One watcher in this process and one `asv watch --json` process, both joining
    mid-game through a joiner (not the creator), end with `asv verify`'s verdict and head."""
    game = os.urandom(16)
    out = io.StringIO()
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as nursery:
            # linger: the peers keep serving a while after the end, for a watcher behind them
            nodes = await open_game(Runner(nursery), 2, game, tmp_path, linger=5.0)
            await wait_until(lambda: nodes[0].height > 40)      # joins mid-game, catches up from 0
            invite = spectator_invite(Invite(*nodes[1].mesh.address, game, nodes[1].identity.fingerprint))
            command = {}

            async def run_command():
                command["done"] = await trio.run_process(
                    [sys.executable, "-m", "cli.main", "watch", "--json", invite.text()],
                    capture_stdout=True, check=False, cwd=ROOT)
            nursery.start_soon(run_command)
            watcher = await _watch(nodes[1], out)
            report = await watcher.run()
    expected, _ = verify_log(nodes[0].log_path, AsvRules())
    assert expected.valid and expected.finished
    assert game_verdict(report.to_json()) == game_verdict(expected.to_json())
    assert f"watching game {game.hex()}" in out.getvalue()
    assert command["done"].returncode == 0
    assert game_verdict(json.loads(command["done"].stdout)) == json.loads(json.dumps(game_verdict(expected.to_json())))


def test_asv_watch_exit_codes_for_a_bad_or_unreachable_invite(capsys):
    from cli.main import main
    assert main(["watch", "not an invite"]) == 2
    with socket.socket() as s:        # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert main(["watch", f"127.0.0.1:{port}/{'ab' * 32}"]) == 3
    assert "cannot watch through" in capsys.readouterr().err


async def test_a_watcher_names_a_cheating_insider(tmp_path):
    """The joiner's seat is a cheat: at its first action it signs a wrong state hash. The
    honest creator refuses it and halts; the watcher, which saw the bad event first, ends
    with the halt's verdict naming the cheater, as `asv verify` does on the creator's log."""
    game = os.urandom(16)
    out = io.StringIO()
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as nursery:
            runner = Runner(nursery)
            creator = await runner.start(bot_node(0, game, tmp_path, seats=2))
            cheater = Node(Identity.generate("cheat"), AsvRules(), game, tmp_path, agent=None,
                           creator=creator.identity.fingerprint,
                           options=NodeOptions(keepalive=0.5, peer_timeout=5.0))
            await runner.start(cheater)
            await cheater.connect(*creator.mesh.address)
            creator.start(await creator.wait_lobby_full())
            watcher = await _watch(creator, out, grace=30.0)
            async with trio.open_nursery() as watching:
                result = {}

                async def watch():
                    result["report"] = await watcher.run()
                watching.start_soon(watch)
                await wait_until(lambda: cheater.session is not None
                                 and cheater.session.pending_obligation() == "action")
                s = cheater.session
                honest_text = bot_agent("greedy", "cheat")(s.state, s.view)
                await cheater.mesh.broadcast(craft(s, body=s._body("action", s.chain.height, honest_text),
                                                   h=bytes(32)))
            runner.kill(cheater)
    report = result["report"]
    expected, _ = verify_log(creator.log_path, AsvRules())
    assert expected.culprit["author"] == fingerprint(cheater.me)
    assert game_verdict(report.to_json()) == game_verdict(expected.to_json())
    assert report.program is None and expected.program == log_program_line()   # the creator's log names it
    assert f"REFUSED at seq {expected.culprit['seq']} by {fingerprint(cheater.me)}" in out.getvalue()


def test_a_held_refusal_becomes_the_verdict_only_when_nothing_takes_its_height():
    """LogChecker (SPEC §29.16): a provisionally refused event keeps its height open; a
    valid event there clears it; with none, conclude() gives verify's verdict on the
    prefix with the refused event appended (its seq, its author, its reason)."""
    from tests.session_helpers import make_peers, run_until, writer
    from tests.toy_game import ToyRules, play_own_card
    from protocol.session import LogChecker
    rules = ToyRules()
    peers = make_peers(rules, 2, agent_for=lambda k: play_own_card)
    run_until(peers, lambda: writer(peers).pending_obligation() == "action")
    cheater = writer(peers)
    for concluded in (True, False):      # the second case makes the seat act: last
        # a wrong state hash leaves the height only to a halt; an illegal move changes nothing
        bad = craft(cheater, h=bytes(32)) if concluded else craft(cheater, lambda b: b.update(a="play #99:card:z"))
        checker = LogChecker(rules, cheater.game)
        for ev in cheater.chain.events:
            assert checker.feed(ev.wire)
        height = checker.fed
        assert not checker.feed(bad, provisional=True) and checker.held[0] == height
        assert checker.report().valid and checker.fed == height   # not yet a verdict
        if concluded:
            checker.conclude()
            report = checker.report()
            assert not report.valid and report.seq == height
            assert report.author == fingerprint(cheater.me) and "StateHashMismatch" in report.reason
            assert checker.session.evidence[0].wire == bad     # kept, as a player's node keeps it
        else:
            good = cheater.act()          # the same seat's honest event at that height
            assert checker.feed(good, provisional=True) and checker.held is None
            checker.conclude()
            assert checker.report().valid and checker.fed == height + 1
