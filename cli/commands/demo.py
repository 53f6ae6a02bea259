"""Play a whole game among bot peers, each its own OS process, over TCP on 127.0.0.1.

Peer 1 runs `asv host --bot greedy`, the others `asv join INVITE --bot greedy`; every peer
writes its own .asvlog into --out (a fresh temp folder by default). The host's progress
(turn, tiles left, scores) and scoreboard are shown; then every log is verified and must
end at the same head (SPEC §29.9). Exit 0 only if all of that holds.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cli.arg_checks import positive_seconds, writable_folder
from cli.games import add_game_argument, game_of, game_of_log, player_ranges
from protocol.session import verify_log

ROOT = Path(__file__).resolve().parents[2]   # the repository: cli/commands/demo.py
DEMO_TIMEOUT = 900.0        # seconds for the whole game; a 4-peer demo takes well under a minute


def add_arguments(parser) -> None:
    add_game_argument(parser)
    parser.add_argument("--players", type=int, default=4, metavar="N",
                        help=f"bot peers: {player_ranges()} (default 4)")
    parser.add_argument("--seed", type=int, default=1, metavar="S",
                        help="seed of the bots' choices (deals always come from a fresh joint shuffle)")
    parser.add_argument("--out", metavar="DIR", default=None,
                        help="folder for the peers' logs (default: a new temp folder, printed)")
    parser.add_argument("--verbose", action="store_true",
                        help="every line of the host peer (each join, each deck shuffle), not one a stage")
    parser.add_argument("--timeout", type=positive_seconds, default=60.0, metavar="SECONDS",
                        help="peers abort the game if the peer due to write is silent this long")


def _asv(*argv: str) -> list[str]:
    return [sys.executable, "-m", "cli.main", *argv]


def run(args) -> int:
    out = writable_folder(args.out, "demo", "--out") if args.out else Path(tempfile.mkdtemp(prefix="asv-demo-"))
    n = args.players
    game = game_of(args)
    game.check_players(n, "asv demo")
    print(f"{game.title} demo: {n} bot peers as separate processes over TCP on 127.0.0.1")
    print(f"logs in {out}", flush=True)
    start = time.monotonic()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    common = ["--bot", "greedy", "--new-key", "--listen", "127.0.0.1", "--log-dir", str(out), "--seed", str(args.seed),
              "--timeout", str(args.timeout)] + (["--verbose"] if args.verbose else [])
    host = subprocess.Popen(_asv("host", "--game", game.key, "--seats", str(n), "--name", "peer1", *common),
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    procs: list[subprocess.Popen] = [host]
    files = []
    try:
        invite = None
        for line in host.stdout:
            if args.verbose:
                print("  " + line.rstrip(), flush=True)
            if line.startswith("invite: asv join "):
                invite = line.split("asv join ", 1)[1].strip()
                break
        if invite is None:
            print("demo: the host peer ended before printing its invite", file=sys.stderr)
            return 1
        for i in range(2, n + 1):
            fh = open(out / f"peer{i}.out", "w")
            files.append(fh)
            procs.append(subprocess.Popen(_asv("join", invite, "--name", f"peer{i}", "--quiet", *common),
                                          cwd=ROOT, env=env, stdout=fh, stderr=subprocess.STDOUT))
        if not args.verbose:
            print(f"  host peer1 is listening; starting {n - 1} joining peer(s)", flush=True)
        for line in host.stdout:
            shown = line.rstrip() if args.verbose else stage_line(line.rstrip(), n)
            if shown is not None:
                print("  " + shown, flush=True)
        codes = [p.wait(timeout=max(1.0, DEMO_TIMEOUT - (time.monotonic() - start))) for p in procs]
    except subprocess.TimeoutExpired:
        print(f"demo: the game did not end within {DEMO_TIMEOUT:g} s", file=sys.stderr)
        return 1
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        for fh in files:
            fh.close()
    seconds = time.monotonic() - start
    print(f"\n{n} peers ended in {seconds:.1f} s (exit codes {codes})")
    return verify_all(out, n)


def stage_line(line: str, n: int) -> str | None:
    """The host's line as the demo shows it without --verbose: one line per setup stage
    (the lobby only when it is full), then the game's own lines (issue 22 item 9)."""
    if line.startswith(("you are ", "invite: ")):
        return None
    if line.endswith(" seats)") and " joined (" in line:
        return f"all {n} peers joined" if line.endswith(f"({n}/{n} seats)") else None
    return line


def verify_all(out: Path, n: int) -> int:
    """Verify every log in `out`; all must be valid, finished and share one head."""
    logs = sorted(out.glob("*.asvlog"))
    heads, ok = set(), len(logs) == n
    for path in logs:
        report, _ = verify_log(path, game_of_log(path).session_rules())  # each log names its game
        heads.add(report.head)
        good = report.exit_code == 0
        ok &= good
        print(f"  {path.name}: {'valid' if report.valid else 'INVALID'}, {report.events} events, "
              f"{'finished' if report.finished else 'unfinished'}, head {report.head[:16]}"
              + ("" if report.valid else f" ({report.reason})"))
    ok &= len(heads) == 1
    if len(logs) != n:
        print(f"expected {n} logs, found {len(logs)}")
    print(f"verdict: {'all ' + str(len(logs)) + ' logs valid with the same head' if ok else 'FAILED'}")
    return 0 if ok else 1
