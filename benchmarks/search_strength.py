"""Search bot strength (SPEC §12.3): win rates with 95% confidence intervals (Wilson score)
of one search bot against greedy or random bots, 4-player and 2-player. The search bot's seat
rotates with the game number; a shared win counts as a share. Prints figures; asserts nothing.

Run: .venv/bin/python benchmarks/search_strength.py [--games 4] [--think 0.2]
         [--iterations N] [--players 4,2] [--opponents greedy,random] [--clock cpu|wall]
         [--seed 1000] [--stride 1]
The defaults are a quick look that `make bench` can afford; the issue's measure is
`--games 200 --think 1.0` (hours of CPU: about 2.5 CPU-minutes a game).
With --iterations the budget is a fixed number of iterations a decision (reproducible);
otherwise --think seconds a decision, of this process's CPU time by default (--clock wall
for the wall clock, which a busy shared machine makes worth less).

--ledger FILE appends one JSON line per finished game (with the commit it ran at) and skips
games already in it, so a long measurement can run in pieces, on several processes at once,
and across days; --report prints the ledger's totals and plays nothing. Processes sharing a
ledger take its games one at a time (each claims the next unplayed game in FILE.claims, under
a file lock), so they all stay busy to the end and none plays a game twice; FILE.claims may be
deleted whenever no measure runs (a claim only matters while its process lives).
benchmarks/results/search_strength_1s.jsonl holds the games played so far at 1 s a move;
`make strength` continues it (two nice'd processes sharing the games, each playing the
4-player line and then the 2-player one, then the totals;
STRENGTH_OPPONENTS=random for the random line). A row names the commit it ran at and the digest of the
engine and bots' source (p2p_asv/); games are skipped and totals kept apart by that digest, so
a changed bot starts its count afresh while a commit that changes only tests or the CLI does not;
SAME_CHOICES names the few changes that provably alter no choice at a player count, whose rows
carry over.
"""
from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import math
import os
import subprocess
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from p2p_asv.bots import BOTS  # noqa: E402
from p2p_asv.dealer import LocalDealer  # noqa: E402
from p2p_asv.engine import apply, to_move  # noqa: E402
from p2p_asv.search import SearchBot  # noqa: E402
from p2p_asv.search.bot import HORIZON_TURNS  # noqa: E402
from p2p_asv.setup import new_game  # noqa: E402
from p2p_asv.state import CHANCE  # noqa: E402
from p2p_asv.view import PlayerView  # noqa: E402


# "cpu": seconds of this process's CPU time, so a busy shared machine does not starve the bot;
# "wall": the wall clock, as `asv play` uses.
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def play(players: int, seed: int, opponent: str, args) -> tuple[float, list[int], int]:
    """One game; returns the search bot's win share, the scores and its seat."""
    seat_of_search = seed % players
    agents = []
    for seat in range(players):
        if seat == seat_of_search:
            agents.append(SearchBot(f"{seed}/{seat}", think=args.think, iterations=args.iterations,
                                    clock=None if args.iterations else CLOCKS[args.clock],
                                    horizon=args.horizon))
        else:
            agents.append(BOTS[opponent](f"{seed}/{seat}"))
    state, dealer = new_game(players), LocalDealer(seed)
    views = [PlayerView(s) for s in range(players)]
    while not state.over:
        seat = to_move(state)
        action = dealer.outcome(state, views) if seat == CHANCE else agents[seat].choose(state, views[seat])
        apply(state, seat, action)
    share = 1 / len(state.winners) if seat_of_search in state.winners else 0.0
    return share, [p.score for p in state.players], seat_of_search


def commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).resolve().parent, timeout=10)
        # The ledgers under benchmarks/results/ are what a run writes: rows appended to one do
        # not make the code that played dirty.
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--",
                                ":(top)", ":(top,exclude)benchmarks/results"], capture_output=True,
                               text=True, cwd=Path(__file__).resolve().parent, timeout=10).stdout.strip()
        return out.stdout.strip() + ("+dirty" if dirty else "") or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def bot_digest() -> str:
    """The first 12 hex digits of SHA-256 over every p2p_asv/ source file (path and bytes, in
    path order): what decides how the bots play, whatever else the commit changed."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted((root / "p2p_asv").rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


# Rows an earlier bot played that count for a later one: (later digest, players) -> earlier
# digest, only where the change between them cannot alter any choice at that player count.
# 901087eda640 weighs rivals by a soft maximum (SPEC §12.3); with one rival that is the rival's
# value exactly, so at two players it chooses as 972f509d669d did (same iterations, same
# simulated events: checked on a recorded two-player search game).
SAME_CHOICES = {("901087eda640", 2): "972f509d669d"}


def same_bot(row: dict) -> str:
    """The digest a row counts for: its own, or the later bot's that chooses alike."""
    bot = row.get("bot", "?")
    for (later, players), earlier in SAME_CHOICES.items():
        if bot == earlier and row.get("players") == players:
            return later
    return bot


def budget_key(args) -> str:
    return f"{args.iterations}it" if args.iterations else f"{args.think:g}s-{args.clock}"


def read_ledger(path: Path) -> list[dict]:
    """The ledger's whole lines; a line cut short by a killed process is skipped."""
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return rows


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def claim(ledger: Path, game: tuple, bot: str) -> bool:
    """Take GAME (budget, opponent, players, seed) for this process, so that processes sharing
    a ledger share its games one at a time and none is played twice. Under an exclusive lock
    on `<ledger>.claims` (one JSON line per claim: the game, the bot, the claimer's pid): False
    when the ledger already holds the game for BOT or a live process claimed it; else the claim
    is written and True. A claim whose process is gone (killed mid-game) is taken over."""
    with open(ledger.with_name(ledger.name + ".claims"), "a+") as claims:
        fcntl.flock(claims, fcntl.LOCK_EX)  # released when the file closes
        if any(tuple(r[k] for k in ("budget", "opponent", "players", "seed")) == game
               and "error" not in r and same_bot(r) == bot for r in read_ledger(ledger)):
            return False
        claims.seek(0)
        for line in claims:
            try:
                entry = json.loads(line)
                if tuple(entry["game"]) == game and entry["bot"] == bot and alive(entry["pid"]):
                    return False
            except (ValueError, KeyError, TypeError):
                continue  # a line cut short by a killed process
        claims.write(json.dumps({"game": list(game), "bot": bot, "pid": os.getpid()}) + "\n")
        return True


def report(rows: list[dict]) -> None:
    groups: dict[tuple, list[dict]] = {}
    errors: dict[tuple, int] = {}
    for row in rows:
        key = (row["budget"], row["opponent"], row["players"], same_bot(row))
        if "error" in row:
            errors[key] = errors.get(key, 0) + 1
        else:
            groups.setdefault(key, []).append(row)
    for key, count in sorted(errors.items()):
        print(f"  {key[0]:>10} vs {key[2] - 1} {key[1]}: {count} game(s) ended in a bot error (not counted)")
    for (budget, opponent, players, bot), games in sorted(groups.items()):
        wins = sum(g["share"] for g in games)
        low, high = wilson(wins, len(games))
        margin = sum(g["margin"] for g in games) / len(games)
        cpu = sum(g["cpu_s"] for g in games) / len(games)
        commits = ",".join(sorted({g["commit"] for g in games}))
        carried = sorted({g["bot"] for g in games} - {bot})
        if carried:
            commits += f" (rows of {', '.join(carried)}: same choices, SAME_CHOICES)"
        print(f"  {budget:>10} vs {players - 1} {opponent}: {wins:g}/{len(games)} wins = "
              f"{100 * wins / len(games):5.1f}% [{100 * low:5.1f}%, {100 * high:5.1f}%] "
              f"(fair share {100 / players:.0f}%), mean margin {margin:+.1f}, {cpu:.0f} CPU s/game; "
              f"bot {bot} at {commits}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=4, help="games per line (default 4)")
    parser.add_argument("--think", type=float, default=0.2, help="seconds a search decision (default 0.2)")
    parser.add_argument("--iterations", type=int, default=None, help="fixed iterations instead of --think")
    parser.add_argument("--horizon", type=int, default=HORIZON_TURNS)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                        help="what --think counts: this process's CPU seconds (default) or wall seconds")
    parser.add_argument("--players", default="4,2")
    parser.add_argument("--opponents", default="greedy,random")
    parser.add_argument("--seed", type=int, default=1000, help="first game seed")
    parser.add_argument("--stride", type=int, default=1,
                        help="seeds seed, seed + stride, …: processes with seeds 1000 and 1001 and "
                             "stride 2 share a line's games between them")
    parser.add_argument("--verbose", action="store_true", help="one line per game")
    parser.add_argument("--ledger", type=Path, help="append each game as a JSON line; skip games in it")
    parser.add_argument("--report", action="store_true", help="print the ledger's totals and play nothing")
    args = parser.parse_args()
    if args.report:
        if not args.ledger:
            parser.error("--report needs --ledger FILE")
        report(read_ledger(args.ledger))
        return
    here, bot = commit(), bot_digest()
    budget = f"{args.iterations} iterations" if args.iterations else f"{args.think:g} {args.clock} s"
    print(f"Search bot ({budget} a decision, horizon {args.horizon}, bot {bot}) vs other bots; "
          "95% Wilson intervals")
    for opponent in args.opponents.split(","):
        for players in [int(n) for n in args.players.split(",")]:
            wins, margin, start, played = 0.0, 0, time.perf_counter(), 0
            for g in range(args.games):
                seed = args.seed + g * args.stride
                game = (budget_key(args), opponent, players, seed)
                if args.ledger and not claim(args.ledger, game, bot):  # played, or being played
                    continue
                cpu_start = time.process_time()
                try:
                    share, scores, seat = play(players, seed, opponent, args)
                except Exception as exc:  # a bot bug: shown and kept in the ledger, not counted as a game
                    traceback.print_exc()
                    if args.ledger:
                        with args.ledger.open("a") as ledger:
                            ledger.write(json.dumps({"budget": budget_key(args), "opponent": opponent,
                                                     "players": players, "seed": seed,
                                                     "error": repr(exc), "commit": here, "bot": bot}) + "\n")
                    continue
                played += 1
                wins += share
                others = [s for i, s in enumerate(scores) if i != seat]
                margin += scores[seat] - max(others)
                if args.ledger:
                    row = {"budget": budget_key(args), "opponent": opponent, "players": players,
                           "seed": seed, "seat": seat, "scores": scores, "share": share,
                           "margin": scores[seat] - max(others), "horizon": args.horizon,
                           "cpu_s": round(time.process_time() - cpu_start, 1), "commit": here, "bot": bot}
                    with args.ledger.open("a") as ledger:
                        ledger.write(json.dumps(row, sort_keys=True) + "\n")
                if args.verbose:  # a running tally, so an interrupted run still reports
                    low, high = wilson(wins, played)
                    print(f"    game {g} (seed {seed}): seat {seat}, scores {scores}, "
                          f"win share {share:g}; so far {wins:g}/{played} [{100 * low:.0f}%, {100 * high:.0f}%]",
                          flush=True)
            if not played:
                continue
            low, high = wilson(wins, played)
            print(f"  vs {players - 1} {opponent}: {wins:g}/{played} wins = {100 * wins / played:5.1f}% "
                  f"[{100 * low:5.1f}%, {100 * high:5.1f}%] (fair share {100 / players:.0f}%), "
                  f"mean margin {margin / played:+.1f}, {(time.perf_counter() - start) / played:.0f} s/game",
                  flush=True)


if __name__ == "__main__":
    main()
