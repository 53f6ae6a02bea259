"""The floors benchmarks/crypto_primitives.py prints are counts written by hand (SPEC §25.8);
they went stale once before (share checks became one multi-scalar sum and the ratios fell
below 1), so each step's counts are held to the operations the code really does."""
from __future__ import annotations

from collections import Counter

import pytest

from benchmarks import crypto_primitives as cp
from benchmarks.shuffle_proof_bench import counted, recorded_msm
from protocol.crypto import group as g
from protocol.crypto import msm, point_cache

STEPS = ("key setup", "shuffle 108", "private deal", "public reveal")


@pytest.fixture(autouse=True)
def native_sums(monkeypatch):
    """The benchmarks' floors are those of the native backend (fixed-base rows, multi-scalar
    sums), whatever ASV_PURE_MSM says; without the extension test_msm_native fails instead."""
    if msm._native is None:
        pytest.skip("extension not built: test_msm_native's test_extension_is_built fails")
    monkeypatch.setattr(msm, "BACKEND", "native")


def _did(monkeypatch, step) -> dict[str, int]:
    """What step() does, by the names of cp.OPS: the group calls (shuffle_proof_bench.counted),
    the sums by their number of terms (recorded_msm) and the fixed-base table rows."""
    did: Counter = Counter()
    real_rows = msm.fixed_rows

    def rows(bases, table_rows, adds=None, **kwargs):
        did["fixed"] += len(bases) * len(table_rows)
        return real_rows(bases, table_rows, adds, **kwargs)
    with monkeypatch.context() as patch:
        patch.setattr(msm, "fixed_rows", rows)
        sums = recorded_msm(lambda: did.update(counted(step)))
    did.update(f"msm{len(terms)}" for terms in sums)
    return {op: n for op, n in did.items() if n}


@pytest.mark.parametrize("players", [2, 3])
def test_each_steps_floor_counts_the_operations_it_does(monkeypatch, players):
    monkeypatch.setattr(point_cache, "remember", False)   # as the benchmark runs
    point_cache.clear()
    done: list[dict] = []

    def once(step, repeat=1):
        done.append(_did(monkeypatch, step))
        return 0.0
    monkeypatch.setattr(cp, "timed_us", once)
    assert list(cp.run_steps(players)) == list(STEPS)
    for step, did in zip(STEPS, done):
        assert did == cp.counts(step, players), step


def test_protocol_bench_tally_sees_each_share_check_as_one_sum_and_puts_everything_back():
    """protocol_bench's floors are counted on the code (SPEC §26.11): a share is checked by
    one 6-term sum on every replica that receives it, and the tally must see each of them
    (and no sum twice), then leave the group, msm and signature functions as they were."""
    from benchmarks import protocol_bench as pb
    import protocol.log.events as ev

    group_calls = ("mul", "base_mul", "validate_point")
    before = {name: getattr(g, name) for name in group_calls}
    before.update(msm=msm.msm, sum_merged=msm.sum_merged, verify=ev.verify)
    n = 3
    tally = pb.Tally()
    peers, _ = pb.play(n, tally)
    assert all(p.finished for p in peers)
    senders_checked = (n - 1) * (n - 1)          # n-1 sharers, each share seen by n-1 others
    assert len(tally.sums["deal"]) == senders_checked * pb.DEALT
    assert len(tally.sums["public reveal"]) == n * (n - 1) * pb.SHOWN
    assert tally.counts["deal"]["var"] == 2 * (n - 1) * pb.DEALT + pb.DEALT   # shares made, own share
    assert tally.counts["deal"]["sig"] == senders_checked
    assert tally.floor_ms("deal", {"var": 1.0, "base": 1.0, "chk": 1.0, "sig": 1.0}) > 0
    now = {name: getattr(g, name) for name in group_calls}
    now.update(msm=msm.msm, sum_merged=msm.sum_merged, verify=ev.verify)
    assert now == before
