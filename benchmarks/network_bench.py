"""A four-peer networked bot game against the same events verified and applied in one
process, and the latency from an event's signing to its application on every peer.

Run: .venv/bin/python benchmarks/network_bench.py [--runs N] [--profile FILE | --split FILE | --path]
[--no-fsync]   (about half a minute a run)

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
CPU time by part instead (see SPLIT) and the figures are printed. `--path`: every peer
notes when it makes, sends, reads and applies each event (PATH), and the game's critical
path is printed: for each event whose next one is another peer's, the time from its
author starting to make it to the next author starting to make the next, split into its
parts, with the making split again (the log's write and fsync, the bot's choice, the
proofs, the signature). `--runs N`: N games in a row, each line printed, then the ratios'
range (the issue's goal is counted over three in a row). `--no-fsync`: the peers run with
ASV_NO_FSYNC=1 (SPEC §23.4), a diagnostic of what the disk costs the game, not a way to play.

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
# `python -c PATH FILE ARGS...` runs `asv ARGS...` noting, by event seq, when this peer
# finished making its own event (act), queued it (broadcast), read a received one's frame,
# began its parse (the mesh's wire check), and began to feed it to the session; and the
# wall time of the parts of making an event (perf_counter), by part. Written to FILE as JSON.
PATH = """import json, runpy, sys, time
out, sys.argv = sys.argv[1], ["asv", *sys.argv[2:]]
import protocol.session.peer as peer
from protocol.net import framing
from protocol.net.mesh import gossip
from protocol.node import _node
mono = time.monotonic
T = {"made": {}, "queued": {}, "read": {}, "parse": {}, "feed": {}, "making": {}}
frame_read = [0.0]
inside = [False]
def note(name, seconds):
    T["making"][name] = T["making"].get(name, 0.0) + seconds
def part(owner, name, label):
    real = getattr(owner, name)
    def timed(*a, **k):
        if not inside[0]:
            return real(*a, **k)
        t0 = time.perf_counter()
        try:
            return real(*a, **k)
        finally:
            note(label, time.perf_counter() - t0)
    setattr(owner, name, timed)
real_act = peer.SessionPeer.act
def act(self, *a, **k):
    inside[0], t0 = True, time.perf_counter()
    try:
        return real_act(self, *a, **k)
    finally:
        inside[0] = False
        note("all", time.perf_counter() - t0)
        T["made"][self.chain.height - 1] = mono()
peer.SessionPeer.act = act
part(peer.SessionPeer, "_choose", "the bot's choice")
part(peer.SessionPeer, "_body", "the body (choice, proofs)")
part(peer, "sign_event", "signing")
part(peer.SessionPeer, "_logged", "the log (write, fsync)")
part(peer.SessionPeer, "_apply", "applying")
part(peer.SessionPeer, "state_hash", "the state hash")
real_out = gossip.Gossip.outgoing
def outgoing(self, ev):
    payload = real_out(self, ev)
    T["queued"].setdefault(getattr(ev, "seq", -1), mono())
    return payload
gossip.Gossip.outgoing = outgoing
real_frame = framing.FramedStream.receive_frame
async def receive_frame(self):
    payload = await real_frame(self)
    frame_read[0] = mono()   # the reader goes on to the parse with no schedule point between
    return payload
framing.FramedStream.receive_frame = receive_frame
real_in = gossip.Gossip.incoming
def incoming(self, wire, **k):
    t0 = mono()
    ev = real_in(self, wire, **k)
    if ev is not None:
        T["read"][ev.seq], T["parse"][ev.seq] = frame_read[0], t0
    return ev
gossip.Gossip.incoming = incoming
real_feed = _node.Node._feed
def feed(self, item):
    if getattr(item, "seq", None) is not None:
        T["feed"].setdefault(item.seq, mono())
    return real_feed(self, item)
_node.Node._feed = feed
try:
    runpy.run_module("cli.main", run_name="__main__")
finally:
    json.dump(T, open(out, "w"))
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
                   env: dict[str, str] | None = None, path: bool = False) -> tuple[float, float, list[dict], Path]:
    """Wall time, the four peers' CPU time (user + system, all four added), their timings
    and one log. `profile`: the last joiner runs under cProfile, its stats written there;
    `split`: the last joiner adds up its CPU time by part (SPLIT), written there; `env`:
    the peers' environment (default: this one's); `path`: every peer runs under PATH,
    its notes in out/path{i}.json."""
    common = ["--bot", "greedy", "--quiet", "--new-key", "--listen", "127.0.0.1", "--log-dir", str(out), "--seed", "7"]
    cpu0 = children_cpu()
    start = time.monotonic()
    def traced(i: int, argv: list[str]) -> list[str]:
        if path:
            argv[1:3] = ["-c", PATH, str(out / f"path{i}.json")]
        return argv
    host = subprocess.Popen(traced(0, asv("host", "--seats", str(PEERS), "--timings", str(out / "t0.json"), *common)),
                            cwd=ROOT, stdout=subprocess.PIPE, text=True, env=env)
    line = host.stdout.readline()
    invite = line.split("asv join ", 1)[1].strip()
    def join(i: int) -> list[str]:
        argv = asv("join", invite, "--timings", str(out / f"t{i}.json"), *common)
        if profile is not None and i == PEERS - 1:   # CPU time, not wall: waiting is not work
            argv[1:3] = ["-c", PROFILED, str(profile)]
        elif split is not None and i == PEERS - 1:
            argv[1:3] = ["-c", SPLIT, str(split)]
        return traced(i, argv)
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


def critical_path(out: Path, timings: list[dict]) -> None:
    """Print the game's critical path by part from the PATH notes (see --path)."""
    def by_seq(d: dict) -> dict[int, float]:
        return {int(k): v for k, v in d.items()}
    notes = [json.loads((out / f"path{i}.json").read_text()) for i in range(PEERS)]
    made, queued, read, parse, feed = ([by_seq(n[key]) for n in notes] for key in ("made", "queued", "read", "parse", "feed"))
    applied = [by_seq(t["applied"]) for t in timings]
    author = {int(k): (i, v) for i, t in enumerate(timings) for k, v in t["signed"].items()}
    steps = {"making the event (act)": [], "act to queued for sending": [], "queued to read by the next author": [],
             "read to its parse (the frame's message)": [], "parse and the hop to the node": [],
             "the session's check and apply": [], "applied to making the next": []}
    for n in sorted(author):
        if n + 1 not in author or author[n][0] == author[n + 1][0]:
            continue
        a, b = author[n][0], author[n + 1][0]
        try:
            marks = [author[n][1], made[a][n], queued[a][n], read[b][n], parse[b][n], feed[b][n], applied[b][n],
                     author[n + 1][1]]
        except KeyError:
            continue   # an event the next author had before its frame came (catch-up)
        for (name, values), t0, t1 in zip(steps.items(), marks, marks[1:]):
            values.append((t1 - t0) * 1e3)
    handoffs = len(next(iter(steps.values())))
    total = sum(sum(v) for v in steps.values())
    print(f"the critical path: {handoffs} events whose next is another peer's, ms (median, mean, share of the sum):")
    for name, values in steps.items():
        print(f"  {name:42s} {statistics.median(values):6.3f} {statistics.mean(values):6.3f} "
              f"{sum(values) / total:6.1%}")
    making: dict[str, float] = {}
    for n in notes:
        for name, seconds in n["making"].items():
            making[name] = making.get(name, 0.0) + seconds
    own = sum(len(n["made"]) for n in notes)
    print(f"making an event, all four peers ({own} events), ms an event (wall; parts overlap: the body holds the choice):")
    for name, seconds in sorted(making.items(), key=lambda kv: -kv[1]):
        print(f"  {name:42s} {seconds / own * 1e3:6.3f}")


def run_once(profile: Path | None, split: Path | None, cached: bool, path: bool,
             no_fsync: bool = False) -> tuple[float, float]:
    """One networked game and its baselines, printed; returns (the wall ratio to four
    replicas, the CPU ratio)."""
    with tempfile.TemporaryDirectory(prefix="asv-net-bench-") as tmp:
        env = bytecode_env(Path(tmp) / "pycache") if cached else None
        if no_fsync:
            env = {**(env if env is not None else os.environ), "ASV_NO_FSYNC": "1"}
        wall, cpu, timings, log = networked_game(Path(tmp), profile, split, env, path)
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
              f"({'modules from a bytecode cache' if cached else 'the environment as it is'}"
              f"{'; no fsync (ASV_NO_FSYNC=1), a diagnostic' if no_fsync else ''})")
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
        if path:
            critical_path(Path(tmp), timings)
        return game / four, cpu / four_cpu


def main() -> None:
    sp.remember_verified = False  # the replay baselines check every proof in every replica
    def option(name: str) -> Path | None:
        return Path(sys.argv[sys.argv.index(name) + 1]).resolve() if name in sys.argv else None
    profile, split = option("--profile"), option("--split")
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 1
    cached, path = "--no-bytecode-cache" not in sys.argv, "--path" in sys.argv
    ratios = [run_once(profile, split, cached, path, "--no-fsync" in sys.argv) for _ in range(runs)]
    if runs > 1:
        print(f"{runs} runs in a row: the wall ratio to four replicas "
              f"{' / '.join(f'{w:.2f}' for w, _ in ratios)}, the CPU ratio {' / '.join(f'{c:.2f}' for _, c in ratios)}")


if __name__ == "__main__":
    main()
