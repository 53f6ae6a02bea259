"""Whole-log verify, old against new, on the same real logs (issue 23 items 4-6: the replay).

Run: .venv/bin/python benchmarks/replay_bench.py [--rounds R] [--old REV]   (a few minutes)

The logs: `asv selfplay --players N --games 1 --seed 11 --log-dir DIR` for 2, 3 and 4
players, made once by this tree. The verifier's formats did not change, so the old tree
(`git archive REV`, default the commit before the replay work) reads the very same logs,
and the figures compare per event on identical input. Both run with this virtual
environment's Python, each tree first on sys.path (benchmarks/verify_worker.py, task
`log`); rounds are interleaved (old, new, old, new, ...) on a shared machine and the
medians of CPU time printed, with the load average.

Then, in each tree, where an event's time goes (task `split`): the state hash, the
signature check, the codec's decoding, the group arithmetic (the proofs' floor, another
helper's work) and the rest (rules, proofs' glue, the session).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
NEW = os.path.dirname(HERE)
WORKER = os.path.join(HERE, "verify_worker.py")
OLD_REV = "c3593cf"     # main as this branch started: OpenSSL signatures, the state hash encoded whole
PLAYERS = (2, 3, 4)


def worker(tree: str, *args: str) -> dict:
    done = subprocess.run([sys.executable, WORKER, tree, *args], cwd=tree, capture_output=True,
                          text=True, check=False, env={**os.environ, "PYTHONHASHSEED": "0"})
    if done.returncode != 0:
        raise SystemExit(f"worker in {tree} failed:\n{done.stderr}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["group_file"].startswith(tree), out["group_file"]
    return out["result"]


def make_logs(root: str) -> dict[int, str]:
    logs = {}
    for n in PLAYERS:
        folder = os.path.join(root, f"p{n}")
        subprocess.run([sys.executable, "-m", "cli.main", "selfplay", "--players", str(n), "--games", "1",
                        "--seed", "11", "--log-dir", folder], cwd=NEW, check=True, capture_output=True,
                       env={**os.environ, "ASV_NO_FSYNC": "1"})
        logs[n] = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".asvlog"))[0]
    return logs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--old", default=OLD_REV)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="replay-bench-")
    old = os.path.join(tmp, "old")
    os.mkdir(old)
    archive = subprocess.run(["git", "archive", args.old], cwd=NEW, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", old], input=archive, check=True)
    trees = {"old": old, "new": NEW}
    logs = make_logs(os.path.join(tmp, "logs"))
    paths = [logs[p] for p in PLAYERS]
    load = [os.getloadavg()[0]]
    ms: dict[str, dict[int, list[float]]] = {"old": {}, "new": {}}
    events: dict[int, int] = {}
    for _ in range(args.rounds):
        for name, tree in trees.items():
            res = worker(tree, "log", *paths)
            for p in PLAYERS:
                ms[name].setdefault(p, []).append(res[logs[p]]["ms_per_event"])
                events[p] = res[logs[p]]["events"]
        load.append(os.getloadavg()[0])
    splits = {name: [worker(tree, "split", *paths) for _ in range(3)] for name, tree in trees.items()}
    med = statistics.median
    print(f"old = git {args.old}, new = this tree; the same logs; {args.rounds} interleaved rounds, "
          "medians of CPU time")
    print(f"load average over the run: {min(load):.2f} to {max(load):.2f} (2 cores, shared)")
    print("\nwhole-log verify, ms an event (real selfplay logs, seed 11)")
    print("  players  events     old     new   speed-up")
    for p in PLAYERS:
        o, w = med(ms["old"][p]), med(ms["new"][p])
        print(f"  {p:>7}  {events[p]:6d}  {o:7.3f} {w:7.3f}   {o / w:6.2f}x")
    parts = list(splits["new"][0][logs[PLAYERS[0]]])
    print("\nwhere an event's time goes (ms an event, wall time inside, medians of 3 instrumented runs)")
    print("  tree players  " + " ".join(f"{k:>10}" for k in parts))
    for name in trees:
        for p in PLAYERS:
            print(f"  {name:4s} {p:>7}  " + " ".join(f"{med(s[logs[p]][k] for s in splits[name]):10.3f}" for k in parts))


if __name__ == "__main__":
    main()
