"""SPEC §29.4: the early-event buffer under a future-event flood from one insider. The
bound is on what the buffer holds (its counted cost), checked in-process; the memory of
a whole peer under a flood is measured in benchmarks/flood_memory.py."""
from protocol.crypto import Identity
from protocol.log import sign_event
from protocol.node import (
    MAX_AUTHOR_BYTES, MAX_AUTHOR_HEIGHTS, MAX_BUFFERED_BYTES, MAX_PER_HEIGHT, EarlyEvents, held_cost,
)

GAME = b"g" * 16
PREV = b"\0" * 32
INSIDER, HONEST, OUTSIDER = (Identity.generate(n) for n in ("insider", "honest", "outsider"))
ROSTER = [INSIDER.public_key_bytes, HONEST.public_key_bytes]


def signed(who, seq, pad=0, tag=0):
    return sign_event(who, GAME, seq, PREV, "action", {"a": tag, "pad": b"x" * pad})


def test_an_insiders_flood_of_big_future_events_is_held_within_its_own_budget():
    early = EarlyEvents()
    honest = [signed(HONEST, seq) for seq in range(2, 12)]
    for ev in honest[:5]:
        early.hold(ev, 1, ROSTER)
    sent = 0
    for seq in range(2, 2 + 200):                  # 200 heights x 4 candidates x 24 KiB
        for tag in range(MAX_PER_HEIGHT + 1):
            ev = signed(INSIDER, seq, pad=24 << 10, tag=tag)
            sent += len(ev.wire)
            early.hold(ev, 1, ROSTER)
    for ev in honest[5:]:
        early.hold(ev, 1, ROSTER)
    assert sent > 4 * MAX_AUTHOR_BYTES
    assert early.author_size(INSIDER.public_key_bytes) <= MAX_AUTHOR_BYTES
    assert early.size <= MAX_BUFFERED_BYTES
    # the honest author's events are all still held, none crowded out by the flood
    assert early.author_size(HONEST.public_key_bytes) == sum(held_cost(e) for e in honest)
    assert all(any(e is ev for e in early.by_seq[ev.seq]) for ev in honest)
    assert early.size == sum(held_cost(e) for evs in early.by_seq.values() for e in evs)


def test_an_insider_holds_at_most_a_window_of_future_heights():
    early = EarlyEvents()
    for seq in range(1, 1 + 2 * MAX_AUTHOR_HEIGHTS):
        early.hold(signed(INSIDER, seq), 0, ROSTER)
    assert len(early.by_seq) == MAX_AUTHOR_HEIGHTS
    assert early.dropped == MAX_AUTHOR_HEIGHTS
    # taking a height frees its room in the window
    early.take(1)
    early.hold(signed(INSIDER, 5000 // 2), 0, ROSTER)
    assert len(early.by_seq) == MAX_AUTHOR_HEIGHTS


def test_keys_outside_the_roster_hold_nothing_and_before_it_all_share_one_budget():
    early = EarlyEvents()
    early.hold(signed(OUTSIDER, 3), 0, ROSTER)
    assert not early and early.dropped == 1
    # before the roster is known, fresh keys share one author's budget
    for k in range(2 * MAX_AUTHOR_BYTES // (64 << 10)):
        early.hold(signed(Identity.generate(), 3 + k, pad=64 << 10), 0)
    assert early.size <= MAX_AUTHOR_BYTES
    # the roster arrives: what keys outside it wrote is dropped, the rest kept and recounted
    early.hold(signed(HONEST, 2), 0)
    early.keep_roster(ROSTER, 0)
    assert list(early.by_seq) == [2]
    assert early.size == early.author_size(HONEST.public_key_bytes) == held_cost(early.by_seq[2][0])
    early.take(2)
    assert early.size == 0 and not early
