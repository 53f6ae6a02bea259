"""The board's cached hash text after a takeback (SPEC §35.7, §29.17, §10.4): Amazing Space
Venture between two bots; a tile placement is taken back and the same tile placed elsewhere
(the board holds as many tiles as before, other ones), and every replica's state hash is
the one a fresh replay of its log gives and the one of json.dumps(plain()), with no cache."""
from __future__ import annotations

import hashlib
import json

from cli.games import kit_for
from cli.games.asv.adapter import AsvRules
from protocol.session import verify_log
from protocol.session.takeback import cosigners, make_answer, make_ask, undo_problem, write_takeback
from tests.session_helpers import make_peers, run_until, step, writer

RULES = AsvRules()
KIT = kit_for("asv")


def uncached(state) -> bytes:
    return hashlib.sha256(json.dumps(state.plain(), separators=(",", ":"), ensure_ascii=True).encode()).digest()


def replayed(peer) -> bytes:
    report, session = verify_log(peer.log.path, RULES)
    assert report.valid, report.reason
    return session.state_hash()


def agree(peers) -> None:
    for p in peers:
        assert p.state_hash() == uncached(p.state) == replayed(p)


def test_a_placement_taken_back_and_placed_elsewhere_hashes_as_a_fresh_replay(tmp_path):
    peers = make_peers(RULES, 2, agent_for=lambda k: KIT.agent("greedy", f"hash-cache/{k}"), log_dir=str(tmp_path))
    before: dict = {}

    def placed_and_open() -> bool:
        p = peers[0]
        if p.phase == "play" and p.next_kind() == "action" and "last" in before:
            if undo_problem(p) is None and p.chain.events[-1].body["a"].startswith("place "):
                return True
        if p.phase == "play" and p.state is not None and p.next_kind() == "action":
            before["last"] = (p.state_hash(), len(p.state.board))
        return False

    run_until(peers, placed_and_open, limit=5000)
    hash_before, tiles_before = before["last"]
    for p in peers:
        p.state_hash()                     # the board's text is cached with the tile on it
    agree(peers)
    text = peers[0].chain.events[-1].body["a"]
    mover = next(p for p in peers if p.chain.events[-1].author == p.me)
    due = writer(peers)                    # the mover again, or the next seat
    ask = make_ask(mover.identity, mover)
    yes = {p.me: make_answer(p.identity, ask, True) for p in peers if p.me in cosigners(due, mover.me, due.me)}
    wire = write_takeback(due, ask, yes)
    for p in peers:
        if p is not due:
            p.receive(wire)
    for p in peers:
        assert len(p.state.board) == tiles_before and p.state_hash() == hash_before
    agree(peers)
    # the same tile elsewhere (or turned): as many tiles as with the first placement, other ones
    tile = text.split()[1]
    other = next(a.text() for a in KIT.legal_actions(mover.state, mover.view)
                 if a.text().startswith(f"place {tile} ") and a.text() != text)
    wire = mover.act(other)
    for p in peers:
        if p is not mover:
            p.receive(wire)
    for p in peers:
        assert len(p.state.board) == tiles_before + 1
    agree(peers)
    for _ in range(40):                    # and the game goes on, every replica in step
        step(peers)
    agree(peers)
