"""Engine speed (SPEC §12): selfplay games per second, microseconds per applied action, and the
cost of enumerating legal tile placements as the board fills. Prints figures; asserts nothing.

Run: .venv/bin/python benchmarks/engine.py [--games N]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from p2p_asv.dealer import LocalDealer  # noqa: E402
from p2p_asv.engine import apply, legal_actions, to_move  # noqa: E402
from p2p_asv.bots import RandomBot  # noqa: E402
from p2p_asv.selfplay import play_game  # noqa: E402
from p2p_asv.setup import new_game  # noqa: E402
from p2p_asv.state import CHANCE  # noqa: E402
from p2p_asv.tiles import TILE_BY_ID  # noqa: E402
from p2p_asv.view import PlayerView  # noqa: E402


def selfplay_rates(players: int, games: int, bot: str) -> None:
    events = 0
    start = time.perf_counter()
    for seed in range(games):
        _, summary = play_game(players, seed, [bot] * players)
        events += summary["events"]
    elapsed = time.perf_counter() - start
    print(f"  {players} players, {bot:6s}: {games / elapsed:6.1f} games/s, "
          f"{events / games:5.0f} events/game, {1e6 * elapsed / events:6.1f} us/event (bot choice included)")


def apply_cost(players: int, games: int) -> None:
    """Replays recorded games to time apply() alone, without the bots' choices."""
    recorded = []
    for seed in range(games):
        script = []
        play_game(players, seed, ["random"] * players,
                  on_event=lambda s, seat, a: script.append((seat, a)))
        recorded.append(script)
    start = time.perf_counter()
    count = 0
    for script in recorded:
        state = new_game(players)
        for seat, action in script:
            apply(state, seat, action)
            count += 1
    elapsed = time.perf_counter() - start
    print(f"  {players} players: {1e6 * elapsed / count:6.1f} us per applied action ({count} actions)")


def placement_cost() -> None:
    """legal_placements() time at several board sizes, from one random game's boards."""
    state = new_game(4)
    dealer = LocalDealer(3)
    views = [PlayerView(s) for s in range(4)]
    bots = [RandomBot(f"bench/{s}") for s in range(4)]
    probe = TILE_BY_ID["p1-a"] if "p1-a" in TILE_BY_ID else next(iter(TILE_BY_ID.values()))
    marks = {10, 30, 50, 70, 85}
    while not state.over:
        tiles = len(state.board)
        if tiles in marks:
            marks.discard(tiles)
            reps = 200
            start = time.perf_counter()
            for _ in range(reps):
                spots = state.board.legal_placements(probe)
            elapsed = (time.perf_counter() - start) / reps
            print(f"  {tiles:2d} tiles on the board, frontier {len(state.board.frontier()):3d} squares: "
                  f"{1e6 * elapsed:7.1f} us per legal_placements() ({len(spots)} placements)")
        seat = to_move(state)
        action = dealer.outcome(state, views) if seat == CHANCE else bots[seat].choose(state, views[seat])
        apply(state, seat, action)


def discard_listing_cost() -> None:
    """legal_actions() in the discard phase: one card each, or every set with Alien Artifact
    (SPEC §6.4), for hands of 10 and 12 cards; the ratio is against the single-card listing."""
    state = new_game(2)
    dealer = LocalDealer(5)
    views = [PlayerView(s) for s in range(2)]
    while to_move(state) == CHANCE:
        apply(state, CHANCE, dealer.outcome(state, views))
    state.phase = 4  # DISCARD, as if the earlier phases were done
    hand = state.players[0].hand
    extra = [state.decks["refuel"].pop(0), state.decks["refuel"].pop(0)]
    for size in (10, 12):
        state.players[0].hand = hand[:10] + extra[:size - 10]
        timings = []
        for artifact in (False, True):
            state.players[0].continuing = ["Alien Artifact"] if artifact else []
            reps = 20 if artifact else 2000
            start = time.perf_counter()
            for _ in range(reps):
                found = legal_actions(state, views[0])
            timings.append(((time.perf_counter() - start) / reps, len(found)))
        (plain, n_plain), (many, n_many) = timings
        print(f"  hand of {size}: {1e6 * plain:8.1f} us for {n_plain} actions; with Alien Artifact "
              f"{1e3 * many:6.1f} ms for {n_many} actions (x{many / plain:.0f})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    print("Selfplay (whole games, bots included)")
    for players in (2, 3, 4):
        for bot in ("random", "greedy"):
            selfplay_rates(players, args.games, bot)
    print("apply() alone, replaying recorded games")
    for players in (2, 3, 4):
        apply_cost(players, max(2, args.games // 4))
    print("Legal placement enumeration (tile p1-a, all four rotations)")
    placement_cost()
    print("Discard listing (SPEC §6.4)")
    discard_listing_cost()


if __name__ == "__main__":
    main()
