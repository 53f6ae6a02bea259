"""The games the `asv` command plays, by name (SPEC §47.4): each names its session rules, its
bots, its board renderer and its player counts. Commands take `--game NAME`; tools that read
a log take the game from the log's first hello."""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

DEFAULT_GAME = "asv"


@dataclass(frozen=True)
class Game:
    key: str               # the --game value
    title: str
    min_players: int
    max_players: int
    adapter: str           # module with the GameRules class, bot_agent and render_board
    rules_class: str
    variants: tuple[str, ...]

    def module(self):
        return importlib.import_module(self.adapter)

    @property
    def rules_name(self) -> str:
        """The session's `rules` (SPEC §26.2), as the adapter names it."""
        return self.module().RULES_NAME

    def rules(self):
        return getattr(self.module(), self.rules_class)()

    def bot_agent(self, kind: str, seed: str, think: float | None = None, iterations: int | None = None):
        """The session's agent for a bot seat; `think` and `iterations` are the search bot's
        budget (SPEC §12.3)."""
        if self.key == "space-walk":   # its bots answer at once: nothing to think about
            return self.module().bot_agent(kind, seed)
        return self.module().bot_agent(kind, seed, think=think, iterations=iterations)

    def render(self, state) -> str:
        return self.module().render_board(state)

    def picture(self, state, *, caption: str = "", labels: list[str] | None = None) -> str:
        """The position as SVG text to share (SPEC §31.7): public state only."""
        if self.key == "space-walk":
            from cli.sw_board_svg import board_svg
        else:
            from cli.board_svg import board_svg
        return board_svg(state, caption=caption, labels=labels)

    def seat_colours(self, players: int) -> tuple[str, ...]:
        if self.key == "space-walk":
            from space_walk.orbit import COLOURS
            return COLOURS[:players]
        from p2p_asv.geometry import seat_colours
        return seat_colours(players)

    def bots(self) -> tuple[str, ...]:
        if self.key == "space-walk":
            from space_walk.bots import BOTS
        else:
            from p2p_asv.bots import BOTS
        return tuple(BOTS)

    def check_players(self, players: int, command: str = "asv") -> None:
        if not self.min_players <= players <= self.max_players:
            raise SystemExit(f"{command}: {self.title} is for {self.min_players} to {self.max_players} "
                             f"players, not {players}")


GAMES = {
    "asv": Game("asv", "Amazing Space Venture", 1, 4, "cli.games.asv.adapter",
                "AsvRules", ("nine-planets", "role-play", "partnership", "advanced")),
    "space-walk": Game("space-walk", "Space Walk", 2, 5, "cli.games.space_walk.adapter",
                       "SpaceWalkRules", ("action-cards",)),
}


def by_rules_name(name: str | None) -> Game | None:
    for game in GAMES.values():
        if game.rules_name == name:
            return game
    return None


def add_game_argument(parser) -> None:
    parser.add_argument("--game", default=DEFAULT_GAME, choices=sorted(GAMES),
                        help="which game: asv (Amazing Space Venture, default) or space-walk")


def game_of(args) -> Game:
    return GAMES[getattr(args, "game", DEFAULT_GAME) or DEFAULT_GAME]


def space_walk_config(variants: list[str], tiles_per_turn: int = 0) -> dict:
    """The Space Walk config map from --variant names (SPEC §44.1)."""
    wrong = [v for v in variants if v != "action-cards"]
    if wrong or tiles_per_turn:
        what = f"--variant {wrong[0]}" if wrong else "--tiles-per-turn"
        raise SystemExit(f"asv: {what} is an Amazing Space Venture option; "
                         "Space Walk has --variant action-cards")
    return {"action_cards": True} if variants else {}


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
    return name if name is not None and by_rules_name(name) is None else None


def other_rules_reason(path: str | Path, name: str) -> str:
    known = ", ".join(game.rules_name for game in GAMES.values())
    return (f"cannot check {path}: it was played under rules {name!r}, which this asv does not know "
            f"(it plays {known}); check it with the asv version that wrote it")


def game_of_log(path: str | Path) -> Game:
    """The game a log was played under. A log without a readable hello, or naming rules this
    program does not know, is checked as the default game: the verifier then names its
    problem (for unknown rules: the first hello's game is not this one)."""
    return by_rules_name(rules_name_of_log(path)) or GAMES[DEFAULT_GAME]
