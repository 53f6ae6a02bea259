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


# --- §4.5 space paths ------------------------------------------------------------------

def seven_square_path() -> Board:
    b = board_with((PLANET_N, C, 0))
    for row in (5, 4, 3, 2, 1):
        rep = b.place(PATH_NS, (6, row), 0)
        assert rep.completed_paths == () and rep.ruined_paths == ()
        assert b.path_state((6, row), 0) == "open"
    return b


def test_path_completed_planet_to_planet():  # SPEC §4.5
    b = seven_square_path()
    rep = b.place(PLANET_N, (6, 0), 2)
    assert rep == PlaceReport(completed_paths=(((6, 0), 0),))
    assert b.path_state((6, 3), 0) == "complete"
    assert len(b.path_squares((6, 3), 0)) == 7
    assert b.path_middle_squares(C, 0) == tuple((6, r) for r in (1, 2, 3, 4, 5))
    assert b.path_planets((6, 3), 0) == (((6, 0), 0), (C, 0))
    assert b.planet_paths(C, 0) == (0,)
    assert b.path_key(C, 0) == b.path_key((6, 0), 0) == ("path", 6, 0, 0)


@pytest.mark.parametrize("end_tile", [HOLE_N, INTO_GAL_N, DEAD_N])
def test_path_ruined_by_black_hole_galaxy_or_dead_end(end_tile):  # SPEC §4.5
    b = seven_square_path()
    rep = b.place(end_tile, (6, 0), 2)
    assert rep.ruined_paths == (((6, 0), 0),) and rep.completed_paths == ()
    assert b.path_state((6, 3), 0) == "ruined"


def test_path_ruined_by_the_edge():  # SPEC §4.5
    b = board_with((PLANET_N, (6, 1), 0))
    rep = b.place(PATH_NS, (6, 0), 0)            # runs off the north edge
    assert rep.ruined_paths == (((6, 0), 0),)
    assert b.path_state((6, 1), 0) == "ruined"


def test_path_ruined_by_a_sun():  # SPEC §4.5
    b = Board(sun_tiles=1)
    b.place(PLANET_N, C, 0, setup=True)
    rep = b.place(SUN, (6, 5), 0)
    assert rep.ruined_paths == ((C, 0),)
    assert b.path_state(C, 0) == "ruined"


def test_ruined_path_is_reported_once_and_newborn_ruin_is_reported():  # SPEC §4.5
    b = board_with((DEAD_N, C, 2))               # dead end, path leaves south
    assert b.path_state(C, 0) == "ruined"
    rep = b.place(PATH_NS, (6, 7), 0)            # extends an already ruined path
    assert rep.ruined_paths == ()
    assert b.path_squares((6, 7), 0) == (C, (6, 7))
    rep = b.place(DEAD_N, (5, 6), 3)             # a new tile whose lone path is ruined at once
    assert rep.ruined_paths == (((5, 6), 0),)


def test_open_loop_and_self_loop():  # SPEC §4.5
    b = board_with((PATH_NE, (5, 5), 1), (PATH_NE, (6, 5), 2), (PATH_NE, (6, 6), 3))
    rep = b.place(PATH_NE, (5, 6), 0)
    assert rep == PlaceReport()
    assert b.path_state((5, 5), 0) == "open"     # a loop without ends stays open for good
    assert len(b.path_squares((5, 5), 0)) == 4
    two_ends = T("pl2", "PPDD", planets=[3], paths=[PathSegment((N,), "planet", 0),
                                                     PathSegment((E,), "planet", 0)])
    b = board_with((two_ends, (5, 6), 0), (PATH_NE, (5, 5), 1), (PATH_NE, (6, 5), 2))
    rep = b.place(PATH_NE, (6, 6), 3)
    assert rep.ruined_paths == (((5, 5), 0),)    # both ends on one planet: joins no two planets
    assert b.path_state((5, 6), 1) == "ruined"
    assert b.planet_paths((5, 6), 0) == (0, 1)


def test_two_planet_tile_paths():  # SPEC §4.5
    twin = T("twin", "PDPD", planets=[1, 2], paths=[PathSegment((N,), "planet", 0),
                                                      PathSegment((S,), "planet", 1)])
    b = board_with((twin, C, 0))
    assert b.path_key(C, 0) != b.path_key(C, 1)
    assert b.planet_paths(C, 1) == (1,)
    rep = b.place(PLANET_N, (6, 7), 0)
    assert rep.completed_paths == ((C, 1),)
    assert b.path_planets(C, 1) == ((C, 1), ((6, 7), 0))
    assert b.path_state(C, 0) == "open"


# --- §4.6 stations ---------------------------------------------------------------------

def test_station_values_and_surrounded():  # SPEC §4.6
    b = Board(sun_tiles=1)
    b.place(DEEP, C, 0, setup=True)
    for d in (N, E, S, W):
        b.place(DEEP, neighbour(C, d), 0, setup=True)
    assert b.station_value(C) == 5 and not b.surrounded(C)
    for sq in ((5, 5), (7, 5), (5, 7)):
        b.place(DEEP, sq, 0, setup=True)
    assert b.station_value(C) == 8 and not b.surrounded(C)
    b.place(SUN, (7, 7), 0, setup=True)
    assert b.station_value(C) == 8                # the sun tile scores nothing
    assert b.surrounded(C)                        # but it does close the ring
    full = Board()
    for sq in [C] + king_neighbours(C):
        full.place(DEEP, sq, 0, setup=True)
    assert full.station_value(C) == 9 and full.surrounded(C)


def test_edge_square_is_never_surrounded():  # SPEC §4.6
    b = Board()
    for sq in [(0, 6)] + king_neighbours((0, 6)):
        b.place(DEEP, sq, 0, setup=True)
    assert b.station_value((0, 6)) == 6
    assert not b.surrounded((0, 6))
    assert b.station_value((3, 3)) == 0


# --- §4.3 suns -------------------------------------------------------------------------

def test_full_sun_controls_its_empty_neighbours():  # SPEC §4.3
    b = board_with((DEEP, C, 0))
    b.place(SUN, (6, 5), 0)
    assert b.suns_placed() == 1 and b.suns()[0].size == 4
    assert b.controlled_squares() == ((6, 4), (5, 5), (7, 5))
    assert b.sun_controlled((5, 5)) and not b.sun_controlled((5, 6))
    assert "only a sun tile" in b.can_place(DEEP, (5, 5), 0)
    assert b.can_place(DEEP, (5, 6), 0) is None
    assert "not controlled" in b.can_place(SUN, (5, 6), 0)
    assert b.legal_placements(SUN) == [(sq, r) for sq in ((6, 4), (5, 5), (7, 5)) for r in range(4)]
    assert all(sq not in b.controlled_squares() for sq, _ in b.legal_placements(DEEP))
    b.place(SUN, (7, 5), 0)
    b.place(SUN, (7, 4), 0)
    assert b.controlled_squares() == ((7, 3), (6, 4), (8, 4), (5, 5), (8, 5), (7, 6))
    b.place(SUN, (6, 4), 0)
    assert b.suns()[0].complete and b.controlled_squares() == ()
    assert b.can_place(DEEP, (5, 5), 0) is None   # control lapsed
    assert b.suns_placed() == 4


def test_half_sun_on_the_outer_ring():  # SPEC §4.3
    b = board_with((DEEP, (0, 6), 0))
    b.place(SUN, (0, 5), 0)
    assert b.suns()[0].size == 2
    assert b.controlled_squares() == ((0, 4), (1, 5))
    b.place(SUN, (1, 5), 0)
    assert b.suns()[0].complete and b.controlled_squares() == ()
    b.place(DEEP, (1, 6), 0)
    b.place(SUN, (2, 6), 0)                       # a new sun away from the ring
    assert b.suns()[1].size == 2                  # only two sun tiles remain to build it
    assert b.controlled_squares() == ((2, 5), (3, 6), (2, 7))


def test_new_sun_needs_room():  # SPEC §4.3
    b = Board()
    for d in (N, E, S, W):
        b.place(DEEP, neighbour(C, d), 0, setup=True)
    assert "no room" in b.can_place(SUN, C, 0)    # a pocket of one square
    assert all(sq != C for sq, _ in b.legal_placements(SUN))
    one = Board(sun_tiles=1)
    for d in (N, E, S, W):
        one.place(DEEP, neighbour(C, d), 0, setup=True)
    assert one.can_place(SUN, C, 0) is None       # a one-tile sun needs no room


def test_stranded_sun_stops_controlling():  # SPEC §4.3
    b = Board()
    walls = [(5, r) for r in range(3, 7)] + [(7, r) for r in range(3, 7)] + [(6, 7), (6, 2)]
    for sq in walls:                              # leaves a corridor G-4 .. G-7
        b.place(DEEP, sq, 0, setup=True)
    b.place(SUN, C, 0)                            # room: G-6, G-5, G-4
    assert b.controlled_squares() == ((6, 5),)
    b.place(DEEP, (6, 4), 0)                      # G-5 was not controlled
    b.place(SUN, (6, 5), 0)
    assert not b.suns()[0].complete               # 2 of 4 tiles, and no room left
    assert b.controlled_squares() == ()
    assert "no room" in b.can_place(SUN, (6, 3), 0)
    b.place(SUN, (4, 6), 0)                       # so the next sun tile starts a new sun
    assert len(b.suns()) == 2 and b.suns()[1].size == 2
    assert b.controlled_squares() == ((4, 5), (3, 6), (4, 7))


# --- clone and hashing -------------------------------------------------------------------

def test_clone_is_independent():  # SPEC §4.1
    b = board_with((GAL_N, C, 0))
    b.place(SUN, (5, 6), 0)
    c = b.clone()
    c.place(GAL_N, (6, 5), 2)
    c.place(SUN, (5, 5), 0)
    assert b.tile_at((6, 5)) is None and b.galaxy_state(C, 0) == "open"
    assert c.galaxy_complete(C, 0)
    assert b.suns_placed() == 1 and c.suns_placed() == 2
    assert (6, 5) in b.frontier() and (6, 5) not in c.frontier()
    assert c.tile_at(C).tile is b.tile_at(C).tile  # tiles are shared, not copied


def test_state_items_are_plain_and_order_independent():  # SPEC §4.1
    order = [(PATH_NS, (6, 5), 1), (GAL_N, (7, 6), 3), (DEEP, (5, 6), 0)]
    a = board_with((GAL_N, C, 1), *order)
    b = board_with((GAL_N, C, 1), *reversed(order))
    assert a.state_items() == b.state_items()
    assert a.state_items()[0] == ((6, 5), "pNS", 1)

    def plain(x):
        if isinstance(x, (list, tuple)):
            return all(plain(y) for y in x)
        return isinstance(x, (str, int, bool))
    assert plain(a.state_items())
    a.place(SUN, (4, 6), 0)
    assert a.state_items()[-1] == ("sun", 4, ((4, 6),))


# --- random boards against from-scratch references ---------------------------------------

ENDS = ("planet", "black_hole", "galaxy", "mid")


def random_tile(rng: random.Random, i: int) -> Tile:
    sides = [rng.choice("DDGGP") for _ in range(4)]
    g = [s for s in range(4) if sides[s] == "G"]
    rng.shuffle(g)
    cut = rng.randint(1, len(g)) if g else 0
    galaxies = [tuple(sorted(p)) for p in (g[:cut], g[cut:]) if p]
    p = [s for s in range(4) if sides[s] == "P"]
    rng.shuffle(p)
    paths, planets = [], []
    while p:
        if len(p) >= 2 and rng.random() < 0.6:
            paths.append(PathSegment(tuple(sorted(p[:2]))))
            p = p[2:]
            continue
        end = rng.choice(ENDS)
        if end == "planet":
            planets.append(1)
            paths.append(PathSegment((p[0],), end, len(planets) - 1))
        else:
            paths.append(PathSegment((p[0],), end))
        p = p[1:]
    return T(f"r{i}", "".join(sides), galaxies, paths, planets)


def ref_legal(b: Board, tile: Tile, sq, rot) -> bool:
    """Placement legality written out directly from SPEC §4.1 and §4.3."""
    if not on_board(sq) or b.tile_at(sq) is not None:
        return False
    nbrs = [(d, neighbour(sq, d)) for d in range(4)]
    if not any(on_board(n) and b.tile_at(n) for d, n in nbrs):
        return False
    suns = b.suns()
    controlled = set()
    if suns and len(suns[-1].squares) < suns[-1].size:
        controlled = {n for s in suns[-1].squares for n in (neighbour(s, d) for d in range(4))
                      if on_board(n) and b.tile_at(n) is None}
    if tile.kind == "sun":
        if controlled:
            return sq in controlled
        size = min(2 if 0 in sq or SIZE - 1 in sq else 4, 4 - b.suns_placed())
        region, todo = {sq}, [sq]
        while todo:
            cur = todo.pop()
            for d in range(4):
                n = neighbour(cur, d)
                if on_board(n) and b.tile_at(n) is None and n not in region:
                    region.add(n)
                    todo.append(n)
        return len(region) - 1 >= size - 1
    if sq in controlled:
        return False
    for d, n in nbrs:
        other = b.tile_at(n) if on_board(n) else None
        if other and other.tile.kind != "sun":
            if tile.side(d, rot) != other.tile.side(opposite(d), other.rotation):
                return False
    return True


def ref_features(b: Board, kind: str) -> dict:
    """From scratch: node -> (frozenset of nodes, squares, state, planets)."""
    nodes, links, ends = [], {}, {}
    for sq, placed in b.tiles():
        feats = placed.tile.galaxies if kind == "galaxy" else [s.sides for s in placed.tile.paths]
        for i, sides in enumerate(feats):
            node = (sq, i)
            nodes.append(node)
            links[node] = []
            opened = blocked = 0
            planets = []
            if kind == "path":
                seg = placed.tile.paths[i]
                if seg.end == "planet":
                    planets.append((sq, seg.planet))
                elif seg.end:
                    blocked += 1
            for s in sides:
                d = (s + placed.rotation) % 4
                n = neighbour(sq, d)
                other = b.tile_at(n) if on_board(n) else None
                if not on_board(n):
                    blocked += 1
                elif other is None:
                    opened += 1
                else:
                    want = (opposite(d) - other.rotation) % 4
                    theirs = other.tile.galaxies if kind == "galaxy" else \
                        [x.sides for x in other.tile.paths]
                    hit = [j for j, t in enumerate(theirs) if want in t]
                    if hit:
                        links[node].append((n, hit[0]))
                    else:
                        blocked += 1
            ends[node] = (opened, blocked, planets)
    out, seen = {}, set()
    for start in nodes:
        if start in seen:
            continue
        comp, todo = {start}, [start]
        while todo:
            for m in links[todo.pop()]:
                if m not in comp:
                    comp.add(m)
                    todo.append(m)
        seen |= comp
        opened = sum(ends[n][0] for n in comp)
        blocked = sum(ends[n][1] for n in comp)
        planets = tuple(sorted((p for n in comp for p in ends[n][2]),
                               key=lambda p: (p[0][1], p[0][0], p[1])))
        squares = tuple(sorted({n[0] for n in comp}, key=lambda s: (s[1], s[0])))
        if kind == "galaxy":
            state = "blocked" if blocked or (not opened and len(squares) < 2) else \
                "complete" if not opened else "open"
        else:
            state = "ruined" if blocked else "open" if opened or len(planets) != 2 else \
                "ruined" if planets[0] == planets[1] else "complete"
        for n in comp:
            out[n] = (frozenset(comp), squares, state, planets)
    return out


def check_against_reference(b: Board) -> tuple[dict, dict]:
    gal, path = ref_features(b, "galaxy"), ref_features(b, "path")
    for node, (comp, squares, state, _) in gal.items():
        assert b.galaxy_state(*node) == state, node
        assert b.galaxy_squares(*node) == squares
        assert set(b.galaxy_nodes(*node)) == comp
        assert {b.galaxy_key(*m) for m in comp} == {b.galaxy_key(*node)}
    for node, (comp, squares, state, planets) in path.items():
        assert b.path_state(*node) == state, node
        assert b.path_squares(*node) == squares
        assert set(b.path_nodes(*node)) == comp
        assert b.path_planets(*node) == planets
        assert {b.path_key(*m) for m in comp} == {b.path_key(*node)}
    return gal, path


@pytest.mark.parametrize("seed", range(12))
def test_random_boards_match_references(seed):  # SPEC §4.1, §4.3-§4.5
    rng = random.Random(seed)
    pool = [random_tile(rng, i) for i in range(40)] + [T(f"sun{i}", "SSSS") for i in range(4)]
    rng.shuffle(pool)
    b = Board()
    starts = rng.sample([(c, r) for c in range(0, SIZE, 3) for r in range(0, SIZE, 3)], 3)
    for sq in starts + [(starts[0][0], starts[0][1] + 1)]:   # two start tiles touch
        if on_board(sq) and b.tile_at(sq) is None:
            b.place(random_tile(rng, 100 + sq[0] * SIZE + sq[1]), sq, rng.randrange(4), setup=True)
    gal, path = check_against_reference(b)
    placed = 0
    for tile in pool:
        got = b.legal_placements(tile)
        brute = [((c, r), rot) for r in range(SIZE) for c in range(SIZE) for rot in range(4)
                 if ref_legal(b, tile, (c, r), rot)]
        assert got == brute
        assert brute == [((c, r), rot) for r in range(SIZE) for c in range(SIZE)
                         for rot in range(4) if b.can_place(tile, (c, r), rot) is None]
        assert set(b.frontier()) == {sq for sq in ((c, r) for c in range(SIZE) for r in range(SIZE))
                                     if b.tile_at(sq) is None and any(
                                         on_board(neighbour(sq, d)) and b.tile_at(neighbour(sq, d))
                                         for d in range(4))}
        if not got:
            continue
        sq, rot = rng.choice(got)
        rep = b.place(tile, sq, rot)
        placed += 1
        new_gal, new_path = check_against_reference(b)
        want_gal = {b.galaxy_rep(*n) for n, v in new_gal.items()
                    if v[2] == "complete" and (n not in gal or gal[n][2] != "complete")}
        want_done = {b.path_rep(*n) for n, v in new_path.items()
                     if v[2] == "complete" and (n not in path or path[n][2] != "complete")}
        want_ruin = {b.path_rep(*n) for n, v in new_path.items() if v[2] == "ruined" and (
            (n in path and path[n][2] != "ruined") or all(m[0] == sq for m in v[0]))}
        assert set(rep.completed_galaxies) == want_gal
        assert set(rep.completed_paths) == want_done
        assert set(rep.ruined_paths) == want_ruin
        gal, path = new_gal, new_path
    assert placed > 10
