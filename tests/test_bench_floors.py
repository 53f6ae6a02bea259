"""The floors benchmarks/crypto_primitives.py prints are counts written by hand (SPEC §25.8);
they went stale once before (share checks became one multi-scalar sum and the ratios fell
below 1), so each step's counts are held to the operations the code really does."""
from __future__ import annotations

from collections import Counter

import pytest

from benchmarks import crypto_primitives as cp
from protocol.crypto import group as g
from protocol.crypto import msm, point_cache

STEPS = ("key setup", "shuffle 108", "private deal", "public reveal")


def _counting(monkeypatch, seen: Counter) -> None:
    """Count every group operation the floor prices, by the names of cp.OPS."""
    def wrap(module, name, key):
        real = getattr(module, name)

        def counted(*args, **kwargs):
            seen[key(*args, **kwargs)] += 1
            return real(*args, **kwargs)
        monkeypatch.setattr(module, name, counted)

    for name, op in (("mul", "var"), ("base_mul", "base"), ("validate_point", "check"),
                     ("add", "add"), ("sub", "add")):
        wrap(g, name, lambda *a, op=op, **k: op)
    wrap(msm, "msm", lambda terms, **k: f"msm{len(terms)}")
    real_rows = msm.fixed_rows

    def rows(bases, table_rows, adds=None, **kwargs):
        seen["fixed"] += len(bases) * len(table_rows)
        return real_rows(bases, table_rows, adds, **kwargs)
    monkeypatch.setattr(msm, "fixed_rows", rows)


@pytest.mark.parametrize("players", [2, 3])
def test_each_steps_floor_counts_the_operations_it_does(monkeypatch, players):
    monkeypatch.setattr(point_cache, "remember", False)   # as the benchmark runs
    point_cache.clear()
    seen: Counter = Counter()
    done: list[dict] = []

    def once(step, repeat=1):
        seen.clear()
        step()
        done.append({op: n for op, n in seen.items() if n})
        return 0.0
    monkeypatch.setattr(cp, "timed_us", once)
    _counting(monkeypatch, seen)
    assert list(cp.run_steps(players)) == list(STEPS)
    for step, did in zip(STEPS, done):
        assert did == cp.counts(step, players), step
