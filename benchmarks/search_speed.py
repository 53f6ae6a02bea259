"""Search bot speed (SPEC §12.3): determinised playouts per second and simulated events per
second at the start, middle and end of a game, for 2 and 4 players, per second of this
process's CPU time (so a busy shared machine does not halve the figures). Prints figures; asserts
nothing. The positions come from one greedy selfplay game per seat count.

Run: .venv/bin/python benchmarks/search_speed.py [--think 1.0] [--horizon N]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from p2p_asv.actions import DrawTile  # noqa: E402
from p2p_asv.bots import GreedyBot  # noqa: E402
from p2p_asv.dealer import LocalDealer  # noqa: E402
from p2p_asv.engine import apply, legal_actions, to_move  # noqa: E402
from p2p_asv.search import SearchBot  # noqa: E402
from p2p_asv.search.bot import HORIZON_TURNS  # noqa: E402
from p2p_asv.setup import new_game  # noqa: E402
from p2p_asv.state import CHANCE  # noqa: E402
from p2p_asv.view import PlayerView  # noqa: E402


def real_choice(state, view) -> bool:
    """A decision the bot searches: not forced, not only which tile pile to draw from."""
    options = legal_actions(state, view)
    return len(options) > 1 and not all(type(a) is DrawTile for a in options)


def positions(players: int, seed: int) -> dict[str, tuple]:
    """(state, view) copies where seat 0 has a real choice at the start, middle and end."""
    state, dealer = new_game(players), LocalDealer(seed)
    views = [PlayerView(s) for s in range(players)]
    bots = [GreedyBot(f"{seed}/{s}") for s in range(players)]
    marks = {"start": 3, "middle": 40, "end": 75}   # tiles drawn so far
    total = state.tiles_left()
    found = {}
    while not state.over and len(found) < len(marks):
        seat = to_move(state)
        drawn = total - state.tiles_left()
        for label, at in marks.items():
            if label not in found and drawn >= at and seat == 0 and real_choice(state, views[0]):
                found[label] = (state.clone(), PlayerView(0, dict(views[0].known)))
        action = dealer.outcome(state, views) if seat == CHANCE else bots[seat].choose(state, views[seat])
        apply(state, seat, action)
    return found


def measure(state, view, think: float, horizon: int, decisions: int = 3) -> tuple[float, float]:
    """Rates per second of this process's CPU time (the machine may be shared)."""
    bot = SearchBot("bench", think=think, clock=time.process_time, horizon=horizon)
    iterations = actions = 0
    elapsed = 0.0
    for _ in range(decisions):
        start = time.process_time()
        bot.choose(state, view)
        elapsed += time.process_time() - start
        iterations += bot.last_iterations
        actions += bot.last_actions
    return iterations / elapsed, actions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--think", type=float, default=1.0, help="seconds a decision (default 1)")
    parser.add_argument("--horizon", type=int, default=HORIZON_TURNS,
                        help=f"turns a playout runs past the current one (default {HORIZON_TURNS})")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(f"Search bot: {args.think:g} CPU s a decision, playouts cut off {args.horizon} turn(s) after the "
          "current one; rates per CPU second of this process")
    for players in (2, 4):
        for label, (state, view) in positions(players, args.seed).items():
            playouts, actions = measure(state, view, args.think, args.horizon)
            print(f"  {players} players, {label:6s} (turn {state.turn:2d}, {len(state.board):2d} tiles): "
                  f"{playouts:7.1f} playouts/s, {actions:8.0f} simulated actions/s, "
                  f"{actions / max(playouts, 1e-9):5.1f} actions/playout")


if __name__ == "__main__":
    main()
