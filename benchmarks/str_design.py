"""The Space Trading Race design checked by simulation (SPEC §58).

Run: nice -n 10 .venv/bin/python benchmarks/str_design.py [GAMES_PER_SETTING] [--bots greedy|random|mixed] [--spaces]

Plays GAMES_PER_SETTING bot games (default 300) for 2, 3 and 4 players with the local dealer
and prints, per player count: game length (rounds, turns, events), each win condition's share
(each mission, last on the board, the time limit), eliminations by cause, the first player's
win share against the fair share 1/n, and how often each space is the end of a move (no
space may be left at zero; `--spaces` lists every space). Deterministic: seeds 0…G−1.
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from space_trading_race.board import SPACES  # noqa: E402
from space_trading_race.selfplay import play_game  # noqa: E402


def _pct(xs: list[int], q: float) -> int:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run(players: int, games: int, bots: str) -> dict:
    rounds, turns, events, ends, outs = [], [], [], Counter(), Counter()
    seat_wins = [0.0] * players
    visits = [0] * len(SPACES)
    for seed in range(games):
        kinds = ([bots] * players if bots != "mixed" else
                 [("greedy", "random")[(seed + s) % 2] for s in range(players)])
        state, summary = play_game(players, seed, kinds)
        rounds.append(summary["rounds"])
        turns.append(summary["turns"])
        events.append(summary["events"])
        end = summary["end"]
        ends[end.split(": ", 1)[-1] if end.startswith("mission") else end] += 1
        for w in summary["winners"]:
            seat_wins[w] += 1 / len(summary["winners"])
        outs.update(o for o in summary["out"] if o)
        visits = [a + b for a, b in zip(visits, state.visits)]
    return {"rounds": rounds, "turns": turns, "events": events, "ends": ends, "outs": outs,
            "seat_wins": seat_wins, "visits": visits, "games": games}


def report(players: int, r: dict) -> None:
    g = r["games"]
    print(f"\n== {players} players, {g} games")
    for key in ("rounds", "turns", "events"):
        xs = r[key]
        print(f"  {key:7s} mean {statistics.mean(xs):7.1f}  median {statistics.median(xs):6.0f}  "
              f"p10 {_pct(xs, 0.1):5d}  p90 {_pct(xs, 0.9):5d}  max {max(xs):5d}")
    mission = sum(n for e, n in r["ends"].items() if e not in ("last on the board", "most assets at the time limit"))
    print(f"  wins: mission {100 * mission / g:.1f}%  last on the board "
          f"{100 * r['ends']['last on the board'] / g:.1f}%  time limit "
          f"{100 * r['ends']['most assets at the time limit'] / g:.1f}%")
    for end, n in sorted(r["ends"].items(), key=lambda kv: -kv[1]):
        print(f"    {n:5d}  {100 * n / g:5.1f}%  {end}")
    print(f"  ships out: {dict(sorted(r['outs'].items()))}")
    shares = ", ".join(f"seat {s} {100 * w / g:.1f}%" for s, w in enumerate(r["seat_wins"]))
    print(f"  win share by seat (fair {100 / players:.1f}%): {shares}")
    moves = sum(r["visits"])
    zero = [sp.index for sp, v in zip(SPACES, r["visits"]) if v == 0 and sp.kind != "dot"]
    print(f"  moves ended: {moves}; spaces never reached (black dots excluded): {zero or 'none'}")
    ranked = sorted((v, sp.index) for sp, v in zip(SPACES, r["visits"]) if sp.kind != "dot")
    low = ", ".join(f"{i} {SPACES[i].name} {100 * v / moves:.2f}%" for v, i in ranked[:5])
    high = ", ".join(f"{i} {SPACES[i].name} {100 * v / moves:.2f}%" for v, i in ranked[-5:])
    print(f"  least reached: {low}")
    print(f"  most reached:  {high}")
    if "--spaces" in sys.argv:
        for sp, v in zip(SPACES, r["visits"]):
            print(f"    {sp.index:3d} {sp.name:22s} {100 * v / moves:5.2f}%")


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    games = int(args[0]) if args else 300
    bots = sys.argv[sys.argv.index("--bots") + 1] if "--bots" in sys.argv else "greedy"
    start = time.perf_counter()
    for players in (2, 3, 4):
        report(players, run(players, games, bots))
    print(f"\n{bots} bots; {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
