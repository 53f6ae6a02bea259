"""Space Walk on screen (SPEC §48.2): the orbit drawn as a ring of squares, clockwise from
square 1 at the top left, each square with its ships (colour initial and size letter, in the
owner's colour); inside the ring, each seat's fleet, tokens or cards."""
from __future__ import annotations

from prompt_toolkit.formatted_text import FormattedText

from space_walk.cards import copied_effect
from space_walk.engine import to_move
from space_walk.orbit import CARD_KINDS, COLOURS, INITIALS, SIZES
from space_walk.scoring import score
from space_walk.state import State

from cli.terminal import DIM, plain

CELL = 13            # characters per square: number, then up to three ships
STYLE = {"blue": "fg:ansibrightblue", "yellow": "fg:ansiyellow", "green": "fg:ansigreen",
         "red": "fg:ansired", "purple": "fg:ansimagenta"}
HOLE_STYLE = "fg:ansibrightblack bold"
SHAPES = {14: (5, 4), 21: (6, 7)}   # cells across the top, rows of the ring


def ring_layout(length: int) -> dict[int, tuple[int, int]]:
    """(row, column) of every square: the top row left to right, down the right side, the
    bottom row right to left, up the left side (clockwise)."""
    width, height = SHAPES.get(length, (max(3, (length + 4) // 4), 0))
    if height == 0:
        height = (length - 2 * width + 4 + 1) // 2
    cells = [(0, c) for c in range(width)] + [(r, width - 1) for r in range(1, height - 1)]
    cells += [(height - 1, c) for c in range(width - 1, -1, -1)]
    cells += [(r, 0) for r in range(height - 2, 0, -1)]
    bottom_gap = len(cells) - length          # an odd orbit leaves the bottom-left corner(s) empty
    if bottom_gap > 0:
        start = width + (height - 2) + (width - bottom_gap)
        cells = cells[:start] + cells[start + bottom_gap:]
    return {sq: cells[sq] for sq in range(length)}


def _ship(rank: int, seat: int) -> tuple[str, str]:
    style = STYLE[COLOURS[seat]] + (" bold" if rank == 0 else "")
    return style, INITIALS[seat] + SIZES[rank]


def square_cell(state: State, square: int) -> list[tuple[str, str]]:
    """One square as fragments exactly CELL characters wide."""
    number = f"{square + 1:>2}"
    if state.orbit.is_hole(square):
        return [(HOLE_STYLE, f"{number} (@) hole".ljust(CELL))]
    out = [(DIM, number)]
    ships = state.squares[square]
    shown = ships if len(ships) <= 3 else ships[:2]
    for rank, seat in shown:
        out += [("", " "), _ship(rank, seat)]
    used = 2 + 3 * len(shown)
    if len(shown) < len(ships):
        more = f" +{len(ships) - len(shown)}"
        out.append(("bold", more))
        used += len(more)
    out.append(("", " " * (CELL - used)))
    return out


def seat_lines(state: State, you: int | None = None) -> list[list[tuple[str, str]]]:
    """One short line per seat (inside the ring): ships in orbit by size and points now."""
    lines = []
    for seat in range(state.players):
        fleet = state.ships_in_orbit(seat)
        counts = " ".join(f"{s}{sum(1 for _, r in fleet if r == i)}" for i, s in enumerate(SIZES))
        name = COLOURS[seat] + ("*" if seat == you else "")
        lines.append([(STYLE[COLOURS[seat]] + " bold", f"{name:<8}"),
                      ("", f"{counts}  {score(state, seat):>2} pts")])
    return lines


def detail_lines(state: State, you: int | None = None) -> list[list[tuple[str, str]]]:
    """One line per seat below the ring: unplaced and lost ships, tokens or cards."""
    lines = []
    for seat in range(state.players):
        parts = []
        if sum(state.reserve[seat]):
            parts.append("to place " + " ".join(f"{s}{n}" for s, n in zip(SIZES, state.reserve[seat]) if n))
        if sum(state.lost[seat]):
            parts.append("lost " + " ".join(f"{s}{n}" for s, n in zip(SIZES, state.lost[seat]) if n))
        if state.action_cards:
            parts.append(f"hand: {card_counts(state.hands[seat])}; pile: {card_counts(state.discards[seat])}")
        else:
            parts.append(f"tokens {state.tokens[seat]}" + (" (one used this round)" if state.token_used[seat] else ""))
        who = " (you)" if seat == you else ""
        lines.append([(STYLE[COLOURS[seat]] + " bold", f"{COLOURS[seat]}{who}"), ("", ": " + "; ".join(parts))])
    return lines


def card_counts(counts: list[int]) -> str:
    return ", ".join(f"{c} {k}" if c > 1 else k for k, c in zip(CARD_KINDS, counts) if c) or "-"


def due_text(state: State) -> str:
    seat = to_move(state)
    if seat is None:
        return "game over: " + state.end
    who = COLOURS[seat]
    if state.due == "place":
        return f"{who} places a ship"
    if state.due == "second":
        return f"{who} makes the second move of twice"
    if state.due == "window":
        return f"{who} may use a token" + (" (another turn, or one ship one square)"
                                           if state.extra_turn_seat == seat else " (one ship one square)")
    if state.action_cards:
        copy = copied_effect(state, seat)
        return f"{who} plays a card" + (f" (copy would do {copy})" if copy else "")
    return f"{who} moves a group"


def board(state: State, you: int | None = None) -> FormattedText:
    """The ring with the seat lines inside it, then whose move it is."""
    layout = ring_layout(state.orbit.length)
    rows = 1 + max(r for r, _ in layout.values())
    cols = 1 + max(c for _, c in layout.values())
    at = {pos: sq for sq, pos in layout.items()}
    inside = seat_lines(state, you)
    frags: list[tuple[str, str]] = []
    for r in range(rows):
        line: list[tuple[str, str]] = []
        c = 0
        while c < cols:
            if (r, c) in at:
                line += square_cell(state, at[(r, c)])
                c += 1
            elif 0 < r < rows - 1 and 0 < c < cols - 1:   # the inside of the ring: seat lines
                width = CELL * (cols - 2)
                text = inside[r - 1] if r - 1 < len(inside) else [("", "")]
                used = sum(len(t) for _, t in text)
                line += [("", " ")] + [(s, t[:width - 1]) for s, t in text] + [("", " " * max(0, width - 1 - used))]
                c = cols - 1
            else:
                line.append(("", " " * CELL))
                c += 1
        frags += line + [("", "\n")]
    for extra in inside[rows - 2:]:                   # more seats than rows inside: below
        frags += extra + [("", "\n")]
    for line in detail_lines(state, you):
        frags += line + [("", "\n")]
    holes = ", ".join(str(h + 1) for h in state.orbit.holes)
    frags.append((DIM, f"{state.orbit.name} orbit, clockwise 1 -> {state.orbit.length}, "
                       f"black holes (@) on {holes}; a ship is colour initial + size: BL blue large\n"))
    frags.append(("bold", due_text(state) + "\n"))
    return FormattedText(frags)


def render_board(state: State) -> str:
    """The ring as plain text (for `asv replay` and logs)."""
    return plain(board(state))


def final(state: State) -> FormattedText:
    lines = [("bold", f"Game over: {state.end}.\n")]
    for seat in range(state.players):
        mark = "  winner" if seat in state.winners else ""
        lines.append((STYLE[COLOURS[seat]] + " bold", f"  {COLOURS[seat]:<7} {state.scores[seat]:>3} points{mark}\n"))
    return FormattedText(lines)
