"""A mission exchanged at Earth and later claimed by another seat, on the session (SPEC §26.5,
§25.7, §53.5, §59.2). A scripted game of three in one process, no dice: under a test house
rule every turn's `roll` is an exchange at Earth instead, and a claim wins without its
condition (the protocol's part, that the handle opens to the mission named, is what is
tested). Seat 0's setup mission goes under the pile at the first exchange; seventeen
exchanges later it is dealt to seat 2, whose share of it is in the log already, so every seat
refreshes it first (§26.4); seat 2 claims it with its own share; every peer checks the claim
against the refreshed deal's shares, and a claim of another mission under the same handle is
refused by every peer. Every log verifies with one head, and an outsider reading a log reads
no card."""
from __future__ import annotations

import os

from cli.games.space_trading_race.adapter import TradingRaceRules, mission_label
from protocol.crypto import Identity
from protocol.log import LogWriter, SecretsFile, parse_event, read_log
from protocol.session import ClaimMismatch, SessionPeer, run_local, verify_log
from protocol.session.outsider import readable_cards
from protocol.session.share_check import check_shares
from protocol.session.shuffle_check import check_shuffles
from space_trading_race.actions import EXCHANGE, Claim
from space_trading_race.missions import MISSION_BY_SLUG, MISSION_SLUGS
from space_trading_race.money import finish
from tests.session_helpers import craft, refused

PLAYERS = 3


class ExchangeEveryTurn(TradingRaceRules):
    """House rules: `roll` offers the exchange at Earth instead of rolling; a claim of one's own
    mission in one's own turn wins at once, whatever its condition."""
    name = TradingRaceRules.name

    def apply_action(self, state, seat, action):
        action = self.read(action) if isinstance(action, str) else action
        if action.text() == "roll" and state.stage == "roll":
            state.stage = "exchange"
            return
        if isinstance(action, Claim) and state.stage in ("roll", "after") and action.handle == state.hand[seat]:
            state.names[action.handle] = action.mission
            finish(state, [seat], f"mission: {MISSION_BY_SLUG[action.mission].title}")
            return
        super().apply_action(state, seat, action)


def claim_text(state, view):
    """The claim of the seat's mission: `seat`'s card, dealt at setup to another seat."""
    h = state.hand[view.seat]
    return Claim(h, view.known[h]).text()


def scripted(state, view):
    """Exchange whenever offered; end the turn; claim a mission another seat held at setup."""
    if state.stage == "exchange":
        return EXCHANGE.text()
    h = state.hand[view.seat]
    if state.stage == "after" and h < PLAYERS and h != view.seat:
        return claim_text(state, view)
    return "roll" if state.stage == "roll" else "end"


scripted.thinks = False


def test_a_mission_exchanged_at_earth_is_claimed_later_with_its_proof_checked_by_every_peer(tmp_path):
    game = os.urandom(16)
    ids = [Identity.from_seed(bytes([i + 170]) * 32, f"c{i}") for i in range(PLAYERS)]
    roster = [i.public_key_bytes for i in ids]
    peers = [SessionPeer(ident, ExchangeEveryTurn(), game, roster, {"time_limit": 20},
                         log=LogWriter(os.path.join(tmp_path, f"peer{k}.asvlog"), game),
                         secrets=SecretsFile(os.path.join(tmp_path, f"peer{k}.asvlog"), game),
                         agent=scripted)
             for k, ident in enumerate(ids)]

    def before_the_claim():   # stop at the claim: first a false one, refused by every peer
        return any(p.pending_obligation() == "action" and p.state.stage == "after"
                   and p.state.hand[p.seat] == 0 for p in peers)
    for _ in range(2000):
        if before_the_claim():
            break
        writer = next(p for p in peers if p.pending_obligation() is not None)
        wire = writer.act()
        for p in peers:
            if p is not writer:
                p.receive(wire)
    by_seat = {p.seat: p for p in peers}
    claimer = next(p for p in peers if p.pending_obligation() == "action")
    assert claimer.seat == 2 and claimer.state.hand[2] == 0          # seat 0's setup mission
    slug = claimer.view.known[0]
    assert by_seat[0].view.known[0] == slug                          # seat 0 held it at setup
    wrong = next(s for s in MISSION_SLUGS if s != slug)
    lie = craft(claimer, body=claimer._body("action", claimer.chain.height, Claim(0, wrong).text()))
    refused(peers, claimer, lie, ClaimMismatch, ExchangeEveryTurn())
    run_local(peers)
    for p in peers:   # every peer checked the claim from the deal's shares and its holder's share
        assert p.finished and p.state.names == {0: slug} and p.result()["winners"] == [2]
        assert p.notes[-1] == f"claim #0:{slug} [proved #0]"
    events = [parse_event(w) for w in read_log(peers[0].log.path)]
    # the deal of #0 to seat 2 was preceded by a refresh by every seat: seat 2 shared #0 at setup
    deal_at = max(i for i, e in enumerate(events) if e.kind == "shares" and [0] == [h for h, _ in e.body["for"]])
    refreshes = [e for e in events[:deal_at] if e.kind == "refresh" and [h for h, _ in e.body["for"]] == [0]]
    assert [e.author for e in refreshes] == peers[0].seat_keys
    exchanges = [e for e in events if e.kind == "action" and e.body["a"] == "exchange"]
    assert len(exchanges) == 18 and not any(e.kind.startswith("dice") for e in events)
    # an outsider reading the log reads no card; every proof checks from the log alone
    assert readable_cards(events, [mission_label(s) for s in MISSION_SLUGS]) == []
    assert not check_shares(events).failures and not check_shuffles(events).failures
    heads = set()
    for p in peers:
        report, _ = verify_log(p.log.path, ExchangeEveryTurn())
        assert report.valid and report.finished and report.winners == [2], report
        heads.add(report.head)
    assert len(heads) == 1
