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
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import MalformedAction
from .orbit import CARD_KINDS, SIZES, parse_ship_code

_NUMBER = re.compile(r"[1-9][0-9]{0,2}", re.ASCII)


@dataclass(frozen=True)
class Place:
    size: str
    square: int          # 0-based

    def text(self) -> str:
        return f"place {self.size} {self.square + 1}"


@dataclass(frozen=True)
class Move:
    """A group move; `order` lists every ship (codes) when the mover has a choice, else ()."""
    square: int
    order: tuple[str, ...] = ()

    def text(self) -> str:
        return " ".join(("move", str(self.square + 1)) + self.order)


@dataclass(frozen=True)
class TokenMove:
    move: Move

    def text(self) -> str:
        return "token " + self.move.text()


@dataclass(frozen=True)
class Step:
    """One of the mover's own ships, one square forward."""
    size: str
    square: int

    def text(self) -> str:
        return f"step {self.size} {self.square + 1}"


@dataclass(frozen=True)
class TokenStep:
    step: Step

    def text(self) -> str:
        return "token " + self.step.text()


@dataclass(frozen=True)
class Pass:
    def text(self) -> str:
        return "pass"


@dataclass(frozen=True)
class PlayCard:
    """Action-card variant. `card` is the card played; `effect` what it does: the card's own
    kind, or for `copy` the kind copied. `move` holds the group move of move/twice, `step`
    the ship of step."""
    card: str
    effect: str
    move: Move | None = None
    step: Step | None = None

    def text(self) -> str:
        words = ["card"] + (["copy"] if self.card == "copy" else [])
        if self.move is not None:
            return " ".join(words + [self.effect] + self.move.text().split()[1:])
        if self.step is not None:
            return " ".join(words + [self.step.text()])
        return " ".join(words + [self.effect])


Action = Place | Move | TokenMove | TokenStep | Pass | PlayCard


def _square(word: str, text: str) -> int:
    if not _NUMBER.fullmatch(word):
        raise MalformedAction(f"{text!r}: {word!r} is not a square number")
    return int(word) - 1


def _size(word: str, text: str) -> str:
    if word not in SIZES:
        raise MalformedAction(f"{text!r}: {word!r} is not a ship size (L, M or S)")
    return word


def _move(words: list[str], text: str) -> Move:
    if not words:
        raise MalformedAction(f"{text!r}: which square?")
    order = tuple(words[1:])
    for code in order:
        if parse_ship_code(code) is None:
            raise MalformedAction(f"{text!r}: {code!r} is not a ship (colour initial and size, e.g. BL)")
    return Move(_square(words[0], text), order)


def _step(words: list[str], text: str) -> Step:
    if len(words) != 2:
        raise MalformedAction(f"{text!r}: a step names a size and a square, e.g. `step L 5`")
    return Step(_size(words[0], text), _square(words[1], text))


def _card(words: list[str], text: str) -> PlayCard:
    card = words[0] if words else ""
    if card not in CARD_KINDS:
        raise MalformedAction(f"{text!r}: the cards are {', '.join(CARD_KINDS)}")
    if card == "copy":
        words = words[1:]
        if not words or words[0] not in CARD_KINDS or words[0] == "copy":
            raise MalformedAction(f"{text!r}: name the copied card (move, twice, step or skip)")
    effect, rest = words[0], words[1:]
    if effect in ("move", "twice"):
        return PlayCard(card, effect, move=_move(rest, text))
    if effect == "step":
        return PlayCard(card, effect, step=_step(rest, text))
    if rest:
        raise MalformedAction(f"{text!r}: skip takes nothing more")
    return PlayCard(card, effect)


def parse_action(text: str) -> Action:
    """Parse the notation; raises MalformedAction. `parse_action(a.text()) == a`."""
    if not isinstance(text, str):
        raise MalformedAction(f"an action is text, not {type(text).__name__}")
    words = text.split(" ")
    head, rest = words[0], words[1:]
    if "" in words:
        raise MalformedAction(f"{text!r}: words are separated by single spaces")
    if head == "place":
        if len(rest) != 2:
            raise MalformedAction(f"{text!r}: `place SIZE SQUARE`, e.g. `place L 5`")
        return Place(_size(rest[0], text), _square(rest[1], text))
    if head == "move":
        return _move(rest, text)
    if head == "step":
        raise MalformedAction(f"{text!r}: a single step is `token step ...` or `card step ...`")
    if head == "token":
        if rest[:1] == ["move"]:
            return TokenMove(_move(rest[1:], text))
        if rest[:1] == ["step"]:
            return TokenStep(_step(rest[1:], text))
        raise MalformedAction(f"{text!r}: a token is `token move SQUARE` or `token step SIZE SQUARE`")
    if head == "pass" and not rest:
        return Pass()
    if head == "card":
        return _card(rest, text)
    raise MalformedAction(f"{text!r} is not an action (place, move, token, pass, card)")
