"""The small typed interface through which the session drives a game (SPEC §26.1).

The session knows nothing of the game: it asks who moves, what deck operation is due,
what hidden cards an action claims, and applies actions. An action travels as text; the
session reads each text once (`read`) and hands the action it got to `revealed_cards`
and `apply_action`. A game adapter (for Amazing Space Venture: cli/games/asv/adapter.py)
implements GameRules.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

from protocol.session.phases import DeckOp

__all__ = ["CHANCE", "DeckRequest", "GameRules", "GameRuleError", "Agent", "agent_record"]

CHANCE = -1   # to_move() value while a deck operation (a chance node) is due


class GameRuleError(ValueError):
    """Raised by a GameRules implementation when the game refuses an action text."""


@dataclass(frozen=True)
class DeckRequest:
    """One deck operation the game waits for (SPEC §26.4).

    kind "shuffle": `handles` (fresh) are filled by shuffling either the public `labels`
    (a new deck) or the cards now under the `source` handles (a reshuffle). `face_up`
    gives the public label of source handles that no deck ever held (a card that lay face
    up from the setup on): those enter the reshuffle as public encryptions (SPEC §26.4).
    kind "reveal": the cards under `handles` become public.
    kind "deal": the cards under `handles` are revealed to `seat` alone.
    """
    kind: DeckOp    # given as the string or the member; kept as the member
    deck: str
    handles: tuple[int, ...]
    seat: int | None = None
    labels: tuple[str, ...] | None = None
    source: tuple[int, ...] | None = None
    face_up: tuple[tuple[int, str], ...] = ()

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "kind", DeckOp(self.kind))
        except ValueError:
            raise ValueError(f"unknown deck request kind {self.kind!r}") from None
        if self.kind == DeckOp.DEAL and self.seat is None:
            raise ValueError("a deal names the receiving seat")
        if self.kind == DeckOp.SHUFFLE:
            n = len(self.labels) if self.labels is not None else len(self.source or ())
            if (self.labels is None) == (self.source is None) or n != len(self.handles):
                raise ValueError("a shuffle fills its handles from labels or from source handles")


@dataclass(frozen=True)
class DiceRequest:
    """A roll the game waits for (SPEC §33.8): `count` dice of `sides` sides, opened last by
    `roller` (None: plain seat order). Returned by `pending_chance` beside DeckRequests; the
    session draws it from every active seat's dice chain, and `chance_outcome` gets the
    faces as `revealed`, a tuple of ints."""
    sides: int
    count: int
    roller: int | None = None

    def __post_init__(self) -> None:
        if not 2 <= self.sides <= 2 ** 32 or not 1 <= self.count <= 64:
            raise ValueError("a roll is 1 to 64 dice of 2 to 2^32 sides")


# An agent picks the next action text for its seat from the public state and its own view.
# A network peer (protocol.node) calls it in a worker thread, as it may think for seconds,
# unless the agent says it answers at once with an attribute `thinks = False`. An agent that
# answers at once may also say it is *remade alike* (SPEC §23.4) with an attribute `record`,
# a codec map naming it (a bot's kind and seed): it is then called as
# agent(state, view, seq=seq) and promises an answer that is a function of those and of its
# record alone, so a peer rebuilt from its log, with the same agent, writes the same action.
Agent = Callable[..., str]


def agent_record(agent: Any) -> dict | None:
    """The record of a remade-alike agent (see Agent), or None for any other."""
    record = getattr(agent, "record", None)
    if record is None or getattr(agent, "thinks", True):
        return None
    return record


class GameRules(Protocol):
    """What the session needs from a game. States and views are opaque to the session;
    the session mutates a state only through apply_action."""

    name: str

    def new_state(self, players: int, config: dict) -> Any: ...

    def to_move(self, state: Any) -> int | None:
        """The seat to act, CHANCE while a deck operation is due, None when over."""

    def pending_chance(self, state: Any) -> DeckRequest: ...

    def read(self, text: str) -> Any:
        """The action an action text stands for (the game's own value; a game whose actions
        are their texts returns the text). Raise GameRuleError for text that is not one
        action in canonical notation (one action, one text: logs stay canonical). It reads
        the text alone, never a state; the session reads each event's text once, and may
        hand one action to apply_action twice (the same text twice in a row): an action
        is a value that applying never changes."""

    def apply_action(self, state: Any, seat: int, action: Any) -> None:
        """Apply one action, as `read` returned it (seat CHANCE for outcomes); raise
        GameRuleError if refused, leaving the state unchanged."""

    def chance_outcome(self, state: Any, request: DeckRequest,
                       revealed: Sequence[tuple[int, str]]) -> str:
        """The action text that completes `request`; `revealed` holds (handle, label)
        for a public reveal and is empty otherwise."""

    def revealed_cards(self, state: Any, seat: int, action: Any) -> list[tuple[int, str]]:
        """(handle, label) of every hidden card the action (as `read` returned it) claims
        to play; the session demands a proof for each."""

    def state_hash(self, state: Any) -> bytes: ...

    def deck_labels(self) -> Sequence[str]:
        """Every distinct label any card of any deck can carry (the public card table)."""

    def result(self, state: Any) -> dict: ...

    def new_view(self, seat: int) -> Any: ...

    def learn(self, view: Any, handle: int, label: str) -> None: ...

    # Optional: `copy_state(state)`, an independent copy of a state. The session keeps one
    # from before the head action while it may be taken back (SPEC §29.17); without it the
    # session uses copy.deepcopy.
