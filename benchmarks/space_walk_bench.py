"""Speed of the Space Walk engine and of a Space Walk game through the session.

Run: .venv/bin/python benchmarks/space_walk_bench.py   (about half a minute)

Prints, per seat count: actions a second of the engine alone under random bots (the bots'
own cost is small: one legal_actions call per action), greedy bot games a second (a greedy
bot tries every legal action on a copy), and for three peers in one process the events a
second of a signed, checked game through the session, with the ratio of that to the engine
alone: the protocol's share of the cost (signatures, hashing, the state hash per event).
"""
from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from space_walk.selfplay import play_game  # noqa: E402


def engine_rate(players: int, bots: str, games: int, config: dict | None = None) -> tuple[float, float]:
    start = time.perf_counter()
    actions = 0
    for seed in range(games):
        _, summary = play_game(players, seed, [bots] * players, config)
        actions += summary["events"]
    seconds = time.perf_counter() - start
    return actions / seconds, games / seconds


def session_rate(players: int) -> tuple[float, float]:
    import tempfile

    from cli.games import kit_for
    from cli.netplay.local_peers import play_logged_game
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        summary = play_logged_game(players, 1, ["random"] * players, out, {}, which=kit_for("space-walk"))
        seconds = time.perf_counter() - start
    return summary["events"] / seconds, seconds


def main() -> None:
    print("players  random actions/s  random games/s  greedy games/s  cards-variant random games/s")
    for players in (2, 3, 4, 5):
        rate, games = engine_rate(players, "random", 20)
        _, greedy = engine_rate(players, "greedy", 3)
        _, cards = engine_rate(players, "random", 20, {"action_cards": True})
        print(f"{players:7d}  {rate:16.0f}  {games:14.1f}  {greedy:14.2f}  {cards:28.1f}")
    engine, _ = engine_rate(3, "random", 20)
    events, seconds = session_rate(3)
    print(f"\nthree peers in one process through the session: {events:.0f} events/s "
          f"({seconds:.2f} s for one random game); engine alone {engine:.0f} actions/s; "
          f"ratio {engine / events:.0f}x")


if __name__ == "__main__":
    main()
