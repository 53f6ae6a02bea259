"""The glyphs of the Amazing Space Venture board picture (SPEC §31.7), each drawn centred on
(x, y): planets, worm holes, black holes, ships by type, stations, probes and pirates. The
board and its legend draw with the same functions, so the legend always matches.

Every piece carries its seat's letter as well as its colour, so a picture printed in grey or
seen by a colour-blind friend still says whose piece is where."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from cli.picture.svg_doc import el, label, num

# SPEC §31.6's seat colours (the Solarized accents the terminal uses), and Solarized violet
# for a fifth seat.
SEAT_FILL = {"blue": "#268bd2", "yellow": "#b58900", "green": "#859900", "red": "#dc322f", "purple": "#6c71c4"}
LETTER = {colour: colour[0].upper() for colour in SEAT_FILL}   # a seat's letter: its colour's initial
# Letters on a seat's fill: dark on the light yellow and green, white on the others.
SEAT_INK = {"blue": "#ffffff", "yellow": "#1b1400", "green": "#141a00", "red": "#ffffff", "purple": "#ffffff"}
PLANET_FILL = "#e2dccb"        # pale sand: apart from every seat colour, yellow included
PLANET_INK = "#2a1402"
WORM = "#4fd1c5"
PATH_STYLE: dict[str, dict[str, Any]] = {"open": dict(stroke="#e8453c", stroke_width=5),
              "complete": dict(stroke="#ff7a3d", stroke_width=6),
              "ruined": dict(stroke="#a04848", stroke_width=4, stroke_dasharray="5 4")}

# Hull outlines in a 24x16 box centred on (0, 0), nose to the east: one shape per ship type.
SHIP_HULLS = {
    "Star-T Ship": "M-11 -7 L6 -7 L12 0 L6 7 L-11 7 Z",
    "Scout Ship": "M-12 -6 L5 -6 L12 0 L5 6 L-12 6 L-8 0 Z",
    "Fighter Ship": "M-12 -9 L-6 -5 L6 -5 L12 0 L6 5 L-6 5 L-12 9 L-9 0 Z",
    "Star Cruiser": "M-12 -7 L4 -7 L8 -4 L12 -4 L12 4 L8 4 L4 7 L-12 7 Z",
    "Space Shuttle": "M-12 -4 L-5 -9 L6 -5 L12 0 L6 5 L-5 9 L-12 4 Z",
}
SHIP_ROUND = {"Colony Ship": "pod", "Flying Saucer": "saucer"}
SHIP_TYPES = ("Star-T Ship", "Scout Ship", "Fighter Ship", "Star Cruiser", "Space Shuttle",
              "Colony Ship", "Flying Saucer")


def _letter(g: ET.Element, x: float, y: float, text: str, colour: str, size: int = 9) -> None:
    label(g, x, y + size * 0.36, text, size, fill=SEAT_INK[colour], anchor="middle", weight="bold",
          class_="letter")


def _place(x: float, y: float, scale: float) -> str:
    return f"translate({num(x)} {num(y)})" + (f" scale({num(scale)})" if scale != 1 else "")


def ship(parent: ET.Element, x: float, y: float, colour: str, text: str, kind: str,
         title: str, scale: float = 1) -> ET.Element:
    """A ship: its type's hull in the seat colour, its owner's letter and number inside."""
    g = el(parent, "g", class_="piece ship", data_kind="ship", data_seat=colour, data_type=kind,
           data_label=text, transform=_place(x, y, scale))
    el(g, "title", title)
    style: dict[str, Any] = dict(fill=SEAT_FILL[colour], stroke="#f4f6fb", stroke_width=1.2)
    shape = SHIP_ROUND.get(kind)
    if shape == "pod":
        el(g, "rect", x=-12, y=-7, width=24, height=14, rx=7, **style)
    elif shape == "saucer":
        el(g, "ellipse", cx=0, cy=0, rx=13, ry=7, **style)
        el(g, "ellipse", cx=0, cy=-5, rx=5, ry=3, fill="#f4f6fb", opacity=0.8)
    else:
        el(g, "path", d=SHIP_HULLS.get(kind, SHIP_HULLS["Star-T Ship"]), **style)
    _letter(g, -1, 0.5, text, colour, 9 if len(text) < 3 else 8)
    return g


def _piece(parent: ET.Element, kind: str, x: float, y: float, colour: str, title: str,
           scale: float) -> ET.Element:
    g = el(parent, "g", class_=f"piece {kind}", data_kind=kind, data_seat=colour,
           data_label=LETTER[colour], transform=_place(x, y, scale))
    el(g, "title", title)
    return g


def station(parent: ET.Element, x: float, y: float, colour: str, title: str,
            scale: float = 1) -> ET.Element:
    """A space station: a hexagon in the seat colour with the seat's letter."""
    g = _piece(parent, "station", x, y, colour, title, scale)
    el(g, "polygon", points="0,-9 8,-4.5 8,4.5 0,9 -8,4.5 -8,-4.5", fill=SEAT_FILL[colour],
       stroke="#f4f6fb", stroke_width=1.2)
    _letter(g, 0, 0, LETTER[colour], colour)
    return g


def probe(parent: ET.Element, x: float, y: float, colour: str, title: str,
          scale: float = 1) -> ET.Element:
    """A probe: a diamond in the seat colour with the seat's letter."""
    g = _piece(parent, "probe", x, y, colour, title, scale)
    el(g, "polygon", points="0,-9 9,0 0,9 -9,0", fill=SEAT_FILL[colour], stroke="#f4f6fb",
       stroke_width=1.2)
    _letter(g, 0, 0, LETTER[colour], colour, 8)
    return g


def pirate(parent: ET.Element, x: float, y: float, colour: str, title: str,
           scale: float = 1) -> ET.Element:
    """A pirate: a black disk ringed in the seat colour, the seat's letter in white."""
    g = _piece(parent, "pirate", x, y, colour, title, scale)
    el(g, "circle", cx=0, cy=0, r=8, fill="#0b0b0b", stroke=SEAT_FILL[colour], stroke_width=3)
    label(g, 0, 3.2, LETTER[colour], 9, fill="#ffffff", anchor="middle", weight="bold",
          class_="letter")
    return g


def planet(parent: ET.Element, x: float, y: float, value: int, *, owner: str | None = None,
           home: str | None = None, destroyed: bool = False, r: float = 14,
           title: str = "") -> ET.Element:
    """A planet with its value; an owned planet in its owner's colour with the owner's
    letter on a badge; a destroyed one dark and crossed out."""
    g = el(parent, "g", class_="planet", data_value=value, data_owner=owner,
           data_destroyed="yes" if destroyed else None, transform=f"translate({x} {y})")
    if title:
        el(g, "title", title)
    if destroyed:
        el(g, "circle", cx=0, cy=0, r=r, fill="#2b2b2b", stroke="#777777", stroke_width=1.5)
        el(g, "path", d=f"M{-r * 0.6:.1f} {-r * 0.6:.1f} L{r * 0.6:.1f} {r * 0.6:.1f} "
                        f"M{r * 0.6:.1f} {-r * 0.6:.1f} L{-r * 0.6:.1f} {r * 0.6:.1f}",
           stroke="#d04040", stroke_width=2.5)
        return g
    ring = SEAT_FILL[home] if home else "#fff1dc"
    fill = SEAT_FILL[owner] if owner else PLANET_FILL
    el(g, "circle", cx=0, cy=0, r=r, fill=fill, stroke=ring, stroke_width=2.5 if home else 1.2)
    ink = SEAT_INK[owner] if owner else PLANET_INK
    label(g, 0, 5, str(value), 14, fill=ink, anchor="middle", weight="bold", class_="value")
    if owner:
        # the badge sits on the planet's east rim, clear of the rows of pieces above and below
        el(g, "circle", cx=r, cy=0, r=6.5, fill="#f4f6fb", stroke=SEAT_FILL[owner], stroke_width=1.5)
        label(g, r, 3.2, LETTER[owner], 9, fill="#101010", anchor="middle", weight="bold",
              class_="letter")
    return g


def worm_hole(parent: ET.Element, x: float, y: float, r: float = 10) -> ET.Element:
    """A worm hole: rings narrowing into a dark centre."""
    g = el(parent, "g", class_="wormhole", transform=f"translate({x} {y})")
    el(g, "title", "worm hole")
    el(g, "circle", cx=0, cy=0, r=r, fill="#06131a", stroke=WORM, stroke_width=2)
    el(g, "circle", cx=r * 0.12, cy=r * 0.08, r=r * 0.62, fill="none", stroke=WORM, stroke_width=1.5,
       opacity=0.8)
    el(g, "circle", cx=r * 0.2, cy=r * 0.15, r=r * 0.28, fill="none", stroke=WORM, stroke_width=1.2,
       opacity=0.6)
    return g


def black_hole(parent: ET.Element, x: float, y: float, r: float = 14) -> ET.Element:
    """The black hole: a black disk inside a glowing ring."""
    g = el(parent, "g", class_="blackhole", transform=f"translate({x} {y})")
    el(g, "title", "black hole")
    el(g, "circle", cx=0, cy=0, r=r + 4, fill="none", stroke="#ff9a3c", stroke_width=1.5, opacity=0.5)
    el(g, "circle", cx=0, cy=0, r=r, fill="#000000", stroke="#ffb347", stroke_width=3)
    return g
