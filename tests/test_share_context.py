"""The share-proof context as SPEC §26.4 writes it, and `shares` events a third party can
check from the log alone (finding 13 of issue 7)."""
from __future__ import annotations

import hashlib
import struct

from protocol.crypto import group as g
from protocol.session.dealing import share_context
from protocol.log.events import sign_event
from protocol.session.local_game import run_local
from protocol.session.errors import BadBody
from protocol.session.share_check import check_shares
from tests.session_helpers import craft, make_peers, refused, run_until, writer
from tests.toy_game import ToyRules, play_own_card

RULES = ToyRules()


def lp(*parts: bytes) -> bytes:
    """§24.1 written out again from the SPEC, independently of the code."""
    return b"".join(struct.pack(">I", len(p)) + p for p in parts)


def test_the_share_context_is_four_length_prefixed_parts():
    game, seq, handle = bytes(range(16)), 0x0102030405060708, 0x0A0B0C0D
    want = lp(b"p2p-asv/session-share/v1", game, seq.to_bytes(8, "big"), handle.to_bytes(4, "big"))
    assert share_context(game, seq, handle) == want == g.lp(b"p2p-asv/session-share/v1", game,
                                                            seq.to_bytes(8, "big"), handle.to_bytes(4, "big"))
    # known answer (SPEC §26.4), so another implementation can check itself
    assert share_context(bytes(16), 7, 3).hex() == (
        "00000018" + b"p2p-asv/session-share/v1".hex() + "00000010" + "00" * 16
        + "00000008" + "0000000000000007" + "00000004" + "00000003")
    assert hashlib.sha256(share_context(bytes(16), 7, 3)).hexdigest() == \
        "960df6e7bf68f6683bdb660d8deefdc4257b126d3e7f2897ab72de823414c9a5"


def test_every_share_of_a_game_checks_from_the_log_alone(tmp_path):
    peers = make_peers(RULES, 3, agent_for=lambda k: play_own_card, log_dir=str(tmp_path))
    run_local(peers)
    events = peers[0].chain.events
    report = check_shares(events)                  # no ToyRules, no DeckBook: the log alone
    assert report.failures == [] and report.checked >= 6
    assert all("for" in ev.body for ev in events if ev.kind == "shares")


def test_a_shares_event_must_say_exactly_what_it_answers(tmp_path):
    peers = make_peers(RULES, 3, agent_for=lambda k: play_own_card, log_dir=str(tmp_path))
    run_until(peers, lambda: writer(peers).pending_obligation() == "shares")
    w = writer(peers)
    refused(peers, w, craft(w, lambda b: b.update({"for": b["for"][::-1] + [[99, bytes(32)]]})), BadBody, RULES)
    refused(peers, w, craft(w, lambda b: b["for"][0].__setitem__(1, g.G)), BadBody, RULES)
    refused(peers, w, craft(w, lambda b: b.pop("for")), BadBody, RULES)


def test_a_third_party_finds_a_share_that_answers_another_ciphertext(tmp_path):
    peers = make_peers(RULES, 3, agent_for=lambda k: play_own_card, log_dir=str(tmp_path))
    run_local(peers)
    events = list(peers[0].chain.events)
    i = next(k for k, ev in enumerate(events) if ev.kind == "shares")
    ev = events[i]
    author = next(p for p in peers if p.me == ev.author)
    body = dict(ev.body)
    body["for"] = [[h, g.G] for h, _ in body["for"]]   # claims to answer other ciphertexts
    events[i] = sign_event(author.identity, ev.game, ev.seq, ev.prev, ev.kind, body)
    report = check_shares(events)
    assert {(f[0], f[2]) for f in report.failures} == {(ev.seq, k) for k in range(len(body["s"]))}
    assert report.failures[0][1] == author.identity.fingerprint
