"""Fault trials (SPEC §29.19, §29.21): honest forks and stalls when a peer cheats, leaves or crashes.

Run: .venv/bin/python benchmarks/fault_trials.py [--trials 20] [--timeout 0.5] [--only NAME]
(about ten minutes for 20 trials of each scenario on a loaded two-core machine).

The scenarios and one trial of each are in tests/fault_trial_helpers.py (shared with
tests/test_fault_trials.py, which plays one of each); this script plays many and prints,
per scenario, trials, honest forks, stalls and seconds a trial (wall time).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from tempfile import TemporaryDirectory

import trio

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.fault_trial_helpers import SCENARIOS, run_trial  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--timeout", type=float, default=0.5, help="the silent-peer timeout, seconds")
    ap.add_argument("--only", action="append", choices=SCENARIOS)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    print(f"{'scenario':18} {'trials':>6} {'forks':>6} {'stalls':>6} {'s/trial':>8}")
    for name in args.only or SCENARIOS:
        rng = random.Random(f"{args.seed}/{name}")
        forks = stalls = 0
        start = time.monotonic()
        for _ in range(args.trials):
            with TemporaryDirectory() as tmp:
                try:
                    forked, stalled = trio.run(run_trial, name, args.timeout, rng, Path(tmp))
                except Exception as exc:   # noqa: BLE001 - a trial that crashes counts as a stall, said once
                    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
                        exc = exc.exceptions[0]
                    print(f"  {name}: the trial failed: {type(exc).__name__}: {exc}", flush=True)
                    forked, stalled = False, True
            forks += forked
            stalls += stalled
        per = (time.monotonic() - start) / max(1, args.trials)
        print(f"{name:18} {args.trials:>6} {forks:>6} {stalls:>6} {per:>8.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
