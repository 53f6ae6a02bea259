"""Space Trading Race on the lockstep session (SPEC §59.2): the missions as a mental-poker deck
dealt privately and claimed with a proof, the dice as two public decks of faces shuffled by
every seat and revealed to the table, every log verifying; a networked game over loopback TCP."""
from __future__ import annotations

import os

import pytest
import trio

from cli.games import kit_for
from cli.games.space_trading_race.adapter import (DICE_HANDLE_BASE, DIE_SHUFFLED, TradingRaceRules,
                                                  dice_progress, mission_label)
from net_helpers import Runner, wait_until
from protocol.crypto import Identity
from protocol.log import LogWriter, SecretsFile
from protocol.node import Node, NodeOptions
from protocol.session import CHANCE, ClaimMismatch, GameRuleError, IllegalMove, SessionPeer, run_local, verify_log
from session_helpers import craft, refused, run_until, writer
from space_trading_race.missions import MISSION_SLUGS

RULES = TradingRaceRules()
KIT = kit_for("space-trading-race")


def peers_for(n: int, tmp_path, config: dict, kinds=("greedy",)):
    game = os.urandom(16)
    ids = [Identity.from_seed(bytes([i + 40]) * 32, f"p{i}") for i in range(n)]
    roster = [i.public_key_bytes for i in ids]
    peers = []
    for k, ident in enumerate(ids):
        path = os.path.join(tmp_path, f"peer{k}.asvlog")
        peers.append(SessionPeer(ident, TradingRaceRules(), game, roster, dict(config),
                                 log=LogWriter(path, game), secrets=SecretsFile(path, game),
                                 agent=KIT.agent(kinds[k % len(kinds)], f"s/{k}")))
    return peers


def test_the_adapter_maps_the_mission_pile_and_the_dice_to_deck_requests():
    state = RULES.new_state(3, {})
    shuffle = RULES.pending_chance(state)
    assert (shuffle.kind, shuffle.deck, shuffle.handles) == ("shuffle", "missions", tuple(range(20)))
    assert shuffle.labels == tuple(mission_label(s) for s in MISSION_SLUGS)
    RULES.apply_action(state, CHANCE, RULES.chance_outcome(state, shuffle, ()))
    deal = RULES.pending_chance(state)
    assert (deal.kind, deal.handles, deal.seat) == ("deal", (0,), 0)
    for _ in range(3):
        RULES.apply_action(state, CHANCE, RULES.chance_outcome(state, RULES.pending_chance(state), ()))
    RULES.apply_action(state, 0, "roll")
    a = RULES.pending_chance(state)
    assert (a.kind, a.deck, a.handles) == ("shuffle", "die-a", tuple(range(DICE_HANDLE_BASE, DICE_HANDLE_BASE + 6)))
    assert a.labels == tuple(f"die:{f}" for f in range(1, 7))
    before = state.hash()
    RULES.apply_action(state, CHANCE, RULES.chance_outcome(state, a, ()))   # die a ready: no engine change
    assert state.hash() == before and dice_progress(state).stage == 1
    b = RULES.pending_chance(state)
    assert b.deck == "die-b" and b.handles[0] == DICE_HANDLE_BASE + 6
    RULES.apply_action(state, CHANCE, DIE_SHUFFLED)
    reveal = RULES.pending_chance(state)
    assert (reveal.kind, reveal.handles) == ("reveal", (DICE_HANDLE_BASE, DICE_HANDLE_BASE + 6))
    with pytest.raises(GameRuleError):    # a mission label is no die
        RULES.chance_outcome(state, reveal, [(DICE_HANDLE_BASE, "mission:tycoon"), (DICE_HANDLE_BASE + 6, "die:2")])
    RULES.apply_action(state, CHANCE, RULES.chance_outcome(state, reveal, [(1000, "die:3"), (1006, "die:4")]))
    assert state.last_roll == (3, 4) and dice_progress(state).rolls == 1
    assert not state.pending            # seven steps from Earth: Mercury, nothing more to roll
    with pytest.raises(GameRuleError):    # no die is being shuffled now
        RULES.apply_action(state, CHANCE, DIE_SHUFFLED)
    RULES.apply_action(state, 0, "decline")
    RULES.apply_action(state, 0, "end")
    RULES.apply_action(state, 1, "roll")
    assert RULES.pending_chance(state).handles[0] == DICE_HANDLE_BASE + 12   # the next roll's fresh decks
    assert RULES.revealed_cards(state, 0, "claim #0:tycoon") == [(0, "mission:tycoon")]
    assert RULES.revealed_cards(state, 0, "end") == []
    with pytest.raises(GameRuleError):
        RULES.apply_action(state, 0, "offer 1 io+$0 for nothing")   # not canonical


def test_a_whole_session_game_verifies_with_proved_missions_and_dice(tmp_path):
    peers = peers_for(3, tmp_path, {"time_limit": 6})
    events = run_local(peers)
    assert all(p.finished for p in peers)
    heads = set()
    for k, p in enumerate(peers):
        report, session = verify_log(p.log.path, TradingRaceRules())
        assert report.valid and report.finished and report.exit_code == 0, report
        assert session.state.over and report.scores == [session.state.assets(s) for s in range(3)]
        heads.add(report.head)
        # each seat learned its own mission only (SPEC §53.1)
        assert p.view.known.get(session.state.hand[k]) or not session.state.alive[k] or session.state.over
        assert set(p.view.known) <= set(range(20))
    assert len(heads) == 1 and events > 100
    notes = peers[0].notes
    assert any(n.startswith("shuffle die-a") for n in notes) and any(n.startswith("shares reveal dice") for n in notes)


def test_a_claim_of_a_mission_the_seat_does_not_hold_is_refused(tmp_path):
    peers = peers_for(2, tmp_path, {})
    run_until(peers, lambda: peers[0].phase == "play" and RULES.to_move(peers[0].state) not in (CHANCE, None))
    actor = writer(peers)
    handle = actor.state.hand[actor.seat]
    mine = actor.view.known[handle]
    other = next(s for s in MISSION_SLUGS if s != mine)
    share = actor.book.make_claim_share(actor._key, actor.chain.height, actor.seat, handle)
    refused(peers, actor, craft(actor, body={"a": f"claim #{handle}:{other}", "p": [share]}), ClaimMismatch, RULES)
    # the true card, but its condition does not hold at the start: the engine refuses it
    refused(peers, actor, craft(actor, body={"a": f"claim #{handle}:{mine}", "p": [share]}), IllegalMove, RULES)


GAME_LIMIT = 120


async def test_three_peers_play_space_trading_race_over_tcp(tmp_path):
    game = os.urandom(16)
    options = dict(keepalive=0.5, peer_timeout=5.0)
    nodes = [Node(Identity.generate("c"), TradingRaceRules(), game, tmp_path, agent=KIT.agent("greedy", "n/0"),
                  options=NodeOptions(seats=3, **options), config={"time_limit": 4})]
    for i in (1, 2):
        nodes.append(Node(Identity.generate(f"j{i}"), TradingRaceRules(), game, tmp_path,
                          agent=KIT.agent("random", f"n/{i}"), options=NodeOptions(**options),
                          creator=nodes[0].identity.fingerprint))
    with trio.fail_after(GAME_LIMIT):
        async with trio.open_nursery() as nursery:
            runner = Runner(nursery)
            for node in nodes:
                await runner.start(node)
            for node in nodes[1:]:
                await node.connect(*nodes[0].mesh.address)
            nodes[0].start(await nodes[0].wait_lobby_full())
            await wait_until(lambda: all(n.over for n in nodes))
    heads = set()
    for node in nodes:
        report, session = verify_log(node.log_path, TradingRaceRules())
        assert report.valid and report.finished, report
        assert session.state.over and session.state.round <= 5
        heads.add(report.head)
    assert len(heads) == 1
