"""The whole public state of a Space Walk game (SPEC §41): there is nothing hidden in it.

A ship is `(rank, seat)`: size rank (0 large, 1 medium, 2 small) and owner. Ships of one
size and colour are interchangeable, so a square is a sorted list of such pairs.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from enum import StrEnum

from .orbit import (CARD_COUNTS, MAX_PLAYERS, MIN_PLAYERS, SHIPS_PER_SIZE, SIZES, Orbit, orbit_for,
                    tokens_for)

Ship = tuple[int, int]
VARIANTS = ("basic", "action-cards")


class Phase(StrEnum):
    """The game's phases (SPEC §41); the values are the words the state hash has always held."""
    PLACE = "place"
    PLAY = "play"
    OVER = "over"


class Due(StrEnum):
    """What the seat to move owes now (SPEC §42-§44); NOTHING once the game is over."""
    PLACE = "place"       # a ship placed
    TURN = "turn"         # a regular turn
    SECOND = "second"     # the second group move of a `twice` card
    WINDOW = "window"     # the token window: a token used or passed
    NOTHING = ""


@dataclass
class State:
    players: int
    variant: str
    orbit: Orbit
    squares: list[list[Ship]]
    reserve: list[list[int]]            # per seat: ships not yet placed, by size rank
    tokens: list[int]
    phase: Phase = Phase.PLACE
    seat: int = 0                       # who places, or whose regular turn it is
    due: Due = Due.PLACE
    window: list[int] = field(default_factory=list)   # seats still to poll (SPEC §43.2)
    extra_turn_seat: int | None = None  # the mover, while it may still take a token turn
    token_used: list[bool] = field(default_factory=list)  # this round (SPEC §43.3)
    hands: list[list[int]] = field(default_factory=list)     # variant: cards in hand by kind
    discards: list[list[int]] = field(default_factory=list)  # variant: own face-up pile
    last_effect: list[str | None] = field(default_factory=list)  # variant: for copy (SPEC §44.3)
    lost: list[list[int]] = field(default_factory=list)     # per seat: ships lost, by size rank
    turns: int = 0                      # regular turns begun
    events: int = 0                     # actions applied
    scores: list[int] | None = None
    winners: list[int] = field(default_factory=list)
    end: str = ""                       # why the game ended

    @property
    def over(self) -> bool:
        return self.phase == Phase.OVER

    @property
    def action_cards(self) -> bool:
        return self.variant == "action-cards"

    def ships_in_orbit(self, seat: int) -> list[tuple[int, int]]:
        """(square, rank) of every ship of `seat`, by square then size."""
        return [(sq, rank) for sq, ships in enumerate(self.squares) for rank, s in ships if s == seat]

    def clone(self) -> "State":
        return State(self.players, self.variant, self.orbit, [list(s) for s in self.squares],
                     [list(r) for r in self.reserve], list(self.tokens), self.phase, self.seat,
                     self.due, list(self.window), self.extra_turn_seat, list(self.token_used),
                     [list(h) for h in self.hands], [list(d) for d in self.discards],
                     list(self.last_effect), [list(x) for x in self.lost], self.turns, self.events,
                     None if self.scores is None else list(self.scores), list(self.winners), self.end)

    def plain(self) -> dict:
        """Every field as JSON-able plain data, keys fixed: the input of the state hash."""
        return {"players": self.players, "variant": self.variant, "orbit": self.orbit.name,
                "squares": [[list(s) for s in ships] for ships in self.squares],
                "reserve": self.reserve, "tokens": self.tokens, "phase": self.phase,
                "seat": self.seat, "due": self.due, "window": self.window,
                "extra_turn_seat": self.extra_turn_seat, "token_used": self.token_used,
                "hands": self.hands, "discards": self.discards, "last_effect": self.last_effect,
                "lost": self.lost, "turns": self.turns, "events": self.events,
                "scores": self.scores, "winners": self.winners, "end": self.end}

    def hash(self) -> str:
        """SHA-256 of the canonical JSON of plain() (SPEC §41.3): the same under any PYTHONHASHSEED."""
        text = json.dumps(self.plain(), separators=(",", ":"), sort_keys=True, ensure_ascii=True)
        return hashlib.sha256(b"space-walk/state\0" + text.encode()).hexdigest()


def read_config(config: dict | None) -> str:
    """The variant named by a session config map (SPEC §44.1): {} or {"action_cards": True}."""
    config = dict(config or {})
    cards = config.pop("action_cards", False)
    if config:
        raise ValueError(f"Space Walk has no option {sorted(config)[0]!r} (only action_cards)")
    if not isinstance(cards, bool):
        raise ValueError("action_cards is true or false")
    return "action-cards" if cards else "basic"


def new_game(players: int, config: dict | None = None) -> State:
    """A game before the placement round (SPEC §42.1): every ship in its owner's reserve."""
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Space Walk is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}")
    variant = read_config(config)
    orbit = orbit_for(players)
    cards = variant == "action-cards"
    return State(
        players, variant, orbit,
        squares=[[] for _ in range(orbit.length)],
        reserve=[[SHIPS_PER_SIZE] * len(SIZES) for _ in range(players)],
        tokens=[0 if cards else tokens_for(players)] * players,
        token_used=[False] * players,
        hands=[list(CARD_COUNTS) if cards else [] for _ in range(players)],
        discards=[[0] * len(CARD_COUNTS) if cards else [] for _ in range(players)],
        last_effect=[None] * players,
        lost=[[0] * len(SIZES) for _ in range(players)],
    )
