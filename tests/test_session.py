"""The lockstep session over a toy game (SPEC §26): phases, authors, obligations,
private deals, claims, reshuffles, and shuffle proofs checked on arrival."""
from __future__ import annotations

import pytest

from protocol.errors import WrongAuthor
from protocol.session import (
    CHANCE, BadBody, DeckRequest, IllegalMove, NotYourTurn, Session, run_local,
)
from protocol.log import SecretsFile, read_log
from tests.session_helpers import craft, make_peers, run_until, step
from tests.toy_game import ToyRules, play_own_card

RULES = ToyRules()


def toy_peers(n, **kw):
    return make_peers(RULES, n, agent_for=lambda k: play_own_card, **kw)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_toy_game_runs_to_the_end_with_one_head(n):
    peers = toy_peers(n)
    events = run_local(peers)
    assert len({p.chain.head for p in peers}) == 1
    assert all(p.finished for p in peers)
    # SPEC §26.2: hello, seat commit/reveal, key commit/reveal, then play; nothing after
    kinds = [e.kind for e in peers[0].chain.events]
    assert kinds[:5 * n] == (["hello"] * n + ["seat-commit"] * n + ["seat-reveal"] * n
                            + ["key-commit"] * n + ["key-reveal"] * n)
    assert "open" not in kinds and kinds.count("shuffle") == 2 * n and events == len(kinds)
    # every peer checked the proof of every shuffle but its own (the deck and the reshuffle)
    assert all(p.book.shuffles_checked == 2 * (n - 1) for p in peers)
    assert sum(peers[0].result()["scores"]) > 0


def test_observer_replays_the_chain_checking_every_proof():
    peers = toy_peers(2)
    run_local(peers)
    obs = Session(RULES, peers[0].game)
    for ev in peers[0].chain.events:
        obs.receive(ev.wire)
    assert obs.finished and obs.chain.head == peers[1].chain.head
    assert obs.book.shuffles_checked == 4
    assert obs.state_hash() == peers[0].state_hash()


def test_seats_come_from_the_joint_value_and_authors_follow_them():
    peers = toy_peers(3)
    run_until(peers, lambda: peers[0].phase == "key-commit")
    seats = peers[0].seat_keys
    assert sorted(seats) == sorted(peers[0].roster)
    assert [p.seat_keys for p in peers] == [seats] * 3
    for s in range(3):  # key commits go in seat order
        assert peers[0].next_author() == seats[s]
        step(peers)


def test_private_deal_teaches_only_the_receiver():
    peers = toy_peers(3)
    run_until(peers, lambda: peers[0].phase == "play" and RULES.to_move(peers[0].state) != CHANCE)
    for p in peers:
        (h,) = p.state["hands"][p.seat]
        assert list(p.view["known"]) == [h]          # its own card only
    assert peers[0].view["known"] != peers[1].view["known"]


def test_reshuffle_from_source_handles_and_deal_of_a_fresh_handle():
    peers = toy_peers(2)
    run_local(peers)
    seat0 = next(p for p in peers if p.seat == 0)
    played = seat0.state["played"]
    fresh = min(h for h in seat0.book.cipher if h >= 6)  # the reshuffle's first fresh handle
    assert played and fresh >= 6 and fresh not in played
    assert fresh in seat0.view["known"] and seat0.view["known"][fresh] in "abcdef"


def test_only_the_due_peer_may_act_and_a_wrong_author_is_refused():
    peers = toy_peers(2)
    idle = next(p for p in peers if p.pending_obligation() is None)
    with pytest.raises(NotYourTurn):
        idle.act()
    wire = craft(idle, kind="hello")
    with pytest.raises(WrongAuthor) as exc:
        next(p for p in peers if p is not idle).receive(wire)
    assert exc.value.author == idle.me


def test_hello_must_agree_on_roster():
    peers = toy_peers(2)
    step(peers)
    second = peers[1]
    wire = craft(second, lambda b: b.update(roster=list(reversed(b["roster"]))))
    with pytest.raises(BadBody):
        peers[0].receive(wire)
    assert peers[0].chain.height == 1


def test_an_illegal_action_names_its_author_and_changes_nothing():
    peers = toy_peers(2)
    run_until(peers, lambda: peers[0].phase == "play" and RULES.to_move(peers[0].state) != CHANCE)
    actor = next(p for p in peers if p.pending_obligation() == "action")
    other = next(p for p in peers if p is not actor)
    before = other.state_hash(), other.chain.height
    with pytest.raises(IllegalMove) as exc:
        other.receive(craft(actor, body={"a": "dance", "p": []}))
    assert exc.value.author == actor.me and (other.state_hash(), other.chain.height) == before


def test_logs_and_secrets_files(tmp_path):
    peers = toy_peers(2, log_dir=str(tmp_path))
    run_local(peers)
    for k, p in enumerate(peers):
        p.log.close()
        wires = read_log(tmp_path / f"peer{k}.asvlog")
        assert wires == [e.wire for e in peers[0].chain.events]
        merged = SecretsFile(tmp_path / f"peer{k}.asvlog").merged()
        assert set(merged) == {"seat_value", "key"} and merged["key"] == p._key.secret
        # the key share never enters the log, not even at the end (SPEC §26.7)
        assert not any(p._key.secret in e.wire for e in p.chain.events)


def test_deck_request_shape_is_checked():
    with pytest.raises(ValueError):
        DeckRequest("deal", "d", (1,))
    with pytest.raises(ValueError):
        DeckRequest("shuffle", "d", (1, 2), labels=("x",))
    with pytest.raises(ValueError):
        DeckRequest("burn", "d", (1,))
