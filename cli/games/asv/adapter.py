"""Amazing Space Venture behind the session's GameRules interface (SPEC §27).

The only module that knows both protocol/ and p2p_asv/. Card labels on the public card
table are "card:<name>", "tile:<tile id>" and "quest:<name>", so no two decks share a
label and a card of one deck can never pass for another.
"""
from __future__ import annotations

from typing import Sequence

from cli.games.table import game_options
from p2p_asv import actions as A
from p2p_asv import engine
from p2p_asv.cards import REFUEL_DECK, SPACE_PORT_DECK, STARTING_SHIP
from p2p_asv.endgame import result
from p2p_asv.errors import EngineError
from p2p_asv.quests import QUEST_DECK
from p2p_asv.setup import new_game
from p2p_asv.state import CHANCE as ENGINE_CHANCE
from p2p_asv.state import GameState
from p2p_asv.tiles import SPACE_TILES
from p2p_asv.view import PlayerView
from cli.games.clock_moves import declared_pass
from protocol.session import CHANCE, DeckRequest, GameRuleError

__all__ = ["AsvRules", "RULES_NAME", "label_for", "name_of"]

RULES_NAME = "amazing-space-venture/10"
PREFIX = {"tiles": "tile", "refuel": "card", "port": "card", "quests": "quest", "roles": "card",
          "peek": "card", "look": "card", "hand": "card"}
assert ENGINE_CHANCE == CHANCE

# Action types that play a card from the hand, naming it (SPEC §27.3).
_NAMED = (A.NewShip, A.Upgrade, A.AttachExtra, A.Discover, A.BinaryDiscover, A.PlayEnvironment,
          A.PlayExplorer, A.Teleport, A.PlayRookie, A.PlaySpecial)


def label_for(deck: str, name: str) -> str:
    return f"{PREFIX[deck]}:{name}"


def name_of(label: str) -> tuple[str, str]:
    """(prefix, name) of a label."""
    prefix, _, name = label.partition(":")
    return prefix, name


def _parse(text: str):
    try:
        action = engine.parse_action(text)
    except EngineError as exc:
        raise GameRuleError(str(exc)) from None
    if action.text() != text:  # one action, one text: logs stay canonical
        raise GameRuleError(f"{text!r} is not in canonical notation ({action.text()!r})")
    return action


def _action(action):
    """The session passes what `read` returned; a caller outside it (a test, a tool) may
    pass the text, which is read here."""
    return _parse(action) if isinstance(action, str) else action


class AsvRules:
    name = RULES_NAME

    def new_state(self, players: int, config: dict) -> GameState:
        try:
            return new_game(players, game_options(config))  # the variants (SPEC §13); no turn clock
        except ValueError as exc:
            raise GameRuleError(str(exc)) from None

    def to_move(self, state: GameState) -> int | None:
        return engine.to_move(state)

    # the turn clock (SPEC §29.20): the game's own moves for a seat out of time, in order
    # of preference, and which turn it is (a new one resets every seat's clock)
    TIMEOUT_MOVES = ("next", "pass")

    def timeout_action(self, state, seat: int) -> str | None:
        return declared_pass(self, state, seat, self.TIMEOUT_MOVES)

    def turn_of(self, state) -> tuple:
        return (state.turn, state.active)

    def pending_chance(self, state: GameState) -> DeckRequest:
        r = engine.chance_request(state)
        labels = None if r.contents is None else tuple(label_for(r.deck, n) for n in r.contents)
        source = None if r.source is None else tuple(r.source)
        # a starting Star-T card lay face up and was never in a deck; destroyed, it goes to
        # Space Junk and may be reshuffled: it enters as its public label (SPEC §27.3)
        face_up = () if source is None else tuple(
            (h, label_for("refuel", state.names[h])) for h in source if h in state.names)
        return DeckRequest(r.kind, r.deck, tuple(r.handles), r.seat, labels, source, face_up)

    def read(self, text: str) -> A.Action:
        """The action of a canonical action text (SPEC §27.2); the session reads each once."""
        return _parse(text)

    def apply_action(self, state: GameState, seat: int, action: A.Action | str) -> None:
        action = _action(action)
        try:
            engine.apply(state, seat, action)
        except EngineError as exc:
            raise GameRuleError(str(exc)) from None

    def chance_outcome(self, state: GameState, request: DeckRequest,
                       revealed: Sequence[tuple[int, str]]) -> str:
        if request.kind == "shuffle":
            return A.ChanceShuffle(request.deck).text()
        if request.kind == "deal":
            return A.ChanceDeal(request.seat, request.handles).text()
        cards = []
        for handle, label in revealed:
            prefix, name = name_of(label)
            if prefix != PREFIX[request.deck]:
                raise GameRuleError(f"#{handle} of {request.deck} is a {prefix}, not a {PREFIX[request.deck]}")
            cards.append((handle, name))
        return A.ChanceReveal(tuple(cards)).text()

    def revealed_cards(self, state: GameState, seat: int, action: A.Action | str) -> list[tuple[int, str]]:
        action = _action(action)
        if isinstance(action, A.ScoreQuest):  # a quest comes from the hidden quest deck
            return [] if action.card in state.names else [(action.card, label_for("quests", action.name))]
        if isinstance(action, _NAMED):
            named = [(action.card, action.name)]
        elif isinstance(action, A.PlayLifeForms):
            named = list(action.cards)
        else:
            return []
        return [(h, label_for("refuel", n)) for h, n in named if h not in state.names]

    def copy_state(self, state: GameState) -> GameState:
        """A copy the session keeps while an action may be taken back (SPEC §29.17)."""
        return state.clone()

    def state_hash(self, state: GameState) -> bytes:
        return bytes.fromhex(state.hash())

    def deck_labels(self) -> tuple[str, ...]:
        cards = sorted(set(REFUEL_DECK) | set(SPACE_PORT_DECK) | {STARTING_SHIP})
        return (tuple(label_for("refuel", n) for n in cards)
                + tuple(label_for("tiles", t) for t in sorted(set(SPACE_TILES)))
                + tuple(label_for("quests", q) for q in sorted(set(QUEST_DECK))))

    def result(self, state: GameState) -> dict:
        return result(state)

    def new_view(self, seat: int) -> PlayerView:
        return PlayerView(seat)

    def learn(self, view: PlayerView, handle: int, label: str) -> None:
        prefix, name = name_of(label)
        if prefix in ("card", "quest"):  # a misplaced tile label teaches nothing
            view.learn(handle, name)
