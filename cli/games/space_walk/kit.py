"""Space Walk as a game kit (SPEC §34): the engine space_walk behind the kit interface of
cli.games.kit. Nothing is hidden and nothing is left to chance (SPEC §41.2): a seat's view
is its seat number, and the dealer is never asked."""
from __future__ import annotations

from space_walk import SpaceWalkError, apply, legal_actions, new_game, parse_action, result, to_move
from space_walk.bots import BOTS
from space_walk.orbit import COLOURS
from space_walk.scoring import score
from space_walk.state import State

from cli.games.kit import KitBase

from .adapter import RULES_NAME, SeatView, SpaceWalkRules

__all__ = ["SpaceWalkKit", "KIT"]


class NoDealer:
    """Space Walk has no chance events: asking for one is a bug."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def outcome(self, state: State, views: list) -> None:
        raise RuntimeError("Space Walk has no chance events")


class SeatBot:
    """A Space Walk bot (which chooses for a seat number) over the kit's seat views."""

    def __init__(self, bot) -> None:
        self._bot = bot
        self.name = bot.name

    def choose(self, state: State, view: SeatView):
        return self._bot.choose(state, view.seat)


class SpaceWalkKit(KitBase):
    key = "space-walk"
    title = "Space Walk"
    min_players, max_players = 2, 5
    rules_name = RULES_NAME
    group_since = 2   # the first rules version whose keys are ristretto255 (SPEC §25.1)
    proofs_since = 0  # no decks, so no shuffle proofs (SPEC §25.10)
    bot_kinds = tuple(BOTS)
    engine_errors = (SpaceWalkError,)
    variants = ("action-cards",)
    default_think = None          # its bots answer at once
    default_iterations = None

    # -- the engine-facing part ------------------------------------------------------------
    def variant_configs(self, players: int) -> list[tuple[str, dict]]:
        return [("basic", {}), ("action-cards", {"action_cards": True})]

    def new_state(self, players: int, config: dict) -> State:
        return new_game(players, config)

    def to_move(self, state: State) -> int:
        seat = to_move(state)
        if seat is None:   # asked only while the game runs
            raise ValueError("the game is over: nobody is to move")
        return seat

    def is_over(self, state: State) -> bool:
        return state.over

    def new_view(self, seat: int) -> SeatView:
        return SeatView(seat)

    def legal_actions(self, state: State, view: SeatView) -> list:
        return legal_actions(state, view.seat)

    def apply(self, state: State, seat: int, action) -> None:
        apply(state, seat, action)

    def parse_action(self, text: str):
        return parse_action(text)

    def state_hash(self, state: State) -> str:
        return state.hash()

    def result(self, state: State) -> dict:
        return result(state)

    def dealer(self, seed: int) -> NoDealer:
        return NoDealer(seed)

    def bot(self, kind: str, seed: str, *, think: float | None = None, iterations: int | None = None) -> SeatBot:
        """Every Space Walk bot answers at once: `think` and `iterations` mean nothing to it."""
        return SeatBot(BOTS[kind](seed))

    def session_rules(self) -> SpaceWalkRules:
        return SpaceWalkRules()

    # -- the command line ------------------------------------------------------------------
    options: dict[str, str] = {}   # no command-line options besides --variant

    def add_options(self, parser) -> None:
        pass

    def config_from(self, variants: list[str], args, players: int | None) -> dict:
        """The config map from --variant names (SPEC §44.1)."""
        return {"action_cards": True} if variants else {}

    def screen(self, driver, repl=None):
        from .screen import SwScreen   # prompt_toolkit and the ring: only for a screen
        return SwScreen(driver, repl)

    def turn_line(self, state: State, *, at_start: bool):
        """(turn, a bot peer's progress line): who moves, points now; once a regular turn."""
        if state.due != "turn" and at_start:
            return None
        points = "  ".join(f"{COLOURS[s]}:{score(state, s)}" for s in range(state.players))
        ships = sum(len(sq) for sq in state.squares)
        return state.turns, (f"turn {state.turns:3d}  {COLOURS[state.seat]:6s} to move  "
                             f"ships in orbit {ships:2d}  points {points}")

    # -- the commands --------------------------------------------------------------------------
    def selfplay(self, players: int, seed: int, kinds: list[str], config: dict, bot_options: dict) -> dict:
        """One whole game between bots: `asv selfplay --game space-walk`'s JSON object (SPEC §47.4)."""
        from .commands import selfplay_summary
        return selfplay_summary(players, seed, kinds, config)

    def catalog_json(self) -> str:
        from .commands import catalog_json
        return catalog_json()

    def catalog_lines(self) -> list[str]:
        from .commands import catalog_lines
        return catalog_lines()

    def seat_colours(self, players: int) -> tuple[str, ...]:
        return tuple(COLOURS[:players])

    def render_board(self, state: State) -> str:
        """The orbit as a ring in plain text (`asv replay`, SPEC §47.6)."""
        from .render import render_board
        return render_board(state)

    def picture(self, state: State, *, caption: str = "", labels: list[str] | None = None) -> str:
        """The orbit and scores as SVG text (SPEC §31.7): Space Walk hides nothing."""
        from cli.games.space_walk.board_svg import board_svg
        return board_svg(state, caption=caption, labels=labels)


KIT = SpaceWalkKit()
