"""The Space Walk orbit as an SVG picture to share (SPEC §31.7, §48.2): the squares on a
circle, clockwise from square 1 at the top, black holes dark; on each square its ships, a
hull in the owner's colour whose size is the ship's, labelled with the colour's initial and
the size letter (BL: blue large); beside it every seat's points, fleet and tokens or cards.
Space Walk hides nothing, so every seat's picture is the same."""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from space_walk.engine import to_move
from space_walk.orbit import COLOURS, INITIALS, POINTS, SIZE_NAMES, SIZES
from space_walk.scoring import score
from space_walk.state import State

from cli.picture import svg_shapes
from cli.picture.svg_doc import el, label, new_svg, to_text, wrapped
from cli.games.space_walk.render import card_counts, due_text

WIDTH, HEIGHT = 1358, 952
CX, CY = 470, 476                 # the orbit's centre
PANEL_X = 958
DIM = "#9fb0cc"
CAPTION_LINE = 48            # characters of the caption on a line (a long log name wraps)
HULL = {0: 1.25, 1: 1.05, 2: 0.85}   # a hull's scale by size rank: large, medium, small
HULL_PATH = "M-11 -7 L6 -7 L12 0 L6 7 L-11 7 Z"
COLUMNS = 3                       # ships side by side in a square


def fill(seat: int) -> str:
    return svg_shapes.SEAT_FILL[COLOURS[seat]]


def _geometry(length: int) -> tuple[float, float]:
    """The orbit's radius and a square's side: squares a little apart round the circle."""
    radius = 410 if length > 14 else 340
    side = min(118, 2 * math.pi * radius / length * 0.78)
    return radius, side


def _centre(square: int, length: int, radius: float) -> tuple[float, float]:
    angle = 2 * math.pi * square / length          # clockwise from the top
    return CX + radius * math.sin(angle), CY - radius * math.cos(angle)


def _ship(parent: ET.Element, x: float, y: float, rank: int, seat: int) -> None:
    code = INITIALS[seat] + SIZES[rank]
    g = el(parent, "g", class_="piece ship", data_seat=COLOURS[seat], data_size=SIZE_NAMES[rank],
           data_label=code, transform=f"translate({round(x, 1):g} {round(y, 1):g}) scale({HULL[rank]:g})")
    el(g, "title", f"{COLOURS[seat]} {SIZE_NAMES[rank]} ship")
    el(g, "path", d=HULL_PATH, fill=fill(seat), stroke="#f4f6fb", stroke_width=1.1)
    label(g, -1, 3.2, code, round(9 / HULL[rank], 1), fill=svg_shapes.SEAT_INK[COLOURS[seat]], anchor="middle", weight="bold",
          class_="letter")


def _square(parent: ET.Element, state: State, square: int, radius: float, side: float) -> None:
    x, y = _centre(square, state.orbit.length, radius)
    hole = state.orbit.is_hole(square)
    g = el(parent, "g", class_="square", data_square=square + 1, data_hole="yes" if hole else None,
           transform=f"translate({round(x - side / 2, 1):g} {round(y - side / 2, 1):g})")
    side = round(side, 1)
    if hole:
        el(g, "title", f"square {square + 1}: a black hole")
        el(g, "rect", x=0, y=0, width=side, height=side, rx=10, fill="#05060a", stroke="#3c3c46", stroke_width=1.5)
        svg_shapes.black_hole(g, side / 2, side / 2 + 6, side * 0.24)
    else:
        el(g, "rect", x=0, y=0, width=side, height=side, rx=10, fill="#101a33", stroke="#3a4a70", stroke_width=1.5)
    label(g, 8, 17, str(square + 1), 14, fill=DIM, weight="bold", class_="number")
    ships = state.squares[square]
    shown = ships if len(ships) <= 9 else ships[:8]
    step = side / COLUMNS
    for i, (rank, seat) in enumerate(shown):
        _ship(g, step * (i % COLUMNS) + step / 2, 36 + (i // COLUMNS) * 24, rank, seat)
    if len(shown) < len(ships):
        label(g, side - 8, 17, f"+{len(ships) - len(shown)}", 13, anchor="end", weight="bold")


def _arrow(root: ET.Element, radius: float) -> None:
    """A clockwise arrow inside the ring."""
    r = radius - 100
    el(root, "path", d=f"M{CX - r * 0.5:.1f} {CY - r * 0.866:.1f} A{r:g} {r:g} 0 0 1 {CX + r * 0.5:.1f} "
                       f"{CY - r * 0.866:.1f}", fill="none", stroke="#4a5a80", stroke_width=3,
       marker_end="url(#arrow)")


def _panel(root: ET.Element, state: State, caption: str, labels: list[str] | None) -> None:
    g = el(root, "g", class_="panel", transform=f"translate({PANEL_X} 0)")
    label(g, 0, 36, "Space Walk", 22, weight="bold")
    y = wrapped(g, 0, 58, caption, 13, CAPTION_LINE, fill=DIM, class_="caption") if caption else 75
    y = wrapped(g, 0, y + 7, due_text(state), 14, 50, class_="status") + 8
    for seat in range(state.players):
        name = labels[seat] if labels and seat < len(labels) else ""
        points = state.scores[seat] if state.scores is not None else score(state, seat)
        block = el(g, "g", class_="seat", data_seat=COLOURS[seat], data_score=points)
        due = seat == to_move(state)
        if due:
            el(block, "rect", x=-8, y=y - 4, width=384, height=64, rx=6, fill="#1b2640", stroke="#ffffff",
               stroke_width=1.2, class_="active")
        el(block, "rect", x=0, y=y, width=26, height=26, rx=4, fill=fill(seat))
        label(block, 13, y + 19, INITIALS[seat], 16, fill=svg_shapes.SEAT_INK[COLOURS[seat]], anchor="middle",
              weight="bold", class_="letter")
        mark = "  ★ winner" if seat in state.winners else "  ◀ to play" if due else ""
        label(block, 36, y + 19, COLOURS[seat] + (f" · {name}" if name else "") + mark, 16, weight="bold")
        label(block, 368, y + 22, str(points), 26, anchor="end", weight="bold", class_="score")
        fleet = state.ships_in_orbit(seat)
        counts = " ".join(f"{s}{sum(1 for _, r in fleet if r == i)}" for i, s in enumerate(SIZES))
        extra = (f"hand: {card_counts(state.hands[seat])}" if state.action_cards
                 else f"tokens {state.tokens[seat]}")
        label(block, 36, y + 38, f"in orbit {counts} · {extra}", 12, fill=DIM)
        waiting = [f"to place {' '.join(f'{s}{n}' for s, n in zip(SIZES, state.reserve[seat]) if n)}"
                   if sum(state.reserve[seat]) else "",
                   f"lost {' '.join(f'{s}{n}' for s, n in zip(SIZES, state.lost[seat]) if n)}"
                   if sum(state.lost[seat]) else ""]
        label(block, 36, y + 54, " · ".join(w for w in waiting if w) or "all ships placed, none lost", 12, fill=DIM)
        y += 72
    y += 16
    label(g, 0, y, "Legend", 15, weight="bold")
    legend = el(g, "g", class_="legend")
    for i, rank in enumerate((0, 1, 2)):   # one size a line, largest first
        _ship(legend, 16, y + 26 + 22 * i, rank, 0)
        label(legend, 40, y + 30 + 22 * i,
              f"{SIZE_NAMES[rank]} ship: {POINTS[rank]} point{'s' if POINTS[rank] > 1 else ''} in orbit", 12)
    y += 44
    svg_shapes.black_hole(legend, 16, y + 62, 9)
    label(legend, 40, y + 66, "black hole: a ship that ends its move here is lost", 12)
    label(legend, 0, y + 94, "Ships move clockwise; a ship is its colour's initial and its size:", 12, fill=DIM)
    label(legend, 0, y + 110, "BL is blue's large ship, GS green's small one.", 12, fill=DIM)


def board_svg(state: State, *, caption: str = "", labels: list[str] | None = None) -> str:
    root = new_svg(WIDTH, HEIGHT, "Space Walk" + (f", {caption}" if caption else ""))
    defs = el(root, "defs")
    marker = el(defs, "marker", id="arrow", viewBox="0 0 10 10", refX=5, refY=5, markerWidth=5,
                markerHeight=5, orient="auto-start-reverse")
    el(marker, "path", d="M0 0 L10 5 L0 10 Z", fill="#4a5a80")
    el(root, "rect", x=0, y=0, width=WIDTH, height=HEIGHT, fill="#0b0f1a")
    radius, side = _geometry(state.orbit.length)
    el(root, "circle", cx=CX, cy=CY, r=radius, fill="none", stroke="#26324f", stroke_width=2,
       stroke_dasharray="4 6")
    _arrow(root, radius)
    label(root, CX, CY - 6, f"{state.orbit.name} orbit", 20, fill=DIM, anchor="middle", weight="bold")
    label(root, CX, CY + 18, f"{state.orbit.length} squares, clockwise", 14, fill=DIM, anchor="middle")
    ring = el(root, "g", class_="orbit")
    for square in range(state.orbit.length):
        _square(ring, state, square, radius, side)
    _panel(root, state, caption, labels)
    return to_text(root)
