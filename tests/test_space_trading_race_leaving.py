"""A player leaves a session game (SPEC §26.13, §59.5): under a test house rule seat 1 is charged
a fortune by the bank when it ends its first turn, so it goes bankrupt (the engine's own charge),
hands its part of the mission pile over, and is never polled again (no dice opening, no share,
no shuffle); the others go on to the end, missions exchanged after the hand-over are dealt by
the remaining seats alone, and every log verifies."""
from __future__ import annotations

import os

from cli.games import kit_for
from cli.games.space_trading_race.adapter import TradingRaceRules
from protocol.crypto import Identity
from protocol.log import LogWriter, SecretsFile, parse_event, read_log
from protocol.session import SessionPeer, run_local, verify_log
from space_trading_race import legal_actions
from space_trading_race.missions import MISSION_SLUGS
from space_trading_race.actions import EXCHANGE
from space_trading_race.money import charge
from space_trading_race.state import BANK

KIT = kit_for("space-trading-race")


class SeatOneGoesBroke(TradingRaceRules):
    """The game, plus one house rule: when seat 1 ends its first turn the bank charges it more
    than it could ever pay (SPEC §56.1: bankrupt to the bank)."""
    name = TradingRaceRules.name

    def apply_action(self, state, seat, action):
        super().apply_action(state, seat, action)
        text = action if isinstance(action, str) else action.text()
        if seat == 1 and text == "end" and state.alive[1] and not state.over:
            charge(state, 1, BANK, 10 ** 9)


def exchanging(kind: str, seed: str):
    """A bot that exchanges its mission whenever it may, so the pile is dealt after seat 1 left,
    and never fires: a fight could bankrupt another seat first, or leave seat 1 alone at the
    end, and the test is about seat 1 leaving a game that goes on (a flake before it fired)."""
    bot = KIT.agent(kind, seed)

    def agent(state, view):
        legal = [a.text() for a in legal_actions(state, view)]
        if EXCHANGE.text() in legal:
            return EXCHANGE.text()
        choice = bot(state, view)
        if choice.startswith("fire"):
            return next((a for a in legal if not a.startswith("fire")), choice)
        return choice
    agent.thinks = False
    return agent


def test_a_bankrupt_seat_hands_over_and_the_game_finishes_without_it(tmp_path):
    game = os.urandom(16)
    ids = [Identity.from_seed(bytes([i + 120]) * 32, f"l{i}") for i in range(3)]
    roster = [i.public_key_bytes for i in ids]
    peers = []
    for k, ident in enumerate(ids):
        path = os.path.join(tmp_path, f"peer{k}.asvlog")
        peers.append(SessionPeer(ident, SeatOneGoesBroke(), game, roster, {"time_limit": 25},
                                 log=LogWriter(path, game), secrets=SecretsFile(path, game),
                                 agent=exchanging("greedy", f"l/{k}")))
    run_local(peers)
    state = peers[0].state
    assert state.over and not state.alive[1] and state.out[1] == "bankrupt" and state.alive.count(True) >= 1
    key_of_one = peers[0].seat_keys[1]
    events = [parse_event(w) for w in read_log(peers[0].log.path)]
    hand_overs = [i for i, e in enumerate(events) if e.kind == "hand-over"]
    assert len(hand_overs) >= 1 and events[hand_overs[0]].author == key_of_one
    after = events[hand_overs[0] + 1:]
    assert after and all(e.author != key_of_one for e in after)     # never polled again
    assert any(e.kind == "dice-open" for e in after)
    # its share of every pile card whose ciphertext does not carry it yet: 20 missions less the
    # 3 dealt, less one for each exchange another seat made before (seat 1 shared the card it
    # drew); seat 1's own exchange draws a card it never shared, so that one is still due
    others_drew = sum(1 for e in events[:hand_overs[0]]
                      if e.kind == "action" and e.body.get("a") == "exchange" and e.author != key_of_one)
    assert len(events[hand_overs[0]].body["for"]) == 20 - 3 - others_drew
    heads = set()
    for p in peers:
        report, session = verify_log(p.log.path, SeatOneGoesBroke())
        assert report.valid and report.finished, report
        heads.add(report.head)
    assert len(heads) == 1
    # exchanges after seat 1 left (when the dice brought a ship to Earth) were dealt by the two
    # remaining seats; the receiver decrypted each (a card that opens to no mission halts the game)
    late = [e for e in after if e.kind == "shares"]
    assert all(e.author != key_of_one for e in late)
    for p in peers:
        if p.seat != 1:
            assert set(p.view.known.values()) <= set(MISSION_SLUGS) and p.view.known
