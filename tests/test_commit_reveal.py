"""Commit-reveal rounds, joint values and seeded permutations (SPEC §24)."""

from collections import Counter

import pytest

from protocol.crypto import commit_reveal as cr

CTX = b"game-7|seat-order"
SEATS = ["ann", "bob", "cat"]


def test_commit_known_answer_and_opening():
    value = bytes(range(32))
    c = cr.commit(value, b"ctx")
    assert c.hex() == "10ecb87b7c141e5fb64ce7e3ffdb217a2ace90b571de8797550aa68e1d742237"
    assert cr.opens(c, value, b"ctx")
    assert not cr.opens(c, value, b"ctx2")
    assert not cr.opens(c, bytes(32), b"ctx")
    assert not cr.opens(c, b"short", b"ctx")
    with pytest.raises(ValueError):
        cr.commit(b"too short", b"ctx")


def test_joint_value_known_answer_and_order():
    a, b = bytes(32), bytes([1]) * 32
    assert cr.joint_value([a, b]).hex() == "1c38780da82c38e5ded1f1ae9c15a6b95b1930d8f2269b255b9b9a8100acdf4a"
    assert cr.joint_value([b, a]) != cr.joint_value([a, b])
    with pytest.raises(ValueError):
        cr.joint_value([])


def full_round():
    values = {p: cr.fresh_value() for p in SEATS}
    rnd = cr.CommitRevealRound(SEATS, CTX)
    for p in SEATS:
        rnd.add_commit(p, cr.commit(values[p], CTX))
    return rnd, values


def test_round_happy_path():
    rnd, values = full_round()
    assert rnd.all_committed and not rnd.complete
    for p in reversed(SEATS):  # arrival order does not matter, seat order does
        rnd.add_reveal(p, values[p])
    assert rnd.complete
    assert rnd.reveals() == [values[p] for p in SEATS]
    assert rnd.joint_value() == cr.joint_value([values[p] for p in SEATS])


def test_reveal_that_does_not_open_names_participant():
    rnd, values = full_round()
    with pytest.raises(cr.CommitMismatch) as exc:
        rnd.add_reveal("bob", cr.fresh_value())
    assert exc.value.participant == "bob"
    # a commitment made under another context does not open here either
    other = cr.CommitRevealRound(SEATS, b"another round")
    for p in SEATS:
        other.add_commit(p, cr.commit(values[p], CTX))
    with pytest.raises(cr.CommitMismatch) as exc:
        other.add_reveal("cat", values["cat"])
    assert exc.value.participant == "cat"


def test_missing_reveal_and_commit_name_participant():
    rnd, values = full_round()
    rnd.add_reveal("ann", values["ann"])
    rnd.add_reveal("cat", values["cat"])
    assert rnd.missing_reveals() == ["bob"]
    with pytest.raises(cr.MissingReveal) as exc:
        rnd.joint_value()
    assert exc.value.participant == "bob"

    early = cr.CommitRevealRound(SEATS, CTX)
    early.add_commit("ann", cr.commit(values["ann"], CTX))
    with pytest.raises(cr.MissingCommit) as exc2:
        early.joint_value()
    assert exc2.value.participant == "bob"
    with pytest.raises(cr.RevealTooEarly) as exc3:
        early.add_reveal("ann", values["ann"])
    assert exc3.value.participant == "ann" and exc3.value.waiting_for == ["bob", "cat"]


def test_equivocating_commit_and_strangers_are_refused():
    rnd = cr.CommitRevealRound(SEATS, CTX)
    c = cr.commit(cr.fresh_value(), CTX)
    rnd.add_commit("ann", c)
    rnd.add_commit("ann", c)  # a resent identical commitment is harmless
    with pytest.raises(cr.DuplicateCommit) as exc:
        rnd.add_commit("ann", cr.commit(cr.fresh_value(), CTX))
    assert exc.value.participant == "ann"
    with pytest.raises(cr.UnknownParticipant) as exc2:
        rnd.add_commit("eve", c)
    assert exc2.value.participant == "eve"
    with pytest.raises(cr.CommitMismatch):
        rnd.add_commit("bob", b"not 32 bytes")
    with pytest.raises(ValueError):
        cr.CommitRevealRound(["a", "a"], CTX)


def test_permutation_known_answer_and_validity():
    assert cr.permutation_from_seed(b"seed", 10) == [1, 6, 0, 9, 7, 5, 4, 2, 8, 3]
    assert cr.permutation_from_seed(b"seed", 0) == []
    assert cr.permutation_from_seed(b"seed", 1) == [0]
    for n in (2, 4, 108):
        perm = cr.permutation_from_seed(b"x" * 32, n)
        assert sorted(perm) == list(range(n))
    assert cr.permutation_from_seed(b"a", 50) != cr.permutation_from_seed(b"b", 50)


def test_permutation_is_roughly_uniform():
    # 3 items -> 6 permutations; 3000 seeds give about 500 each.
    counts = Counter(tuple(cr.permutation_from_seed(i.to_bytes(4, "big"), 3)) for i in range(3000))
    assert len(counts) == 6
    assert all(380 < c < 620 for c in counts.values()), counts


def test_stream_rejection_sampling_stays_in_range():
    stream = cr._Stream(b"seed")
    bound = (1 << 31) + 1  # about half of all u32 words are rejected
    draws = [stream.below(bound) for _ in range(200)]
    assert all(0 <= d < bound for d in draws)
    assert len(set(draws)) == 200
