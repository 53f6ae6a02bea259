"""The Amazing Space Venture board as an SVG picture to share (SPEC §31.7, §27.8).

Reads only the public state: tiles with their galaxies, paths, planets, suns, worm holes and
the black hole; the pieces; the scores (cli.games.asv.svg.panel). Hands are never drawn, so the
picture shows nothing a player's view may not. The same state gives the same bytes.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET

from p2p_asv.geometry import BOARD_WORMHOLES, COLUMNS, SIZE, Square, sector_of, square_name
from p2p_asv.state import GameState
from p2p_asv.tile_model import DEEP, END_GALAXY, END_MID, END_PLANET

from cli.games.asv.svg import panel as board_svg_panel
from cli.games.asv.svg import pieces as board_svg_pieces
from cli.picture import svg_shapes
from cli.picture.svg_doc import el, label, new_svg, to_text

T = 68                      # pixels a square takes
X0, Y0 = 34, 34             # the board's top left corner, room for the coordinates
BOARD = T * SIZE
PANEL_X = X0 + BOARD + 40   # the scores and the legend, right of the board
WIDTH, HEIGHT = PANEL_X + 400, Y0 + BOARD + 34   # 1358 x 952: fits a 1400 x 1000 window
HALF = T // 2
MID = ((HALF, 0), (T, HALF), (HALF, T), (0, HALF))        # side midpoints N E S W
DIRS = ((0, -1), (1, 0), (0, 1), (-1, 0))
GALAXY_FILL = {"open": "url(#galaxy)", "complete": "url(#galaxy-done)", "blocked": "url(#galaxy-blocked)"}


def _defs(root: ET.Element) -> None:
    defs = el(root, "defs")
    soft = el(defs, "filter", id="nebula", x="-20%", y="-20%", width="140%", height="140%")
    el(soft, "feGaussianBlur", stdDeviation=3)   # the lobes of a galaxy melt into one cloud
    clip = el(defs, "clipPath", id="tile-clip")
    el(clip, "rect", x=0, y=0, width=T, height=T)
    for name, stops in (("galaxy", ("#f0c8ff", "#a45bd0", "#4a2a78")),
                        ("galaxy-done", ("#fff0ff", "#f07ad8", "#8a2f9a")),
                        ("galaxy-blocked", ("#c8c0d0", "#6e6284", "#393449"))):
        grad = el(defs, "radialGradient", id=name)  # bright core, dark rim
        for offset, colour in zip(("0", "0.55", "1"), stops):
            el(grad, "stop", offset=offset, stop_color=colour)


def _at(dx: float, dy: float, scale: float) -> tuple[float, float]:
    return HALF + dx * scale, HALF + dy * scale


def _planet_spot(tile, rotation: int, index: int) -> tuple[float, float]:
    """The centre for one planet; on a tile with two, each sits towards the side of its path."""
    if len(tile.planets) == 1:
        return HALF, HALF
    for seg in tile.paths:
        if seg.end == END_PLANET and seg.planet == index:
            dx, dy = DIRS[(seg.sides[0] + rotation) % 4]
            return _at(dx, dy, T * 0.23)
    return _at(-1 + 2 * index, 0, T * 0.22)


def _wormhole_spot(shown: tuple[str, ...]) -> tuple[float, float]:
    """Worm holes lie in the tile's deep space: the corner between two deep sides, else
    towards the first deep side."""
    deep = [s for s in range(4) if shown[s] == DEEP]
    for a in deep:
        if (a + 1) % 4 in deep and len(deep) == 2:
            dx, dy = DIRS[a][0] + DIRS[(a + 1) % 4][0], DIRS[a][1] + DIRS[(a + 1) % 4][1]
            return _at(dx, dy, T * 0.27)
    dx, dy = DIRS[deep[0]] if deep else (1, 1)
    return _at(dx, dy, T * 0.3)


def _galaxies(g: ET.Element, state: GameState, sq: Square, tile, rotation: int) -> None:
    for part, sides in enumerate(tile.galaxies):
        shown = [(s + rotation) % 4 for s in sides]
        status = state.board.galaxy_state(sq, part)
        blob = el(g, "g", class_="galaxy", data_part=part, data_state=status, opacity=0.92,
                  filter="url(#nebula)")
        for d in shown:   # a lobe on each side, which the neighbour's lobe completes
            cx, cy = MID[d]
            across, inward = T * 0.46, T * 0.33
            el(blob, "ellipse", cx=cx, cy=cy, rx=across if d % 2 == 0 else inward,
               ry=inward if d % 2 == 0 else across, fill=GALAXY_FILL[status])
        if len(shown) > 1:
            el(blob, "ellipse", cx=HALF, cy=HALF, rx=T * 0.3, ry=T * 0.3, fill=GALAXY_FILL[status])


def _paths(g: ET.Element, state: GameState, sq: Square, tile, rotation: int) -> None:
    for index, seg in enumerate(tile.paths):
        sides = [(s + rotation) % 4 for s in seg.sides]
        status = state.board.path_state(sq, index)
        (ax, ay) = MID[sides[0]]
        if len(sides) == 2:
            bx, by = MID[sides[1]]
            d = (f"M{ax} {ay} L{bx} {by}" if (sides[0] - sides[1]) % 2 == 0
                 else f"M{ax} {ay} Q{HALF} {HALF} {bx} {by}")
        elif seg.end == END_PLANET:
            px, py = _planet_spot(tile, rotation, seg.planet)
            d = f"M{ax} {ay} L{px:g} {py:g}"
        elif seg.end == END_GALAXY:   # runs on into the galaxy on the far side
            d = f"M{ax} {ay} L{ax + (HALF - ax) * 1.5:g} {ay + (HALF - ay) * 1.5:g}"
        else:                         # the black hole, or a dead end in deep space
            d = f"M{ax} {ay} L{HALF} {HALF}"
        el(g, "path", d=d, fill="none", stroke_linecap="round", class_="path", data_state=status,
           **svg_shapes.PATH_STYLE[status])
        if seg.end == END_MID:        # a bar where the path stops
            dx, dy = DIRS[sides[0]]
            el(g, "path", d=f"M{HALF - dy * 8} {HALF - dx * 8} L{HALF + dy * 8} {HALF + dx * 8}",
               stroke=svg_shapes.PATH_STYLE[status]["stroke"], stroke_width=4, stroke_linecap="round")


def _stars(g: ET.Element, sq: Square) -> None:
    """A few faint stars in deep space, placed by the square alone (no randomness)."""
    col, row = sq
    for k in range(4):
        seed = (col * 37 + row * 61 + k * 97) % 1000
        x, y = 6 + seed % (T - 11), 6 + (seed * 7 + k * 13) % (T - 11)
        el(g, "circle", cx=x, cy=y, r=0.9 if k % 2 else 0.6, fill="#ffffff", opacity=0.45)


def _sun(g: ET.Element, state: GameState, sq: Square) -> None:
    """A sun tile glows from the middle of its whole sun, so a two-by-two sun reads as one."""
    squares = next((s.squares for s in state.board.suns() if sq in s.squares), (sq,))
    cx = (sum(c for c, _ in squares) / len(squares) - sq[0]) * T + HALF
    cy = (sum(r for _, r in squares) / len(squares) - sq[1]) * T + HALF
    grad_id = f"sun-{square_name(sq)}"
    grad = el(g, "radialGradient", id=grad_id, gradientUnits="userSpaceOnUse", cx=cx, cy=cy,
              r=T * (0.62 if len(squares) == 1 else 1.1))
    for offset, colour in (("0", "#fffbe0"), ("0.35", "#ffd23f"), ("0.75", "#f08a24"), ("1", "#8a320c")):
        el(grad, "stop", offset=offset, stop_color=colour)
    el(g, "rect", x=0, y=0, width=T, height=T, fill=f"url(#{grad_id})")


def _tile(parent: ET.Element, state: GameState, sq: Square, placed) -> None:
    tile, rotation = placed.tile, placed.rotation
    x, y = X0 + sq[0] * T, Y0 + sq[1] * T
    g = el(parent, "g", class_="tile", id=f"tile-{square_name(sq)}", data_square=square_name(sq),
           data_tile=tile.id, data_rotation=rotation, transform=f"translate({x} {y})",
           clip_path="url(#tile-clip)")
    el(g, "title", f"{square_name(sq)}: {tile.note}")
    if tile.kind == "sun":
        _sun(g, state, sq)
        el(g, "rect", x=0, y=0, width=T, height=T, fill="none", stroke="#2d3b5e", stroke_width=1)
        return
    el(g, "rect", x=0, y=0, width=T, height=T, fill="#0a1433", stroke="#2d3b5e", stroke_width=1)
    _stars(g, sq)
    _galaxies(g, state, sq, tile, rotation)
    _paths(g, state, sq, tile, rotation)
    shown = tuple(tile.side(s, rotation) for s in range(4))
    if tile.wormhole:
        svg_shapes.worm_hole(g, *_wormhole_spot(shown))
    if tile.black_hole:
        svg_shapes.black_hole(g, HALF, HALF)
    big = tile.kind == "start" and tile.planets[0] == 5
    seated = [p.colour for p in state.players]
    for index, value in enumerate(tile.planets):
        record = state.planets.get((sq, index))
        owner = state.players[record.owner].colour if record else None
        destroyed = state.board.planet_destroyed(sq, index)
        what = (f"planet worth {value}" + (", destroyed" if destroyed else "")
                + (f", {owner}'s" if owner else ", undiscovered" if not destroyed else "")
                + (f": {', '.join(record.cards)}" if record and record.cards else ""))
        svg_shapes.planet(g, *_planet_spot(tile, rotation, index), value, owner=owner,
                          home=tile.home_colour if tile.home_colour in seated else None,
                          destroyed=destroyed, r=16 if big else 12 if len(tile.planets) > 1 else 14,
                          title=what)
    if sq in state.black_disks:   # Supernova: no ship lands here again (SPEC §15.1)
        el(g, "circle", cx=HALF, cy=HALF, r=T * 0.3, fill="#000000", stroke="#9a9a9a", stroke_width=2,
           class_="black-disk")
    if sq in state.webs:          # an Electromagnetic Web (SPEC §8.8)
        el(g, "path", class_="web", fill="none", stroke="#d8e0ea", stroke_width=0.9, opacity=0.7,
           d=f"M0 0 L{T} {T} M{T} 0 L0 {T} M{HALF} 0 L{HALF} {T} M0 {HALF} L{T} {HALF} "
             f"M{HALF} 12 L{T - 12} {HALF} L{HALF} {T - 12} L12 {HALF} Z "
             f"M{HALF} 24 L{T - 24} {HALF} L{HALF} {T - 24} L24 {HALF} Z")


def _empty_square(parent: ET.Element, state: GameState, sq: Square, controlled: bool) -> None:
    x, y = X0 + sq[0] * T, Y0 + sq[1] * T
    sector = sector_of(sq)
    g = el(parent, "g", class_="square", data_square=square_name(sq), transform=f"translate({x} {y})")
    el(g, "rect", x=1, y=1, width=T - 2, height=T - 2, fill=board_svg_panel.SUN_CONTROLLED if controlled else "#131a29",
       stroke=svg_shapes.SEAT_FILL[sector] if sector else "#3a4256", stroke_width=1,
       stroke_opacity=0.45)
    if sq in BOARD_WORMHOLES:     # printed on the board until a tile covers it (SPEC §2.4)
        svg_shapes.worm_hole(g, HALF, HALF, 14)


def _coordinates(root: ET.Element) -> None:
    g = el(root, "g", class_="coordinates")
    for i in range(SIZE):
        for y in (Y0 - 12, Y0 + BOARD + 22):
            label(g, X0 + i * T + HALF, y, COLUMNS[i], 14, fill="#9fb0cc", anchor="middle", weight="bold")
        for x, anchor in ((X0 - 8, "end"), (X0 + BOARD + 8, "start")):
            label(g, x, Y0 + i * T + HALF + 5, str(i + 1), 14, fill="#9fb0cc", anchor=anchor, weight="bold")


def board_svg(state: GameState, *, caption: str = "", labels: list[str] | None = None) -> str:
    """The whole picture as SVG text. `caption`: where the position comes from (e.g. "after
    seq 412 of game.asvlog"); `labels`: who sits in each seat (names, "you", bots)."""
    root = new_svg(WIDTH, HEIGHT, "Amazing Space Venture" + (f", {caption}" if caption else ""))
    _defs(root)
    el(root, "rect", x=0, y=0, width=WIDTH, height=HEIGHT, fill="#0b0f1a")
    squares = el(root, "g", class_="board")
    controlled = set(state.board.controlled_squares())
    for row in range(SIZE):
        for col in range(SIZE):
            if state.board.tile_at((col, row)) is None:
                _empty_square(squares, state, (col, row), (col, row) in controlled)
    tiles = el(root, "g", class_="tiles")
    for sq, placed in state.board.tiles():
        _tile(tiles, state, sq, placed)
    marks = el(root, "g", class_="placed-this-turn")
    for sq in state.placed_this_turn:
        el(marks, "rect", x=X0 + sq[0] * T + 2, y=Y0 + sq[1] * T + 2, width=T - 4, height=T - 4,
           fill="none", stroke="#ffffff", stroke_width=2, stroke_dasharray="6 4")
    board_svg_pieces.pieces(root, state, X0, Y0, T)
    _coordinates(root)
    board_svg_panel.panel(root, state, PANEL_X, caption=caption, labels=labels)
    return to_text(root)
