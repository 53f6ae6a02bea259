"""Space Walk actions as small hashable values with a text notation that round-trips (SPEC §46).

    place L 5                 put one of your large ships on square 5 (placement round)
    move 5                    move the group on square 5 (no choice of order)
    move 5 BM YM GS           ... in this order, when equal sizes of two colours share the square
    token move 5 [order]      after your turn: a token for another complete turn
    token step L 5            a token: your large ship on square 5 one square forward
    pass                      use no token now
    card move 5 [order]       action-card variant: the cards, each with what it does
    card twice 5 [order]      (then the second group move is a plain `move`)
    card step L 5
    card skip
    card copy move 5          copy: the copied card's kind and what it does

Each class owns its notation: its VERB (one or two words), the FORMS of its arguments (for
completion and help), `text()` and `from_args()`; `parse_action` dispatches through
`PARSERS`, built from the classes, and `verbs()` gives a REPL the verbs and their shapes:
`SQ` a square number, `SIZE` L, M or S, `SHIP...` ship codes in order (optional), any other
word literal.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from .errors import MalformedAction
from .orbit import CARD_KINDS, SIZES, parse_ship_code

_NUMBER = re.compile(r"[1-9][0-9]{0,2}", re.ASCII)


_NUMBER = re.compile(r"[1-9][0-9]{0,2}", re.ASCII)
Forms = tuple[tuple[str, ...], ...]


def _square(word: str, text: str) -> int:
    if not _NUMBER.fullmatch(word):
        raise MalformedAction(f"{text!r}: {word!r} is not a square number")
    return int(word) - 1


def _size(word: str, text: str) -> str:
    if word not in SIZES:
        raise MalformedAction(f"{text!r}: {word!r} is not a ship size (L, M or S)")
    return word


def _size_square(words: list[str], text: str, usage: str) -> tuple[str, int]:
    if len(words) != 2:
        raise MalformedAction(f"{text!r}: {usage}")
    return _size(words[0], text), _square(words[1], text)


@dataclass(frozen=True)
class Place:
    size: str
    square: int          # 0-based
    VERB: ClassVar[str] = "place"
    FORMS: ClassVar[Forms] = (("SIZE", "SQ"),)

    def text(self) -> str:
        return f"{self.VERB} {self.size} {self.square + 1}"

    @classmethod
    def from_args(cls, words: list[str], text: str) -> "Place":
        return cls(*_size_square(words, text, "`place SIZE SQUARE`, e.g. `place L 5`"))


@dataclass(frozen=True)
class Move:
    """A group move; `order` lists every ship (codes) when the mover has a choice, else ()."""
    square: int
    order: tuple[str, ...] = ()
    VERB: ClassVar[str] = "move"
    FORMS: ClassVar[Forms] = (("SQ", "SHIP..."),)

    def text(self) -> str:
        return " ".join((self.VERB, str(self.square + 1)) + self.order)

    @classmethod
    def from_args(cls, words: list[str], text: str) -> "Move":
        if not words:
            raise MalformedAction(f"{text!r}: which square?")
        order = tuple(words[1:])
        for code in order:
            if parse_ship_code(code) is None:
                raise MalformedAction(f"{text!r}: {code!r} is not a ship (colour initial and size, e.g. BL)")
        return cls(_square(words[0], text), order)


@dataclass(frozen=True)
class TokenMove:
    move: Move
    VERB: ClassVar[str] = "token move"
    FORMS: ClassVar[Forms] = Move.FORMS

    def text(self) -> str:
        return "token " + self.move.text()

    @classmethod
    def from_args(cls, words: list[str], text: str) -> "TokenMove":
        return cls(Move.from_args(words, text))


@dataclass(frozen=True)
class Step:
    """One of the mover's own ships, one square forward (inside a token or a card)."""
    size: str
    square: int
    VERB: ClassVar[str] = "step"
    FORMS: ClassVar[Forms] = (("SIZE", "SQ"),)

    def text(self) -> str:
        return f"{self.VERB} {self.size} {self.square + 1}"

    @classmethod
    def from_args(cls, words: list[str], text: str) -> "Step":
        return cls(*_size_square(words, text, "a step names a size and a square, e.g. `step L 5`"))


@dataclass(frozen=True)
class TokenStep:
    step: Step
    VERB: ClassVar[str] = "token step"
    FORMS: ClassVar[Forms] = Step.FORMS

    def text(self) -> str:
        return "token " + self.step.text()

    @classmethod
    def from_args(cls, words: list[str], text: str) -> "TokenStep":
        return cls(Step.from_args(words, text))


@dataclass(frozen=True)
class Pass:
    VERB: ClassVar[str] = "pass"
    FORMS: ClassVar[Forms] = ((),)

    def text(self) -> str:
        return self.VERB

    @classmethod
    def from_args(cls, words: list[str], text: str) -> "Pass":
        if words:
            raise MalformedAction(f"{text!r}: pass takes nothing more")
        return cls()


@dataclass(frozen=True)
class PlayCard:
    """Action-card variant. `card` is the card played; `effect` what it does: the card's own
    kind, or for `copy` the kind copied. `move` holds the group move of move/twice, `step`
    the ship of step."""
    card: str
    effect: str
    move: Move | None = None
    step: Step | None = None
    VERB: ClassVar[str] = "card"
    _EFFECTS: ClassVar[Forms] = (("move", "SQ", "SHIP..."), ("twice", "SQ", "SHIP..."), ("step", "SIZE", "SQ"),
                                 ("skip",))
    FORMS: ClassVar[Forms] = _EFFECTS + tuple(("copy",) + form for form in _EFFECTS)

    def text(self) -> str:
        words = [self.VERB] + (["copy"] if self.card == "copy" else [])
        if self.move is not None:
            return " ".join(words + [self.effect] + self.move.text().split()[1:])
        if self.step is not None:
            return " ".join(words + [self.step.text()])
        return " ".join(words + [self.effect])

    @classmethod
    def from_args(cls, words: list[str], text: str) -> "PlayCard":
        card = words[0] if words else ""
        if card not in CARD_KINDS:
            raise MalformedAction(f"{text!r}: the cards are {', '.join(CARD_KINDS)}")
        if card == "copy":
            words = words[1:]
            if not words or words[0] not in CARD_KINDS or words[0] == "copy":
                raise MalformedAction(f"{text!r}: name the copied card (move, twice, step or skip)")
        effect, rest = words[0], words[1:]
        if effect in ("move", "twice"):
            return cls(card, effect, move=Move.from_args(rest, text))
        if effect == "step":
            return cls(card, effect, step=Step.from_args(rest, text))
        if rest:
            raise MalformedAction(f"{text!r}: skip takes nothing more")
        return cls(card, effect)


Action = Place | Move | TokenMove | TokenStep | Pass | PlayCard
ACTIONS = (Place, Move, TokenMove, TokenStep, Pass, PlayCard)
# The parse table, derived from the classes: a verb (one or two words) to its class.
PARSERS: dict[str, type] = {cls.VERB: cls for cls in ACTIONS}
# Words that begin no action alone, with what to write instead.
_HINTS = {"step": "a single step is `token step ...` or `card step ...`",
          "token": "a token is `token move SQUARE` or `token step SIZE SQUARE`"}


def verbs() -> dict[str, Forms]:
    """The verbs, each with the argument forms it takes (shapes as in the module docstring):
    what a REPL completes and suggests (SPEC §46)."""
    return {cls.VERB: cls.FORMS for cls in ACTIONS}


def parse_action(text: str) -> Action:
    """Parse the notation; raises MalformedAction. `parse_action(a.text()) == a`."""
    if not isinstance(text, str):
        raise MalformedAction(f"an action is text, not {type(text).__name__}")
    words = text.split(" ")
    if "" in words:
        raise MalformedAction(f"{text!r}: words are separated by single spaces")
    cls, n = PARSERS.get(" ".join(words[:2])), 2
    if cls is None:
        cls, n = PARSERS.get(words[0]), 1
    if cls is None:
        hint = _HINTS.get(words[0])
        raise MalformedAction(f"{text!r}: {hint}" if hint else
                              f"{text!r} is not an action ({', '.join(dict.fromkeys(v.split()[0] for v in PARSERS))})")
    return cls.from_args(words[n:], text)
