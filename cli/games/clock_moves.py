"""What a game plays for a seat whose turn clock ran out (SPEC §29.20), for its GameRules
adapter: the first of the game's own declared moves (its "end my turn" or "pass" words, in
the order the game lists them) that is legal now, tried on a copy of the state. The game
declares the list; nobody chooses among moves."""
from __future__ import annotations

from typing import Sequence

from protocol.session import GameRuleError

__all__ = ["declared_pass"]


def declared_pass(rules, state, seat: int, moves: Sequence[str]) -> str | None:
    """The first of `moves` the rules accept for `seat` now (on a clone), else None."""
    for text in moves:
        try:
            rules.apply_action(state.clone(), seat, rules.read(text))
        except GameRuleError:
            continue
        return text
    return None
