"""A four-peer networked bot game against the same events verified and applied in one
process, and the latency from an event's signing to its application on every peer.

Run: .venv/bin/python benchmarks/network_bench.py [--profile FILE | --split FILE]   (about half a minute)

The networked game is `asv host` + three `asv join`, four OS processes on 127.0.0.1,
each writing its timings (time.monotonic, one clock for the whole host). The game time
runs from the first event signed to the last event applied on any peer. The baselines
replay one of the logs through an observer Session (every signature, proof, rule and
hash checked: one replica's work) and through four (the work all four peers do). The
ratio to the four-replica baseline is what the network, lockstep waiting, fsyncs and the
two-core machine cost on top of the peers' own checking. The CPU ratio (the four peer
processes' user + system time, against the four replicas' CPU time) leaves the waiting
out: it is what the peers burn beyond the replicas' checks (start-up, the bots, making
proofs and signatures, framing, the log, the event loop). `--profile FILE`: the last
joiner runs under cProfile and writes its stats to FILE; `--split FILE`: it adds up its
CPU time by part instead (see SPLIT) and the figures are printed.

The peers import from compiled bytecode, as an installed program does: the modules are
compiled once into a private cache (PYTHONPYCACHEPREFIX under the run's temporary
folder) before the clock starts, even where PYTHONDONTWRITEBYTECODE is set (it is on the
shared build machines, where every process would otherwise compile every module again,
about 0.2 s of CPU a peer). `--no-bytecode-cache` keeps the environment as it is.
"""
from __future__ import annotations

import json
import os
import resource
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
# `python -c SPLIT FILE ARGS...` runs `asv ARGS...` with the CPU time (time.process_time) of
# its synchronous parts added up by part, written to FILE as JSON: start-up (until trio
# runs), the replica's checks of received events, its own events (proofs, signature, log),
# the mesh's checks of received wires (hash, parse, signature), message decoding, frame
# sealing and opening, the on_applied hooks (the address book, the turn clock); "rest" is
# the event loop, the sockets and everything else
SPLIT = """import json, runpy, sys, time
out, sys.argv = sys.argv[1], ["asv", *sys.argv[2:]]
from protocol.session.core import Session
from protocol.session.peer import SessionPeer
from protocol.net import framing, secure
from protocol.net.mesh import gossip
from protocol.node import _node
import cli.netplay.outcome as outcome
parts = {}
def timed(owner, name, part):
    real = getattr(owner, name)
    def wrapper(*a, **k):
        t0 = time.process_time()
        try:
            return real(*a, **k)
        finally:
            parts[part] = parts.get(part, 0.0) + time.process_time() - t0
    setattr(owner, name, wrapper)
timed(Session, "receive", "replica: received events")
timed(SessionPeer, "act", "own events")
timed(gossip.Gossip, "incoming", "mesh: wire checks")
timed(framing, "decode_message", "mesh: message decode")
timed(secure.FrameSealer, "seal", "mesh: seal")
timed(secure.FrameOpener, "open", "mesh: open")
timed(_node.Node, "_applied", "on_applied hooks")
real_run_peer = outcome.run_peer
def run_peer(*a, **k):
    parts["start-up"] = time.process_time()
    return real_run_peer(*a, **k)
outcome.run_peer = run_peer
try:
    runpy.run_module("cli.main", run_name="__main__")
finally:
    total = time.process_time()
    parts["rest"] = total - sum(parts.values())
    parts["total"] = total
    json.dump(parts, open(out, "w"))
"""
# `python -c PROFILED FILE ARGS...` runs `asv ARGS...` under cProfile on CPU time
PROFILED = """import cProfile, runpy, sys, time
out, sys.argv = sys.argv[1], ["asv", *sys.argv[2:]]
profiler = cProfile.Profile(time.process_time)
try:
    profiler.runcall(runpy.run_module, "cli.main", run_name="__main__")
finally:
    profiler.dump_stats(out)
"""


def asv(*argv: str) -> list[str]:
    return [sys.executable, "-m", "cli.main", *argv]


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def bytecode_env(folder: Path) -> dict[str, str]:
    """The peers' environment: the project's modules compiled once into `folder`."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(folder)
    subprocess.run([sys.executable, "-m", "compileall", "-q", "-j", "0", *PACKAGES], cwd=ROOT, env=env,
                   check=True, stdout=subprocess.DEVNULL)
    return env


PACKAGES = ("cli", "protocol", "p2p_asv", "space_walk", "space_trading_race")


def networked_game(out: Path, profile: Path | None = None, split: Path | None = None,
                   env: dict[str, str] | None = None) -> tuple[float, float, list[dict], Path]:
    """Wall time, the four peers' CPU time (user + system, all four added), their timings
    and one log. `profile`: the last joiner runs under cProfile, its stats written there;
    `split`: the last joiner adds up its CPU time by part (SPLIT), written there; `env`:
    the peers' environment (default: this one's)."""
    common = ["--bot", "greedy", "--quiet", "--new-key", "--listen", "127.0.0.1", "--log-dir", str(out), "--seed", "7"]
    cpu0 = children_cpu()
    start = time.monotonic()
    host = subprocess.Popen(asv("host", "--seats", str(PEERS), "--timings", str(out / "t0.json"), *common),
                            cwd=ROOT, stdout=subprocess.PIPE, text=True, env=env)
    line = host.stdout.readline()
    invite = line.split("asv join ", 1)[1].strip()
    def join(i: int) -> list[str]:
        argv = asv("join", invite, "--timings", str(out / f"t{i}.json"), *common)
        if profile is not None and i == PEERS - 1:   # CPU time, not wall: waiting is not work
            argv[1:3] = ["-c", PROFILED, str(profile)]
        elif split is not None and i == PEERS - 1:
            argv[1:3] = ["-c", SPLIT, str(split)]
        return argv
    joins = [subprocess.Popen(join(i), cwd=ROOT, stdout=subprocess.DEVNULL, env=env) for i in range(1, PEERS)]
    for p in [host, *joins]:
        if p.wait(timeout=600) != 0:
            raise SystemExit("a peer failed")
    host.stdout.close()
    wall = time.monotonic() - start
    cpu = children_cpu() - cpu0
    timings = [json.loads((out / f"t{i}.json").read_text()) for i in range(PEERS)]
    return wall, cpu, timings, sorted(out.glob("*.asvlog"))[0]


def replay(log: Path, replicas: int) -> tuple[float, float]:
    """Wall and CPU time of `replicas` observer Sessions receiving the log's events."""
    scan = scan_log(log)
    sessions = [Session(AsvRules(), scan.game) for _ in range(replicas)]
    start, cpu = time.perf_counter(), time.process_time()
    for wire in scan.records:
        for s in sessions:
            s.receive(wire)
    assert all(s.finished for s in sessions)
    return time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    sp.remember_verified = False  # the replay baselines check every proof in every replica
    def option(name: str) -> Path | None:
        return Path(sys.argv[sys.argv.index(name) + 1]).resolve() if name in sys.argv else None
    profile, split = option("--profile"), option("--split")
    cached = "--no-bytecode-cache" not in sys.argv
    with tempfile.TemporaryDirectory(prefix="asv-net-bench-") as tmp:
        env = bytecode_env(Path(tmp) / "pycache") if cached else None
        wall, cpu, timings, log = networked_game(Path(tmp), profile, split, env)
        events = len(scan_log(log).records)
        signed = {int(k): v for t in timings for k, v in t["signed"].items()}
        applied: dict[int, list[float]] = {}
        for t in timings:
            for k, v in t["applied"].items():
                applied.setdefault(int(k), []).append(v)
        game = max(max(v) for v in applied.values()) - min(signed.values())
        lat = sorted((max(applied[s]) - signed[s]) * 1000 for s in signed if len(applied.get(s, ())) == PEERS)
        (one, one_cpu), (four, four_cpu) = replay(log, 1), replay(log, PEERS)
    p99 = lat[min(len(lat) - 1, int(round(0.99 * (len(lat) - 1))))]
    print(f"four-peer networked bot game: {events} events "
          f"({'modules from a bytecode cache' if cached else 'the environment as it is'})")
    print(f"  processes start to exit          {wall:7.2f} s")
    print(f"  first signed to last applied     {game:7.2f} s   ({events / game:6.0f} events/s)")
    print(f"  one replica in one process       {one:7.2f} s   ratio {game / one:5.2f}")
    print(f"  four replicas in one process     {four:7.2f} s   ratio {game / four:5.2f}")
    print(f"CPU (user + system): the four peers {cpu:6.2f} s, four replicas {four_cpu:6.2f} s, "
          f"one {one_cpu:5.2f} s; ratio {cpu / four_cpu:5.2f} (load average {os.getloadavg()[0]:.2f})")
    print(f"signing -> applied on all {PEERS} peers over loopback ({len(lat)} events):")
    print(f"  median {statistics.median(lat):6.2f} ms   p99 {p99:6.2f} ms   max {lat[-1]:6.2f} ms")
    if split is not None:
        parts = json.loads(split.read_text())
        print(f"one peer's CPU by part (the last joiner), s, and ms an event (one replica: {one_cpu / events * 1e3:.3f}):")
        for name, value in sorted(parts.items(), key=lambda kv: -kv[1]):
            print(f"  {name:28s} {value:6.2f} s  {value / events * 1e3:6.3f} ms")


if __name__ == "__main__":
    main()
