"""Public game state (SPEC §10): everything every peer knows, handles instead of hidden identities."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum

from .board import Board
from .geometry import Square
from .variants import Variants

# the state hash's JSON (SPEC §10.4); check_circular=False: the same text, a little sooner
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=True, check_circular=False)
_C_ENCODE = getattr(json.encoder, "c_make_encoder", None)
if _C_ENCODE is not None:
    # The C encoder that JSONEncoder.encode builds on every call (for a list or dict, never a
    # bare str here), with the same arguments, built once: the building costs about a
    # microsecond a call, as much as encoding a small member, and a hash makes 3 to 8 calls.
    _C_ENCODE = _C_ENCODE(None, _ENCODER.default, json.encoder.encode_basestring_ascii, None, ":", ",",
                          False, False, True)

    def _encode(value: object) -> str:
        return "".join(_C_ENCODE(value, 0))
else:   # a Python without the C accelerator
    def _encode(value: object) -> str:
        return _ENCODER.encode(value)

CHANCE = -1  # to_move() value when the next event is a chance outcome (SPEC §10.2)

class Phase(IntEnum):
    """Phases of a turn (SPEC §6.1); SETUP is before the first turn, OVER after the last.
    Numbered, because the turn walks through them in order and the state hash holds the
    number (an IntEnum hashes and prints as its number, so no hash changed with it)."""
    SETUP = 0
    TILES = 1
    PLACE_PIECE = 2
    MOVE = 3
    DISCARD = 4
    REFILL = 5
    OVER = 6

    @property
    def label(self) -> str:
        """The phase's word in board text and help: tiles, pieces, move, ..."""
        return _PHASE_LABELS[self]


_PHASE_LABELS = {Phase.SETUP: "setup", Phase.TILES: "tiles", Phase.PLACE_PIECE: "pieces", Phase.MOVE: "move",
                 Phase.DISCARD: "discard", Phase.REFILL: "refill", Phase.OVER: "over"}
SETUP, TILES, PLACE_PIECE, MOVE, DISCARD, REFILL, OVER = Phase
PHASE_NAMES = {p: p.label for p in Phase}


class Stage(StrEnum):
    """The steps of a discovery (SPEC §8.1-§8.2, §8.9); the values are the words the state
    hash has always held."""
    PLANET = "planet"             # the mover lands: a planet card is due
    ENVIRONMENT = "environment"   # the environment offer
    LIFE_FORM = "life_form"       # the life form offer
    EXPLORER = "explorer"         # scored: the discoverer's explorers
    BINARY = "binary"             # Binary System's second discovery, before the explorers


class Window(StrEnum):
    """The kinds of window on the poll stack (SPEC §14.2, §14.5, §8.2, §14.9); the values are
    the words the state hash has always held."""
    RESPOND = "respond"           # a card played: the others may answer it
    MOVED = "moved"               # moments (SPEC §14.5): right after a move,
    PLANET = "planet"             # a planet card,
    ENV = "env"                   # a negative environment,
    LIFE = "life"                 # a life form play,
    SCORED = "scored"             # a scored planet
    ENVIRONMENT = "environment"   # the discovery's offers (SPEC §8.2)
    LIFE_FORM = "life_form"
    ESPIONAGE = "espionage"       # one-seat follow-ups that must be answered (SPEC §14.9)
    SCAVENGE = "scavenge"
    TRADE = "trade"


@dataclass
class Ship:
    id: int
    owner: int
    card: int                  # handle of the ship card in use
    name: str                  # that card's name (public once played)
    square: Square
    extras: list[str] = field(default_factory=list)
    extra_cards: list[int] = field(default_factory=list)

    def copy(self) -> "Ship":
        return Ship(self.id, self.owner, self.card, self.name, self.square,
                    list(self.extras), list(self.extra_cards))


@dataclass
class PlanetRecord:
    """A discovered planet: its owner, disk size and the cards scored on it."""
    owner: int
    home: bool
    cards: list[str] = field(default_factory=list)

    def copy(self) -> "PlanetRecord":
        return PlanetRecord(self.owner, self.home, list(self.cards))


@dataclass
class Player:
    seat: int
    colour: str
    score: int = 0
    hand: list[int] = field(default_factory=list)
    probes: list[tuple[Square, int]] = field(default_factory=list)
    stations: list[Square] = field(default_factory=list)
    pirates: list[tuple[Square, int]] = field(default_factory=list)
    quests: list[int] = field(default_factory=list)      # quest handles, hidden from the others
    pile: list[str] = field(default_factory=list)        # personal discard pile (public names)
    continuing: list[str] = field(default_factory=list)  # continuing-effect cards in front of the player
    breakdown: dict[str, int] = field(default_factory=dict)
    role: str | None = None                              # role-play variant: this seat's explorer

    def copy(self) -> "Player":
        return Player(self.seat, self.colour, self.score, list(self.hand), list(self.probes),
                      list(self.stations), list(self.pirates), list(self.quests), list(self.pile),
                      list(self.continuing), dict(self.breakdown), self.role)

    def gain(self, points: int, reason: str) -> None:
        self.score += points
        self.breakdown[reason] = self.breakdown.get(reason, 0) + points


@dataclass
class ChanceRequest:
    """A deck operation the engine waits for (SPEC §10.2); the outcome arrives as a chance action.

    kind "shuffle": deck `deck` now holds `handles` (fresh), filled from `contents` (public names)
    or from the identities of `source` (retired handles, e.g. Space Junk).
    kind "reveal": the identities of `handles` become public.
    kind "deal": the identities of `handles` are revealed to `seat` alone.
    """
    kind: str
    deck: str
    handles: tuple[int, ...]
    seat: int | None = None
    contents: tuple[str, ...] | None = None
    source: tuple[int, ...] | None = None

    def plain(self) -> list:
        return [self.kind, self.deck, list(self.handles), self.seat,
                None if self.contents is None else list(self.contents),
                None if self.source is None else list(self.source)]


@dataclass
class Discovery:
    """A discovery in progress (SPEC §8.1)."""
    planet: tuple[Square, int]
    discoverer: int
    ship: int
    tile_value: int
    planet_card: str
    environment: str | None = None
    life_forms: list[str] = field(default_factory=list)
    stage: Stage = Stage.ENVIRONMENT   # planet -> environment -> life_form -> explorer (the offers are polls)
    scored: int = 0

    def copy(self) -> "Discovery":
        return Discovery(self.planet, self.discoverer, self.ship, self.tile_value, self.planet_card,
                         self.environment, list(self.life_forms), self.stage, self.scored)


@dataclass
class Doom:
    """Ships a card is destroying, each waiting for its owner's answer (SPEC §15.2).

    ships: still to answer, in poll order; escape: the owner may also flee within the ship's
    M-number (Black Hole); cards_to: where a lost ship's cards go, "junk" or "pile"; cause: the
    card's name, for messages.
    """
    ships: list[int]
    escape: bool
    cards_to: str
    cause: str

    def copy(self) -> "Doom":
        return Doom(list(self.ships), self.escape, self.cards_to, self.cause)

    def plain(self) -> list:
        return [self.ships, self.escape, self.cards_to, self.cause]


@dataclass
class Poll:
    """A response window (SPEC §14.2): `seats` are asked in order, each passing or playing a card.

    kind "respond": the Special Action `action` (played by `seat`, on the seats in `targets`)
    waits for answers. Any other kind is a moment at which out-of-turn cards may be played
    (SPEC §14.5); a card played there is that seat's answer. `resume` names what the
    interrupted turn does once the window is gone.
    """
    kind: Window
    seat: int
    seats: tuple[int, ...]
    action: object = None
    targets: tuple[int, ...] = ()
    asked: int = 0
    resume: str | None = None

    def copy(self) -> "Poll":
        return Poll(self.kind, self.seat, self.seats, self.action, self.targets, self.asked, self.resume)

    def plain(self) -> list:
        return [self.kind, self.seat, list(self.seats), None if self.action is None else self.action.text(),
                list(self.targets), self.asked, self.resume]


@dataclass
class GameState:
    players: list[Player]
    board: Board
    piles: list[list[int]]
    decks: dict[str, list[int]]               # "refuel", "port", "junk", "quests"
    names: dict[int, str]                     # publicly revealed identities of handles
    next_handle: int
    tiles_per_turn: int
    ships: dict[int, Ship] = field(default_factory=dict)
    next_ship: int = 1
    planets: dict[tuple[Square, int], PlanetRecord] = field(default_factory=dict)
    pending: list[ChanceRequest] = field(default_factory=list)
    active: int = 0
    phase: Phase = SETUP
    turn: int = 0
    step: int = 0
    tiles_owed: int = 0
    drawn: list[int] = field(default_factory=list)
    placed_this_turn: list[Square] = field(default_factory=list)
    piece_placed: bool = False
    moved: bool = False
    moved_ship: int = 0
    discovery: Discovery | None = None
    suns_drawn: int = 0
    winners: list[int] = field(default_factory=list)
    variants: Variants = field(default_factory=Variants)
    victory: str | None = None                  # how the game was won when not on points
    peeked: list[int] = field(default_factory=list)  # Madam Maxine's look this turn (SPEC §13.3)
    peek_used: bool = False
    automata_seen: list[int] = field(default_factory=list)  # SPEC §8.10
    automata_used: bool = False
    bank_used: bool = False
    bank_owed: int | None = None               # City of Banks took from this seat; a card is owed back
    webs: list[Square] = field(default_factory=list)  # tiles under an Electromagnetic Web (SPEC §8.8)
    energy: int = 0                             # Advanced Strategy (SPEC §13.5)
    closed_phases: list[Phase] = field(default_factory=list)
    phase_used: bool = False
    doom: Doom | None = None                    # ships being destroyed (SPEC §15.2)
    black_disks: list[Square] = field(default_factory=list)  # Supernova: no landing (SPEC §15.1)
    # Space Ship Extras (SPEC §15.3-§15.8), all reset when a turn starts:
    turn_actions: list[str] = field(default_factory=list)  # verbs the active seat used this turn
    only_action: str | None = None              # an Only Action was taken: nothing but tiles and next
    fresh_extras: list[int] = field(default_factory=list)  # extra cards attached this turn
    torpedo_ship: int = 0                       # a Photon Torpedo fired: only this ship may still move,
    torpedo_to: list[Square] = field(default_factory=list)  # and only to these squares
    plunder_from: list[int] = field(default_factory=list)   # seats a Pirate Crew may take from now
    polls: list[Poll] = field(default_factory=list)       # open response windows, innermost last (SPEC §14.2)
    specials_used: list[int] = field(default_factory=list)  # seats that played their one Special Action this turn
    sneak: bool = False                         # Sneak Attack: no responses to the active seat this turn
    busy: bool = False                          # the active seat did something besides tiles this turn
    skips: list[int] = field(default_factory=list)  # Shift of Funds: seats that miss their next turn
    meteor: list = field(default_factory=list)  # Meteor Shower: [square, planet, seat] frozen until seat's next turn
    terraformed: bool = False                   # Terra-Form turned this discovery's environment positive
    # (a copy of names, their JSON) for canonical_json; not part of the state
    _names_json: tuple[dict[int, str], str] | None = field(default=None, init=False, repr=False, compare=False)
    # (value, its JSON) of each player's row, the ships and the planets, for canonical_json
    _kept_json: list[tuple[object, str]] = field(default_factory=list, init=False, repr=False, compare=False)

    # -- queries -------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.phase == OVER

    def tiles_left(self) -> int:
        return sum(len(p) for p in self.piles)

    def ships_of(self, seat: int) -> list[Ship]:
        return [s for _, s in sorted(self.ships.items()) if s.owner == seat]

    def clone(self) -> "GameState":
        """An independent copy; the engine mutates in place, so take one to keep the old state."""
        return GameState(
            players=[p.copy() for p in self.players], board=self.board.clone(),
            piles=[list(p) for p in self.piles], decks={k: list(v) for k, v in self.decks.items()},
            names=dict(self.names), next_handle=self.next_handle, tiles_per_turn=self.tiles_per_turn,
            ships={k: s.copy() for k, s in self.ships.items()}, next_ship=self.next_ship,
            planets={k: r.copy() for k, r in self.planets.items()}, pending=list(self.pending),
            active=self.active, phase=self.phase, turn=self.turn, step=self.step,
            tiles_owed=self.tiles_owed, drawn=list(self.drawn),
            placed_this_turn=list(self.placed_this_turn), piece_placed=self.piece_placed,
            moved=self.moved, moved_ship=self.moved_ship, discovery=self.discovery.copy() if self.discovery else None,
            suns_drawn=self.suns_drawn, winners=list(self.winners), variants=self.variants,
            victory=self.victory, peeked=list(self.peeked), peek_used=self.peek_used,
            energy=self.energy, closed_phases=list(self.closed_phases), phase_used=self.phase_used,
            webs=list(self.webs), automata_seen=list(self.automata_seen),
            automata_used=self.automata_used, bank_used=self.bank_used, bank_owed=self.bank_owed,
            doom=self.doom.copy() if self.doom else None, black_disks=list(self.black_disks),
            turn_actions=list(self.turn_actions), only_action=self.only_action,
            fresh_extras=list(self.fresh_extras), torpedo_ship=self.torpedo_ship,
            torpedo_to=list(self.torpedo_to), plunder_from=list(self.plunder_from),
            polls=[p.copy() for p in self.polls], specials_used=list(self.specials_used), sneak=self.sneak,
            busy=self.busy, skips=list(self.skips), meteor=list(self.meteor), terraformed=self.terraformed)

    # -- hashing (SPEC §10.4) ------------------------------------------------------------------
    def plain(self) -> dict:
        """Plain, ordered data describing the whole public state."""
        return self._plain(self.board.state_items(), sorted(self.names.items()))

    def _plain(self, board: object, names: object) -> dict:
        return {
            # players, ships and planets copy the state's lists: canonical_json keeps them
            "players": [[p.seat, p.colour, p.score, list(p.hand), [list(x) for x in p.probes],
                         [list(x) for x in p.stations], [list(x) for x in p.pirates], list(p.quests),
                         list(p.pile), list(p.continuing), sorted(p.breakdown.items()), p.role]
                        for p in self.players],
            "board": board,
            "piles": self.piles,
            "decks": sorted(self.decks.items()),
            "names": names,
            "next_handle": self.next_handle,
            "ships": [[s.id, s.owner, s.card, s.name, list(s.square), list(s.extras), list(s.extra_cards)]
                      for _, s in sorted(self.ships.items())],
            "planets": [[list(k[0]), k[1], r.owner, r.home, list(r.cards)]
                        for k, r in sorted(self.planets.items())],
            "pending": [r.plain() for r in self.pending],
            "variants": [self.variants.plain(), self.victory, self.peeked, self.peek_used,
                         self.energy, self.closed_phases, self.phase_used],
            "webs": [list(sq) for sq in self.webs],
            "effects": [self.automata_seen, self.automata_used, self.bank_used, self.bank_owed],
            "destruction": [None if self.doom is None else self.doom.plain(),
                            [list(sq) for sq in self.black_disks]],
            "extras": [self.turn_actions, self.only_action, self.fresh_extras, self.torpedo_ship,
                       [list(sq) for sq in self.torpedo_to], self.plunder_from],
            "specials": [[p.plain() for p in self.polls], self.specials_used, self.sneak,
                         self.busy, self.skips, [[list(m[0]), m[1], m[2]] for m in self.meteor],
                         self.terraformed],
            "turn": [self.active, self.phase, self.turn, self.step, self.tiles_owed, self.drawn,
                     [list(s) for s in self.placed_this_turn], self.piece_placed, self.moved, self.moved_ship,
                     self.suns_drawn, self.winners, self.tiles_per_turn, self.next_ship],
            "discovery": None if self.discovery is None else [
                list(self.discovery.planet[0]), self.discovery.planet[1], self.discovery.discoverer,
                self.discovery.ship, self.discovery.tile_value, self.discovery.planet_card,
                self.discovery.environment, self.discovery.life_forms, self.discovery.stage,
                self.discovery.scored],
        }

    def hash(self) -> str:
        """SHA-256 of the canonical JSON of plain(): equal on every peer, any PYTHONHASHSEED."""
        return hashlib.sha256(self.canonical_json().encode()).hexdigest()

    def canonical_json(self) -> str:
        """`json.dumps(self.plain(), separators=(",", ":"), ensure_ascii=True)`, byte for byte
        (SPEC §10.4), made cheaper: a verifier hashes the state after every event, and most
        events change little. The board and the public names are encoded again only when
        they changed, and so is each player's row, the ships and the planets (kept beside
        their text and compared: _plain copies every list of theirs, so a kept value never
        changes with the state). The rest is encoded in pieces without the circular-reference
        check (the plain data is a tree). A JSON object is its members' texts joined by
        commas in braces, and an array its items' texts, so the pieces join to the same text."""
        names = self.names
        memo = self._names_json
        if memo is None or memo[0] != names:
            memo = self._names_json = (dict(names), _encode(sorted(names.items())))
        doc = self._plain(None, None)
        kept = self._kept_json
        rows = doc.pop("players")
        if len(kept) != len(rows) + 2:
            kept[:] = [(None, "")] * (len(rows) + 2)
        texts = []
        for i, value in enumerate([*rows, doc.pop("ships"), doc.pop("planets")]):
            if kept[i][0] != value:
                kept[i] = (value, _encode(value))
            texts.append(kept[i][1])
        doc.pop("board")
        middle = {k: doc.pop(k) for k in ("piles", "decks")}
        doc.pop("names")
        head = {"next_handle": doc.pop("next_handle")}
        return ('{"players":[' + ",".join(texts[:-2]) + '],"board":' + self.board.state_items_json(_encode) + ","
                + _encode(middle)[1:-1] + ',"names":' + memo[1] + "," + _encode(head)[1:-1]
                + ',"ships":' + texts[-2] + ',"planets":' + texts[-1] + "," + _encode(doc)[1:])
