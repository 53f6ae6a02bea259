"""Board geometry (SPEC §2): squares, sides, sectors and the fixed board features.

A square is a pair (col, row) of 0-based ints: col 0..12 is A..M, row 0..12 is 1..13,
row 0 at the top (north). Text notation is "D-4" (column letter, dash, row number).
"""
from __future__ import annotations

SIZE = 13
COLUMNS = "ABCDEFGHIJKLM"

# Sides in clockwise order. A tile rotated by r quarter turns clockwise shows its
# unrotated side s on board side (s + r) % 4.
N, E, S, W = 0, 1, 2, 3
SIDE_NAMES = "NESW"
STEP = {N: (0, -1), E: (1, 0), S: (0, 1), W: (-1, 0)}

Square = tuple[int, int]


def opposite(side: int) -> int:
    return (side + 2) % 4


def on_board(sq: Square) -> bool:
    return 0 <= sq[0] < SIZE and 0 <= sq[1] < SIZE


def neighbour(sq: Square, side: int) -> Square:
    dx, dy = STEP[side]
    return (sq[0] + dx, sq[1] + dy)


def king_steps(a: Square, b: Square) -> int:
    """King steps between two squares on an empty board (suns and worm holes aside)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _king_neighbours(sq: Square) -> tuple[Square, ...]:
    out = []
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dx or dy:
                nxt = (sq[0] + dx, sq[1] + dy)
                if on_board(nxt):
                    out.append(nxt)
    return tuple(out)


# Worked out once: playouts ask for them tens of thousands of times a second.
_KING_NEIGHBOURS = {(c, r): _king_neighbours((c, r)) for c in range(SIZE) for r in range(SIZE)}


def king_neighbours(sq: Square) -> list[Square]:
    """The up to eight squares a ship reaches in one step (SPEC §5.6), in a fixed order."""
    return list(_KING_NEIGHBOURS.get(sq) or _king_neighbours(sq))


def square_name(sq: Square) -> str:
    return f"{COLUMNS[sq[0]]}-{sq[1] + 1}"


def parse_square(text: str) -> Square:
    """Inverse of square_name; raises ValueError on anything else."""
    col, sep, row = text.strip().upper().partition("-")
    if not sep or len(col) != 1 or col not in COLUMNS or not (row.isascii() and row.isdigit()):
        raise ValueError(f"not a square: {text!r} (expected e.g. D-4)")
    sq = (COLUMNS.index(col), int(row) - 1)
    if not on_board(sq):
        raise ValueError(f"square off the board: {text!r}")
    return sq


# Player colours in seat order clockwise round the board (SPEC §2.3).
COLOURS = ("blue", "yellow", "green", "red")
HOME_SQUARE = {"blue": (3, 3), "yellow": (9, 3), "green": (9, 9), "red": (3, 9)}
CENTRE = (6, 6)
CORNERS = ((0, 0), (12, 0), (0, 12), (12, 12))
BOARD_WORMHOLES = ((5, 5), (5, 7), (7, 5), (7, 7))  # F-6, F-8, H-6, H-8


def sector_of(sq: Square) -> str | None:
    """The colour whose 6x6 sector holds sq, or None on the centre cross (column G, row 7)."""
    col, row = sq
    if col == 6 or row == 6:
        return None
    west, north = col < 6, row < 6
    if north:
        return "blue" if west else "yellow"
    return "red" if west else "green"


def seat_colours(players: int) -> tuple[str, ...]:
    """Colours for 1-4 seats: opposite sectors for two players (SPEC §2.3)."""
    return {1: ("blue",), 2: ("blue", "green"), 3: ("blue", "yellow", "green"),
            4: COLOURS}[players]
