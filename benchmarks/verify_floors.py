"""Honest floors for verification (issue 23 item 5): the code before the move to
ristretto255 ("old") beside today's ("new"), in one run, with the new floor.

Run: .venv/bin/python benchmarks/verify_floors.py [--rounds R] [--old REV]   (a few minutes)

* Shuffle verify, CPU ms a card, at 8, 52, 108 and 216 cards (a general deck).
* Whole-log verify, CPU ms an event, on real game logs: `asv selfplay --players N --games 1
  --seed 11 --log-dir DIR` for 2, 3 and 4 players, each tree's logs made by that tree's own
  asv (a log of one group cannot be read by the other). The seed fixes the bots, but the
  seat order and the shuffles come from fresh randomness (commit-reveal), so the games
  differ between the trees and from run to run (the event counts are printed): compare
  the figures per event.
* The same logs through the whole command, `python -m cli.main verify LOG` in each tree
  (its start-up included, the bytecode cached as in an installed program), CPU seconds of
  the child an event.
* The new floor: the primitives the new verifier does (multi-scalar multiplications by
  their number of terms, variable-base and base multiplications, point checks, additions,
  Ed25519 signature checks), counted while it verifies and priced in the same process, in
  the same rounds.
* Where an event's time goes in each tree (3 instrumented runs, wall time inside, so the
  parts add up to that run's total): the state hash, the signature checks, the codec's
  decoding, the group's arithmetic with the multi-scalar multiplications, and the rest
  (the rules, the proofs' and the session's glue). This was benchmarks/replay_bench.py.

The old tree is `git archive REV` (default OLD_REV: main on the Ed25519 group, as merged)
unpacked in a temporary folder; both run with this virtual environment's Python, each
tree first on sys.path (benchmarks/verify_worker.py). The machine is shared: rounds are
interleaved (old, new, floor, then again), the medians are printed, and so is the load.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
NEW = os.path.dirname(HERE)
WORKER = os.path.join(HERE, "verify_worker.py")
# main as merged into this branch before the move: the same engine (so the same games
# from the same seed), the group still Ed25519
OLD_REV = "b890d68"
SIZES = (8, 52, 108, 216)
PLAYERS = (2, 3, 4)


def worker(tree: str, *args: str) -> dict:
    done = subprocess.run([sys.executable, WORKER, tree, *args], cwd=tree, capture_output=True,
                          text=True, check=False, env={**os.environ, "PYTHONHASHSEED": "0"})
    if done.returncode != 0:
        raise SystemExit(f"worker in {tree} failed:\n{done.stderr}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["group_file"].startswith(tree), out["group_file"]
    return out


def make_logs(tree: str, root: str) -> dict[int, str]:
    logs = {}
    for n in PLAYERS:
        folder = os.path.join(root, f"p{n}")
        subprocess.run([sys.executable, "-m", "cli.main", "selfplay", "--players", str(n), "--games", "1",
                        "--seed", "11", "--log-dir", folder], cwd=tree, check=True, capture_output=True,
                       env={**os.environ, "ASV_NO_FSYNC": "1"})
        logs[n] = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".asvlog"))[0]
    return logs


def bytecode_env(root: str) -> dict:
    """The environment of a timed command: bytecode written and read (under `root`, not in
    the trees), as an installed program has it. These machines set PYTHONDONTWRITEBYTECODE,
    and every start-up then compiles each module again from source."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPYCACHEPREFIX": os.path.join(root, "pycache"), "PYTHONHASHSEED": "0"}


def command_cpu(tree: str, log: str, env: dict) -> float:
    """CPU seconds (user + system) of one `asv verify LOG` run in `tree`, start-up included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "cli.main", "verify", log], cwd=tree, capture_output=True,
                          text=True, check=False, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"asv verify in {tree} failed on {log}:\n{done.stdout}{done.stderr}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def floor_of(counts: dict, units: dict, msm_us: dict) -> float:
    """CPU ms an event of the primitives one log's verify did, at the prices measured."""
    us = sum(counts[k] * units[k] for k in units) + sum(c * msm_us[n] for n, c in counts.get("msm", {}).items())
    return us / counts["events"] / 1e3


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--old", default=OLD_REV)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="verify-floors-")
    old = os.path.join(tmp, "old")
    os.mkdir(old)
    archive = subprocess.run(["git", "archive", args.old], cwd=NEW, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", old], input=archive, check=True)
    trees = {"old": old, "new": NEW}
    logs = {name: make_logs(tree, os.path.join(tmp, f"logs-{name}")) for name, tree in trees.items()}
    env = bytecode_env(tmp)
    for name, tree in trees.items():
        command_cpu(tree, logs[name][PLAYERS[0]], env)      # writes the bytecode
    load = [os.getloadavg()[0]]
    shuffle: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
    logms: dict[str, dict[int, list[float]]] = {"old": {}, "new": {}}
    events: dict[str, dict[int, int]] = {"old": {}, "new": {}}
    cmd: dict[str, dict[int, list[float]]] = {"old": {}, "new": {}}
    floor_ms: dict[int, list[float]] = {}
    shuffle_floor: dict[str, list[float]] = {}
    floor_counts: dict[int, dict] = {}
    units: list[dict] = []
    for _ in range(args.rounds):
        for name, tree in trees.items():
            for n, ms in worker(tree, "shuffle", *map(str, SIZES))["result"].items():
                shuffle[name].setdefault(n, []).append(ms)
            res = worker(tree, "log", *(logs[name][p] for p in PLAYERS))["result"]
            for p in PLAYERS:
                logms[name].setdefault(p, []).append(res[logs[name][p]]["ms_per_event"])
                events[name][p] = res[logs[name][p]]["events"]
                cmd[name].setdefault(p, []).append(command_cpu(tree, logs[name][p], env) / events[name][p] * 1e3)
        fs = worker(NEW, "shuffle_floor", *map(str, SIZES))["result"]
        for n in map(str, SIZES):
            shuffle_floor.setdefault(n, []).append(floor_of(fs["counts"][n], fs["units_us"], fs["msm_us"]))
        fl = worker(NEW, "floor", *(logs["new"][p] for p in PLAYERS))["result"]
        units.append(fl["units_us"])
        for p in PLAYERS:
            c = fl["counts"][logs["new"][p]]
            floor_counts[p] = c
            floor_ms.setdefault(p, []).append(floor_of(c, fl["units_us"], fl["msm_us"]))
        load.append(os.getloadavg()[0])
    splits = {name: [worker(tree, "split", *(logs[name][p] for p in PLAYERS))["result"] for _ in range(3)]
              for name, tree in trees.items()}
    load.append(os.getloadavg()[0])
    med = statistics.median
    unit = {k: med(u[k] for u in units) for k in units[0]}
    print(f"old = git {args.old} (Ed25519 group), new = this tree (ristretto255); "
          f"{args.rounds} interleaved rounds, medians of CPU time")
    print(f"load average over the run: {min(load):.2f} to {max(load):.2f} (2 cores, shared)")
    print("new unit costs, CPU µs: " + ", ".join(f"{k} {v:.1f}" for k, v in unit.items()))
    # shuffle floor: the primitives one verify of that size did (its multi-scalar
    # multiplications by their terms, point checks, additions), priced in the same rounds
    print("\nshuffle verify, ms a card    old     new   speed-up   new floor  new/floor")
    for n in map(str, SIZES):
        o, w = med(shuffle["old"][n]), med(shuffle["new"][n])
        fl = med(shuffle_floor[n])
        print(f"  {n:>4} cards              {o:7.3f} {w:7.3f}   {o / w:6.2f}x    {fl:7.3f}    {w / fl:5.2f}")
    print("\nwhole-log verify, ms an event (real selfplay logs, seed 11)")
    print("  players  events (old/new)   old     new   speed-up   new floor  new/floor")
    for p in PLAYERS:
        o, w, fl = med(logms["old"][p]), med(logms["new"][p]), med(floor_ms[p])
        print(f"  {p:>7}  {events['old'][p]:6d}/{events['new'][p]:<6d}   {o:7.3f} {w:7.3f}   {o / w:6.2f}x"
              f"    {fl:7.3f}    {w / fl:5.2f}")
    print("\nthe whole command, `asv verify LOG` (start-up included), CPU ms an event")
    print("  players     old     new   speed-up")
    for p in PLAYERS:
        o, w = med(cmd["old"][p]), med(cmd["new"][p])
        print(f"  {p:>7}  {o:7.3f} {w:7.3f}   {o / w:6.2f}x")
    print("\nprimitives the new verifier did, per log: "
          + "; ".join(f"{p}p: " + ", ".join(f"{k} {v}" for k, v in floor_counts[p].items() if k not in ("events", "msm"))
                      + f", msm {sum(floor_counts[p]['msm'].values())} calls of "
                      + f"{sum(int(n) * c for n, c in floor_counts[p]['msm'].items())} terms"
                      for p in PLAYERS))
    parts = list(splits["new"][0][logs["new"][PLAYERS[0]]])
    print("\nwhere an event's time goes (ms an event, wall time inside, medians of 3 instrumented runs;"
          " group includes the multi-scalar multiplications)")
    print("  tree players  " + " ".join(f"{k:>10}" for k in parts))
    for name in trees:
        for p in PLAYERS:
            log = logs[name][p]
            print(f"  {name:4s} {p:>7}  " + " ".join(f"{med(s[log][k] for s in splits[name]):10.3f}" for k in parts))


if __name__ == "__main__":
    main()
