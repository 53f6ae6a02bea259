"""`asv verify` start-up before and after the lazy command parser (issue 23 item 4).

Run: .venv/bin/python benchmarks/verify_startup.py [--rounds R] [--old REV]   (under a minute)

Times `python -m cli.main verify MISSING` (the start-up, then a one-line "cannot read":
no log work at all) in the tree of git REV (before: cli/main.py imported every command
module to build its parser) and in this tree, alternately, and prints the medians of
wall time and of the child's CPU time (user + system), with the load average. A real
verify pays this start-up once, before its first event.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

NEW = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OLD_REV = "b890d68"      # main as merged here: its cli/main.py imports every command


def bytecode_env(root: str) -> dict:
    """Bytecode written and read (under `root`, not in the trees), as an installed program
    has it: these machines set PYTHONDONTWRITEBYTECODE, and each start would compile every
    module from source again (about a third of the start-up's CPU)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPYCACHEPREFIX": os.path.join(root, "pycache")}


def one(tree: str, env: dict) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "cli.main", "verify", "/nonexistent/x.asvlog"], cwd=tree,
                   capture_output=True, check=False, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--old", default=OLD_REV)
    args = ap.parse_args()
    old = tempfile.mkdtemp(prefix="verify-startup-")
    archive = subprocess.run(["git", "archive", args.old], cwd=NEW, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", old], input=archive, check=True)
    trees = {"before": old, "after": NEW}
    env = bytecode_env(old)
    for tree in trees.values():
        one(tree, env)                     # warm the file cache and write the bytecode
    load = [os.getloadavg()[0]]
    runs: dict[str, list[tuple[float, float]]] = {k: [] for k in trees}
    for _ in range(args.rounds):
        for name, tree in trees.items():
            runs[name].append(one(tree, env))
        load.append(os.getloadavg()[0])
    print(f"asv verify start-up, medians of {args.rounds} interleaved rounds; "
          f"load average {min(load):.2f} to {max(load):.2f} (2 cores, shared)")
    print(f"{'':8s} {'wall s':>8s} {'CPU s':>8s}")
    med = statistics.median
    for name in trees:
        print(f"{name:8s} {med(w for w, _ in runs[name]):8.3f} {med(c for _, c in runs[name]):8.3f}")
    b, a = (med(c for _, c in runs[k]) for k in ("before", "after"))
    print(f"CPU saved: {b - a:.3f} s ({(b - a) / b:.0%})  (before = git {args.old})")


if __name__ == "__main__":
    main()
