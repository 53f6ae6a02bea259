"""List every card, Special Quest and tile type (SPEC §5.9), or what the chosen game has.

`asv catalog --json` prints one JSON object on one line with sorted keys; without
--json a readable table.
"""
from __future__ import annotations

import argparse

from cli.games import add_game_argument, game_of


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object on one line")
    add_game_argument(parser)


def run(args: argparse.Namespace) -> int:
    game = game_of(args)   # SPEC §47.5: each game's kit has its own catalogue
    print(game.catalog_json() if args.json else "\n".join(game.catalog_lines()))
    return 0
