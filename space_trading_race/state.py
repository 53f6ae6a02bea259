"""The whole public state of a Space Trading Race game (SPEC §52).

Missions are handles (SPEC §53.1): `hand[seat]` holds a handle, `deck` the pile's handles
from the top; an identity is public (`names`) only once a claim revealed it. Money, deeds,
laser tokens and ships are public. Seats that are out stay in the lists, `alive` False.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, fields

from .board import EARTH, N_SPACES
from .deeds import DEEDS, GROUP_DEEDS

MIN_PLAYERS, MAX_PLAYERS = 2, 4
STARTING_CASH = 10 + 50 + 100 + 500 + 1000          # one note of each, SPEC §52.2
STARTING_TOKENS = 1
LASER_TOKENS = 36
MISSION_CARDS = 20
DEFAULT_TIME_LIMIT = 60                              # rounds (SPEC §56.4)
MAX_TIME_LIMIT = 500
MAX_OFFERS_PER_TURN = 2                              # SPEC §55.1
BANK = -1                                            # a creditor or owner that is the Federation
CHANCE = -1                                          # to_move while a chance outcome is due


@dataclass(frozen=True)
class ChanceRequest:
    """What chance must answer next: `dice` (two six-sided dice, for `purpose` move, fuel or
    shot, rolled by `seat`), `shuffle` of the mission pile, or `deal` of one mission handle to
    `seat` (SPEC §53.2)."""
    DICE_SIDES = 6
    DICE_COUNT = 2
    kind: str
    purpose: str = ""
    seat: int = -1
    handle: int = -1

    def plain(self) -> list:
        return [self.kind, self.purpose, self.seat, self.handle]


@dataclass
class State:
    players: int
    time_limit: int
    cash: list[int]
    tokens: list[int]
    bank_tokens: int
    pos: list[int]
    landed: list[bool]          # the ship rests on its space (not bypassed beside it)
    alive: list[bool]
    out: list[str]              # why a seat is out: "", "bankrupt", "disabled" or "left"
    stuck: list[bool]           # landed on Amalthea: must roll 5 or more to leave (SPEC §54.6)
    laps: list[int]             # times moved onto Earth
    hits: list[int]             # laser shots that damaged at least one ship
    owner: list[int]            # by deed: seat or BANK
    deck: list[int]             # mission handles, top first
    hand: list[int]             # by seat: mission handle, -1 when out
    names: dict[int, str] = field(default_factory=dict)      # revealed missions
    retired: list[int] = field(default_factory=list)         # missions of seats that are out
    phase: str = "setup"        # setup, play, over
    seat: int = 0               # whose turn
    stage: str = ""             # roll, choose, buy, exchange, pick, free-fire, settle, after
    doubles: bool = False       # the move being resolved came from doubles
    last_roll: tuple[int, int] | None = None
    pending: list[ChanceRequest] = field(default_factory=list)
    shots: list[int] | None = None        # [space, shots left] of a laser being fired
    shield: list[int] = field(default_factory=list)          # targets still polled after a 12
    victims: list[int] = field(default_factory=list)         # every ship a 12 hit
    debts: list[list[int]] = field(default_factory=list)     # [debtor, creditor, amount left]
    offer: tuple | None = None            # (offerer, Offer) awaiting an answer
    offers_made: int = 0
    round: int = 1
    turns: int = 0
    step: int = 0
    visits: list[int] = field(default_factory=list)          # moves ended on each space
    winners: list[int] = field(default_factory=list)
    end: str = ""

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def deeds_of(self, seat: int) -> list[int]:
        return [d for d, o in enumerate(self.owner) if o == seat]

    def count_in_group(self, seat: int, group: str) -> int:
        return sum(1 for d in GROUP_DEEDS[group] if self.owner[d] == seat)

    def deed_value(self, seat: int) -> int:
        return sum(DEEDS[d].price for d in self.deeds_of(seat))

    def assets(self, seat: int) -> int:
        """Federons plus the face value of every deed held (SPEC §56.4)."""
        return self.cash[seat] + self.deed_value(seat)

    def alive_seats(self) -> list[int]:
        return [s for s in range(self.players) if self.alive[s]]

    def on_earth(self, seat: int) -> bool:
        return self.pos[seat] == EARTH

    def clone(self) -> "State":
        copy = State(**{f.name: getattr(self, f.name) for f in fields(self)})
        for name in ("cash", "tokens", "pos", "landed", "alive", "out", "stuck", "laps", "hits", "owner", "deck",
                     "hand", "retired", "pending", "shield", "victims", "visits", "winners"):
            setattr(copy, name, list(getattr(self, name)))
        copy.names = dict(self.names)
        copy.debts = [list(d) for d in self.debts]
        copy.shots = None if self.shots is None else list(self.shots)
        return copy

    def plain(self) -> dict:
        """Every field as JSON-able data in a fixed order: the input of the state hash."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "names":
                value = sorted([h, n] for h, n in value.items())
            elif f.name == "pending":
                value = [r.plain() for r in value]
            elif f.name == "offer":
                value = None if value is None else [value[0], value[1].text()]
            elif f.name == "last_roll":
                value = None if value is None else list(value)
            out[f.name] = value
        return out

    def hash(self) -> str:
        """SHA-256 of the canonical JSON of plain() (SPEC §52.3)."""
        text = json.dumps(self.plain(), separators=(",", ":"), sort_keys=True, ensure_ascii=True)
        return hashlib.sha256(b"space-trading-race/state\0" + text.encode()).hexdigest()


def read_config(config: dict | None) -> int:
    """The time limit in rounds from a config map (SPEC §56.4): {} or {"time_limit": N}."""
    config = dict(config or {})
    limit = config.pop("time_limit", DEFAULT_TIME_LIMIT)
    if config:
        raise ValueError(f"Space Trading Race has no option {sorted(config)[0]!r} (only time_limit)")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_TIME_LIMIT:
        raise ValueError(f"time_limit is a number of rounds from 1 to {MAX_TIME_LIMIT}")
    return limit


def new_game(players: int, config: dict | None = None) -> State:
    """A game at setup: every ship on Earth, the mission pile to shuffle and deal (SPEC §52.2)."""
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Space Trading Race is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}")
    n = players
    state = State(players=n, time_limit=read_config(config), cash=[STARTING_CASH] * n,
                  tokens=[STARTING_TOKENS] * n, bank_tokens=LASER_TOKENS - STARTING_TOKENS * n,
                  pos=[EARTH] * n, landed=[True] * n, alive=[True] * n, out=[""] * n, stuck=[False] * n, laps=[0] * n,
                  hits=[0] * n, owner=[BANK] * len(DEEDS), deck=list(range(MISSION_CARDS)), hand=[-1] * n,
                  visits=[0] * N_SPACES)
    state.pending = [ChanceRequest("shuffle")] + [ChanceRequest("deal", seat=s, handle=s) for s in range(n)]
    return state
