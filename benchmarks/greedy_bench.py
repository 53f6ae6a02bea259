"""The greedy bot's decision cost (SPEC §12.1): microseconds of CPU time a decision for
GreedyBot.choose and for the plain procedure it must match (tests/greedy_reference.py: list
every legal action, score each, draw among the best), over the same recorded decisions of
seeded greedy games: the four-player basic game (the networked benchmark's) by kind of
decision, and a few other seat counts and variants in all.
Prints figures; asserts nothing.

Run: .venv/bin/python benchmarks/greedy_bench.py [--games N] [--repeat R]
"""
from __future__ import annotations

import argparse
import copy
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from p2p_asv.bots import GreedyBot  # noqa: E402
from p2p_asv.dealer import LocalDealer  # noqa: E402
from p2p_asv.engine import apply, to_move  # noqa: E402
from p2p_asv.setup import new_game  # noqa: E402
from p2p_asv.state import CHANCE  # noqa: E402
from p2p_asv.view import PlayerView  # noqa: E402
from tests.greedy_reference import reference_choose  # noqa: E402

CONFIGS = [("4 players", 4, {}), ("2 players", 2, {}), ("4, partnership", 4, {"partnership": True}),
           ("3, advanced", 3, {"advanced": True}), ("2, role play", 2, {"role_play": True, "captain_rookie": True})]


def kind(state) -> str:
    if state.polls or state.discovery is not None or state.automata_seen or state.bank_owed is not None:
        return "windows, discoveries"
    return f"phase {int(state.phase)}" + (" placing" if state.phase == 1 and state.drawn else "")


def recorded(players: int, config: dict, seeds) -> list:
    """(state, view, bot) at every greedy decision of these games, each a copy kept as it was."""
    out = []
    for seed in seeds:
        state = new_game(players, config)
        dealer = LocalDealer(seed)
        views = [PlayerView(s) for s in range(players)]
        bots = [GreedyBot(f"{seed}/{s}") for s in range(players)]
        while not state.over:
            seat = to_move(state)
            if seat == CHANCE:
                action = dealer.outcome(state, views)
            else:
                out.append((state.clone(), copy.deepcopy(views[seat]), copy.copy(bots[seat])))
                action = bots[seat].choose(state, views[seat])
            apply(state, seat, action)
    return out


def cost(decisions: list, choose, repeat: int) -> dict[str, float]:
    """CPU seconds a decision by (configuration, kind) and (configuration, "all"), the best
    of `repeat` passes."""
    best: dict = {}
    for _ in range(repeat):
        spent: dict = {}
        for label, state, view, bot in decisions:
            fresh = copy.copy(bot)
            fresh.rng = copy.copy(bot.rng)
            start = time.process_time()
            choose(fresh, state, view)
            took = time.process_time() - start
            for key in ((label, kind(state)), (label, "all"), ("every game", "all")):
                spent.setdefault(key, []).append(took)
        for key, times in spent.items():
            best[key] = (min(best.get(key, (float("inf"), 0))[0], sum(times) / len(times)), len(times))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games a configuration (seeds 11, 12, ...)")
    parser.add_argument("--repeat", type=int, default=3, help="passes over the decisions; the best is kept")
    args = parser.parse_args()
    decisions = []
    for label, players, config in CONFIGS:
        decisions += [(label, *d) for d in recorded(players, config, range(11, 11 + args.games))]
    plain = cost(decisions, lambda bot, state, view: reference_choose(bot.rng, state, view), args.repeat)
    fast = cost(decisions, lambda bot, state, view: bot.choose(state, view), args.repeat)
    print(f"greedy decisions of {args.games} games a configuration, CPU us a decision "
          "(plain: the reference procedure; bot: GreedyBot.choose)")
    print(f"  {'game':16s} {'kind':22s} {'count':>6s} {'plain us':>9s} {'bot us':>8s} {'ratio':>6s}")
    first = CONFIGS[0][0]
    rows = sorted((k for k in plain if k[0] == first), key=lambda k: (k[1] == "all", k[1]))
    rows += [(label, "all") for label, _, _ in CONFIGS[1:]] + [("every game", "all")]
    for key in rows:
        (p, count), (f, _) = plain[key], fast[key]
        print(f"  {key[0]:16s} {key[1]:22s} {count:6d} {1e6 * p:9.1f} {1e6 * f:8.1f} {p / f:6.2f}")


if __name__ == "__main__":
    main()
