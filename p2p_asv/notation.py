"""Reading the tokens of the action notation (SPEC §11.1): handles, squares, ships, numbers.

Each action class in `actions` reads its own arguments with these; every reader raises
MalformedAction with the token it could not read.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable

from .errors import MalformedAction
from .geometry import Square, parse_square, square_name

Resolve = Callable[[str], str]     # a slug to the card or tile name it stands for


def is_number(text: str) -> bool:
    """ASCII digits only: str.isdigit() also accepts '²', which int() then refuses."""
    return text.isascii() and text.isdigit()


@lru_cache(maxsize=1024)   # a few hundred names, slugged for every listed action's text
def slug(name: str) -> str:
    """Card or tile name to a notation token: lower case, runs of other characters to '-'."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower().replace("'", "")).strip("-")


def handle(token: str) -> int:
    m = re.fullmatch(r"#([0-9]+)", token)
    if not m:
        raise MalformedAction(f"expected a handle like #12, got {token!r}")
    return int(m.group(1))


def named(token: str, resolve: Resolve) -> tuple[int, str]:
    m = re.fullmatch(r"#([0-9]+):([a-z0-9-]+)", token)
    if not m:
        raise MalformedAction(f"expected a named handle like #12:water, got {token!r}")
    return int(m.group(1)), resolve(m.group(2))


def number(token: str) -> int:
    if not is_number(token):
        raise MalformedAction(f"expected a number, got {token!r}")
    return int(token)


def position(token: str) -> int:
    """A hand position, written from 1, kept from 0."""
    value = number(token) - 1
    if value < 0:
        raise MalformedAction("hand positions are numbered from 1")
    return value


def square(token: str) -> Square:
    try:
        return parse_square(token)
    except ValueError as exc:
        raise MalformedAction(str(exc)) from None


def feature(token: str) -> tuple[Square, int]:
    sq, sep, idx = token.partition("/")
    if not sep or not is_number(idx):
        raise MalformedAction(f"expected a square and a part like D-4/0, got {token!r}")
    return square(sq), int(idx)


def ship(token: str) -> int:
    m = re.fullmatch(r"s([0-9]+)", token)
    if not m:
        raise MalformedAction(f"expected a ship like s1, got {token!r}")
    return int(m.group(1))


def expect(args: list[str], n: int, verb: str) -> None:
    if len(args) != n:
        raise MalformedAction(f"{verb!r} takes {n} argument(s), got {len(args)}")


def at_least_one(args: list[str], verb: str, what: str = "card") -> None:
    if not args:
        raise MalformedAction(f"{verb!r} needs at least one {what}")


SPECIAL_WORDS = ("tile", "piece", "move", "discard")


def special_token(token: str) -> str:
    """One argument of a Special Action in canonical form (SPEC §14.1), or MalformedAction."""
    if re.fullmatch(r"@[0-9]+", token):
        return f"@{int(token[1:])}"
    if re.fullmatch(r"s[0-9]+", token):
        return f"s{ship(token)}"
    if token.startswith("#"):
        return f"#{handle(token)}"
    if token in SPECIAL_WORDS:
        return token
    if "/" in token:
        sq, part = feature(token)
        return f"{square_name(sq)}/{part}"
    return square_name(square(token))
