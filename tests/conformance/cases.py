"""The cases every registered game is put through (SPEC §35.1): each game, each of its
player counts, each of its variants for that count."""
from __future__ import annotations

from tests.conformance.kits import all_kits

KITS = all_kits()
BOTS = ("random", "greedy")     # the two bots every kit has (kit interface: bot_kinds)
SEED = 4                        # issue 20's reproduction of the Kaygus bug is seed 4


def counts(kit) -> range:
    return range(kit.min_players, kit.max_players + 1)


def variants() -> list[tuple[object, int, str, dict]]:
    """(kit, players, variant name, engine config) for every game, count and variant."""
    return [(kit, players, name, config) for kit in KITS for players in counts(kit)
            for name, config in kit.variant_configs(players)]


def case_id(kit, players: int, name: str, *rest: str) -> str:
    return "-".join([kit.key, f"{players}p", name, *rest])
