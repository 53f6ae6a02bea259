"""Network play over real loopback TCP (SPEC §29): whole games among peers, a peer killed
and resumed, a silent peer named in an abort, bad connections refused mid-game."""
from __future__ import annotations

import os
import struct

import pytest
import trio

from cli.games.asv.adapter import AsvRules
from tests.log_helpers import verify_logs
from tests.net_helpers import Runner, bot_node, open_game, wait_until
from protocol.net import FramedStream, Mesh, PeerRefused
from protocol.crypto import Identity
from protocol.log import scan_log, secrets_path
from protocol.node import ResumeError, restore_peer
from protocol.session import verify_log

# whole games between peers over TCP: end to end, so `make check` leaves it out (SPEC §35.4)
pytestmark = pytest.mark.e2e

GAME_LIMIT = 300       # seconds for one bot game in one process: a hang guard (a 4-peer game takes about
                       # 30 s on an idle 2-core machine, over 120 s when six test runs share it)


def verify_all(nodes) -> set[str]:
    heads = set()
    for report in verify_logs([node.log_path for node in nodes], AsvRules):
        assert report.valid and report.finished, report
        heads.add(report.head)
    return heads


def check_whole_game(nodes) -> None:
    """Every peer finished the same game, every log verifies, nobody refused anything."""
    assert all(node.session.finished for node in nodes)
    assert len({node.session.chain.head for node in nodes}) == 1
    assert len({node.session.state_hash() for node in nodes}) == 1
    assert verify_all(nodes) == {nodes[0].session.chain.head.hex()}
    assert all(node.rejected == [] for node in nodes)
    # the creator wrote only its own events: the lobby order put it first, nothing more
    first = nodes[0].session.chain.events[0]
    assert first.author == nodes[0].me and first.body["roster"][0] == nodes[0].me


# four peers here; two play a whole game in test_bad_connections_during_a_game_harm_nobody,
# three in the process tests (test_network_cli) and the abort tests
async def test_bot_peers_play_a_whole_game_over_tcp(tmp_path):
    game = os.urandom(16)
    with trio.fail_after(GAME_LIMIT):
        async with trio.open_nursery() as nursery:
            nodes = await open_game(Runner(nursery), 4, game, tmp_path)
    check_whole_game(nodes)


async def test_a_killed_peer_resumes_from_its_log_and_the_game_finishes(tmp_path):
    game = os.urandom(16)
    with trio.fail_after(GAME_LIMIT):
        async with trio.open_nursery() as nursery:
            runner = Runner(nursery)
            nodes = await open_game(runner, 3, game, tmp_path)
            victim = nodes[2]
            await wait_until(lambda: victim.height > 300)
            runner.kill(victim)
            await wait_until(lambda: victim.mesh.peer_keys() == [])
            path, height = victim.log_path, victim.height
            # the kill interrupted nothing it had written; a torn append is dropped on reopen
            with open(path, "ab") as fh:
                fh.write(struct.pack(">I", 500) + b"\x00\x01")
            await trio.sleep(0.5)          # the others wait for it (the game needs its shares)
            assert max(n.height for n in nodes[:2]) <= height + 40
            peer = restore_peer(victim.identity, AsvRules(), path, agent=victim.agent)
            assert peer.chain.height == height and peer.log.dropped_bytes == 6
            back = await runner.start(bot_node(2, game, tmp_path, peer=peer, identity=victim.identity))
            await back.connect(*nodes[0].mesh.address)
    final = [nodes[0], nodes[1], back]
    assert all(node.session.finished for node in final)
    assert verify_all(final) == {nodes[0].session.chain.head.hex()}


async def test_resume_needs_the_logs_secrets(tmp_path):
    game = os.urandom(16)
    with trio.fail_after(GAME_LIMIT):
        async with trio.open_nursery() as nursery:
            runner = Runner(nursery)
            nodes = await open_game(runner, 2, game, tmp_path)
            await wait_until(lambda: nodes[1].height > 20)
            for node in nodes:
                runner.kill(node)
    os.remove(secrets_path(nodes[1].log_path))
    with pytest.raises(ResumeError, match="is missing"):
        restore_peer(nodes[1].identity, AsvRules(), nodes[1].log_path)
    empty = tmp_path / "empty.asvlog"
    from protocol.log import LogWriter, SecretsFile
    LogWriter(empty, game).close()
    SecretsFile(empty, game).close()
    with pytest.raises(ResumeError, match="no event yet"):
        restore_peer(nodes[0].identity, AsvRules(), empty)


async def test_a_silent_peer_is_named_in_an_abort_and_the_logs_stay_valid(tmp_path, capsys):
    game = os.urandom(16)
    with trio.fail_after(GAME_LIMIT):
        async with trio.open_nursery() as nursery:
            runner = Runner(nursery)
            nodes = await open_game(runner, 3, game, tmp_path, timeout=1.5)
            silent = nodes[1]
            await wait_until(lambda: silent.height > 100)
            runner.kill(silent)
            await wait_until(lambda: nodes[0].over and nodes[2].over)
    others = [nodes[0], nodes[2]]
    assert all(node.session.phase == "aborted" for node in others)
    assert nodes[0].session.chain.head == nodes[2].session.chain.head
    abort = nodes[0].session.chain.events[-1]
    assert abort.kind == "abort" and abort.body["silent"] == silent.me
    assert len(abort.body["votes"]) == 2   # co-signed by both other seats (SPEC §29.6)
    # the writer is the first peer after the silent one in lobby order
    assert abort.author == nodes[2].me
    for node in others:
        report, session = verify_log(node.log_path, AsvRules())
        assert report.valid and not report.finished and report.exit_code == 2
        assert session.phase == "aborted" and session.notes[-1].startswith("abort: " + silent.identity.fingerprint)
        assert report.aborted == session.notes[-1] and report.to_json()["aborted"] == report.aborted
    from cli.main import main
    assert main(["verify", str(others[0].log_path)]) == 2
    assert "game aborted: " + silent.identity.fingerprint in capsys.readouterr().out


async def test_bad_connections_during_a_game_harm_nobody(tmp_path):
    game = os.urandom(16)
    with trio.fail_after(GAME_LIMIT):
        async with trio.open_nursery() as nursery:
            runner = Runner(nursery)
            nodes = await open_game(runner, 2, game, tmp_path)
            await wait_until(lambda: nodes[0].height > 50)
            address = nodes[0].mesh.address
            # garbage before a handshake
            raw = await trio.open_tcp_stream(*address)
            await raw.send_all(b"\x00\x00\x00\x05junk!")
            reply = await FramedStream(raw).receive_message()
            assert reply["t"] == "error" and reply["code"] == "malformed"
            await raw.aclose()
            # a frame bigger than the limit, refused from its header
            raw = await trio.open_tcp_stream(*address)
            await raw.send_all(struct.pack(">I", 1 << 30) + b"x" * 100)
            reply = await FramedStream(raw).receive_message()
            assert reply["code"] == "too-large"
            await raw.aclose()
            # a key that is not in the roster, with the right game id
            async def ignore(*_):
                return None
            mallory = Mesh(Identity.generate("mallory"), game, lambda k: True, ignore)
            nursery.start_soon(mallory.run)
            await wait_until(lambda: mallory._nursery is not None)
            with pytest.raises(PeerRefused) as info:
                await mallory.connect(*address)
            assert info.value.code == "started" and "has started" in info.value.reason   # in words (§29.2)
            # the right key of a roster peer, but the wrong game id
            stranger = Mesh(nodes[1].identity, os.urandom(16), lambda k: True, ignore, listen=False)
            nursery.start_soon(stranger.run)
            await wait_until(lambda: stranger._nursery is not None)
            with pytest.raises(PeerRefused):
                await stranger.connect(*address)
            mallory.close()
            stranger.close()
            await wait_until(lambda: all(n.over for n in nodes))
    check_whole_game(nodes)


async def test_a_forged_event_is_refused_and_never_logged(tmp_path):
    from protocol.log import sign_event
    game = os.urandom(16)
    with trio.fail_after(GAME_LIMIT):
        async with trio.open_nursery() as nursery:
            runner = Runner(nursery)
            nodes = await open_game(runner, 2, game, tmp_path)
            await wait_until(lambda: nodes[0].height > 60)
            # a roster peer signs an event out of its turn: the other peer refuses it
            liar = nodes[1]
            s = liar.session
            wire = sign_event(liar.identity, game, s.chain.height + 1, bytes(32), "action",
                              {"a": "next", "p": [], "h": bytes(32)}).wire
            await liar.mesh.broadcast(wire)
            await wait_until(lambda: all(n.over for n in nodes))
    assert verify_all(nodes) == {nodes[0].session.chain.head.hex()}
    logged = {w for n in nodes for w in scan_log(n.log_path).records}
    assert wire not in logged
