"""What one roster peer's floods can cost an honest peer (SPEC §28.12): each store that a
stranger's or an insider's validly signed wires fill is bounded, and each test here fails if
its bound is taken out. Bounds tested elsewhere (SPEC §28.12 lists them): the early-event
window per author (tests/test_early_events.py, §29.4), a catch-up answer's bytes and the
answers in flight (tests/test_mesh.py, tests/test_network_robustness.py, §28.8)."""
from __future__ import annotations

import os
import tracemalloc

from protocol.crypto.identity import Identity
from protocol.log.events import ZERO_HASH, sign_event
from protocol.net.mesh import Mesh
from protocol.net.mesh.gossip import MAX_SEEN, Gossip
from protocol.node import MAX_BARRED, MAX_LOOKED_AT, MAX_REFUSALS, Node
from protocol.session.abort import REFUSE_KIND, VOTE_AHEAD, VOTE_BASE, Ballot, make_refusal, make_vote
from protocol.session.clock_pass import PASS_AHEAD, PassBallot, make_pass_vote
from tests.session_helpers import craft
from tests.test_abort import in_play, nodes_for, toy

GAME = bytes(range(16))
IDS = [Identity.from_seed(bytes([70 + i]) * 32, f"b{i}") for i in range(3)]
ROSTER = [i.public_key_bytes for i in IDS]
INSIDER, OTHER = IDS[0], IDS[1]


def wires(n):
    return [sign_event(INSIDER, GAME, VOTE_BASE + k, ZERO_HASH, "abort-vote", {"silent": OTHER.public_key_bytes}).wire
            for k in range(n)]


# -- §28.7: the mesh's seen set -----------------------------------------------------------------

def test_the_seen_set_keeps_the_last_wires_and_forgets_the_oldest_first():
    gossip = Gossip(GAME, 1 << 20, max_seen=4)
    sent = wires(6)
    assert all(gossip.incoming(w, peer="x") is not None for w in sent)
    assert gossip.seen_count == 4
    assert gossip.incoming(sent[5], peer="x") is None          # still known: dropped
    assert gossip.incoming(sent[0], peer="x") is not None      # forgotten: delivered again


def test_a_wire_seen_again_is_forgotten_last():
    gossip = Gossip(GAME, 1 << 20, max_seen=3)
    a, b, c, d = wires(4)
    for w in (a, b, c):
        gossip.incoming(w, peer="x")
    assert gossip.incoming(a, peer="x") is None    # seen again: now the newest
    gossip.incoming(d, peer="x")                   # one too many: b, the oldest, goes
    assert gossip.incoming(a, peer="x") is None
    assert gossip.incoming(b, peer="x") is not None


def test_a_mesh_remembers_65536_hashes_at_most_in_about_10_mib():
    mesh = Mesh(INSIDER, GAME, lambda key: True, lambda key, ev: None)
    gossip = mesh._gossip
    assert gossip.max_seen == MAX_SEEN == 1 << 16
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        gossip.mark(os.urandom(8) + k.to_bytes(4, "big") for k in range(MAX_SEEN + 4096))
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert gossip.seen_count == MAX_SEEN
    assert held < 12 << 20, held        # SPEC §28.7: about 10 MiB (9.6 measured)


# -- §29.6, §29.20: votes about heights ahead ---------------------------------------------------

def test_abort_votes_about_ever_new_heights_are_kept_only_within_the_vote_window():
    ballot = Ballot()
    for h in range(1000):
        for head in (ZERO_HASH, b"\x01" * 32):      # two votes of one author at one height
            ballot.add(make_vote(INSIDER, GAME, h, head, OTHER.public_key_bytes), ROSTER, 0)
    assert sorted(ballot.votes) == list(range(VOTE_AHEAD + 1))
    assert all(len(held) == 1 for held in ballot.votes.values())


def test_pass_votes_about_ever_new_heights_are_kept_only_within_the_vote_window():
    ballot = PassBallot()
    for h in range(1000):
        for head in (ZERO_HASH, b"\x01" * 32):
            ballot.add(make_pass_vote(INSIDER, GAME, h, head, OTHER.public_key_bytes), ROSTER, 0)
    assert sorted(ballot.votes) == list(range(PASS_AHEAD + 1))
    assert all(len(held) == 1 for held in ballot.votes.values())


# -- §29.19: refusals kept for a conviction, ends already looked at ------------------------------

def _settler():
    from tests.toy_game import ToyRules
    return Node(OTHER, ToyRules(), GAME, None)


def test_refusals_kept_for_a_conviction_are_the_latest_64():
    settler = _settler()
    for h in range(500):
        settler._keep_refusal(sign_event(INSIDER, GAME, VOTE_BASE + h, ZERO_HASH, REFUSE_KIND,
                                         {"silent": OTHER.public_key_bytes, "seen": ZERO_HASH}))
    assert len(settler._refusals) == MAX_REFUSALS == 64
    assert min(h for h, _ in settler._refusals) == 500 - MAX_REFUSALS


def test_ends_looked_at_and_refused_are_remembered_within_a_bound():
    settler = _settler()
    for _ in range(3 * MAX_LOOKED_AT):
        settler._remember(os.urandom(32))
    assert len(settler._looked_at) <= MAX_LOOKED_AT


# -- §29.6: the late events of a seat voted silent ----------------------------------------------

async def test_a_seat_voted_silent_gets_at_most_four_of_its_late_events_kept_and_the_first_still_counts():
    peers = toy(3)
    due, (a, b) = in_play(peers)
    nodes = nodes_for(peers)
    na, nb = nodes[a.me], nodes[b.me]
    notes = []
    na.on_note = notes.append
    assert await na.vote_silent()
    height = a.chain.height
    late = due.act()                                  # its one honest late event, first
    flood = [craft(due, lambda body, k=k: body.update(a=f"pass {k}"), seq=height) for k in range(40)]
    for wire in (late, *flood):                       # then 40 other events it signed at that height
        na._feed(wire)
    assert len(na.barred) == MAX_BARRED and na.barred[0].wire == late
    assert [n.kind for n in notes].count("barred") == MAX_BARRED
    nb._feed(late)                                    # b applied the late event: it refuses a's vote
    na._feed(make_refusal(b.identity, b, height).wire)
    assert a.chain.height == height + 1 and a.chain.head == b.chain.head


# -- §29.18, §29.17: chat lines, takeback statements ahead -----------------------------------------

def test_one_authors_chat_lines_are_bounded_in_rate_and_in_number():
    from protocol.session.chat import CHAT_BURST, CHAT_WINDOW, MAX_CHAT_LINES, ChatBook, make_line
    book = ChatBook(GAME, set(ROSTER))
    lines = [make_line(INSIDER, GAME, n, f"line {n}") for n in range(MAX_CHAT_LINES + 1)]
    for n in range(CHAT_BURST):
        assert book.problem(lines[n], now=0.0) is None
        book.keep(lines[n], now=0.0)
    assert "more than" in book.problem(lines[CHAT_BURST], now=1.0)          # too fast
    for n in range(CHAT_BURST, MAX_CHAT_LINES):
        now = CHAT_WINDOW * (n + 1)
        assert book.problem(lines[n], now=now) is None
        book.keep(lines[n], now=now)
    assert "the most kept" in book.problem(lines[MAX_CHAT_LINES], now=1e9)  # too many
    assert sum(len(seen) for seen in book.lines.values()) == MAX_CHAT_LINES


async def test_takeback_statements_about_heights_ahead_are_kept_32_at_most():
    from protocol.session.takeback import ASK_KIND, TAKEBACK_BASE
    peers = toy(3)
    due, (a, b) = in_play(peers)
    na = nodes_for(peers)[a.me]
    for h in range(a.chain.height + 1, a.chain.height + 200):
        na._feed(sign_event(b.identity, a.game, TAKEBACK_BASE + h, a.chain.head, ASK_KIND, {"a": "x", "n": 0}).wire)
    assert len(na._tb_early) == 32


# -- §29.19, §29.20: an end or a pass below this peer's height is checked before any replay ------

async def test_forged_aborts_and_passes_below_a_peers_height_cost_no_replay(monkeypatch):
    from protocol.session import SessionPeer
    from protocol.session.abort import ABORT_KIND
    from protocol.session.clock_pass import PASS_KIND
    peers = toy(3)
    due, (a, b) = in_play(peers)
    h = a.chain.height
    wire = due.act()
    na = nodes_for(peers)[a.me]
    na._feed(wire)                        # a applied due's event at h
    assert a.chain.height == h + 1
    replays = []
    real = SessionPeer.rewound
    monkeypatch.setattr(SessionPeer, "rewound", lambda self, height: replays.append(height) or real(self, height))
    for k in range(20):                   # b signs ends at h naming due, with votes nobody gave
        na._feed(sign_event(b.identity, a.game, h, a.chain.events[h].prev, ABORT_KIND,
                            {"silent": due.me, "votes": [bytes([k]) * 40, b"v"]}).wire)
    assert replays == [] and a.chain.height == h + 1
    # a pass naming a seat at a height where it holds its own event: the same, for that seat
    b.receive(wire)                       # every peer at h + 1, so one of them is due to write
    own = next(p for p in peers if p.pending_obligation() is not None)
    mine = nodes_for(peers)[own.me]
    at = own.chain.height
    own.act()                             # its own event at `at`, applied
    other = next(p for p in peers if p is not own)
    for k in range(20):
        mine._feed(sign_event(other.identity, own.game, at, own.chain.events[at].prev, PASS_KIND,
                              {"seat": own.me, "a": "pass", "votes": [bytes([k]) * 40], "h": bytes(32)}).wire)
    assert replays == [] and len(mine._refused_at) == 0
