"""Space Trading Race on the lockstep session (SPEC §59.2): the missions as a mental-poker deck
dealt privately and claimed with a proof, the dice from the session's fair dice (SPEC §33.8),
every log verifying; a networked game over loopback TCP."""
from __future__ import annotations

import os

import pytest
import trio

from cli.games import kit_for
from cli.games.space_trading_race.adapter import TradingRaceRules, mission_label
from cli.netplay.printer import scoreboard
from tests.net_helpers import Runner, wait_until
from protocol.crypto import Identity
from protocol.node import Node, NodeOptions
from protocol.session import CHANCE, ClaimMismatch, DiceRequest, GameRuleError, IllegalMove, run_local, verify_log
from tests.session_helpers import craft, refused, run_until, writer
from tests.str_session_helpers import str_peers
from space_trading_race.missions import MISSION_SLUGS

RULES = TradingRaceRules()
KIT = kit_for("space-trading-race")


def peers_for(n: int, tmp_path, config: dict, kinds=("greedy",)):
    return str_peers(n, tmp_path, config, kinds)


def test_the_adapter_maps_the_mission_pile_to_decks_and_a_roll_to_the_fair_dice():
    state = RULES.new_state(3, {})
    shuffle = RULES.pending_chance(state)
    assert (shuffle.kind, shuffle.deck, shuffle.handles) == ("shuffle", "missions", tuple(range(20)))
    assert shuffle.labels == tuple(mission_label(s) for s in MISSION_SLUGS) == tuple(RULES.deck_labels())
    RULES.apply_action(state, CHANCE, RULES.chance_outcome(state, shuffle, ()))
    deal = RULES.pending_chance(state)
    assert (deal.kind, deal.handles, deal.seat) == ("deal", (0,), 0)
    for _ in range(3):
        RULES.apply_action(state, CHANCE, RULES.chance_outcome(state, RULES.pending_chance(state), ()))
    RULES.apply_action(state, 0, "roll")
    roll = RULES.pending_chance(state)
    assert roll == DiceRequest(6, 2, 0)               # two d6, the mover opening last (SPEC §33.5)
    for bad in ((3,), (0, 4), (3, 7), ("3", 4)):
        with pytest.raises(GameRuleError):
            RULES.chance_outcome(state, roll, bad)
    RULES.apply_action(state, CHANCE, RULES.chance_outcome(state, roll, (3, 4)))
    assert state.last_roll == (3, 4)
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
    assert len(heads) == 1 and events > 30
    board = scoreboard(peers[0])   # the final scoreboard says how it ended and what each seat held
    assert peers[0].state.end in board and "cash" in board
    notes = peers[0].notes
    rolls = [n for n in notes if n.startswith("dice open roll") and ":" in n]
    assert [n for n in notes if n.startswith("dice chain 0")] and len(rolls) == peers[0].dice.ledger.roll_index > 1


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


@pytest.mark.e2e
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
