"""Actions as small immutable values with a text notation that round-trips (SPEC §11).

Cards and tiles are named by handle: `#12`, or `#12:fighter-ship` when the action reveals
what the handle is (a played card). Squares are `D-4`; a feature on a square is `D-4/1`.

Each class owns its notation, as python-chess's moves do: its VERB, the FORMS its arguments
take (for completion and help), `text()` and `from_args()`, which reads the words after the
verb. `parse` dispatches through `PARSERS`, a table built from the classes, and `verbs()`
gives the REPL the verbs and their argument shapes. Shapes: `N` a number, `#H` a handle,
`#H:NAME` a named card, `SQ` a square, `SQ/P` a feature on it, `sN` a ship, `@N` a seat,
`rR` a rotation, `ARG` a Special Action token (§14.1); any other word is literal; a shape
ending in `...` may repeat.
"""
from __future__ import annotations

import dataclasses
import operator
import re
from dataclasses import dataclass
from typing import ClassVar, dataclass_transform

from . import notation as T
from .errors import MalformedAction
from .geometry import Square, square_name
from .notation import SPECIAL_WORDS, Resolve, is_number, slug, special_token

__all__ = ["DECKS", "SPECIAL_WORDS", "is_number", "slug", "special_token", "parse", "verbs",
           "sort_key", "PARSERS", "PLAYER_ACTIONS", "CHANCE_ACTIONS", "Action",
           "DrawTile", "PlaceTile", "ScrapTile", "NewShip", "Upgrade", "AttachExtra",
           "PlaceProbe", "PlaceStation", "PlacePirate", "ScoreStation", "ScoreQuest", "Move",
           "Discover", "BinaryDiscover", "PlayEnvironment", "PlayLifeForms", "PlayExplorer",
           "Pass", "Discard", "DrawCard", "Peek", "TakePeeked", "LookAutomata", "Keep", "Bank",
           "BankGive", "Fire", "Torpedo", "Plunder", "PlayRookie", "Reassign", "Escape",
           "Teleport", "PlaySpecial", "Pick", "Next", "ChanceShuffle", "ChanceReveal",
           "ChanceDeal"]

DECKS = ("refuel", "port")
Forms = tuple[tuple[str, ...], ...]


def _comparison(compare):
    def method(self, other):
        if other.__class__ is self.__class__:
            return compare(self._order_key(), other._order_key())
        return NotImplemented
    method.__name__ = f"__{compare.__name__}__"
    return method


_ORDER_METHODS = {f"__{op.__name__}__": _comparison(op) for op in (operator.lt, operator.le, operator.gt, operator.ge)}


@dataclass_transform(frozen_default=True, order_default=True)
def _action(cls):
    """dataclass(frozen=True, order=True), without writing four order methods per class at
    import (every asv command's start-up makes these 39 classes): the shared ones compare
    the fields' tuple, only between instances of the same class."""
    cls = dataclass(frozen=True)(cls)
    names = tuple(f.name for f in dataclasses.fields(cls))

    def _order_key(self) -> tuple:
        return tuple(getattr(self, n) for n in names)
    cls._order_key = _order_key
    for name, method in _ORDER_METHODS.items():
        setattr(cls, name, method)
    return cls


@_action
class DrawTile:
    pile: int                                  # 0-based; notation is 1-based
    VERB: ClassVar[str] = "draw-tile"
    FORMS: ClassVar[Forms] = (("N",),)

    def text(self) -> str:
        return f"{self.VERB} {self.pile + 1}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "DrawTile":
        T.expect(args, 1, cls.VERB)
        pile = T.number(args[0]) - 1
        if pile < 0:
            raise MalformedAction("piles are numbered from 1")
        return cls(pile)


@_action
class PlaceTile:
    tile: int
    square: Square
    rotation: int
    VERB: ClassVar[str] = "place"
    FORMS: ClassVar[Forms] = (("#H", "SQ", "rR"),)

    def text(self) -> str:
        return f"{self.VERB} #{self.tile} {square_name(self.square)} r{self.rotation}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "PlaceTile":
        T.expect(args, 3, cls.VERB)
        if not re.fullmatch(r"r[0-3]", args[2]):
            raise MalformedAction(f"rotation must be r0..r3, got {args[2]!r}")
        return cls(T.handle(args[0]), T.square(args[1]), int(args[2][1]))


@_action
class ScrapTile:
    tile: int
    VERB: ClassVar[str] = "scrap"
    FORMS: ClassVar[Forms] = (("#H",),)

    def text(self) -> str:
        return f"{self.VERB} #{self.tile}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "ScrapTile":
        T.expect(args, 1, cls.VERB)
        return cls(T.handle(args[0]))


@_action
class NewShip:
    card: int
    name: str
    square: Square
    VERB: ClassVar[str] = "ship"
    FORMS: ClassVar[Forms] = (("#H:NAME", "SQ"),)

    def text(self) -> str:
        return f"{self.VERB} #{self.card}:{slug(self.name)} {square_name(self.square)}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "NewShip":
        T.expect(args, 2, cls.VERB)
        return cls(*T.named(args[0], resolve), T.square(args[1]))


@_action
class Upgrade:
    ship: int
    card: int
    name: str
    VERB: ClassVar[str] = "upgrade"
    FORMS: ClassVar[Forms] = (("sN", "#H:NAME"),)

    def text(self) -> str:
        return f"{self.VERB} s{self.ship} #{self.card}:{slug(self.name)}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "Upgrade":
        T.expect(args, 2, cls.VERB)
        return cls(T.ship(args[0]), *T.named(args[1], resolve))


@_action
class AttachExtra:
    ship: int
    card: int
    name: str
    evict: str = ""      # Fleet Admiral on Captain Rookie's ship: "port" or "sN" (SPEC §15.6)
    VERB: ClassVar[str] = "extra"
    FORMS: ClassVar[Forms] = (("sN", "#H:NAME"), ("sN", "#H:NAME", "port"), ("sN", "#H:NAME", "sN"))

    def text(self) -> str:
        tail = f" {self.evict}" if self.evict else ""
        return f"{self.VERB} s{self.ship} #{self.card}:{slug(self.name)}{tail}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "AttachExtra":
        if len(args) not in (2, 3):
            raise MalformedAction(f"'extra' takes 2 or 3 arguments, got {len(args)}")
        evict = ""
        if len(args) == 3:
            evict = args[2] if args[2] == "port" else f"s{T.ship(args[2])}"
        return cls(T.ship(args[0]), *T.named(args[1], resolve), evict)


@_action
class PlaceProbe:
    square: Square
    part: int
    VERB: ClassVar[str] = "probe"
    FORMS: ClassVar[Forms] = (("SQ/P",),)

    def text(self) -> str:
        return f"{self.VERB} {square_name(self.square)}/{self.part}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "PlaceProbe":
        T.expect(args, 1, cls.VERB)
        return cls(*T.feature(args[0]))


@_action
class PlaceStation:
    square: Square
    VERB: ClassVar[str] = "station"
    FORMS: ClassVar[Forms] = (("SQ",),)

    def text(self) -> str:
        return f"{self.VERB} {square_name(self.square)}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "PlaceStation":
        T.expect(args, 1, cls.VERB)
        return cls(T.square(args[0]))


@_action
class PlacePirate:
    square: Square
    segment: int
    VERB: ClassVar[str] = "pirate"
    FORMS: ClassVar[Forms] = (("SQ/P",),)

    def text(self) -> str:
        return f"{self.VERB} {square_name(self.square)}/{self.segment}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "PlacePirate":
        T.expect(args, 1, cls.VERB)
        return cls(*T.feature(args[0]))


@_action
class ScoreStation:
    square: Square
    VERB: ClassVar[str] = "score-station"
    FORMS: ClassVar[Forms] = (("SQ",),)

    def text(self) -> str:
        return f"{self.VERB} {square_name(self.square)}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "ScoreStation":
        T.expect(args, 1, cls.VERB)
        return cls(T.square(args[0]))


@_action
class ScoreQuest:
    card: int                                  # a quest handle the seat holds
    name: str
    VERB: ClassVar[str] = "quest"
    FORMS: ClassVar[Forms] = (("#H:NAME",),)

    def text(self) -> str:
        return f"{self.VERB} #{self.card}:{slug(self.name)}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "ScoreQuest":
        T.expect(args, 1, cls.VERB)
        return cls(*T.named(args[0], resolve))


@_action
class Move:
    ship: int
    square: Square
    VERB: ClassVar[str] = "move"
    FORMS: ClassVar[Forms] = (("sN", "SQ"),)

    def text(self) -> str:
        return f"{self.VERB} s{self.ship} {square_name(self.square)}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "Move":
        T.expect(args, 2, cls.VERB)
        return cls(T.ship(args[0]), T.square(args[1]))


@_action
class Discover:
    card: int
    name: str
    planet: int                                # which planet of the tile (0 unless it has two)
    VERB: ClassVar[str] = "discover"
    FORMS: ClassVar[Forms] = (("#H:NAME", "N"),)

    def text(self) -> str:
        return f"{self.VERB} #{self.card}:{slug(self.name)} {self.planet}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "Discover":
        T.expect(args, 2, cls.VERB)
        return cls(*T.named(args[0], resolve), T.number(args[1]))


@_action
class BinaryDiscover:
    """Binary System's second discovery: a planet joined to the first by a path (SPEC §8.9)."""
    card: int
    name: str
    square: Square
    planet: int
    VERB: ClassVar[str] = "binary"
    FORMS: ClassVar[Forms] = (("#H:NAME", "SQ/P"),)

    def text(self) -> str:
        return f"{self.VERB} #{self.card}:{slug(self.name)} {square_name(self.square)}/{self.planet}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "BinaryDiscover":
        T.expect(args, 2, cls.VERB)
        return cls(*T.named(args[0], resolve), *T.feature(args[1]))


@_action
class PlayEnvironment:
    card: int
    name: str
    VERB: ClassVar[str] = "env"
    FORMS: ClassVar[Forms] = (("#H:NAME",),)

    def text(self) -> str:
        return f"{self.VERB} #{self.card}:{slug(self.name)}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "PlayEnvironment":
        T.expect(args, 1, cls.VERB)
        return cls(*T.named(args[0], resolve))


@_action
class PlayLifeForms:
    cards: tuple[tuple[int, str], ...]         # several only for Plasma Spores (SPEC §8.1)
    VERB: ClassVar[str] = "life"
    FORMS: ClassVar[Forms] = (("#H:NAME...",),)

    def text(self) -> str:
        return self.VERB + " " + " ".join(f"#{c}:{slug(n)}" for c, n in self.cards)

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "PlayLifeForms":
        T.at_least_one(args, cls.VERB)
        return cls(tuple(T.named(a, resolve) for a in args))


@_action
class PlayExplorer:
    card: int
    name: str
    VERB: ClassVar[str] = "explorer"
    FORMS: ClassVar[Forms] = (("#H:NAME",),)

    def text(self) -> str:
        return f"{self.VERB} #{self.card}:{slug(self.name)}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "PlayExplorer":
        T.expect(args, 1, cls.VERB)
        return cls(*T.named(args[0], resolve))


class _Bare:
    """An action with no arguments: its text is its verb."""
    VERB: ClassVar[str]
    FORMS: ClassVar[Forms] = ((),)

    def text(self) -> str:
        return self.VERB

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve):
        T.expect(args, 0, cls.VERB)
        return cls()


@_action
class Pass(_Bare):
    VERB: ClassVar[str] = "pass"


@_action
class Discard:
    cards: tuple[int, ...]
    VERB: ClassVar[str] = "discard"
    FORMS: ClassVar[Forms] = (("#H...",),)

    def text(self) -> str:
        return self.VERB + " " + " ".join(f"#{c}" for c in self.cards)

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "Discard":
        T.at_least_one(args, cls.VERB)
        return cls(tuple(T.handle(a) for a in args))


@_action
class DrawCard:
    deck: str                                  # "refuel" or "port"
    VERB: ClassVar[str] = "draw"
    FORMS: ClassVar[Forms] = tuple((d,) for d in DECKS)

    def text(self) -> str:
        return f"{self.VERB} {self.deck}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "DrawCard":
        T.expect(args, 1, cls.VERB)
        if args[0] not in DECKS:
            raise MalformedAction(f"draw from 'refuel' or 'port', not {args[0]!r}")
        return cls(args[0])


@_action
class Peek(_Bare):
    """Madam Maxine's look at the top two cards of both decks (role-play, SPEC §13.3)."""
    VERB: ClassVar[str] = "peek"


@_action
class TakePeeked:
    card: int
    VERB: ClassVar[str] = "take"
    FORMS: ClassVar[Forms] = (("#H",),)

    def text(self) -> str:
        return f"{self.VERB} #{self.card}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "TakePeeked":
        T.expect(args, 1, cls.VERB)
        return cls(T.handle(args[0]))


@_action
class LookAutomata(_Bare):
    """Automata: look at the top four Space Port cards (SPEC §8.10)."""
    VERB: ClassVar[str] = "automata"


@_action
class Keep:
    cards: tuple[int, ...]                     # one or two of the cards the Automata showed
    VERB: ClassVar[str] = "keep"
    FORMS: ClassVar[Forms] = (("#H",), ("#H", "#H"))

    def text(self) -> str:
        return self.VERB + " " + " ".join(f"#{c}" for c in self.cards)

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "Keep":
        if not 1 <= len(args) <= 2:
            raise MalformedAction("'keep' takes one or two cards")
        return cls(tuple(T.handle(a) for a in args))


@_action
class Bank:
    """City of Banks: a blind card from `seat`'s reshuffled hand, at `position` (SPEC §8.10)."""
    seat: int
    position: int                              # 0-based; notation is 1-based
    VERB: ClassVar[str] = "bank"
    FORMS: ClassVar[Forms] = (("N", "N"),)

    def text(self) -> str:
        return f"{self.VERB} {self.seat} {self.position + 1}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "Bank":
        T.expect(args, 2, cls.VERB)
        return cls(T.number(args[0]), T.position(args[1]))


@_action
class BankGive:
    """City of Banks: the card the banker gives back for the one it took (SPEC §8.10)."""
    card: int
    VERB: ClassVar[str] = "give"
    FORMS: ClassVar[Forms] = (("#H",),)

    def text(self) -> str:
        return f"{self.VERB} #{self.card}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "BankGive":
        T.expect(args, 1, cls.VERB)
        return cls(T.handle(args[0]))


@_action
class Fire:
    """A Laser Beam fires instead of moving (SPEC §15.4). kind "ship": `index` is the target
    ship; "probe"/"pirate": the piece on `square`/`index`; "station": the station on `square`."""
    ship: int
    kind: str
    square: Square = (0, 0)
    index: int = 0
    VERB: ClassVar[str] = "fire"
    FORMS: ClassVar[Forms] = (("sN", "sN"), ("sN", "probe", "SQ/P"), ("sN", "pirate", "SQ/P"),
                              ("sN", "station", "SQ"))

    def text(self) -> str:
        if self.kind == "ship":
            return f"{self.VERB} s{self.ship} s{self.index}"
        if self.kind == "station":
            return f"{self.VERB} s{self.ship} station {square_name(self.square)}"
        return f"{self.VERB} s{self.ship} {self.kind} {square_name(self.square)}/{self.index}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "Fire":
        if len(args) == 2:
            return cls(T.ship(args[0]), "ship", index=T.ship(args[1]))
        T.expect(args, 3, cls.VERB)
        if args[1] == "station":
            return cls(T.ship(args[0]), "station", T.square(args[2]))
        if args[1] not in ("probe", "pirate"):
            raise MalformedAction(f"a Laser Beam fires at a ship, probe, pirate or station, not {args[1]!r}")
        return cls(T.ship(args[0]), args[1], *T.feature(args[2]))


@_action
class Torpedo:
    """A Photon Torpedo blasts the pirate on `square`/`segment` off its path (SPEC §15.5)."""
    ship: int
    square: Square
    segment: int
    VERB: ClassVar[str] = "torpedo"
    FORMS: ClassVar[Forms] = (("sN", "SQ/P"),)

    def text(self) -> str:
        return f"{self.VERB} s{self.ship} {square_name(self.square)}/{self.segment}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "Torpedo":
        T.expect(args, 2, cls.VERB)
        return cls(T.ship(args[0]), *T.feature(args[1]))


@_action
class Plunder:
    """Pirate Crew: a blind card from `seat`'s reshuffled hand, at `position` (SPEC §15.7)."""
    seat: int
    position: int                              # 0-based; notation is 1-based
    VERB: ClassVar[str] = "plunder"
    FORMS: ClassVar[Forms] = (("N", "N"),)

    def text(self) -> str:
        return f"{self.VERB} {self.seat} {self.position + 1}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "Plunder":
        T.expect(args, 2, cls.VERB)
        return cls(T.number(args[0]), T.position(args[1]))


@_action
class PlayRookie:
    """Captain Rookie from hand onto another seat's ship (SPEC §15.6)."""
    card: int
    name: str
    ship: int
    VERB: ClassVar[str] = "rookie"
    FORMS: ClassVar[Forms] = (("#H:NAME", "sN"),)

    def text(self) -> str:
        return f"{self.VERB} #{self.card}:{slug(self.name)} s{self.ship}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "PlayRookie":
        T.expect(args, 2, cls.VERB)
        return cls(*T.named(args[0], resolve), T.ship(args[1]))


@_action
class Reassign:
    """Captain Rookie moves from the mover's ship `source` to another seat's ship `target`."""
    source: int
    target: int
    VERB: ClassVar[str] = "reassign"
    FORMS: ClassVar[Forms] = (("sN", "sN"),)

    def text(self) -> str:
        return f"{self.VERB} s{self.source} s{self.target}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "Reassign":
        T.expect(args, 2, cls.VERB)
        return cls(T.ship(args[0]), T.ship(args[1]))


@_action
class Escape:
    """A doomed ship flees within its M-number to a discovered planet (Black Hole, SPEC §15.2)."""
    ship: int
    square: Square
    VERB: ClassVar[str] = "escape"
    FORMS: ClassVar[Forms] = (("sN", "SQ"),)

    def text(self) -> str:
        return f"{self.VERB} s{self.ship} {square_name(self.square)}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "Escape":
        T.expect(args, 2, cls.VERB)
        return cls(T.ship(args[0]), T.square(args[1]))


@_action
class Teleport:
    """A Teleport card saves a doomed ship: it jumps to one of its owner's home planets (SPEC §15.2)."""
    ship: int
    card: int
    name: str
    square: Square
    VERB: ClassVar[str] = "teleport"
    FORMS: ClassVar[Forms] = (("sN", "#H:NAME", "SQ"),)

    def text(self) -> str:
        return f"{self.VERB} s{self.ship} #{self.card}:{slug(self.name)} {square_name(self.square)}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "Teleport":
        T.expect(args, 3, cls.VERB)
        return cls(T.ship(args[0]), *T.named(args[1], resolve), T.square(args[2]))


@_action
class PlaySpecial:
    """A Special Action card, on a seat's own turn or in a response window (SPEC §14).

    `args` are canonical tokens whose meaning depends on the card: a seat `@2`, a ship `s3`,
    a handle `#7`, a square `D-4`, a planet or feature `D-4/0`, or a word (`tile`, `discard`).
    """
    card: int
    name: str
    args: tuple[str, ...] = ()
    VERB: ClassVar[str] = "special"
    FORMS: ClassVar[Forms] = (("#H:NAME", "ARG..."),)

    def text(self) -> str:
        return " ".join([f"{self.VERB} #{self.card}:{slug(self.name)}", *self.args])

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "PlaySpecial":
        if not args:
            raise MalformedAction("'special' needs a card like #12:time-warp")
        return cls(*T.named(args[0], resolve), tuple(special_token(a) for a in args[1:]))


@_action
class Pick:
    """Cards taken by handle: from Space Junk (The Scavenger) or blind from a reshuffled hand
    (Trading Post), SPEC §14.9."""
    cards: tuple[int, ...]
    VERB: ClassVar[str] = "pick"
    FORMS: ClassVar[Forms] = (("#H...",),)

    def text(self) -> str:
        return self.VERB + " " + " ".join(f"#{c}" for c in self.cards)

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "Pick":
        T.at_least_one(args, cls.VERB)
        return cls(tuple(T.handle(a) for a in args))


@_action
class Next(_Bare):
    """End the current phase (from phase 5: end the turn)."""
    VERB: ClassVar[str] = "next"


# -- chance outcomes (SPEC §10.2), written by the dealer or the protocol ---------------------
@_action
class ChanceShuffle:
    deck: str
    VERB: ClassVar[str] = "chance shuffle"
    FORMS: ClassVar[Forms] = (("DECK",),)

    def text(self) -> str:
        return f"{self.VERB} {self.deck}"

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "ChanceShuffle":
        T.expect(args, 1, cls.VERB)
        return cls(args[0])


@_action
class ChanceReveal:
    cards: tuple[tuple[int, str], ...]         # (handle, identity) made public
    VERB: ClassVar[str] = "chance reveal"
    FORMS: ClassVar[Forms] = (("#H:NAME...",),)

    def text(self) -> str:
        return self.VERB + " " + " ".join(f"#{h}:{slug(n)}" for h, n in self.cards)

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "ChanceReveal":
        T.at_least_one(args, cls.VERB)
        return cls(tuple(T.named(a, resolve) for a in args))


@_action
class ChanceDeal:
    seat: int
    cards: tuple[int, ...]                     # handles whose identity reached `seat` alone
    VERB: ClassVar[str] = "chance deal"
    FORMS: ClassVar[Forms] = (("N", "#H..."),)

    def text(self) -> str:
        return f"{self.VERB} {self.seat} " + " ".join(f"#{h}" for h in self.cards)

    @classmethod
    def from_args(cls, args: list[str], resolve: Resolve) -> "ChanceDeal":
        if len(args) < 2:
            raise MalformedAction(f"{cls.VERB!r} takes a seat and at least one card")
        return cls(T.number(args[0]), tuple(T.handle(a) for a in args[1:]))


PLAYER_ACTIONS = (DrawTile, PlaceTile, ScrapTile, NewShip, Upgrade, AttachExtra, PlaceProbe,
                  PlaceStation, PlacePirate, ScoreStation, ScoreQuest, Move, Discover, BinaryDiscover,
                  PlayEnvironment, PlayLifeForms, PlayExplorer, Pass, Discard, DrawCard, Peek, TakePeeked,
                  LookAutomata, Keep, Bank, BankGive, Escape, Teleport, Fire, Torpedo, Plunder,
                  PlayRookie, Reassign, PlaySpecial, Pick, Next)
CHANCE_ACTIONS = (ChanceShuffle, ChanceReveal, ChanceDeal)
Action = (DrawTile | PlaceTile | ScrapTile | NewShip | Upgrade | AttachExtra | PlaceProbe
          | PlaceStation | PlacePirate | ScoreStation | ScoreQuest | Move | Discover | BinaryDiscover | PlayEnvironment
          | PlayLifeForms | PlayExplorer | Pass | Discard | DrawCard | Peek | TakePeeked | LookAutomata | Keep | Bank | BankGive | Escape | Teleport | Fire | Torpedo | Plunder
          | PlayRookie | Reassign | PlaySpecial | Pick | Next | ChanceShuffle
          | ChanceReveal | ChanceDeal)

# The parse table, derived from the classes: a verb (one or two words) to its class.
PARSERS: dict[str, type] = {cls.VERB: cls for cls in PLAYER_ACTIONS + CHANCE_ACTIONS}
assert len(PARSERS) == len(PLAYER_ACTIONS) + len(CHANCE_ACTIONS), "two classes share a verb"


def verbs() -> dict[str, Forms]:
    """The players' verbs, each with the argument forms it takes (shapes as in the module
    docstring), in notation order: what a REPL completes and suggests (SPEC §11.1)."""
    return {cls.VERB: cls.FORMS for cls in sorted(PLAYER_ACTIONS, key=lambda c: c.VERB)}


def sort_key(action) -> str:
    return action.text()


def parse(text: str, resolve_name: Resolve | None = None):
    """Parse notation back into an action. `resolve_name(slug) -> name` maps a slug to the
    card or tile name (the engine passes its catalogue); without it slugs stay as they are."""
    resolve = resolve_name or (lambda s: s)
    words = text.split()
    if not words:
        raise MalformedAction("empty action")
    cls, n = PARSERS.get(" ".join(words[:2])), 2
    if cls is None:
        cls, n = PARSERS.get(words[0]), 1
    if cls is None:
        raise MalformedAction(f"unknown action {text!r}")
    try:
        return cls.from_args(words[n:], resolve)
    except KeyError as exc:
        raise MalformedAction(f"unknown name in {text!r}: {exc.args[0]}") from None
