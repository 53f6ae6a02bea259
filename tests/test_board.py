"""Board placement, suns, galaxies, paths and stations with synthetic tiles (SPEC §4)."""
from __future__ import annotations

import random

import pytest

from p2p_asv.board import Board, IllegalPlacement, Placed, PlaceReport
from p2p_asv.geometry import E, N, S, SIZE, W, king_neighbours, neighbour, on_board, opposite
from p2p_asv.tile_model import PathSegment, Tile


def T(id: str, sides: str, galaxies=(), paths=(), planets=(), kind: str | None = None) -> Tile:
    if kind is None:
        kind = "sun" if sides == "SSSS" else "planet" if planets else "deep_space"
    return Tile(id, kind, 1, tuple(sides), galaxies=tuple(galaxies), paths=tuple(paths),
                planets=tuple(planets))


DEEP = T("deep", "DDDD")
SUN = T("sun", "SSSS")
GAL_N = T("gN", "GDDD", galaxies=[(N,)])                 # galaxy on the north side only
GAL_NS = T("gNS", "GDGD", galaxies=[(N, S)])
GAL_NE = T("gNE", "GGDD", galaxies=[(N, E)])
GAL_ALL = T("gAll", "GGGG", galaxies=[(N, E, S, W)])
PATH_NS = T("pNS", "PDPD", paths=[PathSegment((N, S))])
PATH_NE = T("pNE", "PPDD", paths=[PathSegment((N, E))])
PLANET_N = T("plN", "PDDD", paths=[PathSegment((N,), "planet", 0)], planets=[2])
HOLE_N = T("bhN", "PDDD", paths=[PathSegment((N,), "black_hole")])
INTO_GAL_N = T("pgN", "PDDD", paths=[PathSegment((N,), "galaxy")])
DEAD_N = T("deadN", "PDDD", paths=[PathSegment((N,), "mid")])
C = (6, 6)


def board_with(*placements) -> Board:
    """Place (tile, sq, rotation) in order; the first one as a setup tile."""
    b = Board()
    for i, (tile, sq, rot) in enumerate(placements):
        b.place(tile, sq, rot, setup=(i == 0))
    return b


# --- §4.1 placement legality ---------------------------------------------------------

def test_needs_an_orthogonal_neighbour_not_a_corner():  # SPEC §4.1
    b = board_with((DEEP, C, 0))
    assert "corner-only" in b.can_place(DEEP, (7, 7), 0)
    assert "corner-only" in b.can_place(DEEP, (9, 9), 0)
    with pytest.raises(IllegalPlacement, match="touches no placed tile"):
        b.place(DEEP, (5, 5), 0)
    for d in (N, E, S, W):
        assert b.can_place(DEEP, neighbour(C, d), 0) is None


def test_occupied_and_off_board_and_bad_rotation():  # SPEC §4.1, §4.2
    b = board_with((DEEP, (0, 0), 0))
    assert "occupied" in b.can_place(DEEP, (0, 0), 0)
    assert "off the board" in b.can_place(DEEP, (-1, 0), 0)
    assert "off the board" in b.can_place(DEEP, (0, SIZE), 0)
    assert "rotation" in b.can_place(DEEP, (1, 0), 4)
    with pytest.raises(IllegalPlacement, match="occupied"):
        b.place(DEEP, (0, 0), 0, setup=True)
    with pytest.raises(IllegalPlacement, match="off the board"):
        b.place(DEEP, (13, 0), 0, setup=True)


def test_mismatch_names_the_sides():  # SPEC §4.1
    b = board_with((GAL_N, C, 1))          # galaxy shows on the east side
    reason = b.can_place(DEEP, (7, 6), 0)
    assert reason == "W side shows D but tile gN on G-7 shows G on its E side"
    with pytest.raises(IllegalPlacement, match="W side shows D"):
        b.place(DEEP, (7, 6), 0)
    assert b.tile_at((7, 6)) is None


def test_every_touching_side_must_match():  # SPEC §4.1
    b = board_with((DEEP, C, 0), (DEEP, (6, 5), 0), (GAL_N, (7, 5), 2))  # H-6 galaxy faces south
    # H-7 touches G-7 (west, D) and H-6 (north, G): only a tile with G north and D west fits
    assert b.can_place(GAL_N, (7, 6), 0) is None
    assert "N side shows D" in b.can_place(DEEP, (7, 6), 0)
    both = b.can_place(GAL_N, (7, 6), 3)      # every mismatching side is named
    assert both.startswith("N side shows D") and "; W side shows G" in both
    assert b.can_place(GAL_ALL, (7, 6), 0).startswith("W side shows G")


def test_empty_edge_and_sun_sides_need_no_match():  # SPEC §4.1
    b = board_with((DEEP, (0, 6), 0))
    assert b.can_place(GAL_ALL, (0, 5), 0).startswith("S side")  # S faces the deep tile
    assert b.can_place(GAL_N, (0, 5), 3) is None                  # G faces the west edge
    assert b.can_place(GAL_N, (0, 5), 0) is None                  # G faces an empty square
    b = Board(sun_tiles=1)                      # one sun tile in the game: a sun of one tile
    b.place(SUN, C, 0, setup=True)
    assert b.controlled_squares() == ()
    for d in (N, E, S, W):
        assert b.can_place(GAL_ALL, neighbour(C, d), 0) is None   # a sun side matches anything
    b.place(PATH_NS, (6, 5), 0)
    assert b.path_state((6, 5), 0) == "ruined"   # its south end faces the sun


def test_rotation_is_clockwise_quarter_turns():  # SPEC §4.2
    b = board_with((GAL_N, C, 1))          # N side turned to face east
    assert b.tile_at(C) == Placed(GAL_N, 1)
    # east of it, the galaxy must show on the west: N turned three quarters clockwise
    assert [r for sq, r in b.legal_placements(GAL_N) if sq == (7, 6)] == [3]
    # a design that looks the same in every rotation still yields all four (SPEC §4.2)
    assert [r for sq, r in b.legal_placements(DEEP) if sq == (6, 5)] == [0, 1, 2, 3]


def test_legal_placements_sorted_by_row_col_rotation():  # SPEC §4.1
    b = board_with((DEEP, C, 0))
    got = b.legal_placements(DEEP)
    assert got == sorted(got, key=lambda p: (p[0][1], p[0][0], p[1]))
    assert [sq for sq, _ in got[::4]] == [(6, 5), (5, 6), (7, 6), (6, 7)]


def test_setup_skips_contact_but_joins_features():  # SPEC §4.1
    b = Board()
    b.place(PLANET_N, (3, 4), 0, setup=True)
    b.place(PLANET_N, (3, 3), 2, setup=True)   # planet tiles facing each other
    assert b.path_state((3, 3), 0) == "complete"
    b.place(DEEP, (10, 10), 0, setup=True)     # no neighbour needed in setup
    assert b.tile_at((10, 10)) == Placed(DEEP, 0)


# --- §4.4 galaxies ---------------------------------------------------------------------

def test_two_tile_galaxy_completes():  # SPEC §4.4
    b = board_with((GAL_N, C, 0))
    assert b.galaxy_state(C, 0) == "open"
    rep = b.place(GAL_N, (6, 5), 2)
    assert rep.completed_galaxies == (((6, 5), 0),)
    assert b.galaxy_complete(C, 0)
    assert b.galaxy_squares(C, 0) == ((6, 5), (6, 6))
    assert b.galaxy_key(C, 0) == b.galaxy_key((6, 5), 0)


def test_long_galaxy_completes_only_when_closed():  # SPEC §4.4
    b = board_with((GAL_N, C, 0))
    for row in (5, 4, 3):
        rep = b.place(GAL_NS, (6, row), 0)
        assert rep.completed_galaxies == ()
        assert b.galaxy_state((6, row), 0) == "open"
    rep = b.place(GAL_N, (6, 2), 2)
    assert rep.completed_galaxies == (((6, 2), 0),)
    assert len(b.galaxy_squares(C, 0)) == 5


def test_galaxy_counts_squares_not_parts():  # SPEC §4.4
    two_parts = T("g2", "DGGD", galaxies=[(E,), (S,)])
    b = board_with((two_parts, (5, 5), 0))
    assert b.galaxy_key((5, 5), 0) != b.galaxy_key((5, 5), 1)
    b.place(T("gWS", "DDGG", galaxies=[(S, W)]), (6, 5), 0)
    b.place(T("gNW", "GDDG", galaxies=[(N, W)]), (6, 6), 0)
    rep = b.place(GAL_NE, (5, 6), 0)
    assert rep.completed_galaxies == (((5, 5), 0),)
    assert b.galaxy_key((5, 5), 0) == b.galaxy_key((5, 5), 1)
    assert b.galaxy_squares((5, 5), 1) == ((5, 5), (6, 5), (5, 6), (6, 6))
    assert b.galaxy_nodes((5, 5), 0)[:2] == (((5, 5), 0), ((5, 5), 1))


def test_galaxy_facing_the_edge_never_completes():  # SPEC §4.4
    b = board_with((GAL_NS, (3, 0), 0))         # its galaxy runs off the north edge
    assert b.galaxy_state((3, 0), 0) == "blocked"
    rep = b.place(GAL_N, (3, 1), 0)             # closes the south side: no open side left
    assert rep.completed_galaxies == ()
    assert b.galaxy_state((3, 1), 0) == "blocked"
    assert not b.galaxy_complete((3, 0), 0)
    assert b.galaxy_squares((3, 1), 0) == ((3, 0), (3, 1))


def test_galaxy_facing_a_sun_never_completes():  # SPEC §4.4
    b = board_with((GAL_NS, C, 0))
    b.place(SUN, (6, 5), 0)
    assert b.galaxy_state(C, 0) == "blocked"
    # a sun next to a new galaxy side blocks it too
    b2 = board_with((SUN, C, 0))
    b2.place(SUN, (6, 5), 0)
    b2.place(SUN, (7, 5), 0)
    b2.place(SUN, (7, 6), 0)                      # full sun done; control lapsed
    b2.place(GAL_N, (6, 7), 0)                    # galaxy faces the sun on G-7
    assert b2.galaxy_state((6, 7), 0) == "blocked"


def test_galaxy_part_reaching_no_side_never_completes():  # SPEC §4.4
    b = board_with((T("inner", "DDDD", galaxies=[()]), C, 0))
    assert b.galaxy_state(C, 0) == "blocked"
    assert b.galaxy_squares(C, 0) == (C,)


def test_setup_mismatch_blocks_the_galaxy():  # SPEC §4.4
    b = Board()
    b.place(DEEP, C, 0, setup=True)
    b.place(GAL_N, (6, 7), 0, setup=True)   # its galaxy faces the deep side of G-7
    assert b.galaxy_state((6, 7), 0) == "blocked"
