"""Legal choices a person can read (SPEC §31.4), for every game: a family of actions that
differ only in the cards, ships or places they name is told as one line per part ("discard
two of: #89 Plasma Spores, #90 Ion Cloud, ..."), never as the product of all its choices.

A family is the actions that share their leading words (`special #96:cyber-jump discard`)
and then name only choices (a handle `#89`, a ship `s3`, a seat `@1`, a square `D-4`, a
planet `D-4/0`). `label(token)` (the screen's) adds what a token names ("#89 Plasma
Spores"), or None to leave it bare.
"""
from __future__ import annotations

import re
from math import comb
from typing import Callable

from cli.terminal import natural_key

__all__ = ["Family", "families", "family_line", "CHOICE"]

CHOICE = re.compile(r"^(#\d+|s\d+|@\d+|[A-Z]-\d{1,2}(/\d)?)$")
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
SMALL = 3   # a family of this many actions or fewer is listed action by action


class Family:
    """Actions `lead + choices`; `numbered` are (number in `legal`, text) of its members."""

    def __init__(self, lead: tuple[str, ...]) -> None:
        self.lead = lead
        self.members: list[tuple[int, str, tuple[str, ...]]] = []

    @property
    def choices(self) -> list[tuple[str, ...]]:
        return [c for _, _, c in self.members]

    def kind(self) -> str | None:
        """'combination' (every k of a set of handles, in any order, listed once), 'parts' (each
        position chosen from its own set, later ones optional), or None: list the actions."""
        if len(self.members) <= SMALL:
            return None
        choices = self.choices
        sizes = {len(c) for c in choices}
        if len(sizes) == 1:
            k = sizes.pop()
            pool = {t for c in choices for t in c}
            if (k >= 2 and all(t.startswith("#") for t in pool)
                    and len({frozenset(c) for c in choices}) == len(choices) == comb(len(pool), k)
                    and all(len(set(c)) == k for c in choices)):
                return "combination"
        if min(len(c) for c in choices) >= 1 and _is_product(choices):
            return "parts"
        return None


def _is_product(choices: list[tuple[str, ...]]) -> bool:
    """The first positions (those every action names) are each chosen from their own set,
    every combination of them listed once, so one line per position loses nothing; later
    positions are optional extras (Troika Summit's guests), told as the tokens they take."""
    if any(len(set(c)) != len(c) for c in choices):
        return False
    shortest = min(len(c) for c in choices)
    heads = {c[:shortest] for c in choices}
    ways = 1
    for i in range(shortest):
        ways *= len({c[i] for c in choices})
    return len(heads) == ways and len(set(choices)) == len(choices)


def families(numbered: list[tuple[int, str]]) -> list[Family]:
    """The legal actions (number, text) cut into families, in the order of their first member."""
    out: dict[tuple[str, ...], Family] = {}
    for number, text in numbered:
        words = text.split()
        cut = next((i for i, w in enumerate(words) if i and CHOICE.match(w)), len(words))
        lead, rest = tuple(words[:cut]), tuple(words[cut:])
        if any(not CHOICE.match(w) for w in rest):   # a word after a choice: its own family
            lead, rest = tuple(words), ()
        out.setdefault(lead, Family(lead)).members.append((number, text, rest))
    return list(out.values())


def _named(tokens, label: Callable[[str], str | None]) -> str:
    return ", ".join(label(t) or t for t in sorted(tokens, key=natural_key))


def family_line(family: Family, label: Callable[[str], str | None]) -> str | None:
    """One line for a family whose choices are independent parts, else None."""
    kind = family.kind()
    lead = " ".join(family.lead)
    ways = len(family.members)
    if kind == "combination":
        k = len(family.choices[0])
        pool = {t for c in family.choices for t in c}
        return (f"{lead} {NUMBER_WORDS.get(k, str(k))} of: {_named(pool, label)}"
                f"  ({ways} ways, e.g. {family.members[0][1]})")
    if kind == "parts":
        choices = family.choices
        longest = max(len(c) for c in choices)
        shortest = min(len(c) for c in choices)
        parts = [("then " if i else "") + f"one of: {_named({c[i] for c in choices}, label)}"
                 for i in range(shortest)]
        if longest > shortest:
            extra = {t for c in choices for t in c[shortest:]}
            more = longest - shortest
            parts.append(f"then optionally up to {NUMBER_WORDS.get(more, str(more))} more of: "
                         f"{_named(extra, label)}")
        return "\n".join([f"{lead} ({ways} ways, e.g. {family.members[0][1]}):"]
                         + [f"    {part}" for part in parts])
    return None
