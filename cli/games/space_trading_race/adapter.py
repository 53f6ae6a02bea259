"""Space Trading Race behind the session's GameRules interface (SPEC §59.2).

The only module that knows both protocol/ and space_trading_race/. The missions are a
mental-poker deck: the engine's handles 0..19 are the session's handles, shuffled from the
public labels "mission:<slug>", dealt one to a seat privately, and shown with a proof when
claimed. Dice come from the session's decks as well, until the fair dice of SPEC §33.8 are
wired: each die is a fresh public deck of the six faces "die:1".."die:6", shuffled by every
seat with its proof, and the top card of each die's deck is revealed to the table (§59.2
says what that promises). The dice's progress through those three deck operations is the
adapter's own bookkeeping on the state (`dice_progress`), outside the engine's hash: every
replica runs the same operations in the same order, so they all agree on it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from cli.games.table import game_options
from protocol.session import CHANCE, DeckRequest, GameRuleError
from space_trading_race import TradingRaceError, apply, new_game, parse_action, to_move
from space_trading_race.actions import ChanceDeal, ChanceDice, ChanceShuffle, Claim
from space_trading_race.missions import MISSION_SLUGS
from space_trading_race.state import CHANCE as ENGINE_CHANCE
from space_trading_race.state import State
from space_trading_race.view import PlayerView

from .outcome import result_of

__all__ = ["RULES_NAME", "TradingRaceRules", "mission_label", "DIE_FACES", "DICE_HANDLE_BASE"]

RULES_NAME = "space-trading-race/1"
assert ENGINE_CHANCE == CHANCE
MISSION_PREFIX, DIE_PREFIX = "mission", "die"
DIE_FACES = 6
DICE_HANDLE_BASE = 1000          # die decks' handles, apart from the missions' 0..19
DICE_DECKS = ("die-a", "die-b")  # one deck a die: two shuffles, then one reveal of both tops


def mission_label(slug: str) -> str:
    return f"{MISSION_PREFIX}:{slug}"


def die_label(face: int) -> str:
    return f"{DIE_PREFIX}:{face}"


@dataclass
class DiceProgress:
    """How far the dice of the current roll are: `rolls` finished so far (the handles of the
    next roll's decks follow from it), `stage` 0 (shuffle die a), 1 (shuffle die b), 2 (reveal)."""
    rolls: int = 0
    stage: int = 0

    def handles(self, die: int) -> tuple[int, ...]:
        start = DICE_HANDLE_BASE + (2 * self.rolls + die) * DIE_FACES
        return tuple(range(start, start + DIE_FACES))


def dice_progress(state: State) -> DiceProgress:
    progress = getattr(state, "dice_progress", None)
    if progress is None:
        progress = DiceProgress()
        state.dice_progress = progress   # type: ignore[attr-defined]
    return progress


def _parse(text: str):
    try:
        action = parse_action(text)
    except TradingRaceError as exc:
        raise GameRuleError(str(exc)) from None
    if action.text() != text:   # one action, one log text
        raise GameRuleError(f"{text!r} is not in canonical notation ({action.text()!r})")
    return action


DIE_SHUFFLED = "die shuffled"    # the adapter's own chance text: a die's deck is ready


class TradingRaceRules:
    name = RULES_NAME

    def new_state(self, players: int, config: dict) -> State:
        try:
            return new_game(players, game_options(config))
        except ValueError as exc:
            raise GameRuleError(str(exc)) from None

    def to_move(self, state: State) -> int | None:
        return to_move(state)

    def pending_chance(self, state: State) -> DeckRequest:
        if not state.pending:
            raise GameRuleError("no chance request is due")
        request = state.pending[0]
        if request.kind == "shuffle":
            return DeckRequest("shuffle", "missions", tuple(state.deck),
                               labels=tuple(mission_label(s) for s in MISSION_SLUGS))
        if request.kind == "deal":
            return DeckRequest("deal", "missions", (request.handle,), request.seat)
        progress = dice_progress(state)
        if progress.stage < len(DICE_DECKS):
            return DeckRequest("shuffle", DICE_DECKS[progress.stage], progress.handles(progress.stage),
                               labels=tuple(die_label(f) for f in range(1, DIE_FACES + 1)))
        return DeckRequest("reveal", "dice", (progress.handles(0)[0], progress.handles(1)[0]))

    def apply_action(self, state: State, seat: int, text: str) -> None:
        if seat == CHANCE and text == DIE_SHUFFLED:
            progress = dice_progress(state)
            if not state.pending or state.pending[0].kind != "dice" or progress.stage >= len(DICE_DECKS):
                raise GameRuleError("no die is being shuffled")
            progress.stage += 1
            return
        action = _parse(text)
        try:
            apply(state, seat, action)
        except TradingRaceError as exc:
            raise GameRuleError(str(exc)) from None
        if isinstance(action, ChanceDice):
            progress = dice_progress(state)
            progress.rolls, progress.stage = progress.rolls + 1, 0

    def chance_outcome(self, state: State, request: DeckRequest,
                       revealed: Sequence[tuple[int, str]]) -> str:
        if request.deck == "missions":
            if request.kind == "shuffle":
                return ChanceShuffle().text()
            return ChanceDeal(request.seat, request.handles[0]).text()
        if request.kind == "shuffle":
            return DIE_SHUFFLED
        faces = []
        for handle, label in revealed:
            prefix, _, face = label.partition(":")
            if prefix != DIE_PREFIX or face not in {str(f) for f in range(1, DIE_FACES + 1)}:
                raise GameRuleError(f"#{handle} of the dice is {label!r}, not a die's face")
            faces.append(int(face))
        if len(faces) != 2:
            raise GameRuleError(f"a roll reveals two dice, not {len(faces)}")
        return ChanceDice(faces[0], faces[1]).text()

    def revealed_cards(self, state: State, seat: int, text: str) -> list[tuple[int, str]]:
        if seat == CHANCE and text == DIE_SHUFFLED:
            return []
        action = _parse(text)
        if isinstance(action, Claim) and action.handle not in state.names:
            return [(action.handle, mission_label(action.mission))]   # proved from the deal's shares
        return []

    def state_hash(self, state: State) -> bytes:
        return bytes.fromhex(state.hash())

    def deck_labels(self) -> tuple[str, ...]:
        return (tuple(mission_label(s) for s in MISSION_SLUGS)
                + tuple(die_label(f) for f in range(1, DIE_FACES + 1)))

    def result(self, state: State) -> dict:
        return result_of(state)

    def new_view(self, seat: int) -> PlayerView:
        return PlayerView(seat)

    def learn(self, view: PlayerView, handle: int, label: str) -> None:
        prefix, _, slug = label.partition(":")
        if prefix == MISSION_PREFIX and slug in MISSION_SLUGS:   # a die's face teaches nothing
            view.learn(handle, slug)
