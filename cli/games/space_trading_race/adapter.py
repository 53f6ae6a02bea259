"""Space Trading Race behind the session's GameRules interface (SPEC §59.2).

The only module that knows both protocol/ and space_trading_race/. The missions are a
mental-poker deck: the engine's handles 0..19 are the session's handles, shuffled from the
public labels "mission:<slug>", dealt one to a seat privately, and shown with a proof when
claimed. The dice are the session's fair dice (SPEC §33.8): each roll is two six-sided dice
drawn from every active seat's hash chain, the engine's roller opening last.
"""
from __future__ import annotations

from typing import Sequence

from cli.games.table import game_options
from cli.games.clock_moves import declared_pass
from protocol.session import CHANCE, DeckRequest, DiceRequest, GameRuleError
from space_trading_race import TradingRaceError, apply, leave, new_game, parse_action, to_move
from space_trading_race.actions import Action, ChanceDeal, ChanceDice, ChanceShuffle, Claim
from space_trading_race.missions import MISSION_SLUGS
from space_trading_race.state import CHANCE as ENGINE_CHANCE
from space_trading_race.state import ChanceRequest, State
from space_trading_race.view import PlayerView

from .outcome import result_of

__all__ = ["RULES_NAME", "TradingRaceRules", "mission_label"]

# /1 dice from decks of faces; /3 ristretto255; /4 hand-over by refresh (§59.5), takebacks, the clock pass
RULES_NAME = "space-trading-race/5"
assert ENGINE_CHANCE == CHANCE
MISSION_PREFIX = "mission"


def mission_label(slug: str) -> str:
    return f"{MISSION_PREFIX}:{slug}"


def _parse(text: str):
    try:
        action = parse_action(text)
    except TradingRaceError as exc:
        raise GameRuleError(str(exc)) from None
    if action.text() != text:   # one action, one log text
        raise GameRuleError(f"{text!r} is not in canonical notation ({action.text()!r})")
    return action


class TradingRaceRules:
    name = RULES_NAME

    def new_state(self, players: int, config: dict) -> State:
        try:
            return new_game(players, game_options(config))
        except ValueError as exc:
            raise GameRuleError(str(exc)) from None

    def to_move(self, state: State) -> int | None:
        return to_move(state)

    # the turn clock (SPEC §29.20): the game's own moves for a seat out of time, in order
    # of preference, and which turn it is (a new one resets every seat's clock)
    TIMEOUT_MOVES = ("end", "pass", "reject", "decline", "keep")

    def timeout_action(self, state, seat: int) -> str | None:
        return declared_pass(self, state, seat, self.TIMEOUT_MOVES)

    def turn_of(self, state) -> tuple:
        return (state.turns, state.seat)

    def pending_chance(self, state: State) -> DeckRequest | DiceRequest:
        if not state.pending:
            raise GameRuleError("no chance request is due")
        request = state.pending[0]
        if request.kind == "shuffle":
            return DeckRequest("shuffle", "missions", tuple(state.deck),
                               labels=tuple(mission_label(s) for s in MISSION_SLUGS))
        if request.kind == "deal":
            return DeckRequest("deal", "missions", (request.handle,), request.seat)
        return DiceRequest(ChanceRequest.DICE_SIDES, ChanceRequest.DICE_COUNT, request.seat)

    def read(self, text: str) -> Action:
        """The action of a canonical action text: one action, one log text (SPEC §57.1)."""
        return _parse(text)

    def apply_action(self, state: State, seat: int, action: Action | str) -> None:
        """The session passes what `read` returned; another caller may pass the text."""
        action = _parse(action) if isinstance(action, str) else action
        try:
            apply(state, seat, action)
        except TradingRaceError as exc:
            raise GameRuleError(str(exc)) from None

    def chance_outcome(self, state: State, request: DeckRequest | DiceRequest, revealed: Sequence) -> str:
        """A roll's outcome from its faces (`revealed` holds them for a DiceRequest); a
        shuffle or deal of the missions names the engine's request."""
        if isinstance(request, DiceRequest):
            if len(revealed) != 2 or not all(isinstance(f, int) and 1 <= f <= 6 for f in revealed):
                raise GameRuleError(f"a roll is two dice of 1 to 6, not {tuple(revealed)!r}")
            return ChanceDice(revealed[0], revealed[1]).text()
        if request.kind == "shuffle":
            return ChanceShuffle().text()
        return ChanceDeal(request.seat, request.handles[0]).text()

    def revealed_cards(self, state: State, seat: int, action: Action | str) -> list[tuple[int, str]]:
        action = _parse(action) if isinstance(action, str) else action
        if isinstance(action, Claim) and action.handle not in state.names:
            return [(action.handle, mission_label(action.mission))]   # proved from the deal's shares
        return []

    def departed(self, state: State) -> tuple[int, ...]:
        """Seats out of the game (bankrupt, disabled, left): the session stops polling them
        once each has handed its part of the mission pile over (SPEC §26.13, §59.5)."""
        return tuple(s for s in range(state.players) if not state.alive[s])

    def hidden_handles(self, state: State) -> tuple[int, ...]:
        """The missions that may still be dealt: the pile. Hands are dealt already, and a
        seat that is out retires its own card unseen (SPEC §56.3)."""
        return tuple(state.deck)

    def can_forfeit(self, state: State, seat: int, lost: Sequence[int]) -> bool:
        """A seat the session removes for withholding a die link (SPEC §26.14, §59.6) may go
        when the game is in play, it is still in, and every card that needed its share is in
        the pile or is its own mission: those leave play unseen, the game goes on."""
        return (state.phase == "play" and not state.over and 0 <= seat < state.players and state.alive[seat]
                and all(h in state.deck or h == state.hand[seat] for h in lost))

    def forfeit(self, state: State, seat: int, lost: Sequence[int]) -> None:
        """The pile cards only the seat's share could open are retired unseen (no exchange
        can deal them), then the seat leaves as the engine's `leave` says (SPEC §56.5)."""
        if not self.can_forfeit(state, seat, lost):
            raise GameRuleError(f"seat {seat} cannot forfeit now")
        gone = [h for h in state.deck if h in lost]
        state.deck = [h for h in state.deck if h not in lost]
        state.retired.extend(gone)
        try:
            leave(state, seat)
        except TradingRaceError as exc:
            raise GameRuleError(str(exc)) from None
    def copy_state(self, state: State) -> State:
        """A copy the session keeps while an action may be taken back (SPEC §29.17)."""
        return state.clone()

    def state_hash(self, state: State) -> bytes:
        return bytes.fromhex(state.hash())

    def deck_labels(self) -> tuple[str, ...]:
        return tuple(mission_label(s) for s in MISSION_SLUGS)

    def result(self, state: State) -> dict:
        return result_of(state)

    def new_view(self, seat: int) -> PlayerView:
        return PlayerView(seat)

    def learn(self, view: PlayerView, handle: int, label: str) -> None:
        prefix, _, slug = label.partition(":")
        if prefix == MISSION_PREFIX and slug in MISSION_SLUGS:
            view.learn(handle, slug)
