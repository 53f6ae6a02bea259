"""Shared helpers of the session tests: peers in memory, stepping, crafted events."""
from __future__ import annotations

import os

from protocol.log import LogWriter, SecretsFile, sign_event
from protocol.crypto import Identity
from protocol.session import HASHED_PHASES, SessionPeer


def make_peers(rules, n, agent_for=None, log_dir=None, game=None, cls=SessionPeer, seeds=None):
    game = game or os.urandom(16)
    ids = [Identity.from_seed(bytes([i + 1 + (seeds or 0)]) * 32, f"p{i}") for i in range(n)]
    roster = [i.public_key_bytes for i in ids]
    peers = []
    for k, ident in enumerate(ids):
        log = secrets = None
        if log_dir is not None:
            path = os.path.join(log_dir, f"peer{k}.asvlog")
            log, secrets = LogWriter(path, game), SecretsFile(path, game)
        peers.append(cls(ident, rules, game, roster, {}, log=log, secrets=secrets,
                         agent=agent_for(k) if agent_for else None))
    return peers


def writer(peers):
    due = [p for p in peers if p.pending_obligation() is not None]
    assert len(due) == 1, f"{len(due)} writers"
    return due[0]


def step(peers):
    """One event: the due peer writes, every other peer receives. Returns the wire."""
    w = writer(peers)
    wire = w.act()
    for p in peers:
        if p is not w:
            p.receive(wire)
    return wire


def run_until(peers, pred, limit=100_000):
    for _ in range(limit):
        if pred():
            return
        step(peers)
    raise AssertionError("condition never met")


def craft(peer, mutate=None, kind=None, body=None, seq=None, prev=None, h=None):
    """An event `peer` would write now, tampered by `mutate(body)`, signed by `peer` but
    not applied anywhere. The state hash (if due) is the peer's current one unless given."""
    seq = peer.chain.height if seq is None else seq
    kind = kind or peer.pending_obligation() or peer.next_kind()
    if body is None:
        body = peer._body(kind, seq, None)
    if mutate is not None:
        mutate(body)
    if peer.phase in HASHED_PHASES and "h" not in body:
        body["h"] = h if h is not None else peer.state_hash()
    return sign_event(peer.identity, peer.game, seq, peer.chain.head if prev is None else prev, kind, body).wire


def refused(peers, cheater, wire, error, rules):
    """Every peer but `cheater` refuses `wire` with `error` naming `cheater`, and keeps its
    chain, state hash and log as they were; its log still verifies as a valid prefix."""
    from protocol.session import verify_log
    caught = None
    for p in peers:
        if p is cheater:
            continue
        height = p.chain.height
        digest = p.state_hash() if p.state is not None else None
        try:
            p.receive(wire)
        except error as exc:
            caught = exc
        else:
            raise AssertionError(f"{error.__name__} not raised")
        assert caught.author == cheater.me, caught
        assert p.chain.height == height and p.halted is None
        if digest is not None:
            assert p.state_hash() == digest
        if p.log is not None:
            assert p.log.count == height
            report, _ = verify_log(p.log.path, rules)
            assert report.valid and report.events == height, report
    return caught
