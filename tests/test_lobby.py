"""The lobby nobody can hijack (SPEC §29.2, finding 6 of issue 7): the roster comes only
from the hello of the creator named in the invite."""
from __future__ import annotations

import os

import pytest
import trio

from cli.games.asv.adapter import AsvRules
from cli.netplay.invite import parse_invite
from tests.net_helpers import Runner, bot_node, wait_until
from protocol.log import sign_event
from protocol.crypto import Identity
from protocol.net import Mesh
from protocol.session import BadBody, NotTheCreator, first_hello_problem, verify_log
from tests.weak_keys import SMALL_ORDER

LIMIT = 40


def hello(author: Identity, game: bytes, roster: list[bytes], config=None):
    return sign_event(author, game, 0, bytes(32), "hello",
                      {"name": author.name, "roster": roster, "rules": AsvRules().name, "config": config or {}})


def test_only_the_creators_sound_hello_can_be_a_first_hello():
    game = os.urandom(16)
    creator, other = Identity.generate("c"), Identity.generate("m")
    roster = [creator.public_key_bytes, other.public_key_bytes]
    assert first_hello_problem(hello(creator, game, roster), creator.fingerprint) is None
    assert first_hello_problem(hello(creator, game, roster), creator.fingerprint.lower()) is None
    assert first_hello_problem(hello(creator, game, roster), creator.public_key_bytes) is None
    forged = first_hello_problem(hello(other, game, [other.public_key_bytes]), creator.fingerprint)
    assert isinstance(forged, NotTheCreator) and forged.author == other.public_key_bytes
    assert creator.fingerprint in forged.reason
    weak = first_hello_problem(hello(creator, game, [creator.public_key_bytes, SMALL_ORDER[6]]),
                               creator.fingerprint)
    assert isinstance(weak, BadBody) and "roster key 1" in weak.reason
    not_first = first_hello_problem(hello(creator, game, [other.public_key_bytes, creator.public_key_bytes]),
                                    creator.fingerprint)
    assert isinstance(not_first, BadBody)
    action = sign_event(creator, game, 0, bytes(32), "action", {"a": "x"})
    assert isinstance(first_hello_problem(action, creator.fingerprint), BadBody)


@pytest.mark.parametrize("bad", ["1.2.3.4:5/" + "ab" * 16 + "/NOT-A-FINGERPRINT", "1.2.3.4:5/" + "ab" * 16 + "/AAAA-BBBB-CCCC-DDD1"])
def test_an_invite_with_a_malformed_fingerprint_is_refused(bad):
    with pytest.raises(ValueError):
        parse_invite(bad)


async def test_a_forged_roster_sent_to_a_joiner_before_the_start_changes_nothing(tmp_path):
    """Anyone holding the invite reaches a joiner before the roster is known and sends it a
    hello with a roster of its own: the joiner refuses it naming the forger, the creator
    never takes a hello from anyone, and the real game goes on with one head."""
    game = os.urandom(16)
    forger = Identity.generate("forger")
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as nursery:
            runner = Runner(nursery)
            creator = await runner.start(bot_node(0, game, tmp_path, seats=2))
            joiner = await runner.start(bot_node(1, game, tmp_path, creator=creator))
            await joiner.connect(*creator.mesh.address)
            roster = await creator.wait_lobby_full()
            mesh = Mesh(forger, game, lambda key: True, lambda key, wire: None, auto_connect=False)
            await nursery.start(mesh.run)
            await mesh.connect(*joiner.mesh.address)     # a joiner admits any key before the roster
            fake = hello(forger, game, [forger.public_key_bytes, joiner.me])
            # the creator relays what the joiner forwards: it must refuse the fake as well
            await mesh.broadcast(fake.wire)
            await wait_until(lambda: joiner.rejected)
            assert joiner.session is None and creator.session is None
            refusal = joiner.rejected[0]
            assert isinstance(refusal, NotTheCreator) and refusal.author == forger.public_key_bytes
            creator.start(roster)
            await wait_until(lambda: joiner.session is not None and joiner.session.phase != "hello"
                             and creator.session.phase not in ("hello", "seat-commit", "seat-reveal", "key-commit"))
            assert forger.public_key_bytes not in joiner.mesh.peer_keys()  # dropped at the roster
            mesh.close()
            runner.kill(creator)
            runner.kill(joiner)
    assert joiner.session.roster == creator.session.roster == roster
    assert joiner.session.chain.events[0].author == creator.me
    common = min(joiner.height, creator.height)
    assert common >= 6 and joiner.session.chain.events[:common] == creator.session.chain.events[:common]
    for node in (creator, joiner):
        report, _ = verify_log(node.log_path, AsvRules())
        assert report.valid and report.exit_code == 2, report


async def test_the_lobby_keeps_only_connections_it_has_a_reason_to_expect(tmp_path):
    """Issue 24 item 7 (SPEC §29.2): a key holding the game id but asking for no seat holds
    no seat, is closed after the join grace, and at most MAX_UNSEATED such connections are
    held at once; a joiner's join request takes a seat."""
    from protocol.net import PeerRefused
    from protocol.node import MAX_UNSEATED

    game = os.urandom(16)
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as nursery:
            runner = Runner(nursery)
            creator = await runner.start(bot_node(0, game, tmp_path, seats=2, join_grace=1.0))
            strangers = []
            for i in range(MAX_UNSEATED + 1):
                mesh = Mesh(Identity.generate(f"s{i}"), game, lambda key: True, lambda key, wire: None,
                            auto_connect=False)
                await nursery.start(mesh.run)
                strangers.append(mesh)
            for mesh in strangers[:MAX_UNSEATED]:
                await mesh.connect(*creator.mesh.address)
            with pytest.raises(PeerRefused) as busy:
                await strangers[-1].connect(*creator.mesh.address)
            assert busy.value.code == "busy"
            assert creator.lobby == [creator.me]                 # a connection is not a seat
            await wait_until(lambda: not creator.mesh.peer_keys())   # closed after the grace
            joiner = await runner.start(bot_node(1, game, tmp_path, creator=creator))
            await joiner.connect(*creator.mesh.address)
            assert await creator.wait_lobby_full() == [creator.me, joiner.me]
            for mesh in strangers:
                mesh.close()
            runner.kill(creator)
            runner.kill(joiner)
