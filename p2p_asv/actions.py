"""Actions as small immutable values with a text notation that round-trips (SPEC §11).

Cards and tiles are named by handle: `#12`, or `#12:fighter-ship` when the action reveals
what the handle is (a played card). Squares are `D-4`; a feature on a square is `D-4/1`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .errors import MalformedAction
from .geometry import Square, parse_square, square_name

DECKS = ("refuel", "port")


def is_number(text: str) -> bool:
    """ASCII digits only: str.isdigit() also accepts '²', which int() then refuses."""
    return text.isascii() and text.isdigit()


@lru_cache(maxsize=1024)   # a few hundred names, slugged for every listed action's text
def slug(name: str) -> str:
    """Card or tile name to a notation token: lower case, runs of other characters to '-'."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower().replace("'", "")).strip("-")


@dataclass(frozen=True, order=True)
class DrawTile:
    pile: int                                  # 0-based; notation is 1-based

    def text(self) -> str:
        return f"draw-tile {self.pile + 1}"


@dataclass(frozen=True, order=True)
class PlaceTile:
    tile: int
    square: Square
    rotation: int

    def text(self) -> str:
        return f"place #{self.tile} {square_name(self.square)} r{self.rotation}"


@dataclass(frozen=True, order=True)
class ScrapTile:
    tile: int

    def text(self) -> str:
        return f"scrap #{self.tile}"


@dataclass(frozen=True, order=True)
class NewShip:
    card: int
    name: str
    square: Square

    def text(self) -> str:
        return f"ship #{self.card}:{slug(self.name)} {square_name(self.square)}"


@dataclass(frozen=True, order=True)
class Upgrade:
    ship: int
    card: int
    name: str

    def text(self) -> str:
        return f"upgrade s{self.ship} #{self.card}:{slug(self.name)}"


@dataclass(frozen=True, order=True)
class AttachExtra:
    ship: int
    card: int
    name: str
    evict: str = ""      # Fleet Admiral on Captain Rookie's ship: "port" or "sN" (SPEC §15.6)

    def text(self) -> str:
        tail = f" {self.evict}" if self.evict else ""
        return f"extra s{self.ship} #{self.card}:{slug(self.name)}{tail}"


@dataclass(frozen=True, order=True)
class PlaceProbe:
    square: Square
    part: int

    def text(self) -> str:
        return f"probe {square_name(self.square)}/{self.part}"


@dataclass(frozen=True, order=True)
class PlaceStation:
    square: Square

    def text(self) -> str:
        return f"station {square_name(self.square)}"


@dataclass(frozen=True, order=True)
class PlacePirate:
    square: Square
    segment: int

    def text(self) -> str:
        return f"pirate {square_name(self.square)}/{self.segment}"


@dataclass(frozen=True, order=True)
class ScoreStation:
    square: Square

    def text(self) -> str:
        return f"score-station {square_name(self.square)}"


@dataclass(frozen=True, order=True)
class ScoreQuest:
    card: int                                  # a quest handle the seat holds
    name: str

    def text(self) -> str:
        return f"quest #{self.card}:{slug(self.name)}"


@dataclass(frozen=True, order=True)
class Move:
    ship: int
    square: Square

    def text(self) -> str:
        return f"move s{self.ship} {square_name(self.square)}"


@dataclass(frozen=True, order=True)
class Discover:
    card: int
    name: str
    planet: int                                # which planet of the tile (0 unless it has two)

    def text(self) -> str:
        return f"discover #{self.card}:{slug(self.name)} {self.planet}"


@dataclass(frozen=True, order=True)
class BinaryDiscover:
    """Binary System's second discovery: a planet joined to the first by a path (SPEC §8.9)."""
    card: int
    name: str
    square: Square
    planet: int

    def text(self) -> str:
        return f"binary #{self.card}:{slug(self.name)} {square_name(self.square)}/{self.planet}"


@dataclass(frozen=True, order=True)
class PlayEnvironment:
    card: int
    name: str

    def text(self) -> str:
        return f"env #{self.card}:{slug(self.name)}"


@dataclass(frozen=True, order=True)
class PlayLifeForms:
    cards: tuple[tuple[int, str], ...]         # several only for Plasma Spores (SPEC §8.1)

    def text(self) -> str:
        return "life " + " ".join(f"#{c}:{slug(n)}" for c, n in self.cards)


@dataclass(frozen=True, order=True)
class PlayExplorer:
    card: int
    name: str

    def text(self) -> str:
        return f"explorer #{self.card}:{slug(self.name)}"


@dataclass(frozen=True, order=True)
class Pass:
    def text(self) -> str:
        return "pass"


@dataclass(frozen=True, order=True)
class Discard:
    cards: tuple[int, ...]

    def text(self) -> str:
        return "discard " + " ".join(f"#{c}" for c in self.cards)


@dataclass(frozen=True, order=True)
class DrawCard:
    deck: str                                  # "refuel" or "port"

    def text(self) -> str:
        return f"draw {self.deck}"


@dataclass(frozen=True, order=True)
class Peek:
    """Madam Maxine's look at the top two cards of both decks (role-play, SPEC §13.3)."""
    def text(self) -> str:
        return "peek"


@dataclass(frozen=True, order=True)
class TakePeeked:
    card: int

    def text(self) -> str:
        return f"take #{self.card}"


@dataclass(frozen=True, order=True)
class LookAutomata:
    """Automata: look at the top four Space Port cards (SPEC §8.10)."""
    def text(self) -> str:
        return "automata"


@dataclass(frozen=True, order=True)
class Keep:
    cards: tuple[int, ...]                     # one or two of the cards the Automata showed

    def text(self) -> str:
        return "keep " + " ".join(f"#{c}" for c in self.cards)


@dataclass(frozen=True, order=True)
class Bank:
    """City of Banks: a blind card from `seat`'s reshuffled hand, at `position` (SPEC §8.10)."""
    seat: int
    position: int                              # 0-based; notation is 1-based

    def text(self) -> str:
        return f"bank {self.seat} {self.position + 1}"


@dataclass(frozen=True, order=True)
class BankGive:
    """City of Banks: the card the banker gives back for the one it took (SPEC §8.10)."""
    card: int

    def text(self) -> str:
        return f"give #{self.card}"


@dataclass(frozen=True, order=True)
class Fire:
    """A Laser Beam fires instead of moving (SPEC §15.4). kind "ship": `index` is the target
    ship; "probe"/"pirate": the piece on `square`/`index`; "station": the station on `square`."""
    ship: int
    kind: str
    square: Square = (0, 0)
    index: int = 0

    def text(self) -> str:
        if self.kind == "ship":
            return f"fire s{self.ship} s{self.index}"
        if self.kind == "station":
            return f"fire s{self.ship} station {square_name(self.square)}"
        return f"fire s{self.ship} {self.kind} {square_name(self.square)}/{self.index}"


@dataclass(frozen=True, order=True)
class Torpedo:
    """A Photon Torpedo blasts the pirate on `square`/`segment` off its path (SPEC §15.5)."""
    ship: int
    square: Square
    segment: int

    def text(self) -> str:
        return f"torpedo s{self.ship} {square_name(self.square)}/{self.segment}"


@dataclass(frozen=True, order=True)
class Plunder:
    """Pirate Crew: a blind card from `seat`'s reshuffled hand, at `position` (SPEC §15.7)."""
    seat: int
    position: int                              # 0-based; notation is 1-based

    def text(self) -> str:
        return f"plunder {self.seat} {self.position + 1}"


@dataclass(frozen=True, order=True)
class PlayRookie:
    """Captain Rookie from hand onto another seat's ship (SPEC §15.6)."""
    card: int
    name: str
    ship: int

    def text(self) -> str:
        return f"rookie #{self.card}:{slug(self.name)} s{self.ship}"


@dataclass(frozen=True, order=True)
class Reassign:
    """Captain Rookie moves from the mover's ship `source` to another seat's ship `target`."""
    source: int
    target: int

    def text(self) -> str:
        return f"reassign s{self.source} s{self.target}"


@dataclass(frozen=True, order=True)
class Escape:
    """A doomed ship flees within its M-number to a discovered planet (Black Hole, SPEC §15.2)."""
    ship: int
    square: Square

    def text(self) -> str:
        return f"escape s{self.ship} {square_name(self.square)}"


@dataclass(frozen=True, order=True)
class Teleport:
    """A Teleport card saves a doomed ship: it jumps to one of its owner's home planets (SPEC §15.2)."""
    ship: int
    card: int
    name: str
    square: Square

    def text(self) -> str:
        return f"teleport s{self.ship} #{self.card}:{slug(self.name)} {square_name(self.square)}"


@dataclass(frozen=True, order=True)
class PlaySpecial:
    """A Special Action card, on a seat's own turn or in a response window (SPEC §14).

    `args` are canonical tokens whose meaning depends on the card: a seat `@2`, a ship `s3`,
    a handle `#7`, a square `D-4`, a planet or feature `D-4/0`, or a word (`tile`, `discard`).
    """
    card: int
    name: str
    args: tuple[str, ...] = ()

    def text(self) -> str:
        return " ".join([f"special #{self.card}:{slug(self.name)}", *self.args])


@dataclass(frozen=True, order=True)
class Pick:
    """Cards taken by handle: from Space Junk (The Scavenger) or blind from a reshuffled hand
    (Trading Post), SPEC §14.9."""
    cards: tuple[int, ...]

    def text(self) -> str:
        return "pick " + " ".join(f"#{c}" for c in self.cards)


@dataclass(frozen=True, order=True)
class Next:
    """End the current phase (from phase 5: end the turn)."""
    def text(self) -> str:
        return "next"


# -- chance outcomes (SPEC §10.2), written by the dealer or the protocol ---------------------
@dataclass(frozen=True, order=True)
class ChanceShuffle:
    deck: str

    def text(self) -> str:
        return f"chance shuffle {self.deck}"


@dataclass(frozen=True, order=True)
class ChanceReveal:
    cards: tuple[tuple[int, str], ...]         # (handle, identity) made public

    def text(self) -> str:
        return "chance reveal " + " ".join(f"#{h}:{slug(n)}" for h, n in self.cards)


@dataclass(frozen=True, order=True)
class ChanceDeal:
    seat: int
    cards: tuple[int, ...]                     # handles whose identity reached `seat` alone

    def text(self) -> str:
        return f"chance deal {self.seat} " + " ".join(f"#{h}" for h in self.cards)


CHANCE_ACTIONS = (ChanceShuffle, ChanceReveal, ChanceDeal)
Action = (DrawTile | PlaceTile | ScrapTile | NewShip | Upgrade | AttachExtra | PlaceProbe
          | PlaceStation | PlacePirate | ScoreStation | ScoreQuest | Move | Discover | BinaryDiscover | PlayEnvironment
          | PlayLifeForms | PlayExplorer | Pass | Discard | DrawCard | Peek | TakePeeked | LookAutomata | Keep | Bank | BankGive | Escape | Teleport | Fire | Torpedo | Plunder
          | PlayRookie | Reassign | PlaySpecial | Pick | Next | ChanceShuffle
          | ChanceReveal | ChanceDeal)


def sort_key(action) -> str:
    return action.text()


# -- parsing ----------------------------------------------------------------------------------
def _handle(token: str) -> int:
    m = re.fullmatch(r"#([0-9]+)", token)
    if not m:
        raise MalformedAction(f"expected a handle like #12, got {token!r}")
    return int(m.group(1))


def _named(token: str, resolve) -> tuple[int, str]:
    m = re.fullmatch(r"#([0-9]+):([a-z0-9-]+)", token)
    if not m:
        raise MalformedAction(f"expected a named handle like #12:water, got {token!r}")
    return int(m.group(1)), resolve(m.group(2))


def _position(token: str) -> int:
    """A hand position, written from 1, kept from 0."""
    position = _int(token) - 1
    if position < 0:
        raise MalformedAction("hand positions are numbered from 1")
    return position


def _square(token: str) -> Square:
    try:
        return parse_square(token)
    except ValueError as exc:
        raise MalformedAction(str(exc)) from None


def _feature(token: str) -> tuple[Square, int]:
    sq, sep, idx = token.partition("/")
    if not sep or not is_number(idx):
        raise MalformedAction(f"expected a square and a part like D-4/0, got {token!r}")
    return _square(sq), int(idx)


def _ship(token: str) -> int:
    m = re.fullmatch(r"s([0-9]+)", token)
    if not m:
        raise MalformedAction(f"expected a ship like s1, got {token!r}")
    return int(m.group(1))


def _int(token: str) -> int:
    if not is_number(token):
        raise MalformedAction(f"expected a number, got {token!r}")
    return int(token)


def _expect(args: list[str], n: int, verb: str) -> None:
    if len(args) != n:
        raise MalformedAction(f"{verb!r} takes {n} argument(s), got {len(args)}")


SPECIAL_WORDS = ("tile", "piece", "move", "discard")


def special_token(token: str) -> str:
    """One argument of a Special Action in canonical form (SPEC §14.1), or MalformedAction."""
    if re.fullmatch(r"@[0-9]+", token):
        return f"@{int(token[1:])}"
    if re.fullmatch(r"s[0-9]+", token):
        return f"s{_ship(token)}"
    if token.startswith("#"):
        return f"#{_handle(token)}"
    if token in SPECIAL_WORDS:
        return token
    if "/" in token:
        sq, part = _feature(token)
        return f"{square_name(sq)}/{part}"
    return square_name(_square(token))


def parse(text: str, resolve_name=None):
    """Parse notation back into an action. `resolve_name(slug) -> name` maps a slug to the
    card or tile name (the engine passes its catalogue); without it slugs stay as they are."""
    resolve = resolve_name or (lambda s: s)
    words = text.split()
    if not words:
        raise MalformedAction("empty action")
    verb, args = words[0], words[1:]
    try:
        if verb == "draw-tile":
            _expect(args, 1, verb)
            pile = _int(args[0]) - 1
            if pile < 0:
                raise MalformedAction("piles are numbered from 1")
            return DrawTile(pile)
        if verb == "place":
            _expect(args, 3, verb)
            if not re.fullmatch(r"r[0-3]", args[2]):
                raise MalformedAction(f"rotation must be r0..r3, got {args[2]!r}")
            return PlaceTile(_handle(args[0]), _square(args[1]), int(args[2][1]))
        if verb == "scrap":
            _expect(args, 1, verb)
            return ScrapTile(_handle(args[0]))
        if verb == "ship":
            _expect(args, 2, verb)
            return NewShip(*_named(args[0], resolve), _square(args[1]))
        if verb == "upgrade":
            _expect(args, 2, verb)
            return Upgrade(_ship(args[0]), *_named(args[1], resolve))
        if verb == "extra":
            if len(args) not in (2, 3):
                raise MalformedAction(f"'extra' takes 2 or 3 arguments, got {len(args)}")
            evict = ""
            if len(args) == 3:
                evict = args[2] if args[2] == "port" else f"s{_ship(args[2])}"
            return AttachExtra(_ship(args[0]), *_named(args[1], resolve), evict)
        if verb == "fire":
            if len(args) == 2:
                return Fire(_ship(args[0]), "ship", index=_ship(args[1]))
            _expect(args, 3, verb)
            if args[1] == "station":
                return Fire(_ship(args[0]), "station", _square(args[2]))
            if args[1] not in ("probe", "pirate"):
                raise MalformedAction(f"a Laser Beam fires at a ship, probe, pirate or station, not {args[1]!r}")
            return Fire(_ship(args[0]), args[1], *_feature(args[2]))
        if verb == "torpedo":
            _expect(args, 2, verb)
            return Torpedo(_ship(args[0]), *_feature(args[1]))
        if verb == "plunder":
            _expect(args, 2, verb)
            return Plunder(_int(args[0]), _position(args[1]))
        if verb == "rookie":
            _expect(args, 2, verb)
            return PlayRookie(*_named(args[0], resolve), _ship(args[1]))
        if verb == "reassign":
            _expect(args, 2, verb)
            return Reassign(_ship(args[0]), _ship(args[1]))
        if verb == "probe":
            _expect(args, 1, verb)
            return PlaceProbe(*_feature(args[0]))
        if verb == "station":
            _expect(args, 1, verb)
            return PlaceStation(_square(args[0]))
        if verb == "pirate":
            _expect(args, 1, verb)
            return PlacePirate(*_feature(args[0]))
        if verb == "score-station":
            _expect(args, 1, verb)
            return ScoreStation(_square(args[0]))
        if verb == "quest":
            _expect(args, 1, verb)
            return ScoreQuest(*_named(args[0], resolve))
        if verb == "move":
            _expect(args, 2, verb)
            return Move(_ship(args[0]), _square(args[1]))
        if verb == "discover":
            _expect(args, 2, verb)
            return Discover(*_named(args[0], resolve), _int(args[1]))
        if verb == "binary":
            _expect(args, 2, verb)
            return BinaryDiscover(*_named(args[0], resolve), *_feature(args[1]))
        if verb == "env":
            _expect(args, 1, verb)
            return PlayEnvironment(*_named(args[0], resolve))
        if verb == "life":
            if not args:
                raise MalformedAction("'life' needs at least one card")
            return PlayLifeForms(tuple(_named(a, resolve) for a in args))
        if verb == "explorer":
            _expect(args, 1, verb)
            return PlayExplorer(*_named(args[0], resolve))
        if verb == "pass":
            _expect(args, 0, verb)
            return Pass()
        if verb == "discard":
            if not args:
                raise MalformedAction("'discard' needs at least one card")
            return Discard(tuple(_handle(a) for a in args))
        if verb == "draw":
            _expect(args, 1, verb)
            if args[0] not in DECKS:
                raise MalformedAction(f"draw from 'refuel' or 'port', not {args[0]!r}")
            return DrawCard(args[0])
        if verb == "peek":
            _expect(args, 0, verb)
            return Peek()
        if verb == "take":
            _expect(args, 1, verb)
            return TakePeeked(_handle(args[0]))
        if verb == "automata":
            _expect(args, 0, verb)
            return LookAutomata()
        if verb == "keep":
            if not 1 <= len(args) <= 2:
                raise MalformedAction("'keep' takes one or two cards")
            return Keep(tuple(_handle(a) for a in args))
        if verb == "bank":
            _expect(args, 2, verb)
            return Bank(_int(args[0]), _position(args[1]))
        if verb == "give":
            _expect(args, 1, verb)
            return BankGive(_handle(args[0]))
        if verb == "escape":
            _expect(args, 2, verb)
            return Escape(_ship(args[0]), _square(args[1]))
        if verb == "teleport":
            _expect(args, 3, verb)
            return Teleport(_ship(args[0]), *_named(args[1], resolve), _square(args[2]))
        if verb == "pick":
            if not args:
                raise MalformedAction("'pick' needs at least one card")
            return Pick(tuple(_handle(a) for a in args))
        if verb == "special":
            if not args:
                raise MalformedAction("'special' needs a card like #12:time-warp")
            return PlaySpecial(*_named(args[0], resolve), tuple(special_token(a) for a in args[1:]))
        if verb == "next":
            _expect(args, 0, verb)
            return Next()
        if verb == "chance" and args:
            sub, rest = args[0], args[1:]
            if sub == "shuffle":
                _expect(rest, 1, "chance shuffle")
                return ChanceShuffle(rest[0])
            if sub == "reveal" and rest:
                return ChanceReveal(tuple(_named(a, resolve) for a in rest))
            if sub == "deal" and len(rest) >= 2:
                return ChanceDeal(_int(rest[0]), tuple(_handle(a) for a in rest[1:]))
    except KeyError as exc:
        raise MalformedAction(f"unknown name in {text!r}: {exc.args[0]}") from None
    raise MalformedAction(f"unknown action {text!r}")
