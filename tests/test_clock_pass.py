"""The co-signed clock pass (SPEC §29.20), on sessions in memory: every other seat's vote
passes the timed-out seat's turn with the game's declared pass move and nothing else; a
pass with a vote missing or forged, about another head, with another move, where the game
declares no pass, or in a game whose table did not agree to passes, is refused naming its
author; `asv verify` refuses such a log at the forged event."""
from __future__ import annotations

import os

import pytest

from protocol.crypto import Identity, fingerprint
from protocol.log import LogWriter, SecretsFile, sign_event
from protocol.session import CHANCE, Session, SessionPeer, verify_log
from protocol.session.clock_pass import (PASS_BASE, PASS_KIND, PASS_VOTE_KIND, PassBallot, make_pass_vote,
                                         pass_move, write_clock_pass)
from protocol.session.errors import BadBody, IllegalMove
from tests.session_helpers import refused, run_until, writer
from tests.toy_game import ToyRules, play_own_card

PASSING = {"on_clock": "pass"}


class ClockToy(ToyRules):
    """The toy game with the table's clock options in its config and "pass" declared as the
    move for a seat out of time (any seat to move may pass in the toy)."""
    name = "toy-clock/1"

    def new_state(self, players, config):
        return super().new_state(players, {k: v for k, v in config.items() if k not in ("on_clock", "turn_clock")})

    def timeout_action(self, state, seat):
        return "pass" if self.to_move(state) == seat else None


RULES = ClockToy()


def peers_of(n, tmp_path=None, config=PASSING):
    game = os.urandom(16)
    ids = [Identity.from_seed(bytes([i + 40]) * 32, f"p{i}") for i in range(n)]
    roster = [i.public_key_bytes for i in ids]
    out = []
    for k, ident in enumerate(ids):
        log = secrets = None
        if tmp_path is not None:
            path = os.path.join(str(tmp_path), f"peer{k}.asvlog")
            log, secrets = LogWriter(path, game), SecretsFile(path, game)
        out.append(SessionPeer(ident, RULES, game, roster, dict(config), log=log, secrets=secrets,
                               agent=play_own_card))
    return out


def in_play(peers):
    run_until(peers, lambda: peers[0].phase == "play" and RULES.to_move(peers[0].state) != CHANCE)
    due = writer(peers)
    return due, [p for p in peers if p is not due]


def votes_of(others, due):
    return {p.me: make_pass_vote(p.identity, p.game, p.chain.height, p.chain.head, due.me) for p in others}


def pass_wire(author, due, votes, *, move="pass", h=None):
    """A clock pass `author` signs at its height, carrying `votes` (in the order given)."""
    body = {"seat": due.me, "a": move, "votes": [v.wire for v in votes],
            "h": h if h is not None else _hash_after(author, move)}
    return sign_event(author.identity, author.game, author.chain.height, author.chain.head, PASS_KIND, body).wire


def _hash_after(peer, move):
    """The state hash once the seat due has played `move` (on a replica of `peer`)."""
    copy = Session(peer.rules, peer.game, roster=peer.roster, config=peer.config)
    for ev in peer.chain.events:
        copy.receive(ev)
    copy.rules.apply_action(copy.state, copy.rules.to_move(copy.state), move)
    copy._version += 1
    return copy.state_hash()


def test_every_other_seat_co_signs_and_the_seat_plays_the_games_pass_move_only(tmp_path):
    peers = peers_of(3, tmp_path)
    due, others = in_play(peers)
    assert pass_move(due) == "pass"
    votes = votes_of(others, due)
    seat = due.seat_of[due.me]
    ev = write_clock_pass(others[0], votes)
    assert ev.kind == PASS_KIND and ev.author == others[0].me and ev.body["a"] == "pass"
    for p in [due, others[1]]:
        p.receive(ev.wire)
    heads = {p.chain.head for p in peers}
    assert len(heads) == 1 and {p.state_hash() for p in peers} == {due.state_hash()}
    assert RULES.to_move(due.state) != seat              # the seat's turn is over: the game goes on
    assert "clock pass" in due.notes[-1] and "co-signed by 2" in due.notes[-1]
    run_until(peers, lambda: peers[0].finished)
    for p in peers:
        p.log.close()
    report, _ = verify_log(str(tmp_path / "peer1.asvlog"), RULES)
    assert report.valid and report.finished, report


def test_a_pass_with_a_vote_missing_or_forged_or_about_another_head_is_refused_naming_its_author(tmp_path):
    peers = peers_of(3, tmp_path)
    due, (writer_, third) = in_play(peers)
    votes = votes_of([writer_, third], due)
    order = [k for k in due.roster if k != due.me]
    # one co-signature missing: the writer's own vote alone
    refused(peers, writer_, pass_wire(writer_, due, [votes[writer_.me]]), BadBody, RULES)
    # a stand-in signs for the third seat
    outsider = Identity.from_seed(bytes([99]) * 32, "outsider")
    forged = make_pass_vote(outsider, due.game, due.chain.height, due.chain.head, due.me)
    stand_in = [votes[k] if k == writer_.me else forged for k in order]
    refused(peers, writer_, pass_wire(writer_, due, stand_in), BadBody, RULES)
    # the third seat's vote bytes tampered with (its signature no longer holds)
    bad = bytearray(votes[third.me].wire)
    bad[-1] ^= 1
    tampered = [votes[k].wire if k == writer_.me else bytes(bad) for k in order]
    body = {"seat": due.me, "a": "pass", "votes": tampered, "h": _hash_after(writer_, "pass")}
    wire = sign_event(writer_.identity, writer_.game, writer_.chain.height, writer_.chain.head, PASS_KIND, body).wire
    refused(peers, writer_, wire, BadBody, RULES)
    # votes about an earlier head cannot be reused
    old = {p.me: make_pass_vote(p.identity, p.game, p.chain.height, p.chain.events[-2].hash, due.me)
           for p in (writer_, third)}
    refused(peers, writer_, pass_wire(writer_, due, [old[k] for k in order]), BadBody, RULES)
    # votes naming another seat
    wrong = {p.me: make_pass_vote(p.identity, p.game, p.chain.height, p.chain.head, third.me) for p in (writer_, third)}
    refused(peers, writer_, pass_wire(writer_, due, [wrong[k] for k in order]), BadBody, RULES)
    # the votes must be in lobby order
    refused(peers, writer_, pass_wire(writer_, due, [votes[k] for k in reversed(order)]), BadBody, RULES)


def test_a_pass_plays_only_the_declared_move_and_only_where_the_game_declares_one(tmp_path):
    peers = peers_of(2, tmp_path)
    due, (other,) = in_play(peers)
    votes = votes_of([other], due)
    seat = due.seat_of[due.me]
    card = due.state["hands"][seat][0]
    # the voters cannot choose another move for the seat (here: play its card)
    refused(peers, other, pass_wire(other, due, list(votes.values()), move=f"play #{card}:a",
                                    h=bytes(32)), IllegalMove, RULES)

    class NoPass(ClockToy):
        def timeout_action(self, state, seat):
            return None
    for p in peers:
        p.rules = NoPass()
    assert pass_move(other) is None
    refused(peers, other, pass_wire(other, due, list(votes.values())), IllegalMove, RULES)
    for p in peers:
        p.rules = RULES
    with pytest.raises(IllegalMove):
        write_clock_pass(due, votes)   # the seat due writes no pass for itself


def test_a_table_that_chose_abort_takes_no_pass(tmp_path):
    peers = peers_of(2, tmp_path, config={"on_clock": "abort"})
    due, (other,) = in_play(peers)
    assert pass_move(other) is None
    votes = votes_of([other], due)
    refused(peers, other, pass_wire(other, due, list(votes.values())), BadBody, RULES)


def test_verify_refuses_a_log_with_a_forged_pass_naming_the_event(tmp_path, capsys):
    peers = peers_of(3, tmp_path)
    due, (writer_, third) = in_play(peers)
    votes = votes_of([writer_], due)
    height = writer_.chain.height
    forged = pass_wire(writer_, due, [votes[writer_.me]])   # the third seat never signed
    for p in peers:
        p.log.close()
    path = tmp_path / "forged.asvlog"
    log = LogWriter(str(path), due.game)
    for ev in writer_.chain.events:
        log.append(ev.wire)
    log.append(forged)
    log.close()
    report, _ = verify_log(str(path), RULES)
    assert not report.valid and report.seq == height and report.author == fingerprint(writer_.me)
    assert "votes of all 2 other seats" in report.reason


def test_the_ballot_keeps_one_vote_a_seat_and_bars_the_late_event():
    peers = peers_of(3)
    due, (a, b) = in_play(peers)
    ballot = PassBallot()
    own = ballot.vote(a.identity, a)
    assert own.kind == PASS_VOTE_KIND and own.seq == PASS_BASE + a.chain.height
    assert ballot.complete(a) is None
    vote_b = make_pass_vote(b.identity, b.game, b.chain.height, b.chain.head, due.me)
    assert ballot.add(vote_b, a.roster, a.chain.height) and not ballot.add(vote_b, a.roster, a.chain.height)
    assert set(ballot.complete(a)) == {a.me, b.me}
    late = sign_event(due.identity, due.game, due.chain.height, due.chain.head, "action", {"a": "pass", "p": []})
    assert ballot.bars(late)
    ballot.moved_to(a.chain.height + 1)
    assert ballot.cast is None and not ballot.votes
