"""The registry of the games the `asv` command plays (SPEC §34, §47.4): each game is a kit
(cli.games.kit.GameKit) in its own package. Commands take `--game KEY`; tools that read a
log take the game from the log's first hello (its `rules`)."""
from __future__ import annotations

import importlib
from functools import lru_cache
from pathlib import Path


from .kit import GameKit

__all__ = ["GameKit", "DEFAULT_KEY", "BOT_KINDS", "all_kits", "kit_for", "kit_for_rules", "default_kit", "all_bot_kinds",
           "player_ranges", "add_game_argument", "game_of",
           "game_of_log", "unknown_rules", "other_rules_reason", "rules_name_of_log"]

DEFAULT_KEY = "asv"

# The registry: one line a game, its kit package (which exposes KIT in its module `kit`),
# the kit's key and its rules' family (the rules name before "/version"). The two names let
# a command that needs one game (`asv verify LOG`) import that game's kit alone (SPEC §35.8);
# tests/test_verify_startup.py checks them against each kit.
REGISTRY = (
    ("cli.games.asv", "asv", "amazing-space-venture"),
    ("cli.games.space_walk", "space-walk", "space-walk"),
    ("cli.games.space_trading_race", "space-trading-race", "space-trading-race"),
)

# Each game's bot kinds as its kit lists them, so that `asv join --bot` (which learns its game
# from the first hello) builds its parser without importing every game's engine (issue 23:
# start-up); tests/test_verify_startup.py checks them against each kit.
BOT_KINDS = {
    "asv": ("random", "greedy", "search"),
    "space-walk": ("random", "greedy"),
    "space-trading-race": ("random", "greedy"),
}


@lru_cache(maxsize=None)
def _kit(package: str) -> GameKit:
    return importlib.import_module(f"{package}.kit").KIT


def all_kits() -> list[GameKit]:
    """Every registered game's kit, in registry order."""
    return [_kit(package) for package, _, _ in REGISTRY]


def kit_for(key: str) -> GameKit:
    """The kit of a --game value; KeyError if no game has that key."""
    for package, kit_key, _ in REGISTRY:
        if kit_key == key:
            return _kit(package)
    raise KeyError(key)


def kit_for_rules(rules_name: str | None) -> GameKit | None:
    """The kit whose session rules are `rules_name` (a log's or a hello's `rules`), or None."""
    family = rules_name.rpartition("/")[0] if isinstance(rules_name, str) else None
    for package, _, kit_family in REGISTRY:
        if kit_family == family:
            kit = _kit(package)
            return kit if kit.rules_name == rules_name else None
    return None


def default_kit() -> GameKit:
    return kit_for(DEFAULT_KEY)


def all_bot_kinds() -> list[str]:
    """Every bot kind of any game, the default game's first (for --bot and --bot-kind)."""
    kinds: list[str] = []
    for _, key, _ in REGISTRY:
        kinds += [k for k in BOT_KINDS[key] if k not in kinds]
    return kinds


def player_ranges() -> str:
    """The player counts of every game for a --players help: "1-4; space-walk 2-5"."""
    return "; ".join(f"{'' if kit.key == DEFAULT_KEY else kit.key + ' '}{kit.min_players}-{kit.max_players}"
                     for kit in all_kits())


def add_game_argument(parser) -> None:
    kits = all_kits()
    names = ", ".join(f"{k.key} ({k.title}{', default' if k.key == DEFAULT_KEY else ''})" for k in kits)
    parser.add_argument("--game", default=DEFAULT_KEY, choices=sorted(k.key for k in kits),
                        help=f"which game: {names}")


def game_of(args) -> GameKit:
    """The kit of a command's --game."""
    return kit_for(getattr(args, "game", DEFAULT_KEY) or DEFAULT_KEY)


def rules_name_of_log(path: str | Path) -> str | None:
    """The `rules` of a log's first hello, or None when the log has no readable hello (the
    verifier then reports that log's own problem)."""
    from protocol.errors import ProtocolError
    from protocol.log import parse_event, scan_log
    try:
        scan = scan_log(path)
        first = parse_event(scan.records[0], expected_game=scan.game) if scan.records else None
    except (ProtocolError, OSError, ValueError):
        return None
    if first is None or first.kind != "hello" or not isinstance(first.body, dict):
        return None
    name = first.body.get("rules")
    return name if isinstance(name, str) else None


def unknown_rules(path: str | Path) -> str | None:
    """The rules a log's first (signed) hello names when this program knows no such game:
    a log of another asv version, which cannot be checked here (SPEC §27.6). None when the
    rules are known, or the log has no readable hello (the verifier names that problem)."""
    name = rules_name_of_log(path)
    return name if name is not None and kit_for_rules(name) is None else None


def other_rules_reason(path: str | Path, name: str) -> str:
    known = ", ".join(kit.rules_name for kit in all_kits())
    return (f"cannot check {path}: it was played under rules {name!r}, which this asv does not know "
            f"(it plays {known}){_why_not(name)}; check it with the asv version that wrote it")


def _why_not(name: str) -> str:
    """For an earlier version of a game this asv plays: what changed, if it was the group or
    the form of the shuffle proofs."""
    family, _, version = name.rpartition("/")
    for kit in all_kits():
        if kit.rules_name.rpartition("/")[0] != family or not version.isdigit():
            continue
        if int(version) < kit.group_since:
            return (f"; before {family}/{kit.group_since} keys and decks were Ed25519 points, "
                    "now they are ristretto255 ones (SPEC §25.1), so its proofs cannot be checked here")
        if int(version) < kit.proofs_since:
            return (f"; before {family}/{kit.proofs_since} a shuffle proof carried its challenge, now it "
                    "carries its commitments (SPEC §25.10), so its shuffles cannot be checked here")
    return ""


def game_of_log(path: str | Path) -> GameKit:
    """The game a log was played under. A log without a readable hello, or naming rules this
    program does not know, is checked as the default game: the verifier then names its
    problem (for unknown rules: the first hello's game is not this one)."""
    return kit_for_rules(rules_name_of_log(path)) or kit_for(DEFAULT_KEY)
