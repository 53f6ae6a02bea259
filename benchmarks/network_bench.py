"""A four-peer networked bot game against the same events verified and applied in one
process, and the latency from an event's signing to its application on every peer.

Run: .venv/bin/python benchmarks/network_bench.py   (about half a minute)

The networked game is `asv host` + three `asv join`, four OS processes on 127.0.0.1,
each writing its timings (time.monotonic, one clock for the whole host). The game time
runs from the first event signed to the last event applied on any peer. The baselines
replay one of the logs through an observer Session (every signature, proof, rule and
hash checked: one replica's work) and through four (the work all four peers do). The
ratio to the four-replica baseline is what the network, lockstep waiting, fsyncs and the
two-core machine cost on top of the peers' own checking.
"""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cli.games.asv.adapter import AsvRules  # noqa: E402
from protocol.log import scan_log  # noqa: E402
from protocol.session import Session  # noqa: E402
from protocol.poker import shuffle_proof as sp  # noqa: E402

PEERS = 4


def asv(*argv: str) -> list[str]:
    return [sys.executable, "-m", "cli.main", *argv]


def networked_game(out: Path) -> tuple[float, list[dict], Path]:
    common = ["--bot", "greedy", "--quiet", "--new-key", "--listen", "127.0.0.1", "--log-dir", str(out), "--seed", "7"]
    start = time.monotonic()
    host = subprocess.Popen(asv("host", "--seats", str(PEERS), "--timings", str(out / "t0.json"), *common),
                            cwd=ROOT, stdout=subprocess.PIPE, text=True)
    line = host.stdout.readline()
    invite = line.split("asv join ", 1)[1].strip()
    joins = [subprocess.Popen(asv("join", invite, "--timings", str(out / f"t{i}.json"), *common),
                              cwd=ROOT, stdout=subprocess.DEVNULL) for i in range(1, PEERS)]
    for p in [host, *joins]:
        if p.wait(timeout=600) != 0:
            raise SystemExit("a peer failed")
    host.stdout.close()
    wall = time.monotonic() - start
    timings = [json.loads((out / f"t{i}.json").read_text()) for i in range(PEERS)]
    return wall, timings, sorted(out.glob("*.asvlog"))[0]


def replay(log: Path, replicas: int) -> float:
    scan = scan_log(log)
    sessions = [Session(AsvRules(), scan.game) for _ in range(replicas)]
    start = time.perf_counter()
    for wire in scan.records:
        for s in sessions:
            s.receive(wire)
    assert all(s.finished for s in sessions)
    return time.perf_counter() - start


def main() -> None:
    sp.remember_verified = False  # the replay baselines check every proof in every replica
    with tempfile.TemporaryDirectory(prefix="asv-net-bench-") as tmp:
        wall, timings, log = networked_game(Path(tmp))
        events = len(scan_log(log).records)
        signed = {int(k): v for t in timings for k, v in t["signed"].items()}
        applied: dict[int, list[float]] = {}
        for t in timings:
            for k, v in t["applied"].items():
                applied.setdefault(int(k), []).append(v)
        game = max(max(v) for v in applied.values()) - min(signed.values())
        lat = sorted((max(applied[s]) - signed[s]) * 1000 for s in signed if len(applied.get(s, ())) == PEERS)
        one, four = replay(log, 1), replay(log, PEERS)
    p99 = lat[min(len(lat) - 1, int(round(0.99 * (len(lat) - 1))))]
    print(f"four-peer networked bot game: {events} events")
    print(f"  processes start to exit          {wall:7.2f} s")
    print(f"  first signed to last applied     {game:7.2f} s   ({events / game:6.0f} events/s)")
    print(f"  one replica in one process       {one:7.2f} s   ratio {game / one:5.2f}")
    print(f"  four replicas in one process     {four:7.2f} s   ratio {game / four:5.2f}")
    print(f"signing -> applied on all {PEERS} peers over loopback ({len(lat)} events):")
    print(f"  median {statistics.median(lat):6.2f} ms   p99 {p99:6.2f} ms   max {lat[-1]:6.2f} ms")


if __name__ == "__main__":
    main()
