"""How ships move (SPEC §42.2-§42.4): a whole group, largest first, the k-th ship k squares;
a single ship one square; black holes swallow what lands on them.
"""
from __future__ import annotations

from bisect import insort
from itertools import product

from .actions import Move, Step
from .errors import IllegalAction
from .orbit import SIZES, parse_ship_code, ship_code
from .state import Ship, State


def has_choice(ships: list[Ship]) -> bool:
    """True when two ships of one size but different colours share the square: only then
    does the mover choose an order (ships of one size and colour are interchangeable)."""
    return any(len({s for r, s in ships if r == rank}) > 1 for rank in range(len(SIZES)))


def _arrangements(seats: list[int]) -> list[tuple[int, ...]]:
    """Distinct orderings of a multiset of seats, in lexicographic order."""
    if not seats:
        return [()]
    out = []
    for first in sorted(set(seats)):
        rest = list(seats)
        rest.remove(first)
        out += [(first,) + tail for tail in _arrangements(rest)]
    return out


def orders(ships: list[Ship]) -> list[tuple[Ship, ...]]:
    """Every distinct moving order of a group: sizes largest first, any order within a size."""
    groups = [_arrangements([s for r, s in ships if r == rank]) for rank in range(len(SIZES))]
    return [tuple((rank, s) for rank, seats in enumerate(combo) for s in seats) for combo in product(*groups)]


def group_moves(state: State, square: int) -> list[Move]:
    """The canonical Move actions for the group on `square`, in a fixed order."""
    ships = state.squares[square]
    if not has_choice(ships):
        return [Move(square)]
    return [Move(square, tuple(ship_code(r, s) for r, s in order)) for order in orders(ships)]


def check_group(state: State, seat: int, move: Move) -> tuple[Ship, ...]:
    """The moving order of a legal group move by `seat`, or IllegalAction saying why."""
    if not 0 <= move.square < state.orbit.length:
        raise IllegalAction(f"there is no square {move.square + 1} (the orbit has {state.orbit.length})")
    ships = state.squares[move.square]
    if not any(s == seat for _, s in ships):
        raise IllegalAction(f"square {move.square + 1} holds none of your ships")
    if not has_choice(ships):
        if move.order:
            raise IllegalAction(f"the group on square {move.square + 1} has one order only: "
                                f"write `move {move.square + 1}`")
        return tuple(ships)
    if not move.order:
        raise IllegalAction(f"ships of one size and different colours share square {move.square + 1}: "
                            "list the order, e.g. " + Move(move.square, tuple(
                                ship_code(r, s) for r, s in orders(ships)[0])).text())
    order = tuple(parse_ship_code(code) for code in move.order)
    if sorted(order) != sorted(ships):
        raise IllegalAction(f"the order must list exactly the ships on square {move.square + 1}")
    if [r for r, _ in order] != sorted(r for r, _ in order):
        raise IllegalAction("large ships move first, then medium, then small")
    return order


def check_step(state: State, seat: int, step: Step) -> Ship:
    if not 0 <= step.square < state.orbit.length:
        raise IllegalAction(f"there is no square {step.square + 1}")
    ship = (SIZES.index(step.size), seat)
    if ship not in state.squares[step.square]:
        raise IllegalAction(f"you have no {step.size} ship on square {step.square + 1}")
    return ship


def _land(state: State, ship: Ship, square: int) -> None:
    if state.orbit.is_hole(square):
        state.lost[ship[1]][ship[0]] += 1   # swallowed: gone for good
    else:
        insort(state.squares[square], ship)


def move_group(state: State, square: int, order: tuple[Ship, ...]) -> None:
    """Lift the whole group, then the k-th ship of `order` lands k squares on (SPEC §42.3)."""
    state.squares[square] = []
    for k, ship in enumerate(order, start=1):
        _land(state, ship, (square + k) % state.orbit.length)


def move_one(state: State, square: int, ship: Ship) -> None:
    state.squares[square].remove(ship)
    _land(state, ship, (square + 1) % state.orbit.length)
