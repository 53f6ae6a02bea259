"""Space Walk behind the session's GameRules interface (SPEC §47).

The only module that knows both protocol/ and space_walk/. Space Walk has nothing hidden and
no chance (SPEC §41.2): the card table is empty, no deck operation is ever due, and a seat's
view is just its seat number.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from cli.games.table import game_options
from cli.games.clock_moves import declared_pass
from protocol.session import CHANCE, DeckRequest, GameRuleError
from space_walk import SpaceWalkError, apply, new_game, parse_action, result, to_move
from space_walk.actions import Action
from space_walk.state import State

__all__ = ["SpaceWalkRules", "RULES_NAME", "SeatView"]

RULES_NAME = "space-walk/3"


@dataclass(frozen=True)
class SeatView:
    seat: int


class SpaceWalkRules:
    name = RULES_NAME

    def new_state(self, players: int, config: dict) -> State:
        try:
            return new_game(players, game_options(config))  # {} or {"action_cards": True} (SPEC §44.1)
        except ValueError as exc:
            raise GameRuleError(str(exc)) from None

    def to_move(self, state: State) -> int | None:
        return to_move(state)

    # the turn clock (SPEC §29.20): the game's own moves for a seat out of time, in order
    # of preference, and which turn it is (a new one resets every seat's clock)
    TIMEOUT_MOVES = ("pass",)

    def timeout_action(self, state, seat: int) -> str | None:
        return declared_pass(self, state, seat, self.TIMEOUT_MOVES)

    def turn_of(self, state) -> tuple:
        return (state.turns, state.seat)

    def pending_chance(self, state: State) -> DeckRequest:
        raise GameRuleError("Space Walk has no chance: no deck operation is ever due")

    def read(self, text: str) -> Action:
        """The action of a canonical action text: one action, one log text (SPEC §47)."""
        try:
            action = parse_action(text)
        except SpaceWalkError as exc:
            raise GameRuleError(str(exc)) from None
        if action.text() != text:
            raise GameRuleError(f"{text!r} is not in canonical notation ({action.text()!r})")
        return action

    def apply_action(self, state: State, seat: int, action: Action | str) -> None:
        """The session passes what `read` returned; another caller may pass the text."""
        if seat == CHANCE:
            raise GameRuleError("Space Walk has no chance events")
        action = self.read(action) if isinstance(action, str) else action
        try:
            apply(state, seat, action)
        except SpaceWalkError as exc:
            raise GameRuleError(str(exc)) from None

    def chance_outcome(self, state: State, request: DeckRequest,
                       revealed: Sequence[tuple[int, str]]) -> str:
        raise GameRuleError("Space Walk has no chance events")

    def revealed_cards(self, state: State, seat: int, action: Action | str) -> list[tuple[int, str]]:
        if isinstance(action, str):
            self.read(action)
        return []  # every card is public (SPEC §41.2)

    def copy_state(self, state: State) -> State:
        """A copy the session keeps while an action may be taken back (SPEC §29.17)."""
        return state.clone()

    def state_hash(self, state: State) -> bytes:
        return bytes.fromhex(state.hash())

    def deck_labels(self) -> tuple[str, ...]:
        return ()

    def result(self, state: State) -> dict:
        return result(state)

    def new_view(self, seat: int) -> SeatView:
        return SeatView(seat)

    def learn(self, view: SeatView, handle: int, label: str) -> None:
        raise GameRuleError("Space Walk deals no hidden cards")
