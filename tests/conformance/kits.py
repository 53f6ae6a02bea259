"""The games under test, as /work/kit-interface.md's `GameKit`s (SPEC §35.1).

A stand-in until `cli.games` is the kit registry: it builds each kit from today's modules
(the session adapters in cli/, the engines, their bots and dealers) under exactly the
interface's names, so the conformance suite is written against the interface alone. When
the registry lands, this module becomes `from cli.games import all_kits`.
"""
from __future__ import annotations

from cli.asv_adapter import AsvRules
from cli.asv_adapter import RULES_NAME as ASV_RULES
from cli.sw_adapter import RULES_NAME as SW_RULES
from cli.sw_adapter import SeatView, SpaceWalkRules

__all__ = ["all_kits"]


class AsvKit:
    key = "asv"
    title = "Amazing Space Venture"
    min_players, max_players = 1, 4
    rules_name = ASV_RULES

    def __init__(self) -> None:
        from p2p_asv import engine
        from p2p_asv.bots import BOTS
        from p2p_asv.errors import EngineError
        self._engine = engine
        self.bot_kinds = tuple(BOTS)
        self.engine_errors = (EngineError,)

    def variant_configs(self, players: int) -> list[tuple[str, dict]]:
        configs = [("basic", {}), ("nine-planets", {"nine_planets": True}), ("role-play", {"role_play": True}),
                   ("captain-rookie", {"role_play": True, "captain_rookie": True}),
                   ("advanced", {"advanced": True})]
        if players == 4:
            configs.append(("partnership", {"partnership": True}))
        return configs

    def new_state(self, players: int, config: dict):
        from p2p_asv.setup import new_game
        return new_game(players, config)

    def to_move(self, state) -> int:
        return self._engine.to_move(state)

    def is_over(self, state) -> bool:
        return state.over

    def new_view(self, seat: int):
        from p2p_asv.view import PlayerView
        return PlayerView(seat)

    def legal_actions(self, state, view) -> list:
        return self._engine.legal_actions(state, view)

    def apply(self, state, seat: int, action) -> None:
        self._engine.apply(state, seat, action)

    def parse_action(self, text: str):
        return self._engine.parse_action(text)

    def state_hash(self, state) -> str:
        return state.hash()

    def result(self, state) -> dict:
        from p2p_asv.endgame import result
        return result(state)

    def dealer(self, seed: int):
        from p2p_asv.dealer import LocalDealer
        return LocalDealer(seed)

    def bot(self, kind: str, seed: str, *, think: float | None = None, iterations: int | None = None):
        from p2p_asv.bots import make_bot
        return make_bot(kind, seed, think=think, iterations=iterations)

    def session_rules(self):
        return AsvRules()


class _NoChance:
    """Space Walk's dealer: it has no chance, so it is never asked."""

    def outcome(self, state, views):
        raise AssertionError("Space Walk has no chance events")


class _SeatBot:
    """A Space Walk bot behind the interface's `choose(state, view)`."""

    def __init__(self, bot) -> None:
        self._bot = bot

    def choose(self, state, view):
        return self._bot.choose(state, view.seat)


class SpaceWalkKit:
    key = "space-walk"
    title = "Space Walk"
    rules_name = SW_RULES

    def __init__(self) -> None:
        import space_walk
        from space_walk.bots import BOTS
        from space_walk.orbit import MAX_PLAYERS, MIN_PLAYERS
        self._engine = space_walk
        self.min_players, self.max_players = MIN_PLAYERS, MAX_PLAYERS
        self.bot_kinds = tuple(BOTS)
        self.engine_errors = (space_walk.SpaceWalkError,)

    def variant_configs(self, players: int) -> list[tuple[str, dict]]:
        return [("basic", {}), ("action-cards", {"action_cards": True})]

    def new_state(self, players: int, config: dict):
        return self._engine.new_game(players, config)

    def to_move(self, state) -> int:
        return self._engine.to_move(state)

    def is_over(self, state) -> bool:
        return state.over

    def new_view(self, seat: int):
        return SeatView(seat)

    def legal_actions(self, state, view) -> list:
        return self._engine.legal_actions(state, view.seat)

    def apply(self, state, seat: int, action) -> None:
        self._engine.apply(state, seat, action)

    def parse_action(self, text: str):
        return self._engine.parse_action(text)

    def state_hash(self, state) -> str:
        return state.hash()

    def result(self, state) -> dict:
        return self._engine.result(state)

    def dealer(self, seed: int):
        return _NoChance()

    def bot(self, kind: str, seed: str, *, think: float | None = None, iterations: int | None = None):
        from space_walk.bots import BOTS
        return _SeatBot(BOTS[kind](seed))

    def session_rules(self):
        return SpaceWalkRules()


def all_kits() -> list:
    """Every registered game, in registry order (as `cli.games.all_kits` will give them)."""
    return [AsvKit(), SpaceWalkKit()]
