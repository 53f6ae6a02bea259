"""Play a full game among local bot peers, showing progress and the final scoreboard."""
from __future__ import annotations

import sys

from p2p_asv.geometry import seat_colours
from p2p_asv.selfplay import play_game
from p2p_asv.state import TILES


def add_arguments(parser) -> None:
    parser.add_argument("--players", type=int, default=4, choices=range(1, 5), metavar="N")
    parser.add_argument("--seed", type=int, default=1, metavar="S")


def run(args) -> int:
    colours = seat_colours(args.players)
    last_turn = [0]

    def progress(state, seat, action) -> None:
        if state.phase == TILES and state.turn != last_turn[0]:
            last_turn[0] = state.turn
            scores = "  ".join(f"{c}:{p.score}" for c, p in zip(colours, state.players))
            print(f"turn {state.turn:3d}  {colours[state.active]:6s} to play  "
                  f"tiles left {state.tiles_left():2d}  scores {scores}", flush=True)

    print(f"Amazing Space Venture: {args.players} bot players, seed {args.seed}", flush=True)
    state, summary = play_game(args.players, args.seed, on_event=progress)
    print("\nFinal scoreboard")
    order = sorted(range(args.players), key=lambda s: -summary["scores"][s])
    for seat in order:
        parts = ", ".join(f"{k} {v}" for k, v in summary["breakdown"][seat].items())
        print(f"  {colours[seat]:6s} {summary['scores'][seat]:4d}   ({parts})")
    winners = " and ".join(colours[s] for s in summary["winners"])
    title = f", {summary['title']}" if summary["title"] else ""
    print(f"Winner: {winners}{title}. {summary['events']} events, state hash {summary['state_hash'][:16]}")
    sys.stdout.flush()
    return 0
