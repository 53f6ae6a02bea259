"""One end for every honest peer (SPEC §29.19; issue 24 item 4): escalation delays run from
when the evidence or the votes arrived; competing ends settle on the one of lowest rank;
a sound abort wins over an event a voter applied after all; a seat that voted and refused
is convicted by a halt carrying its vote (inside the abort) and its refusal."""
from __future__ import annotations

import time

import pytest

from protocol.node import Node, NodeOptions
from protocol.node import end_rank
from protocol.session.abort import ABORT_KIND, VOTE_BASE, abort_writers, make_refusal, make_vote, voters
from protocol.session.conviction import make_conviction
from protocol.session.errors import BadBody
from protocol.session.halt import HALT_KIND
from protocol.log import sign_event
from protocol.crypto.identity import fingerprint
from protocol.session.verify import verify_log
from tests.session_helpers import craft, make_peers, run_until, writer
from tests.toy_game import ToyRules, play_own_card

RULES = ToyRules()


def toy(tmp_path):
    return make_peers(RULES, 3, agent_for=lambda k: play_own_card, log_dir=str(tmp_path))


def at_action(peers):
    run_until(peers, lambda: writer(peers).pending_obligation() == "action")
    due = writer(peers)
    return due, [p for p in peers if p is not due]


def nodes_for(peers, timeout=30.0):
    return {p.me: Node(p.identity, RULES, p.game, None, peer=p, options=NodeOptions(timeout=timeout))
            for p in peers}


def in_order(peers, culprit):
    """The honest peers in escalation order after `culprit` (SPEC §29.10)."""
    keys = abort_writers(culprit.roster, culprit.me)
    return [next(p for p in peers if p.me == k) for k in keys]


async def test_the_second_halt_writer_waits_a_timeout_from_the_evidence_not_from_the_last_progress(tmp_path):
    """After a long think every writer's delay measured from the last progress had passed,
    so both honest peers wrote a halt of their own (issue 24: two heads)."""
    peers = toy(tmp_path)
    cheater, _ = at_action(peers)
    first, second = in_order(peers, cheater)
    nodes = nodes_for(peers, timeout=1.0)
    n2 = nodes[second.me]
    n2._progress_at = time.monotonic() - 2.5   # the cheater "thought" for 2.5 timeouts
    n2._feed(craft(cheater, lambda body: body.update(a="play #99:card:z")))
    await n2._act_while_due()
    assert second.phase != "halted" and second.evidence is not None
    n2._evidence_since = (n2._evidence_since[0], time.monotonic() - 1.01)   # one timeout later
    await n2._act_while_due()
    assert second.phase == "halted"


async def test_the_second_abort_writer_waits_a_timeout_from_the_last_vote_not_from_the_last_progress(tmp_path):
    peers = toy(tmp_path)
    silent, _ = at_action(peers)
    first, second = in_order(peers, silent)
    nodes = nodes_for(peers, timeout=1.0)
    n2 = nodes[second.me]
    n2._progress_at = time.monotonic() - 3.5
    await n2.vote_silent()
    n2._feed(make_vote(first.identity, first.game, first.chain.height, first.chain.head, silent.me).wire)
    await n2._act_while_due()
    assert second.phase != "aborted"
    h, key, head, _ = n2._votes_since
    n2._votes_since = (h, key, head, time.monotonic() - 1.01)
    await n2._act_while_due()
    assert second.phase == "aborted"


async def test_competing_halts_settle_on_the_lowest_rank_and_the_loser_replaces_its_last_record(tmp_path):
    peers = toy(tmp_path)
    cheater, (a, b) = at_action(peers)
    nodes = nodes_for(peers)
    bad = craft(cheater, lambda body: body.update(a="play #99:card:z"))
    for p in (a, b):
        nodes[p.me]._feed(bad)
    halts = {}
    for p in (a, b):
        p.write_halt()
        halts[p.me] = p.chain.events[-1]
    winner = min(halts.values(), key=end_rank)
    loser_peer = a if halts[a.me] != winner else b
    winner_peer = b if loser_peer is a else a
    notes = []
    nodes[loser_peer.me].on_note = notes.append
    nodes[winner_peer.me]._feed(halts[loser_peer.me].wire)     # the winner keeps its own, sends it again
    assert nodes[winner_peer.me].session.chain.head == winner.hash
    assert nodes[winner_peer.me]._outbox == [winner]
    nodes[loser_peer.me]._feed(winner.wire)
    after = nodes[loser_peer.me].session
    assert after.chain.head == winner.hash and after.phase == "halted"
    assert [n.kind for n in notes] == ["settled"] and notes[0].who == winner.author
    for p in (a, b):
        report, _ = verify_log(p.log.path, RULES)
        assert report.valid and report.head == winner.hash.hex() and report.events == winner.seq + 1


def test_a_halt_ranks_before_an_abort_then_the_lower_hash_wins(tmp_path):
    peers = toy(tmp_path)
    due, (a, b) = at_action(peers)
    abort = sign_event(a.identity, a.game, a.chain.height, a.chain.head, ABORT_KIND, {"silent": due.me, "votes": []})
    halt = sign_event(b.identity, a.game, a.chain.height, a.chain.head, HALT_KIND, {"culprit": due.me})
    assert end_rank(halt) < end_rank(abort)
    other = sign_event(a.identity, a.game, a.chain.height, a.chain.head, HALT_KIND, {"culprit": due.me})
    assert (end_rank(halt) < end_rank(other)) == (halt.hash < other.hash)


async def test_a_seat_that_voted_and_refused_is_convicted_and_every_honest_peer_ends_at_the_halt(tmp_path):
    """The due peer X is late; A votes it silent; L votes too, yet applies X's event and
    refuses, so A withdraws and applies it; then L writes the abort with both votes. X took
    it and A did not: two heads (issue 24). Now both take it, and L is convicted."""
    peers = toy(tmp_path)
    x, (a, liar) = at_action(peers)
    nodes = nodes_for(peers)
    h = a.chain.height
    na, nx = nodes[a.me], nodes[x.me]
    await na.vote_silent()
    a_vote = na.ballot.own
    liar_vote = make_vote(liar.identity, liar.game, h, liar.chain.head, x.me)
    late = x.act()                                   # X's event: X and L apply it
    liar.receive(late)
    na._feed(late)                                   # barred: A voted
    assert a.chain.height == h
    na._feed(make_refusal(liar.identity, liar, h).wire)   # L's refusal releases A ...
    assert na.session.chain.height == h + 1           # ... which applies X's event
    by = {a.me: a_vote, liar.me: liar_vote}
    abort = sign_event(liar.identity, liar.game, h, a.chain.events[h - 1].hash, ABORT_KIND,
                       {"silent": x.me, "votes": [by[k].wire for k in voters(a.roster, x.me)]})
    for n in (nx, na):
        n._feed(abort.wire)                          # each takes the abort in place of X's event
    assert nx.session.phase == "aborted" and nx.session.chain.head == abort.hash
    assert na.session.phase == "aborted"
    na._convict_if_proven()                          # A holds L's refusal: L is convicted
    halt = na.session.chain.events[-1]
    assert na.session.phase == "halted" and halt.kind == HALT_KIND and halt.body["culprit"] == liar.me
    assert na._outbox[-1] == halt
    nx._feed(halt.wire)                              # the halt ranks before the abort at X too
    assert nx.session.chain.head == na.session.chain.head == halt.hash
    for n in (na, nx):
        report, _ = verify_log(n.session.log.path, RULES)
        assert report.valid and report.head == halt.hash.hex()
        assert report.culprit == {"seq": h, "author": fingerprint(liar.me), "reason": report.culprit["reason"],
                                  "kind": "VotedAndRefused", "spec": "§29.19"}
        assert report.culprit["reason"].startswith("VotedAndRefused")


def test_a_conviction_needs_the_refusal_of_one_of_the_aborts_voters_about_its_height(tmp_path):
    peers = toy(tmp_path)
    x, (a, liar) = at_action(peers)
    h = a.chain.height
    votes = {p.me: make_vote(p.identity, p.game, h, a.chain.head, x.me) for p in (a, liar)}
    abort = sign_event(a.identity, a.game, h, a.chain.head, ABORT_KIND,
                       {"silent": x.me, "votes": [votes[k].wire for k in voters(a.roster, x.me)]})
    before = x.act()
    refusal_of = {}
    for p in (a, liar):
        p.receive(before)
    for p in (a, liar, x):
        refusal_of[p.me] = make_refusal(p.identity, liar, h)
    # back at height h on a replica that never applied X's event
    observer = liar.rewound(h)
    good = make_conviction(a.identity, observer, abort, refusal_of[liar.me])
    by_silent = make_conviction(a.identity, observer, abort, refusal_of[x.me])
    with pytest.raises(BadBody):
        observer.receive(by_silent)                 # the silent peer's refusal contradicts no vote
    by_author = make_conviction(liar.identity, observer, abort, refusal_of[liar.me])
    with pytest.raises(BadBody):
        observer.receive(by_author)                 # nobody convicts itself
    other_height = sign_event(liar.identity, liar.game, VOTE_BASE + h - 1, a.chain.events[h - 2].hash,
                              "abort-refuse", {"silent": x.me, "seen": bytes(32)})
    with pytest.raises(BadBody):
        observer.receive(make_conviction(a.identity, observer, abort, other_height))
    observer.receive(good)
    assert observer.phase == "halted" and observer.evidence[0].author == liar.me


def test_a_halted_peer_answers_a_catch_up_from_beyond_its_height_with_its_halt(tmp_path):
    peers = toy(tmp_path)
    cheater, honest = at_action(peers)
    bad = craft(cheater, lambda body: body.update(a="play #99:card:z"))
    w = in_order(peers, cheater)[0]
    node = nodes_for(peers)[w.me]
    node._feed(bad)
    w.write_halt()
    assert node._on_catchup(b"", w.chain.height + 3) == [w.chain.events[-1].wire]
