"""Space Trading Race as an SVG picture to share (SPEC §31.7, §59.3): the flight path one row a
part of the path (Earth, each lane, each system), as the text board has it; each space a box
in its group's colour, its owner's band along the bottom, the ships on it as seat discs; beside
it every seat's money, lasers, deeds and state. Missions stay hidden but for claimed ones."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from space_trading_race.board import SPACES
from space_trading_race.deeds import DEEDS, GROUP_COLOURS
from space_trading_race.state import BANK, State

from cli.picture import svg_shapes
from cli.picture.svg_doc import el, label, new_svg, to_text, wrapped

from .render import COLOURS, INITIALS, PARTS, due_text

__all__ = ["board_svg"]

BOX, GAP, LEFT, TOP, ROW = 58, 6, 110, 70, 68
PANEL_X = LEFT + 11 * (BOX + GAP) + 40
WIDTH, HEIGHT = PANEL_X + 420, TOP + len(PARTS) * ROW + 30
DIM = "#9fb0cc"
GROUP_FILL = {"grey": "#8a8f99", "yellow": "#c9a227", "red": "#b5482f", "orange": "#c97a2a", "tan": "#b49b6c",
              "cyan": "#3aa6b0", "blue": "#3b6fc4", "purple": "#7a5bb5", "white": "#d8dde6"}
KIND_FILL = {"earth": "#2f7d4f", "station": "#40507a", "blue": "#1d3f7a", "dot": "#05060a"}


def _fill(index: int) -> str:
    space = SPACES[index]
    if space.deed is not None:
        return GROUP_FILL[GROUP_COLOURS[DEEDS[space.deed].group]]
    return KIND_FILL[space.kind]


def _space(parent: ET.Element, state: State, index: int, x: float, y: float) -> None:
    space = SPACES[index]
    g = el(parent, "g", class_="space", data_space=index, data_kind=space.kind,
           transform=f"translate({x:g} {y:g})")
    el(g, "title", f"{index} {space.name}")
    size = BOX if space.kind != "dot" else BOX / 3
    el(g, "rect", x=0, y=(BOX - size) / 2, width=size, height=size, rx=6, fill=_fill(index), stroke="#3a4a70")
    if space.kind == "dot":
        return
    label(g, 4, 13, str(index), 11, fill="#0b0f1a" if space.deed is not None else "#e8ecf4", weight="bold")
    label(g, 4, 26, space.name[:8], 9, fill="#0b0f1a" if space.deed is not None else "#e8ecf4")
    if space.deed is not None and state.owner[space.deed] != BANK:
        owner = COLOURS[state.owner[space.deed]]
        el(g, "rect", x=0, y=BOX - 9, width=BOX, height=9, rx=3, fill=svg_shapes.SEAT_FILL[owner],
           class_="owner", data_seat=owner)
    ships = [s for s in range(state.players) if state.alive[s] and state.pos[s] == index]
    for i, seat in enumerate(ships):
        cx, cy = 10 + 13 * i, 40
        el(g, "circle", cx=cx, cy=cy, r=6, fill=svg_shapes.SEAT_FILL[COLOURS[seat]], stroke="#f4f6fb",
           class_="ship", data_seat=COLOURS[seat])
        label(g, cx, cy + 3, INITIALS[seat], 8, fill=svg_shapes.SEAT_INK[COLOURS[seat]], anchor="middle",
              weight="bold")


def _panel(root: ET.Element, state: State, caption: str, labels: list[str] | None) -> None:
    g = el(root, "g", class_="panel", transform=f"translate({PANEL_X} 0)")
    label(g, 0, 36, "Space Trading Race", 22, weight="bold")
    y = wrapped(g, 0, 58, caption, 13, 48, fill=DIM, class_="caption") if caption else 75
    y = wrapped(g, 0, y + 7, due_text(state), 14, 48, class_="status") + 8
    for seat in range(state.players):
        colour = COLOURS[seat]
        name = labels[seat] if labels and seat < len(labels) else ""
        block = el(g, "g", class_="seat", data_seat=colour, data_assets=state.assets(seat))
        el(block, "rect", x=0, y=y, width=26, height=26, rx=4, fill=svg_shapes.SEAT_FILL[colour])
        mark = "  ★ winner" if seat in state.winners else "" if state.alive[seat] else f"  out ({state.out[seat]})"
        label(block, 36, y + 19, colour + (f" · {name}" if name else "") + mark, 15, weight="bold")
        mission = state.names.get(state.hand[seat]) if state.hand[seat] >= 0 else None
        label(block, 36, y + 38, f"${state.cash[seat]} · {state.tokens[seat]} lasers · "
              f"{len(state.deeds_of(seat))} deeds (${state.deed_value(seat)}) · {state.laps[seat]} laps"
              + (f" · mission {mission}" if mission else ""), 12, fill=DIM)
        y += 56


def board_svg(state: State, *, caption: str = "", labels: list[str] | None = None) -> str:
    root = new_svg(WIDTH, HEIGHT, "Space Trading Race" + (f", {caption}" if caption else ""))
    el(root, "rect", x=0, y=0, width=WIDTH, height=HEIGHT, fill="#0b0f1a")
    label(root, 20, 40, "The flight path, from Earth (0) to Kuiper (84) and back", 16, fill=DIM)
    path = el(root, "g", class_="path")
    for row, (name, indices) in enumerate(PARTS):
        y = TOP + row * ROW
        label(path, 20, y + BOX / 2 + 5, name, 14, fill=DIM, weight="bold")
        x = LEFT
        for index in indices:
            _space(path, state, index, x, y)
            x += (BOX if SPACES[index].kind != "dot" else BOX / 3) + GAP
    _panel(root, state, caption, labels)
    return to_text(root)
