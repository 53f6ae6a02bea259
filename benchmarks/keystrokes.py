"""Keystroke figures of SPEC §31.8: lines a person types in a whole two-player game against
the greedy bot, before (auto-pass off, one action a line) and after (auto-pass on, draw
counts), with the lines typed during discoveries.

Run: .venv/bin/python benchmarks/keystrokes.py [SEEDS]   (a few seconds a game)
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

from keystroke_helpers import typed_game  # noqa: E402


def main(seeds: list[int]) -> None:
    print("seed  mode    lines turns per-turn own-disc(lines/n) others-disc(lines/n) auto")
    for seed in seeds:
        for after in (False, True):
            c = typed_game(seed, after=after)
            print(f"{seed:>4}  {'after ' if after else 'before'}  {c.lines:>5} {c.turns:>5} "
                  f"{c.lines / max(1, c.turns):>8.1f} {c.in_own_discovery:>8}/{c.own_discoveries:<3}"
                  f"{c.in_others_discovery:>14}/{c.others_discoveries:<3}     {c.automatic:>4}")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [1, 2, 3, 4])
