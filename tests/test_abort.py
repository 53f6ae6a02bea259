"""Aborts nobody can forge (SPEC §29.6; findings 5 and 8 of issue 7): an abort names the
peer due at its height and carries the vote of every other seat; a voter never applies the
late event; a refusal releases a voter whose abort can no longer complete; the peer named
silent drops its own unseen events and ends at the others' head."""
from __future__ import annotations

import pytest

from protocol.session.abort import (ABORT_KIND, VOTE_BASE, VOTE_KIND, Ballot, make_abort, make_refusal, make_vote,
                            voters)
from protocol.errors import OutOfOrder
from protocol.log.events import sign_event
from protocol.session.game_rules import CHANCE
from protocol.crypto.identity import Identity, fingerprint
from cli.netplay.node_notes import speaker
from protocol.node import Node
from protocol.session import Session
from protocol.session.errors import BadBody, UnexpectedKind
from protocol.session.verify import EXIT_UNFINISHED, verify_log
from tests.session_helpers import make_peers, refused, run_until, writer
from tests.toy_game import ToyRules, play_own_card

RULES = ToyRules()


def toy(n, tmp_path=None):
    return make_peers(RULES, n, agent_for=lambda k: play_own_card,
                      log_dir=str(tmp_path) if tmp_path is not None else None)


def in_play(peers):
    run_until(peers, lambda: peers[0].phase == "play" and RULES.to_move(peers[0].state) != CHANCE)
    due = writer(peers)
    return due, [p for p in peers if p is not due]


def vote(peer, at, silent, *, height=None, head=None):
    return make_vote(peer.identity, at.game, at.chain.height if height is None else height,
                     at.chain.head if head is None else head, silent)


def abort_wire(author, at, silent, votes):
    return sign_event(author.identity, at.game, at.chain.height, at.chain.head, ABORT_KIND,
                      {"silent": silent, "votes": [v.wire for v in votes]}).wire


def test_one_insider_alone_cannot_get_an_honest_peer_named_silent(tmp_path):
    """Finding 5: an insider signs an abort naming the honest peer due next, at once."""
    peers = toy(3, tmp_path)
    due, (insider, third) = in_play(peers)
    alone = abort_wire(insider, insider, due.me, [vote(insider, insider, due.me)])
    refused(peers, insider, alone, BadBody, RULES)
    twice = abort_wire(insider, insider, due.me, [vote(insider, insider, due.me)] * 2)
    refused(peers, insider, twice, BadBody, RULES)
    outsider = Identity.from_seed(bytes([99]) * 32, "outsider")
    stand_in = make_vote(outsider, insider.game, insider.chain.height, insider.chain.head, due.me)
    order = voters(insider.roster, due.me)
    forged = [vote(insider, insider, due.me) if k == insider.me else stand_in for k in order]
    refused(peers, insider, abort_wire(insider, insider, due.me, forged), BadBody, RULES)
    # the third peer's vote from an earlier height cannot be reused
    stale = [vote(p, p, due.me, height=insider.chain.height - 1, head=insider.chain.events[-2].hash)
             for p in (insider, third)]
    stale = sorted(stale, key=lambda v: order.index(v.author))
    refused(peers, insider, abort_wire(insider, insider, due.me, stale), BadBody, RULES)
    assert all(p.phase == "play" for p in peers)


def test_votes_about_another_peer_head_kind_or_order_are_refused(tmp_path):
    peers = toy(3, tmp_path)
    due, (a, b) = in_play(peers)
    order = voters(a.roster, due.me)
    good = {p.me: vote(p, a, due.me) for p in (a, b)}
    in_order = [good[k] for k in order]
    refused(peers, a, abort_wire(a, a, due.me, in_order[::-1]), BadBody, RULES)         # order
    refused(peers, a, abort_wire(a, a, b.me, in_order), BadBody, RULES)                 # not due
    other_head = [vote(p, a, due.me, head=bytes(32)) for p in (a, b)]
    refused(peers, a, abort_wire(a, a, due.me, sorted(other_head, key=lambda v: order.index(v.author))),
            BadBody, RULES)
    wrong_kind = [sign_event(p.identity, a.game, VOTE_BASE + a.chain.height, a.chain.head, "abort-refuse",
                             {"silent": due.me}) for p in (a, b)]
    refused(peers, a, abort_wire(a, a, due.me, sorted(wrong_kind, key=lambda v: order.index(v.author))),
            BadBody, RULES)
    # the silent peer may not write the abort, even with every vote
    refused(peers, due, abort_wire(due, a, due.me, in_order), BadBody, RULES)
    future = sign_event(a.identity, a.game, a.chain.height + 1, a.chain.head, ABORT_KIND,
                        {"silent": due.me, "votes": [v.wire for v in in_order]}).wire
    refused(peers, a, future, OutOfOrder, RULES)


def test_an_abort_with_every_other_seats_vote_ends_the_game_and_verify_names_the_silent_peer(tmp_path):
    peers = toy(3, tmp_path)
    due, (a, b) = in_play(peers)
    votes = {p.me: vote(p, a, due.me) for p in (a, b)}
    ev = make_abort(a.identity, a, votes)
    for p in peers:
        p.receive(ev.wire)
    assert all(p.phase == "aborted" for p in peers)
    assert len({p.chain.head for p in peers}) == 1
    refused(peers, b, abort_wire(b, b, due.me, list(votes.values())), UnexpectedKind, RULES)
    report, session = verify_log(b.log.path, RULES)
    assert report.exit_code == EXIT_UNFINISHED and report.valid
    assert report.aborted.startswith(f"abort: {fingerprint(due.me)} silent at seq {ev.seq}")
    assert "co-signed by 2" in report.aborted


def test_an_observer_refuses_an_abort_before_the_roster_is_known():
    peers = toy(2)
    obs = Session(RULES, peers[0].game)
    with pytest.raises(UnexpectedKind) as exc:
        obs.receive(abort_wire(peers[1], peers[0], peers[0].me, []))
    assert exc.value.author == peers[1].me and obs.chain.height == 0


def test_in_a_two_player_game_the_other_players_vote_is_the_whole_abort(tmp_path):
    """SPEC §29.6: with two players there is no third party to co-sign; a false abort can end
    the game early, and no more (the log names the aborter as its author)."""
    peers = toy(2, tmp_path)
    due, (other,) = in_play(peers)
    ev = make_abort(other.identity, other, {other.me: vote(other, other, due.me)})
    for p in peers:
        p.receive(ev.wire)
    assert all(p.phase == "aborted" for p in peers) and ev.author == other.me


# -- the node's ballot: never a late event and an abort both applied ---------------------------

def nodes_for(peers):
    return {p.me: Node(p.identity, RULES, p.game, None, peer=p) for p in peers}


async def test_a_voter_never_applies_the_late_event_until_a_refusal_shows_the_abort_cannot_complete():
    peers = toy(3)
    due, (a, b) = in_play(peers)
    nodes = nodes_for(peers)
    na, nb = nodes[a.me], nodes[b.me]
    notes: list[str] = []     # the notes name peers through the caller's namer (SPEC §29.13)
    na.on_note, na.namer = speaker(na, notes.append), {due.me: "green due", b.me: "blue bee"}.get
    assert await na.vote_silent() and not await na.vote_silent()   # one vote per height
    own = na.ballot.own
    assert own.kind == VOTE_KIND and own.seq == VOTE_BASE + a.chain.height
    height = a.chain.height
    late = due.act()                       # the silent peer writes after all
    nb._feed(late)                         # b saw it in time: applied, so b never votes
    assert b.chain.height == height + 1 and nb.ballot.cast is None
    na._feed(late)                         # a voted: it does not apply it
    assert a.chain.height == height and na.barred and na.barred[0].wire == late
    nb._feed(own.wire)                     # b hears a's vote: it answers with a refusal
    refusal, resent = nb._outbox
    assert resent.wire == late
    na._feed(refusal)                      # the abort can never complete: a applies the event
    assert a.chain.height == height + 1 and a.chain.head == b.chain.head and not na.barred
    assert notes == ["voted green due silent at seq %d" % height,
                     f"late event of green due at seq {height} not applied: this peer voted it silent",
                     f"blue bee applied the event this peer voted silent at seq {height}; vote withdrawn"], notes
    # a refusal by the silent peer itself releases nobody
    c = Ballot()
    c.cast = (height, due.me)
    assert not c.released_by(make_refusal(due.identity, b, height), a.me)


async def test_every_voter_bars_the_late_event_and_the_silent_peer_drops_its_own(tmp_path):
    """Finding 8: whatever arrives late, all logs end at one head."""
    peers = toy(3, tmp_path)
    due, (a, b) = in_play(peers)
    nodes = nodes_for(peers)
    height = a.chain.height
    for p in (a, b):
        await nodes[p.me].vote_silent()
    votes = [nodes[p.me].ballot.own for p in (a, b)]
    late = due.act()                                    # written and logged, but reached nobody yet
    for p in (a, b):
        for v in votes:
            nodes[p.me]._feed(v.wire)
        nodes[p.me]._feed(late)
        assert p.chain.height == height                  # barred by its own vote
    first = nodes[a.roster[(a.roster.index(due.me) + 1) % 3]]
    await first._abort_if_complete()                     # the first writer after the silent peer
    abort = first.session.chain.events[-1]
    assert abort.kind == ABORT_KIND and abort.seq == height
    for p in (a, b):
        nodes[p.me]._feed(abort.wire)
    silent = nodes[due.me]
    assert silent.session.chain.height == height + 1     # its own late event is in its log
    silent._feed(abort.wire)
    heads = {n.session.chain.head for n in nodes.values()}
    assert heads == {abort.hash} and all(n.session.phase == "aborted" for n in nodes.values())
    report, _ = verify_log(silent.session.log.path, RULES)
    assert report.valid and report.events == height + 1 and report.head == abort.hash.hex()
    assert silent.session.log.count == height + 1


# -- finding 8 over TCP: two peers killed near the end and resumed -----------------------------

def toy_node(i, game, log_dir, *, creator=None, peer=None, identity=None, seats=None):
    from protocol.node import NodeOptions
    options = NodeOptions(seats=seats, keepalive=0.5, peer_timeout=5.0, timeout=1.0, resync=0.5, linger=2.0)
    identity = identity or Identity.from_seed(bytes([40 + i]) * 32, f"toy{i}")
    return Node(identity, RULES, game, log_dir, agent=play_own_card, options=options, peer=peer,
                creator=None if creator is None else creator.identity.fingerprint)


@pytest.mark.e2e
@pytest.mark.parametrize("kill_at", [27, 31])   # the 3-seat toy game has 35 events
async def test_two_peers_killed_near_the_end_and_resumed_end_at_one_head(tmp_path, kill_at):
    """The survivor waits past its timeout and votes; alone it cannot abort. Whatever the
    resumed peers write or vote, every log ends at one head (finished, or co-signed abort)."""
    import os

    import trio

    from tests.net_helpers import Runner, wait_until
    from protocol.node import restore_peer

    game = os.urandom(16)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            runner = Runner(nursery)
            creator = await runner.start(toy_node(0, game, tmp_path, seats=3))
            nodes = [creator]
            for i in (1, 2):
                node = await runner.start(toy_node(i, game, tmp_path, creator=creator))
                await node.connect(*creator.mesh.address)
                nodes.append(node)
            # killed from the first node to reach the height, as it applies the event: polling
            # for the height let a fast game run past it, or end (SPEC §29.21's fault trials)
            killed: list = []

            def kill_there(node, ev, note):
                if killed or node.height < kill_at:
                    return
                due = node.session.next_author()
                killed.extend([n for n in nodes if n.me == due] or [nodes[0]])
                killed.append(next(n for n in nodes if n not in killed))
                for n in killed:
                    runner.kill(n)
            for n in nodes:
                n.on_applied = kill_there
            creator.start(await creator.wait_lobby_full())
            await wait_until(lambda: bool(killed), step=0.005)
            victims = list(killed)
            survivor = next(n for n in nodes if n not in victims)
            survivor.on_applied = None
            await trio.sleep(1.6)                    # the survivor's timeout passes: it votes
            back = []
            for n in victims:
                peer = restore_peer(n.identity, RULES, n.log_path, agent=play_own_card)
                node = await runner.start(toy_node(0, game, tmp_path, peer=peer, identity=n.identity))
                await node.connect(*survivor.mesh.address)
                back.append(node)
            await wait_until(lambda: all(n.over for n in (survivor, *back)))
    finals = (survivor, *back)
    assert len({n.session.chain.head for n in finals}) == 1, [n.session.phase for n in finals]
    assert len({n.session.phase for n in finals}) == 1
    for n in finals:
        report, _ = verify_log(n.log_path, RULES)
        assert report.valid and report.head == survivor.session.chain.head.hex()


def test_a_last_revealer_that_withholds_its_seat_value_is_named_in_the_abort(tmp_path):
    """Finding 10 (SPEC §29.3): the last peer to reveal its seat-order value can compute the
    seats first and refuse to go on; it cannot choose them, and the abort names it."""
    peers = toy(3, tmp_path)
    run_until(peers, lambda: peers[0].phase == "seat-reveal" and peers[0].count == 2)
    last = writer(peers)
    assert last.me == peers[0].roster[-1]                # lobby order: the last revealer
    others = [p for p in peers if p is not last]
    votes = {p.me: vote(p, p, last.me) for p in others}
    ev = make_abort(others[0].identity, others[0], votes)
    for p in peers:
        p.receive(ev.wire)
    report, session = verify_log(others[1].log.path, RULES)
    assert report.exit_code == EXIT_UNFINISHED and session.phase == "aborted"
    assert report.aborted.startswith(f"abort: {fingerprint(last.me)} silent at seq {ev.seq}")
    assert report.players == [fingerprint(k) for k in peers[0].roster]   # seats never drawn


def test_a_seat_that_both_votes_and_refuses_at_one_height_is_convicted_of_equivocation(tmp_path):
    """SPEC §29.6: a vote and a refusal share the seq VOTE_BASE + h, so one key signing both
    has signed two events at one seq; the pair is an equivocation proof (§22.7)."""
    from protocol.log import EquivocationProof
    peers = toy(3, tmp_path)
    due, (liar, _) = in_play(peers)
    height = liar.chain.height
    v = vote(liar, liar, due.me)
    late = due.act()                   # the due peer's event is applied everywhere
    for p in peers:
        if p is not due:
            p.receive(late)
    refusal = make_refusal(liar.identity, liar, height)
    assert refusal.seq == v.seq == VOTE_BASE + height
    proof = EquivocationProof.from_bytes(EquivocationProof.of(v.wire, refusal.wire).to_bytes())
    assert proof.verify(expected_game=liar.game) == (liar.me, liar.game, VOTE_BASE + height)
