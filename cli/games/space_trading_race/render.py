"""Space Trading Race as plain text (SPEC §34.1, §59.3): the flight path one part a line (Earth,
each lane, each system), every space a short token, then one line a seat. Fits 80 columns."""
from __future__ import annotations

from space_trading_race.board import SPACES
from space_trading_race.deeds import DEEDS
from space_trading_race.engine import due, to_move
from space_trading_race.state import BANK, CHANCE, State

__all__ = ["COLOURS", "INITIALS", "board_text", "due_text", "final_text", "space_label", "seat_line"]

COLOURS = ("blue", "yellow", "green", "red")
INITIALS = tuple(c[0].upper() for c in COLOURS)
KIND_MARK = {"earth": "E", "planet": "P", "moon": "m", "dock": "F", "station": "S", "blue": "o", "dot": "."}
DUE_WORDS = {"roll": "to roll (or fire, offer, claim)", "choose": "to land or bypass", "buy": "to buy or decline",
             "exchange": "to exchange the mission or keep it", "pick": "to pick a free deed",
             "free-fire": "to fire the blue dot's laser", "after": "to end the turn (or fire, offer, claim)",
             "shield": "to answer the double six (pass or claim)", "debt": "to pay a debt (cede deeds)",
             "answer": "to accept or reject an offer", "chance": "chance"}


def space_label(index: int) -> str:
    space = SPACES[index]
    return f"{index} {space.name}" if space.kind != "dot" else f"{index} (black dot)"


def _parts() -> list[tuple[str, list[int]]]:
    """The path cut into lines: a system's spaces (dots included) and the lane after it."""
    parts: list[tuple[str, list[int]]] = []
    for space in SPACES:
        if space.system is not None and (not parts or parts[-1][0] != space.system):
            parts.append((space.system, []))
        parts[-1][1].append(space.index)
    return parts


PARTS = _parts()


def _token(state: State, index: int) -> str:
    space = SPACES[index]
    if space.kind == "dot":
        return "."
    owner = ""
    if space.deed is not None:
        o = state.owner[space.deed]
        owner = "-" if o == BANK else INITIALS[o].lower()
    ships = "".join(INITIALS[s] for s in range(state.players) if state.alive[s] and state.pos[s] == index)
    return f"{index}{KIND_MARK[space.kind]}{owner}" + (f"[{ships}]" if ships else "")


def due_text(state: State) -> str:
    if state.over:
        names = ", ".join(COLOURS[s] for s in state.winners)
        return f"game over: {names} won ({state.end})"
    who = to_move(state)
    if who == CHANCE:
        return f"round {state.round}: waiting for chance ({state.pending[0].kind})"
    return f"round {state.round}: {COLOURS[who]} {DUE_WORDS.get(due(state), due(state))}"


def seat_line(state: State, seat: int, mission: str | None = None) -> str:
    if not state.alive[seat]:
        return f"{COLOURS[seat]:6s} out ({state.out[seat]})"
    where = space_label(state.pos[seat]) + ("" if state.landed[seat] else " (bypassing)")
    deeds = len(state.deeds_of(seat))
    line = (f"{COLOURS[seat]:6s} ${state.cash[seat]:<5d} lasers {state.tokens[seat]:<2d} deeds {deeds:<2d} "
            f"laps {state.laps[seat]}  at {where}")
    return line + (f"  mission {mission}" if mission else "")


def board_text(state: State, mission_of=None) -> str:
    """The board and the seats; `mission_of(seat)` names a mission the reader may see."""
    lines = [due_text(state)]
    for name, indices in PARTS:
        row, width = f"{name:8s}", 8
        for index in indices:
            token = _token(state, index)
            if SPACES[index].system is None and SPACES[index - 1].system is not None:
                token = "| " + token     # the lane after the system
            if width + len(token) + 1 > 80:
                lines.append(row)
                row, width = " " * 8, 8
            row += " " + token
            width += len(token) + 1
        lines.append(row)
    lines.append("  E earth P planet m moon F fuel dock S station o blue dot . black dot")
    lines.append("  after a deed its owner (b y g r, - the bank); [BR] ships there")
    for seat in range(state.players):
        lines.append(seat_line(state, seat, mission_of(seat) if mission_of else None))
    return "\n".join(lines)


def final_text(state: State) -> str:
    lines = [due_text(state)]
    for seat in range(state.players):
        lines.append(f"  {COLOURS[seat]:6s} assets ${state.assets(seat)}"
                     + (f" (out: {state.out[seat]})" if not state.alive[seat] else ""))
    return "\n".join(lines)


def deed_line(deed_index: int, state: State) -> str:
    d = DEEDS[deed_index]
    o = state.owner[deed_index]
    return f"{d.name} ({d.group}, ${d.price}) owned by {'the bank' if o == BANK else COLOURS[o]}"
