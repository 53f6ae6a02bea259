"""The pieces on the board picture (SPEC §31.7): on each square, its ships along the bottom
and the other pieces (stations, probes, pirates) along the top, each in its seat colour with
its seat's letter; a square with more than fits shows `+N` (its tooltip lists them all)."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from p2p_asv.cards import CARD_BY_NAME
from p2p_asv.geometry import Square, square_name
from p2p_asv.state import GameState

from cli.games.asv import render
from cli.picture import svg_shapes
from cli.picture.svg_doc import el, label

SHIP_SLOTS = 3       # ships side by side along a square's bottom
OTHER_SLOTS = 4      # stations, probes and pirates along its top
CROWDED = 0.82       # the size of pieces on a square that holds more than a few


def ship_title(state: GameState, ship) -> str:
    colour = state.players[ship.owner].colour
    card = CARD_BY_NAME.get(ship.name)
    reach = f" (M{card.movement})" if card is not None and card.movement is not None else ""
    extras = f" with {', '.join(ship.extras)}" if ship.extras else ""
    return f"{colour}'s ship s{ship.id}: {ship.name}{reach}{extras} at {square_name(ship.square)}"


def _others(state: GameState, sq: Square) -> list[tuple]:
    """The stations, probes and pirates on sq in seat order, as items for _line."""
    out = []
    for p in state.players:
        where = f" at {square_name(sq)}"
        out += [("station", p.colour, "", f"{p.colour}'s space station{where}") for s in p.stations if s == sq]
        out += [("probe", p.colour, "", f"{p.colour}'s probe on galaxy {part}{where}")
                for s, part in p.probes if s == sq]
        out += [("pirate", p.colour, "", f"{p.colour}'s pirate on path {seg}{where}")
                for s, seg in p.pirates if s == sq]
    return out


def _ships(state: GameState, sq: Square) -> list[tuple]:
    out = []
    for _, ship in sorted(state.ships.items()):
        if ship.square == sq:
            colour = state.players[ship.owner].colour
            out.append(("ship", colour, (f"{render.LETTER[colour]}{ship.id}", ship.name),
                        ship_title(state, ship)))
    return out


def _more(g: ET.Element, x: float, y: float, hidden: list[str]) -> None:
    """`+N` standing for pieces that did not fit, named in its tooltip."""
    more = el(g, "g", class_="more")
    el(more, "title", "; ".join(hidden))
    el(more, "rect", x=x - 9, y=y - 8, width=18, height=16, rx=4, fill="#f4f6fb")
    label(more, x, y + 4, f"+{len(hidden)}", 10, fill="#101010", anchor="middle", weight="bold")


def _draw(g: ET.Element, item: tuple, x: float, y: float, scale: float) -> None:
    kind, colour, extra, title = item
    if kind == "ship":
        svg_shapes.ship(g, x, y, colour, extra[0], extra[1], title, scale=scale)
    else:
        {"station": svg_shapes.station, "probe": svg_shapes.probe,
         "pirate": svg_shapes.pirate}[kind](g, x, y, colour, title, scale=scale)


def _line(g: ET.Element, t: int, at: float, items: list, slots: int, *, roomy: int, scale: float,
          down: bool = False) -> None:
    """Draw items side by side along a line across the square at height `at` (or, `down`,
    down the square at `at` from its left): larger when no more than `roomy`, and `+N` in the
    last slot for those that do not fit."""
    if len(items) <= roomy:
        slots, k = roomy, scale
    else:
        k = CROWDED
    shown = items if len(items) <= slots else items[:slots - 1]
    count = len(shown) + (len(shown) < len(items))
    step = t / slots

    def spot(i: int) -> tuple[float, float]:   # the line centred on the square
        along = t / 2 + (i - (count - 1) / 2) * step
        return (at, along) if down else (along, at)
    for i, item in enumerate(shown):
        _draw(g, item, *spot(i), k)
    if len(shown) < len(items):
        _more(g, *spot(len(shown)), [item[3] for item in items[len(shown):]])


def _planets_upright(state: GameState, sq: Square) -> bool:
    """True for a tile whose two planets sit one above the other (rows would hide them)."""
    placed = state.board.tile_at(sq)
    if placed is None or len(placed.tile.planets) < 2:
        return False
    sides = [(seg.sides[0] + placed.rotation) % 4 for seg in placed.tile.paths if seg.planet is not None]
    return bool(sides) and sides[0] % 2 == 0


def pieces(root: ET.Element, state: GameState, x0: int, y0: int, t: int) -> None:
    layer = el(root, "g", class_="pieces")
    squares: dict[Square, None] = {}
    for _, ship in sorted(state.ships.items()):
        squares.setdefault(ship.square)
    for p in state.players:
        for sq in [*p.stations, *(s for s, _ in p.probes), *(s for s, _ in p.pirates)]:
            squares.setdefault(sq)
    for sq in sorted(squares, key=lambda s: (s[1], s[0])):
        g = el(layer, "g", class_="square-pieces", data_square=square_name(sq),
               transform=f"translate({x0 + sq[0] * t} {y0 + sq[1] * t})")
        if _planets_upright(state, sq):   # ships down the right edge, the rest down the left
            _line(g, t, t - 13, _ships(state, sq), SHIP_SLOTS, roomy=2, scale=1.1, down=True)
            _line(g, t, 11, _others(state, sq), OTHER_SLOTS, roomy=3, scale=1, down=True)
        else:                             # ships along the bottom, the rest along the top
            _line(g, t, t - 10, _ships(state, sq), SHIP_SLOTS, roomy=2, scale=1.1)
            _line(g, t, 11, _others(state, sq), OTHER_SLOTS, roomy=3, scale=1.15)
