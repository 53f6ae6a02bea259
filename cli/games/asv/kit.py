"""Amazing Space Venture as a game kit (SPEC §34): the engine p2p_asv behind the kit
interface of cli.games.kit, with its variants, bots, dealer and session rules."""
from __future__ import annotations

import time

from p2p_asv import engine
from p2p_asv.bots import BOTS, make_bot
from p2p_asv.search import DEFAULT_ITERATIONS, DEFAULT_THINK
from p2p_asv.dealer import LocalDealer
from p2p_asv.endgame import result
from p2p_asv.errors import EngineError
from p2p_asv.geometry import seat_colours
from p2p_asv.setup import new_game
from p2p_asv.state import TILES, GameState
from p2p_asv.variants import Variants
from p2p_asv.view import PlayerView

from cli.errors import UserError
from cli.games.kit import Happened, KitBase

from .adapter import RULES_NAME, AsvRules

__all__ = ["AsvKit", "KIT"]

# --variant NAME -> the engine's config key (SPEC §13)
VARIANT_FLAGS = {"nine-planets": "nine_planets", "role-play": "role_play", "partnership": "partnership",
                 "advanced": "advanced", "captain-rookie": "captain_rookie"}


class AsvKit(KitBase):
    key = "asv"
    title = "Amazing Space Venture"
    min_players, max_players = 1, 4
    rules_name = RULES_NAME
    group_since = 8   # the first rules version whose keys and decks are ristretto255 (SPEC §25.1)
    proofs_since = 10  # the first whose shuffle proofs are in commitment form (SPEC §25.10)
    bot_kinds = tuple(BOTS)
    thinking_bots = ("search",)   # it thinks --think seconds a decision (SPEC §12.3)
    engine_errors = (EngineError,)
    variants = tuple(VARIANT_FLAGS)
    default_think = DEFAULT_THINK            # seconds a search bot thinks a decision (SPEC §12.3)
    default_iterations = DEFAULT_ITERATIONS  # its fixed budget where results must repeat

    # -- the engine-facing part ------------------------------------------------------------
    def variant_configs(self, players: int) -> list[tuple[str, dict]]:
        """The basic game, each variant alone (captain-rookie only with role-play, which it
        extends; partnership only at four), and all of them together."""
        configs: list[tuple[str, dict]] = [
            ("basic", {}), ("nine-planets", {"nine_planets": True}), ("role-play", {"role_play": True}),
            ("role-play+captain-rookie", {"role_play": True, "captain_rookie": True}),
            ("advanced", {"advanced": True}), ("tiles-per-turn-1", {"tiles_per_turn": 1})]
        every: dict = {"nine_planets": True, "role_play": True, "captain_rookie": True, "advanced": True}
        if players == 4:
            configs.append(("partnership", {"partnership": True}))
            every["partnership"] = True
        configs.append(("+".join(n.replace("_", "-") for n in every), every))
        return configs

    def new_state(self, players: int, config: dict) -> GameState:
        return new_game(players, config)

    def to_move(self, state: GameState) -> int:
        seat = engine.to_move(state)
        if seat is None:   # asked only while the game runs
            raise ValueError("the game is over: nobody is to move")
        return seat

    def is_over(self, state: GameState) -> bool:
        return state.over

    def new_view(self, seat: int) -> PlayerView:
        return PlayerView(seat)

    def legal_actions(self, state: GameState, view: PlayerView) -> list:
        return engine.legal_actions(state, view)

    def apply(self, state: GameState, seat: int, action) -> None:
        engine.apply(state, seat, action)

    def parse_action(self, text: str):
        return engine.parse_action(text)

    def state_hash(self, state: GameState) -> str:
        return state.hash()

    def result(self, state: GameState) -> dict:
        return result(state)

    def dealer(self, seed: int) -> LocalDealer:
        return LocalDealer(seed)

    def bot(self, kind: str, seed: str, *, think: float | None = None, iterations: int | None = None):
        """The search bot thinks `think` seconds a decision on this machine's clock, or,
        without `think`, a fixed number of iterations (reproducible; SPEC §12.3)."""
        return make_bot(kind, seed, think=think, iterations=iterations,
                        clock=time.monotonic if think is not None else None)

    def session_rules(self) -> AsvRules:
        return AsvRules()

    # -- the command line ------------------------------------------------------------------
    options = {"--tiles-per-turn": "tiles_per_turn"}   # its command-line options besides --variant

    def add_options(self, parser) -> None:
        parser.add_argument("--tiles-per-turn", type=int, default=None, choices=range(1, 4), metavar="N",
                            help="tiles drawn a turn, 1-3 (default: the rulebook's 3 or 2)")

    def config_from(self, variants: list[str], args, players: int | None) -> dict:
        """The engine's config map from --variant names and --tiles-per-turn (SPEC §13)."""
        config = {VARIANT_FLAGS[name]: True for name in variants}
        if getattr(args, "tiles_per_turn", None):
            config["tiles_per_turn"] = args.tiles_per_turn
        try:
            chosen = Variants.from_config(config)
            if players:
                chosen.check_players(players)
        except ValueError as exc:
            raise UserError(f"asv: {exc}") from None
        return chosen.to_config()

    # -- the screen --------------------------------------------------------------------------
    def before(self, state: GameState):
        from .narrate import before
        return before(state)

    def happened(self, was, state: GameState, seat: int, action) -> Happened:
        """The event with its score lines and what it cancelled (SPEC §31.3)."""
        from .narrate import score_lines, settled
        return Happened(seat, action, score_lines(was, state, action), settled(was, state, action, seat))

    def screen(self, driver, repl=None):
        from .screen import AsvScreen   # prompt_toolkit and the board: only for a screen
        return AsvScreen(driver, repl)

    def tutorial(self):
        from .tutorial import TUTORIAL   # only for asv learn
        return TUTORIAL

    def turn_line(self, state: GameState, *, at_start: bool):
        """(turn, a bot peer's progress line) at a turn's start (`at_start`), or wherever the
        turn is (after a catch-up); None while the turn has not begun."""
        if state.phase != TILES and at_start:
            return None
        colours = seat_colours(len(state.players))
        scores = "  ".join(f"{c}:{p.score}" for c, p in zip(colours, state.players))
        return state.turn, (f"turn {state.turn:3d}  {colours[state.active]:6s} to play  "
                            f"tiles left {state.tiles_left():2d}  scores {scores}")

    # -- the commands --------------------------------------------------------------------------
    SELFPLAY_KEYS = ("seed", "players", "turns", "events", "scores", "winner", "winners", "title",
                     "state_hash", "bots", "cards_played")

    def selfplay(self, players: int, seed: int, kinds: list[str], config: dict, bot_options: dict) -> dict:
        """One whole game between bots in this process: `asv selfplay`'s JSON object (SPEC §12.2)."""
        from p2p_asv.selfplay import play_game
        _, summary = play_game(players, seed, kinds, config=config, bot_options=bot_options)
        keep: tuple[str, ...] = self.SELFPLAY_KEYS
        if config:
            keep += ("victory", "team_scores") if "team_scores" in summary else ("victory",)
        return {k: summary[k] for k in keep}

    def catalog_json(self) -> str:
        """Every card, quest and tile type as one JSON line, keys sorted (SPEC §5.9)."""
        import json

        from p2p_asv.catalog import catalog
        return json.dumps(catalog(), sort_keys=True, separators=(",", ":"))

    def catalog_lines(self) -> list[str]:
        from p2p_asv.catalog import catalog

        from .catalog import table_lines
        return table_lines(catalog())

    def seat_colours(self, players: int) -> tuple[str, ...]:
        return tuple(seat_colours(players))

    def render_board(self, state: GameState) -> str:
        """The board in plain text with planets, ships, pieces and scores (`asv replay`)."""
        from .render import render_board
        return render_board(state)

    def picture(self, state: GameState, *, caption: str = "", labels: list[str] | None = None) -> str:
        """The position as SVG text to share (SPEC §31.7): public state only."""
        from cli.games.asv.svg.board import board_svg
        return board_svg(state, caption=caption, labels=labels)


KIT = AsvKit()
