"""Space Trading Race as a game kit (SPEC §34, §59): the engine space_trading_race behind the kit
interface of cli.games.kit. Its chance (dice and the mission pile) comes from the engine's
local dealer in one process and from the session's decks on the network (adapter.py)."""
from __future__ import annotations

from space_trading_race import (CHANCE, LocalDealer, TradingRaceError, apply, legal_actions, new_game,
                                parse_action, to_move)
from space_trading_race.bots import BOTS
from space_trading_race.state import MAX_PLAYERS, MAX_TIME_LIMIT, MIN_PLAYERS, State
from space_trading_race.view import PlayerView

from cli.errors import UserError
from cli.games.kit import Happened, KitBase

from .adapter import RULES_NAME, TradingRaceRules
from .outcome import result_of
from .render import COLOURS

__all__ = ["TradingRaceKit", "KIT"]


class TradingRaceKit(KitBase):
    key = "space-trading-race"
    title = "Space Trading Race"
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS
    rules_name = RULES_NAME
    group_since = 3   # the first rules version whose keys and decks are ristretto255 (SPEC §25.1)
    proofs_since = 5   # the first whose shuffle proofs are in commitment form (SPEC §25.10)
    bot_kinds = tuple(BOTS)
    engine_errors = (TradingRaceError,)
    variants: tuple[str, ...] = ()        # one game; its time limit is an option
    default_think = None                  # its bots answer at once
    default_iterations = None

    # -- the engine-facing part ------------------------------------------------------------
    def variant_configs(self, players: int) -> list[tuple[str, dict]]:
        return [("basic", {}), ("short", {"time_limit": 10})]

    def new_state(self, players: int, config: dict) -> State:
        return new_game(players, config)

    def to_move(self, state: State) -> int:
        seat = to_move(state)
        if seat is None:
            raise ValueError("the game is over: nobody is to move")
        return seat

    def is_over(self, state: State) -> bool:
        return state.over

    def new_view(self, seat: int) -> PlayerView:
        return PlayerView(seat)

    def legal_actions(self, state: State, view: PlayerView) -> list:
        return legal_actions(state, view)

    def apply(self, state: State, seat: int, action) -> None:
        apply(state, seat, action)

    def parse_action(self, text: str):
        return parse_action(text)

    def state_hash(self, state: State) -> str:
        return state.hash()

    def result(self, state: State) -> dict:
        return result_of(state)

    def dealer(self, seed: int) -> LocalDealer:
        return LocalDealer(f"{seed}/dealer")

    def bot(self, kind: str, seed: str, *, think: float | None = None, iterations: int | None = None):
        """Its bots answer at once: `think` and `iterations` mean nothing to them."""
        return BOTS[kind](seed)

    def session_rules(self) -> TradingRaceRules:
        return TradingRaceRules()

    # -- the command line ------------------------------------------------------------------
    options = {"--time-limit": "time_limit"}

    def add_options(self, parser) -> None:
        parser.add_argument("--time-limit", type=int, default=None, metavar="ROUNDS",
                            help=f"space-trading-race: end after this many rounds, 1 to {MAX_TIME_LIMIT} "
                                 "(default 60); the richest ship wins")

    def config_from(self, variants: list[str], args, players: int | None) -> dict:
        limit = getattr(args, "time_limit", None)
        if limit is None:
            return {}
        if not 1 <= limit <= MAX_TIME_LIMIT:
            raise UserError(f"asv: --time-limit is a number of rounds from 1 to {MAX_TIME_LIMIT}, not {limit}")
        return {"time_limit": limit}

    def seat_colours(self, players: int) -> tuple[str, ...]:
        return COLOURS[:players]

    def screen(self, driver, repl=None):
        from .screen import StrScreen   # prompt_toolkit: only for a screen
        return StrScreen(driver, repl)

    def turn_line(self, state: State, *, at_start: bool):
        """(turn, a bot peer's progress line): once a turn, at its first roll."""
        if at_start and (state.stage != "roll" or to_move(state) == CHANCE):
            return None
        assets = "  ".join(f"{COLOURS[s]}:{'$' + str(state.assets(s)) if state.alive[s] else 'out'}"
                           for s in range(state.players))
        return state.turns, f"turn {state.turns:3d}  round {state.round:2d}  {COLOURS[state.seat]:6s} to move  {assets}"

    # -- the screen -----------------------------------------------------------------------------
    def before(self, state: State) -> State:
        return state.clone()

    def happened(self, was, state: State, seat: int, action) -> Happened:
        from .narrate import notes
        return Happened(seat, action, notes(was, state))

    # -- the commands --------------------------------------------------------------------------
    def selfplay(self, players: int, seed: int, kinds: list[str], config: dict, bot_options: dict) -> dict:
        from .commands import selfplay_summary
        return selfplay_summary(players, seed, kinds, config)

    def catalog_json(self) -> str:
        from .commands import catalog_json
        return catalog_json()

    def catalog_lines(self) -> list[str]:
        from .commands import catalog_lines
        return catalog_lines()

    def render_board(self, state: State) -> str:
        from .render import board_text
        return board_text(state)

    def picture(self, state: State, *, caption: str = "", labels: list[str] | None = None) -> str:
        from .board_svg import board_svg
        return board_svg(state, caption=caption, labels=labels)


KIT = TradingRaceKit()
