"""Actions as small hashable values with a text notation that round-trips (SPEC §57.1).

    roll | land | bypass | drift | buy | decline | exchange | keep | end | pass | accept | reject
    fire 31                          a laser at every opponent on space 31 (spends a token)
    pick io                          take an unowned deed a blue dot offers
    cede io                          turn a deed over to the creditor of your debt
    offer 2 io+$50 for ganymede      a trade offer to seat 2 (either side may be `nothing`)
    claim #4:red-planet              reveal your mission and win by it
    chance dice 3 4 | chance shuffle missions | chance deal 1 #5     chance outcomes
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .deeds import DEED_BY_SLUG, DEEDS
from .errors import MalformedAction

_NUMBER = re.compile(r"0|[1-9][0-9]{0,5}", re.ASCII)


@dataclass(frozen=True, order=True)
class Word:
    """An action that is one word: roll, land, bypass, drift, buy, decline, exchange, keep,
    end, pass, accept, reject."""
    word: str

    def text(self) -> str:
        return self.word


WORDS = ("roll", "land", "bypass", "drift", "buy", "decline", "exchange", "keep", "end", "pass",
         "accept", "reject")
ROLL, LAND, BYPASS, DRIFT, BUY, DECLINE, EXCHANGE, KEEP, END, PASS, ACCEPT, REJECT = (Word(w) for w in WORDS)


@dataclass(frozen=True, order=True)
class Fire:
    space: int

    def text(self) -> str:
        return f"fire {self.space}"


@dataclass(frozen=True, order=True)
class Pick:
    deed: int

    def text(self) -> str:
        return f"pick {DEEDS[self.deed].slug}"


@dataclass(frozen=True, order=True)
class Cede:
    deed: int

    def text(self) -> str:
        return f"cede {DEEDS[self.deed].slug}"


def _side(deeds: tuple[int, ...], cash: int) -> str:
    items = [DEEDS[d].slug for d in deeds] + ([f"${cash}"] if cash else [])
    return "+".join(items) or "nothing"


@dataclass(frozen=True, order=True)
class Offer:
    """To seat `to`: the offerer gives `give` and `give_cash`, and gets `get` and `get_cash`.
    Deeds are in deed order; at most one side names cash (SPEC §55.1)."""
    to: int
    give: tuple[int, ...]
    give_cash: int
    get: tuple[int, ...]
    get_cash: int

    def text(self) -> str:
        return f"offer {self.to} {_side(self.give, self.give_cash)} for {_side(self.get, self.get_cash)}"


@dataclass(frozen=True, order=True)
class Claim:
    handle: int
    mission: str

    def text(self) -> str:
        return f"claim #{self.handle}:{self.mission}"


@dataclass(frozen=True, order=True)
class ChanceDice:
    a: int
    b: int

    def text(self) -> str:
        return f"chance dice {self.a} {self.b}"


@dataclass(frozen=True, order=True)
class ChanceShuffle:
    def text(self) -> str:
        return "chance shuffle missions"


@dataclass(frozen=True, order=True)
class ChanceDeal:
    seat: int
    handle: int

    def text(self) -> str:
        return f"chance deal {self.seat} #{self.handle}"


Action = Word | Fire | Pick | Cede | Offer | Claim | ChanceDice | ChanceShuffle | ChanceDeal
CHANCE_ACTIONS = (ChanceDice, ChanceShuffle, ChanceDeal)


def _number(word: str, text: str, what: str) -> int:
    if not _NUMBER.fullmatch(word):
        raise MalformedAction(f"{text!r}: {word!r} is not {what}")
    return int(word)


def _deed(word: str, text: str) -> int:
    deed = DEED_BY_SLUG.get(word)
    if deed is None:
        raise MalformedAction(f"{text!r}: {word!r} is not a deed (e.g. io, sunward-dock)")
    return deed.index


def _handle(word: str, text: str) -> int:
    if not word.startswith("#"):
        raise MalformedAction(f"{text!r}: a mission card is a handle, e.g. #4")
    return _number(word[1:], text, "a handle number")


def _parse_side(word: str, text: str) -> tuple[tuple[int, ...], int]:
    if word == "nothing":
        return (), 0
    deeds, cash = [], None
    for item in word.split("+"):
        if item.startswith("$"):
            if cash is not None:
                raise MalformedAction(f"{text!r}: one sum of Federons a side")
            cash = _number(item[1:], text, "an amount of Federons")
            if cash == 0:
                raise MalformedAction(f"{text!r}: leave out $0")
        else:
            deeds.append(_deed(item, text))
    if deeds != sorted(set(deeds)):
        raise MalformedAction(f"{text!r}: list each deed once, in deed order")
    return tuple(deeds), cash or 0


def _offer(rest: list[str], text: str) -> Offer:
    if len(rest) != 4 or rest[2] != "for":
        raise MalformedAction(f"{text!r}: `offer SEAT GIVE for GET`, e.g. `offer 1 io+$50 for ganymede`")
    to = _number(rest[0], text, "a seat")
    give, give_cash = _parse_side(rest[1], text)
    get, get_cash = _parse_side(rest[3], text)
    if not give and not get:
        raise MalformedAction(f"{text!r}: a trade names at least one deed")
    if give_cash and get_cash:
        raise MalformedAction(f"{text!r}: name Federons on one side only")
    if rest[1] != _side(give, give_cash) or rest[3] != _side(get, get_cash):
        raise MalformedAction(f"{text!r}: write deeds in deed order, then the sum")
    return Offer(to, give, give_cash, get, get_cash)


def parse_action(text: str) -> Action:
    """Parse the notation; raises MalformedAction. `parse_action(a.text()) == a`."""
    if not isinstance(text, str):
        raise MalformedAction(f"an action is text, not {type(text).__name__}")
    words = text.split(" ")
    if "" in words:
        raise MalformedAction(f"{text!r}: words are separated by single spaces")
    head, rest = words[0], words[1:]
    if head in WORDS and not rest:
        return Word(head)
    if head == "fire" and len(rest) == 1:
        return Fire(_number(rest[0], text, "a space number"))
    if head in ("pick", "cede") and len(rest) == 1:
        return (Pick if head == "pick" else Cede)(_deed(rest[0], text))
    if head == "offer":
        return _offer(rest, text)
    if head == "claim" and len(rest) == 1 and ":" in rest[0]:
        handle, mission = rest[0].split(":", 1)
        if not re.fullmatch(r"[a-z][a-z-]*", mission, re.ASCII):
            raise MalformedAction(f"{text!r}: {mission!r} is not a mission name")
        return Claim(_handle(handle, text), mission)
    if head == "chance":
        if rest[:1] == ["dice"] and len(rest) == 3:
            a, b = (_number(w, text, "a die") for w in rest[1:])
            if not (1 <= a <= 6 and 1 <= b <= 6):
                raise MalformedAction(f"{text!r}: a die shows 1 to 6")
            return ChanceDice(a, b)
        if rest == ["shuffle", "missions"]:
            return ChanceShuffle()
        if rest[:1] == ["deal"] and len(rest) == 3:
            return ChanceDeal(_number(rest[1], text, "a seat"), _handle(rest[2], text))
        raise MalformedAction(f"{text!r}: chance is `dice A B`, `shuffle missions` or `deal SEAT #H`")
    raise MalformedAction(f"{text!r} is not an action (roll, land, bypass, drift, buy, decline, fire, "
                          "offer, accept, reject, cede, claim, exchange, keep, pick, pass, end)")


def sort_key(action: Action) -> str:
    return action.text()
