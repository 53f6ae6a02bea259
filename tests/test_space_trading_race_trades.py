"""Trades signed by both sides (SPEC §55.1, §59.4): on the session an offer and its answer are
two action events, the offer signed by the mover and the answer by the seat offered; only the
accept changes the deeds and money, a rejected or unanswered offer changes nothing, and
nobody but the seat offered can write the answer. The log shows both signatures."""
from __future__ import annotations

from protocol.errors import WrongAuthor
from protocol.log import parse_event, read_log
from protocol.session import verify_log
from tests.session_helpers import craft, refused, run_until, writer
from space_trading_race.actions import Offer
from space_trading_race.engine import due
from tests.str_session_helpers import str_peers

from cli.games.space_trading_race.adapter import TradingRaceRules

RULES = TradingRaceRules()


def _ready(peers) -> bool:
    p = peers[0]
    if p.phase != "play" or p.state is None or p.state.over or RULES.to_move(p.state) in (-1, None):
        return False
    s = p.state
    mover = s.seat
    return (due(s) in ("roll", "after") and s.offers_made == 0 and bool(s.deeds_of(mover))
            and any(s.alive[o] and o != mover and s.cash[o] >= 2 for o in range(s.players)))


def say(peers, peer, action: str) -> None:
    """`peer` writes `action`; every other peer receives it."""
    wire = peer.act(action=action)
    for p in peers:
        if p is not peer:
            p.receive(wire)


def test_a_trade_takes_effect_only_when_the_seat_offered_signs_its_accept(tmp_path):
    peers = str_peers(3, tmp_path, {}, key_base=90)
    run_until(peers, lambda: _ready(peers))
    state = peers[0].state
    mover = state.seat
    to = next(o for o in range(state.players) if o != mover and state.alive[o] and state.cash[o] >= 2)
    deed = state.deeds_of(mover)[0]
    by_seat = {p.seat: p for p in peers}
    cash_before = list(state.cash)

    offer = Offer(to, (deed,), 0, (), 1).text()
    say(peers, by_seat[mover], offer)
    for p in peers:            # half signed: only the pending offer, on every replica
        assert p.state.owner[deed] == mover and p.state.offer is not None and p.state.cash == cash_before
    assert writer(peers) is by_seat[to]
    # the mover cannot answer its own offer, nor can the third seat: only the seat offered writes now
    for other in (by_seat[mover], by_seat[3 - mover - to]):
        refused(peers, other, craft(other, kind="action", body={"a": "accept", "p": []}), WrongAuthor, RULES)
    say(peers, by_seat[to], "reject")
    assert all(p.state.owner[deed] == mover and p.state.offer is None for p in peers)

    second = Offer(to, (deed,), 0, (), 2).text()
    say(peers, by_seat[mover], second)
    say(peers, by_seat[to], "accept")
    for p in peers:
        assert p.state.owner[deed] == to
        assert p.state.cash[mover] == cash_before[mover] + 2 and p.state.cash[to] == cash_before[to] - 2

    events = [parse_event(w) for w in read_log(peers[0].log.path)]
    actions = [(e.author, e.body["a"]) for e in events if e.kind == "action"]
    keys = peers[0].seat_keys
    assert (keys[mover], offer) in actions and (keys[to], "reject") in actions
    i = actions.index((keys[mover], second))
    assert actions[i + 1] == (keys[to], "accept")       # the same offer, signed by both sides
    report, _ = verify_log(peers[0].log.path, TradingRaceRules())
    assert report.valid, report
