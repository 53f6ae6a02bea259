"""The side panel of the board picture (SPEC §31.7): whose turn, every seat's score and
pieces, the tiles left, and a legend drawn with the board's own glyphs."""
from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET

from p2p_asv.engine import to_move
from p2p_asv.geometry import square_name
from p2p_asv.state import CHANCE, GameState
from p2p_asv.variants import TEAMS

from cli.games.asv import render
from cli.picture import svg_shapes
from cli.picture.svg_doc import el, label, wrapped

INK, DIM = "#e8ecf4", "#9fb0cc"
CAPTION_LINE = 48          # characters of the caption on a line (a long log name wraps)
SHIP_LINE = 52             # characters of the ship list on one line of the panel,
SHIP_LINES = 3             # and at most this many lines (the board shows every ship)
SUN_CONTROLLED = "#3a3212"   # an empty square next to an unfinished sun (SPEC §4.3)
SHORT_TYPE = {"Star-T Ship": "Star-T", "Scout Ship": "Scout", "Fighter Ship": "Fighter",
              "Star Cruiser": "Cruiser", "Space Shuttle": "Shuttle", "Colony Ship": "Colony",
              "Flying Saucer": "Saucer"}


def status_line(state: GameState) -> str:
    """'turn 12 · green to play (move)', 'turn 12 · dealing', or the winners."""
    if state.over:
        winners = " and ".join(state.players[s].colour for s in state.winners)
        return f"game over after turn {state.turn}" + (f" · winner {winners}" if winners else "")
    due = to_move(state)
    if due == CHANCE:
        return f"turn {state.turn} · {state.players[state.active].colour}'s turn · dealing"
    who = state.players[due].colour
    d = state.discovery
    if d is not None:
        return f"turn {state.turn} · {who} to answer the discovery at {square_name(d.planet[0])}"
    return f"turn {state.turn} · {who} to play · {render.phase_text(state)}"


def _seat(g: ET.Element, state: GameState, seat: int, y: float, name: str) -> float:
    """One seat's block from y; returns the y below it."""
    p = state.players[seat]
    active = state.active == seat and not state.over
    block = el(g, "g", class_="seat", data_seat=p.colour, data_score=p.score)
    lit = el(block, "rect", x=-8, y=y - 4, width=384, height=66, rx=6, fill="#1b2640", stroke="#ffffff",
             stroke_width=1.2, class_="active") if active else None
    el(block, "rect", x=0, y=y, width=26, height=26, rx=4, fill=svg_shapes.SEAT_FILL[p.colour])
    label(block, 13, y + 19, render.LETTER[p.colour], 16, fill=svg_shapes.SEAT_INK[p.colour],
          anchor="middle", weight="bold", class_="letter")
    mark = "  ◀ to play" if active else "  ★ winner" if state.over and seat in state.winners else ""
    head = p.colour + (f" · {name}" if name else "") + mark
    label(block, 36, y + 19, head, 16, weight="bold")
    label(block, 368, y + 22, str(p.score), 26, anchor="end", weight="bold", class_="score")
    counts = (f"hand {len(p.hand)} · stations {len(p.stations)} · probes {len(p.probes)} · "
              f"pirates {len(p.pirates)}")
    label(block, 36, y + 38, counts, 12, fill=DIM)
    ships = ", ".join(f"{render.LETTER[p.colour]}{s.id} {SHORT_TYPE.get(s.name, s.name)} "
                      f"{square_name(s.square)}" for s in state.ships_of(seat))
    lines = textwrap.wrap(ships, SHIP_LINE, max_lines=SHIP_LINES, placeholder=" …") or ["no ships"]
    if p.role:   # role play (SPEC §13.3): the seat's explorer
        lines.insert(0, f"role: {p.role}")
    for i, line in enumerate(lines):
        label(block, 36, y + 54 + 15 * i, line, 12, fill=DIM, class_="ships")
    if lit is not None:   # the frame grows with the ship list
        lit.set("height", str(66 + 15 * (len(lines) - 1)))
    return y + 74 + 15 * (len(lines) - 1)


def _legend(g: ET.Element, y: float) -> None:
    """Samples drawn with the board's own glyphs, three to a row."""
    label(g, 0, y, "Legend", 15, weight="bold")
    rows = el(g, "g", class_="legend")

    def text(x: float, y: float, words: str) -> None:
        label(rows, x, y + 4, words, 12)
    y += 26
    svg_shapes.planet(rows, 14, y, 3)
    text(34, y, "planet worth 3")
    svg_shapes.planet(rows, 146, y, 3, owner="blue")
    text(174, y, "discovered: owner's colour, letter")
    y += 34
    for i, status in enumerate(("open", "complete", "ruined")):
        el(rows, "path", d=f"M{i * 136 + 2} {y} L{i * 136 + 24} {y}", stroke_linecap="round",
           **svg_shapes.PATH_STYLE[status])
        text(i * 136 + 30, y, f"path {status}")
    y += 26
    for i, status in enumerate(("open", "complete", "blocked")):
        fill = {"open": "url(#galaxy)", "complete": "url(#galaxy-done)", "blocked": "url(#galaxy-blocked)"}[status]
        el(rows, "ellipse", cx=i * 136 + 12, cy=y, rx=12, ry=8, fill=fill)
        text(i * 136 + 30, y, f"galaxy {status}")
    y += 28
    el(rows, "circle", cx=14, cy=y, r=11, fill="#ffd23f", stroke="#f08a24", stroke_width=3)
    text(34, y, "sun tile")
    svg_shapes.worm_hole(rows, 144, y)
    text(164, y, "worm hole")
    svg_shapes.black_hole(rows, 274, y, 9)
    text(294, y, "black hole")
    y += 28
    el(rows, "rect", x=3, y=y - 10, width=22, height=20, fill=SUN_CONTROLLED, stroke="#6b5a1a")
    text(34, y, "controlled by a sun: only a sun tile may go there")
    y += 30
    label(rows, 0, y, "Ships by type (letter = seat, number = ship: B1 is blue's s1)", 12, fill=DIM)
    y += 22
    for i, kind in enumerate(svg_shapes.SHIP_TYPES):
        col, row = i % 4, i // 4
        svg_shapes.ship(rows, col * 96 + 14, y + row * 26, "blue", "B", kind, kind)
        text(col * 96 + 30, y + row * 26, SHORT_TYPE[kind])
    y += 54
    svg_shapes.station(rows, 10, y, "yellow", "station")
    text(26, y, "space station")
    svg_shapes.probe(rows, 140, y, "green", "probe")
    text(156, y, "probe")
    svg_shapes.pirate(rows, 240, y, "red", "pirate")
    text(256, y, "pirate")
    y += 28
    label(rows, 0, y, "Ships sit along a square's bottom, other pieces along its top.", 12, fill=DIM)
    label(rows, 0, y + 16, "Dashed white frame: tiles placed this turn.", 12, fill=DIM)


def panel(root: ET.Element, state: GameState, x: int, *, caption: str = "",
          labels: list[str] | None = None) -> None:
    g = el(root, "g", class_="panel", transform=f"translate({x} 0)")
    label(g, 0, 36, "Amazing Space Venture", 22, weight="bold")
    y = wrapped(g, 0, 58, caption, 13, CAPTION_LINE, fill=DIM, class_="caption") if caption else 75
    y = wrapped(g, 0, y + 7, status_line(state), 14, 50, class_="status") + 4
    for seat in range(len(state.players)):
        name = labels[seat] if labels and seat < len(labels) else ""
        y = _seat(g, state, seat, y, name)
    if state.variants.partnership:   # SPEC §13.4
        teams = "   ".join(f"{'+'.join(state.players[s].colour for s in team)} "
                           f"{sum(state.players[s].score for s in team)}" for team in TEAMS)
        label(g, 0, y + 4, f"teams: {teams}", 13)
        y += 24
    label(g, 0, y + 4, f"tiles left {state.tiles_left()} · sun tiles placed {state.board.suns_placed()}",
          13, fill=DIM, class_="tiles-left")
    _legend(g, max(y + 40, 500))
