"""Takebacks (SPEC §29.17): the head action taken back when every other seat signed yes,
never once anything hidden was seen since; the takeback's co-signatures checked on arrival
and by `asv verify`, which names the takeback whose yes is forged or missing."""
from __future__ import annotations

import os

import pytest

from protocol.crypto import Identity, fingerprint
from protocol.log import LogWriter, read_log, sign_event
from protocol.session import CHANCE, verify_log
from protocol.session.errors import BadBody
from protocol.session.takeback import (
    TAKEBACK_KIND, CannotTakeBack, cosigners, make_answer, make_ask, undo_problem, write_takeback,
)
from tests.session_helpers import make_peers, refused, run_until, writer
from tests.toy_game import ToyRules, play_own_card

RULES = ToyRules()


def three_in_play(tmp_path):
    peers = make_peers(RULES, 3, agent_for=lambda k: play_own_card, log_dir=str(tmp_path))
    run_until(peers, lambda: peers[0].phase == "play" and RULES.to_move(peers[0].state) != CHANCE)
    return peers


def send(peers, author, wire):
    for p in peers:
        if p is not author:
            p.receive(wire)


def passed(peers):
    """The due seat passes (an action that shows nothing); returns (it, the hash before, the next due)."""
    mover = writer(peers)
    before = mover.state_hash()
    send(peers, mover, mover.act("pass"))
    return mover, before, writer(peers)


def flipped(wire: bytes) -> bytes:
    """The wire with its signature's last byte changed. Not set to zero: that byte is the
    top of the scalar S < L, so it is zero in about one signature in sixteen, and the
    "forged" yes was then the true one (the takeback applied: a flaky StateHashMismatch)."""
    return wire[:-1] + bytes([wire[-1] ^ 0x01])


def by_seat(peers, key):
    return next(p for p in peers if p.me == key)


def test_an_agreed_takeback_puts_back_the_state_from_before_the_action(tmp_path):
    peers = three_in_play(tmp_path)
    mover, before, due = passed(peers)
    assert undo_problem(due) is None
    ask = make_ask(mover.identity, mover)
    (third,) = [by_seat(peers, k) for k in cosigners(due, mover.me, due.me)]
    yes = {third.me: make_answer(third.identity, ask, True)}
    wire = write_takeback(due, ask, yes)
    send(peers, due, wire)
    for p in peers:
        assert p.chain.events[-1].kind == TAKEBACK_KIND and p.state_hash() == before
        assert p.next_author() == mover.me and undo_problem(p) is not None   # once only
    assert len({p.chain.head for p in peers}) == 1
    send(peers, mover, mover.act("pass"))   # the seat moves again, and the game goes on
    run_until(peers, lambda: peers[0].finished)
    for p in peers:
        report, _ = verify_log(p.log.path, RULES)
        assert report.valid and report.finished, report


def test_an_action_that_played_a_hidden_card_cannot_be_taken_back(tmp_path):
    peers = three_in_play(tmp_path)
    mover = writer(peers)
    send(peers, mover, mover.act())          # plays its own card: a claim, so the others saw it
    due = writer(peers)
    assert "un-seen" in undo_problem(due)
    with pytest.raises(CannotTakeBack):
        make_ask(mover.identity, mover)


def test_a_takeback_whose_yes_is_forged_or_missing_is_refused_naming_its_writer(tmp_path):
    peers = three_in_play(tmp_path)
    mover, _, due = passed(peers)
    ask = make_ask(mover.identity, mover)
    (third,) = [by_seat(peers, k) for k in cosigners(due, mover.me, due.me)]
    outsider = Identity.from_seed(bytes([77]) * 32, "outsider")
    bodies = {
        "missing": {"ask": ask.wire, "votes": []},
        "stand-in": {"ask": ask.wire, "votes": [make_answer(outsider, ask, True).wire]},
        "a no": {"ask": ask.wire, "votes": [make_answer(third.identity, ask, False).wire]},
        "forged": {"ask": ask.wire, "votes": [flipped(make_answer(third.identity, ask, True).wire)]},
    }
    for name, body in bodies.items():
        wire = sign_event(due.identity, due.game, due.chain.height, due.chain.head, TAKEBACK_KIND,
                          {**body, "h": due.state_hash()}).wire
        refused(peers, due, wire, BadBody, RULES)


def _rewrite(records, path, game, index, wire):
    with LogWriter(path, game) as log:
        for i, record in enumerate(records):
            log.append(wire if i == index else record)


@pytest.mark.parametrize("tamper", ["forged", "missing"])
def test_verify_names_the_takeback_whose_yes_is_forged_or_missing(tmp_path, tamper):
    peers = three_in_play(tmp_path)
    mover, _, due = passed(peers)
    ask = make_ask(mover.identity, mover)
    (third,) = [by_seat(peers, k) for k in cosigners(due, mover.me, due.me)]
    yes = make_answer(third.identity, ask, True)
    send(peers, due, write_takeback(due, ask, {third.me: yes}))
    taken = due.chain.events[-1]
    assert verify_log(due.log.path, RULES)[0].valid
    votes = [] if tamper == "missing" else [flipped(yes.wire)]
    bad = sign_event(due.identity, due.game, taken.seq, taken.prev, TAKEBACK_KIND,
                     {**taken.body, "votes": votes}).wire
    path = tmp_path / "tampered.asvlog"
    _rewrite(read_log(due.log.path), path, due.game, taken.seq, bad)
    report, _ = verify_log(path, RULES)
    assert not report.valid and report.exit_code == 1
    assert report.seq == taken.seq and report.author == fingerprint(due.me)
    assert ("not a valid signed event" if tamper == "forged" else "carries the yes of all 1") in report.reason


def test_no_takeback_once_a_card_was_revealed_since_the_action():
    """Amazing Space Venture between bots: wherever the last action is followed by shares (a
    card shown or dealt), the takeback is refused, saying why; an action that is the last
    event and showed nothing can be taken back."""
    from cli.games.asv.adapter import AsvRules
    from cli.games import kit_for
    rules = AsvRules()
    agent = kit_for("asv").agent
    peers = make_peers(rules, 2, agent_for=lambda k: agent("greedy", f"tb/{k}"), game=os.urandom(16))
    seen = {"revealed": 0, "open": 0}

    def look() -> bool:
        p = peers[0]
        if p.phase != "play" or p.next_kind() != "action":
            return False
        kinds = [e.kind for e in p.chain.events]
        last = max(i for i, k in enumerate(kinds) if k == "action") if "action" in kinds else None
        if last is not None and "shares" in kinds[last + 1:]:
            assert "revealed since" in undo_problem(p) and "un-seen" in undo_problem(p)
            seen["revealed"] += 1
        elif p.undo_point is not None:
            assert undo_problem(p) is None
            seen["open"] += 1
        return seen["revealed"] >= 3 and seen["open"] >= 3

    run_until(peers, look, limit=20_000)
