"""What a spectator costs the players (SPEC §29.16): the same seeded three-peer bot game
played without and with an `asv watch` attached to the host from the start, and the
players' latency from an event's signing to its application on every peer.

Run: .venv/bin/python benchmarks/watch_bench.py [ROUNDS]   (about a minute a round)

Every peer and the watcher are OS processes on 127.0.0.1 (`asv host` + two `asv join`,
plus `asv watch` with the host's spectator invite); each peer writes its timings
(time.monotonic, one clock for the whole host). Rounds alternate without / with, so load
from other programs falls on both alike. On a two-core machine the watcher's checking
competes with the players for the cores: that is part of what is measured.
"""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PEERS = 3


def asv(*argv: str) -> list[str]:
    return [sys.executable, "-m", "cli.main", *argv]


def game(out: Path, watch: bool) -> tuple[list[float], int | None]:
    """The players' signing-to-applied-everywhere latencies (ms), and the watcher's exit."""
    common = ["--bot", "greedy", "--quiet", "--new-key", "--listen", "127.0.0.1", "--log-dir", str(out),
              "--seed", "7"]
    host = subprocess.Popen(asv("host", "--seats", str(PEERS), "--timings", str(out / "t0.json"), *common),
                            cwd=ROOT, stdout=subprocess.PIPE, text=True)
    invite = spectators = None
    while invite is None or spectators is None:
        line = host.stdout.readline()
        if not line:
            raise SystemExit("the host ended before printing its invites")
        if "asv join " in line:
            invite = line.split("asv join ", 1)[1].strip()
        elif "asv watch " in line:
            spectators = line.split("asv watch ", 1)[1].split()[0]
    watcher = subprocess.Popen(asv("watch", spectators, "--json"), cwd=ROOT, stdout=subprocess.PIPE,
                               text=True) if watch else None
    joins = [subprocess.Popen(asv("join", invite, "--timings", str(out / f"t{i}.json"), *common),
                              cwd=ROOT, stdout=subprocess.DEVNULL) for i in range(1, PEERS)]
    for p in [host, *joins]:
        if p.wait(timeout=900) != 0:
            raise SystemExit("a peer failed")
    host.stdout.close()
    code = None
    if watcher is not None:
        code = watcher.wait(timeout=120)
        verdict = json.loads(watcher.stdout.read())
        assert verdict["valid"] and verdict["finished"], verdict
    timings = [json.loads((out / f"t{i}.json").read_text()) for i in range(PEERS)]
    signed = {int(k): v for t in timings for k, v in t["signed"].items()}
    applied: dict[int, list[float]] = {}
    for t in timings:
        for k, v in t["applied"].items():
            applied.setdefault(int(k), []).append(v)
    return sorted((max(applied[s]) - signed[s]) * 1000 for s in signed if len(applied.get(s, ())) == PEERS), code


def pct(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    results: dict[bool, list[float]] = {False: [], True: []}
    for r in range(rounds):
        for watch in (False, True):
            with tempfile.TemporaryDirectory(prefix="asv-watch-bench-") as tmp:
                lat, code = game(Path(tmp), watch)
            results[watch].extend(lat)
            print(f"round {r + 1} {'with' if watch else 'without'} a watcher: {len(lat)} events, median "
                  f"{statistics.median(lat):.2f} ms" + (f", watcher exit {code}" if watch else ""), flush=True)
    print(f"players' latency, signing -> applied on all {PEERS} peers, over {rounds} round(s) of each:")
    for watch in (False, True):
        lat = sorted(results[watch])
        print(f"  {'with' if watch else 'without'} a watcher: median {statistics.median(lat):6.2f} ms   "
              f"p90 {pct(lat, 0.9):6.2f} ms   p99 {pct(lat, 0.99):6.2f} ms   ({len(lat)} events)")


if __name__ == "__main__":
    main()
