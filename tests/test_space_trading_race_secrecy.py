"""Missions exchanged at Earth stay secret when a seat leaves (SPEC §25.7, §26.13, §59.5).

A staged game of three in one process: under a test house rule the first `end` of a seat in
round 1 while it still holds its setup mission offers it the exchange at Earth instead, and
the bots always exchange; so every seat's setup mission goes under the pile with the other
seats' shares of it in the log. Then one seat goes bankrupt (the engine's own charge, as in
tests/test_space_trading_race_leaving.py) and hands its part of the pile over. An outsider
reading the whole log (protocol/session/outsider.py) must find no card it was not shown: the
leaver's share of its own old mission beside the two deal shares would open it, so the
hand-over first has that card refreshed by every seat (§26.13)."""
from __future__ import annotations

import os

import pytest

from cli.games.space_trading_race.adapter import TradingRaceRules
from protocol.crypto import Identity
from protocol.log import parse_event, read_log
from protocol.session import SessionPeer, run_local, verify_log
from protocol.session.outsider import readable_cards
from protocol.session.share_check import check_shares
from protocol.session.shuffle_check import check_shuffles
from space_trading_race.money import charge
from space_trading_race.state import BANK
from tests.str_session_helpers import ExchangeAtEarth, exchanging, str_peers


class ExchangeThenBroke(ExchangeAtEarth):
    """The exchange at Earth (tests/str_session_helpers.py), and then when the `broke` seat
    ends that turn, the bank charges it more than it could pay (§56.1)."""
    broke = 1

    def apply_action(self, state, seat, action):
        text = action if isinstance(action, str) else action.text()
        offered = self.offers_exchange(state, seat, text)
        super().apply_action(state, seat, action)
        if not offered and seat == self.broke and text == "end" and state.alive[seat] and not state.over:
            charge(state, seat, BANK, 10 ** 9)


class SeatZeroGoesBroke(ExchangeThenBroke):
    broke = 0


def play(tmp_path, rules_cls, players=3, time_limit=3):
    peers = str_peers(players, tmp_path, {"time_limit": time_limit}, key_base=150, rules_cls=rules_cls,
                      agent_for=lambda k: exchanging(f"x/{k}"), name="x")
    run_local(peers)
    return peers


@pytest.mark.parametrize("rules_cls", [ExchangeThenBroke, SeatZeroGoesBroke])
def test_a_seat_leaving_after_exchanges_exposes_no_mission(tmp_path, rules_cls):
    peers = play(tmp_path, rules_cls)
    leaver = rules_cls.broke
    state = peers[0].state
    assert state.over and state.out[leaver] == "bankrupt"
    events = [parse_event(w) for w in read_log(peers[0].log.path)]
    kinds = [e.kind for e in events]
    exchanges = [e for e in events if e.kind == "action" and e.body["a"] == "exchange"]
    assert len(exchanges) >= 2          # the leaver's and at least one other seat's, before it left
    # the outsider reads the whole log and finds only the missions shown to the table (claims)
    shown = {h for h, _ in state.names.items()}
    read = readable_cards(events, TradingRaceRules().deck_labels())
    assert {c.handle for c in read} <= shown, read
    at = kinds.index("hand-over")
    hand_over = events[at]
    assert hand_over.author == peers[0].seat_keys[leaver]
    # the leaver's old mission lay under the pile with both other seats' shares of it in the log:
    # it was refreshed by every seat, the leaver included, just before the hand-over
    refreshes = [e for e in events[:at] if e.kind == "refresh"][-3:]
    assert [e.author for e in refreshes] == peers[0].seat_keys and kinds[at - 3:at] == ["refresh"] * 3
    refreshed = {h for h, _ in refreshes[0].body["for"]}
    assert refreshed and refreshed <= {h for h, _ in hand_over.body["for"]}
    # every share and every refresh proof checks from the log alone; every replica agrees
    assert not check_shares(events).failures
    assert not check_shuffles(events).failures
    heads = set()
    for p in peers:
        report, _ = verify_log(p.log.path, rules_cls())
        assert report.valid and report.finished, report
        heads.add(report.head)
    assert len(heads) == 1


def test_a_leaver_that_skips_the_refresh_and_hands_over_is_refused_by_every_peer(tmp_path):
    """The event that would expose its old mission: seat 0, first to refresh, writes its
    hand-over instead; every other peer refuses it naming the cards, and nothing changes."""
    from protocol.session import UnexpectedKind
    from protocol.session.hand_over import make_hand_over
    from tests.session_helpers import craft, refused, step
    game = os.urandom(16)
    ids = [Identity.from_seed(bytes([i + 160]) * 32, f"y{i}") for i in range(3)]
    roster = [i.public_key_bytes for i in ids]
    peers = [SessionPeer(ident, SeatZeroGoesBroke(), game, roster, {"time_limit": 3}, agent=exchanging(f"y/{k}"))
             for k, ident in enumerate(ids)]
    for _ in range(5000):
        if peers[0].phase == "play" and peers[0].leaving and peers[0].next_kind() == "refresh":
            break
        step(peers)
    leaver = next(p for p in peers if p.seat == 0)
    assert leaver.pending_obligation() == "refresh" and leaver.book.current.request.seat == 0
    body = make_hand_over(leaver.book, leaver._key, leaver.chain.height, 0)
    wire = craft(leaver, kind="hand-over", body=body)
    caught = refused(peers, leaver, wire, UnexpectedKind, SeatZeroGoesBroke())
    assert "the leaver's share would expose it" in str(caught)
