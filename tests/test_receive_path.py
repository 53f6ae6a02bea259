"""One parse and one signature check per event on the receive path, and one read of each
action text per peer (SPEC §28.7, §29.1, §26.1): the mesh delivers the SignedEvent it
checked, the node and the session take it as it is, the writer does not check its own
signature, and the session reads an action once and hands the action on."""
from __future__ import annotations

import collections
import os
import sys

import pytest
import trio

import cli.games.asv.adapter as asv_adapter
import protocol.log.events as events
from cli.games import kit_for
from cli.games.asv.adapter import AsvRules
from tests.net_helpers import Runner, wait_until
from protocol.crypto import Identity
from protocol.node import Node, NodeOptions
from tests.session_helpers import make_peers, step
from tests.toy_game import ToyRules, play_own_card


@pytest.fixture
def counted(monkeypatch):
    """Counters of signature checks (by signature) and event parses (by wire)."""
    checks, parses = collections.Counter(), collections.Counter()
    verify, parse_event = events.verify, events.parse_event

    def counting_verify(key, message, signature):
        checks[bytes(signature)] += 1
        return verify(key, message, signature)

    def counting_parse(wire, **kw):
        parses[bytes(wire)] += 1
        return parse_event(wire, **kw)

    monkeypatch.setattr(events, "verify", counting_verify)
    for module in list(sys.modules.values()):   # every `from protocol.log import parse_event`
        if getattr(module, "parse_event", None) is parse_event:
            monkeypatch.setattr(module, "parse_event", counting_parse)
    return checks, parses


class CountingToy(ToyRules):
    """ToyRules that count reads, claims and applications (one instance per peer)."""

    def __init__(self) -> None:
        self.reads = self.claims = 0
        self.applied: list[str] = []

    def read(self, text):
        self.reads += 1
        return super().read(text)

    def revealed_cards(self, st, seat, action):
        self.claims += 1
        return super().revealed_cards(st, seat, action)

    def apply_action(self, st, seat, action):
        self.applied.append(action)   # the toy's actions are their texts
        return super().apply_action(st, seat, action)


@pytest.mark.e2e
async def test_a_networked_game_checks_each_event_once_on_its_receiver(counted):
    checks, parses = counted
    game = os.urandom(16)
    options = dict(keepalive=0.5, peer_timeout=5.0, resync=60.0)   # no idle catch-up meanwhile
    host = Node(Identity.generate("host"), CountingToy(), game, None, agent=play_own_card,
                options=NodeOptions(seats=2, **options))
    guest = Node(Identity.generate("guest"), CountingToy(), game, None, agent=play_own_card,
                 options=NodeOptions(**options), creator=host.identity.fingerprint)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            runner = Runner(nursery)
            await runner.start(host)
            await runner.start(guest)
            await guest.connect(*host.mesh.address)
            host.start(await host.wait_lobby_full())
            await wait_until(lambda: host.over and guest.over)
            nursery.cancel_scope.cancel()
    chain = host.session.chain.events
    assert host.session.finished and [e.wire for e in guest.session.chain.events] == [e.wire for e in chain]
    assert len(chain) > 20 and host.rejected == [] == guest.rejected
    # each event: its author signs it and checks nothing; its one receiver parses and checks it once
    assert {e.signature: checks[e.signature] for e in chain} == {e.signature: 1 for e in chain}
    assert {e.wire: parses[e.wire] for e in chain} == {e.wire: 1 for e in chain}
    assert sum(checks.values()) == sum(parses.values()) == len(chain)
    # each peer reads every action text it applies once (its own included; the same text
    # twice in a row, "deal d" "deal d", is one read: a read sees the text alone)
    actions = sum(e.kind == "action" for e in chain)
    for node in (host, guest):
        rules = node.session.rules
        runs = sum(1 for i, t in enumerate(rules.applied) if i == 0 or rules.applied[i - 1] != t)
        own = sum(e.kind == "action" and e.author == node.me for e in chain)   # claimed when written, then checked
        assert rules.reads == runs and rules.claims == actions + own, vars(rules)


def test_an_asv_action_is_read_once_per_peer(monkeypatch):
    """Amazing Space Venture's notation is parsed once per peer for each action and each
    chance outcome: the writer's claims and its own check share one read (was 3 on the
    writer and 2 on every receiver)."""
    reads = collections.Counter()
    parse = asv_adapter._parse

    def counting(text):
        reads[text] += 1
        return parse(text)

    monkeypatch.setattr(asv_adapter, "_parse", counting)
    peers = make_peers(AsvRules(), 2, agent_for=lambda k: kit_for("asv").agent("greedy", f"t/{k}"))
    applied: dict[int, list[str]] = {}
    for peer in peers:
        real, texts = peer._engine, applied.setdefault(id(peer), [])

        def engine(seat, action, real=real, texts=texts):
            texts.append(action.text())
            return real(seat, action)
        peer._engine = engine
    for _ in range(200):
        step(peers)
    actions = [e for e in peers[0].chain.events if e.kind == "action"]
    assert len(actions) > 50
    # one read for each action (or chance outcome) applied on each peer, and no other; the
    # same text twice in a row on one peer is read once
    runs = collections.Counter(t for texts in applied.values() for i, t in enumerate(texts)
                               if i == 0 or texts[i - 1] != t)
    assert reads == runs
