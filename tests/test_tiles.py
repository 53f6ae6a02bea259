"""The designed tile set against every count the rulebook states and the tile model (SPEC §3)."""
from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from p2p_asv.geometry import (
    CENTRE, CORNERS, E, HOME_SQUARE, N, S, SIZE, W, neighbour, on_board, opposite,
)
from p2p_asv.tile_model import END_BLACK_HOLE, END_GALAXY, END_MID, END_PLANET, PathSegment, Tile
from p2p_asv.tiles import (
    QUEST_TILE_ID, SPACE_TILES, START_LAYOUT, START_TILE_IDS, TILE_BY_ID, TILES, TileSetError,
    check_tile, check_tile_set, distinct_rotations, shown_sides, tile_counts,
)


def of_kind(kind: str) -> list[Tile]:
    return [t for t in TILES if t.kind == kind]


def physical(tiles: list[Tile]) -> int:
    return sum(t.copies for t in tiles)


# --- counts (SPEC §3.3) --------------------------------------------------------------------

def test_totals_88_9_79():
    assert physical(list(TILES)) == 88
    assert physical(of_kind("start")) == 9
    assert len(SPACE_TILES) == 79
    assert tile_counts() == {"start": 9, "planet": 20, "path": 25, "galaxy": 23,
                             "deep_space": 4, "sun": 4, "quest": 3}


def test_ids_unique_and_lookup_complete():
    assert len(TILE_BY_ID) == len(TILES)
    assert all(TILE_BY_ID[t.id] is t for t in TILES)
    assert all(len(t.id) <= 20 and t.id == t.id.lower() for t in TILES)


def test_space_deck_expands_copies_in_tile_order():
    expected = [t.id for t in TILES if t.kind != "start" for _ in range(t.copies)]
    assert list(SPACE_TILES) == expected
    counts = Counter(SPACE_TILES)
    assert all(counts[t.id] == t.copies for t in TILES if t.kind != "start")
    assert not set(SPACE_TILES) & set(START_TILE_IDS)


def test_planet_tiles_20_with_21_planets():
    planet_tiles = of_kind("planet")
    assert physical(planet_tiles) == 20
    values = Counter()
    tiles_by_value = Counter()
    for t in planet_tiles:
        for v in t.planets:
            values[v] += t.copies
        for v in set(t.planets):
            tiles_by_value[v] += t.copies
    assert sum(values.values()) == 21
    assert values == {1: 11, 2: 7, 3: 3}
    assert tiles_by_value == {1: 11, 2: 6, 3: 3}
    twins = [t for t in planet_tiles if len(t.planets) == 2]
    assert [(t.planets, t.copies) for t in twins] == [((2, 2), 1)]
    assert all(len(t.planets) == 1 for t in planet_tiles if t not in twins)


def test_twin_planets_each_reachable_by_a_path():
    twin = next(t for t in of_kind("planet") if len(t.planets) == 2)
    reached = sorted(seg.planet for seg in twin.paths if seg.end == END_PLANET)
    assert reached == [0, 1]


def test_planet_tiles_mix_paths_and_galaxies():
    # SPEC §3.4: a mix, so planet-to-planet paths and galaxies both get completed.
    planet_tiles = of_kind("planet")
    with_paths = physical([t for t in planet_tiles if t.paths])
    with_gal = physical([t for t in planet_tiles if t.galaxies])
    assert with_paths >= 12 and with_gal >= 4
    assert all(seg.end == END_PLANET for t in planet_tiles for seg in t.paths)


def test_path_tiles_25_with_shapes_and_12_with_galaxies():
    path_tiles = of_kind("path")
    assert physical(path_tiles) == 25
    shapes = Counter()
    for t in path_tiles:
        shapes[t.path_shape] += t.copies
    assert shapes == {"straight": 9, "right_angle": 12, "dead_end": 3, "double_right_angle": 1}
    assert physical([t for t in path_tiles if t.galaxies]) == 12
    assert all(not t.planets for t in path_tiles)


def test_path_shapes_match_segments():
    for t in of_kind("path"):
        segs = sorted(seg.sides for seg in t.paths)
        if t.path_shape == "straight":
            sides = sorted(s for seg in t.paths for s in seg.sides)
            assert sides in ([N, S], [E, W]), t.id
        elif t.path_shape == "right_angle":
            assert len(segs) == 1 and len(segs[0]) == 2 and (segs[0][1] - segs[0][0]) % 2 == 1, t.id
        elif t.path_shape == "dead_end":
            assert len(segs) == 1 and len(segs[0]) == 1, t.id
            assert t.paths[0].end in (END_GALAXY, END_MID), t.id
        else:
            assert len(segs) == 2 and all(len(s) == 2 and (s[1] - s[0]) % 2 == 1 for s in segs)


def test_dead_ends_end_in_galaxy_or_mid():
    ends = Counter()
    for t in of_kind("path"):
        if t.path_shape == "dead_end":
            ends[t.paths[0].end] += t.copies
    assert ends == {END_GALAXY: 2, END_MID: 1}


def test_galaxy_tiles_23():
    gal = of_kind("galaxy")
    assert physical(gal) == 23
    assert all(t.galaxies and not t.paths and not t.planets for t in gal)


def test_deep_space_sun_and_quest():
    assert [(t.id, t.copies, t.sides) for t in of_kind("deep_space")] == [("deep", 4, ("D",) * 4)]
    assert [(t.id, t.copies, t.sides) for t in of_kind("sun")] == [("sun", 4, ("S",) * 4)]
    assert [(t.id, t.copies, t.sides) for t in of_kind("quest")] == [("quest", 3, ("D",) * 4)]
    assert QUEST_TILE_ID == "quest"
    for kind in ("deep_space", "sun", "quest"):
        t = of_kind(kind)[0]
        assert not (t.galaxies or t.paths or t.planets or t.wormhole or t.black_hole)


def test_two_wormholes_one_galaxy_one_path():
    worms = [t for t in TILES if t.wormhole]
    assert physical(worms) == 2
    assert sorted(t.kind for t in worms) == ["galaxy", "path"]
    assert all(t.copies == 1 for t in worms)


def test_one_black_hole_with_two_paths_into_it():
    holes = [t for t in TILES if t.black_hole]
    assert len(holes) == 1 and holes[0].copies == 1
    bh = holes[0]
    assert bh.kind == "path" and bh.path_shape == "straight"
    assert [seg.end for seg in bh.paths] == [END_BLACK_HOLE, END_BLACK_HOLE]
    assert sorted(seg.sides for seg in bh.paths) == [(N,), (S,)]
    assert all(seg.end != END_BLACK_HOLE for t in TILES if t is not bh for seg in t.paths)


# --- start tiles (SPEC §3.2) ---------------------------------------------------------------

def test_start_tiles():
    start = of_kind("start")
    homes = [t for t in start if t.home_colour]
    assert sorted(t.home_colour for t in homes) == ["blue", "green", "red", "yellow"]
    assert all(t.planets == (4,) and t.sides == ("D",) * 4 and t.copies == 1 for t in homes)
    assert all(not (t.paths or t.galaxies) for t in homes)
    assert all(distinct_rotations(t) == (0,) for t in homes)  # any setup rotation is the same
    corner = TILE_BY_ID["corner"]
    assert corner.copies == 4 and corner.planets == (5,)
    assert [seg.end for seg in corner.paths] == [END_PLANET, END_PLANET]
    centre = TILE_BY_ID["centre"]
    assert centre.planets == (5,) and centre.sides == ("D",) * 4 and not centre.paths
    assert physical(start) == 9


def test_start_layout_squares_and_orientation():
    placed = {sq: (tid, r) for tid, sq, r in START_LAYOUT}
    assert len(START_LAYOUT) == 9 == len(placed)
    for colour, sq in HOME_SQUARE.items():
        assert placed[sq] == (f"home-{colour}", 0)
    assert HOME_SQUARE == {"blue": (3, 3), "red": (3, 9), "yellow": (9, 3), "green": (9, 9)}
    assert placed[CENTRE][0] == "centre" and CENTRE == (6, 6)
    want = {(0, 0): {E, S}, (12, 0): {W, S}, (0, 12): {N, E}, (12, 12): {N, W}}
    assert set(CORNERS) == set(want)
    for sq, sides in want.items():
        tid, r = placed[sq]
        t = TILE_BY_ID[tid]
        assert {b for b in range(4) if t.side(b, r) == "P"} == sides
        for b in sides:  # every path points at a square on the board
            assert on_board(neighbour(sq, b))
    used = Counter(tid for tid, _, _ in START_LAYOUT)
    assert all(used[t.id] == t.copies for t in of_kind("start"))


# --- model invariants (SPEC §3.1) ----------------------------------------------------------

@pytest.mark.parametrize("tile", TILES, ids=[t.id for t in TILES])
def test_every_tile_obeys_the_model(tile: Tile):
    check_tile(tile)
    gal_sides = sorted(s for part in tile.galaxies for s in part)
    assert gal_sides == [s for s in range(4) if tile.sides[s] == "G"]
    path_sides = sorted(s for seg in tile.paths for s in seg.sides)
    assert path_sides == [s for s in range(4) if tile.sides[s] == "P"]
    for seg in tile.paths:
        assert (len(seg.sides) == 2 and seg.end is None) or (len(seg.sides) == 1 and seg.end)
    if tile.kind == "sun":
        assert tile.sides == ("S",) * 4
    else:
        assert "S" not in tile.sides


def test_check_tile_set_passes():
    check_tile_set()


@pytest.mark.parametrize("broken, why", [
    (dict(sides=("G", "D", "D", "D")), "G side"),
    (dict(galaxies=((0,), (0,)), sides=("G", "D", "D", "D")), "G side"),
    (dict(sides=("P", "D", "D", "D"), paths=(PathSegment((0, 2)),)), "P side"),
    (dict(sides=("P", "D", "D", "D"), paths=(PathSegment((0,)),)), "needs an end"),
    (dict(sides=("P", "D", "P", "D"), paths=(PathSegment((0, 2), END_MID),)), "no end"),
    (dict(sides=("P", "D", "D", "D"), paths=(PathSegment((0,), END_PLANET, 3),)), "missing planet"),
    (dict(sides=("S", "D", "D", "D")), "sun sides"),
])
def test_check_tile_rejects_broken_tiles(broken, why):
    base = Tile("x", "planet", 1, ("D",) * 4, planets=(1,))
    with pytest.raises(TileSetError, match=why):
        check_tile(dataclasses.replace(base, **broken))


def test_check_tile_set_rejects_duplicate_ids():
    with pytest.raises(TileSetError, match="duplicate"):
        check_tile_set((TILES[0], TILES[0]))


def test_rotation_convention():
    # SPEC §3.1: rotation r shows unrotated side s on board side (s + r) % 4.
    bend = TILE_BY_ID["path-bend-gal-s"]  # P P G D
    assert shown_sides(bend, 0) == ("P", "P", "G", "D")
    assert shown_sides(bend, 1) == ("D", "P", "P", "G")
    assert shown_sides(bend, 2) == ("G", "D", "P", "P")
    assert shown_sides(bend, 3) == ("P", "G", "D", "P")
    for t in TILES:
        for r in range(4):
            for s in range(4):
                assert t.side((s + r) % 4, r) == t.sides[s]
            assert t.side(N, r + 4) == t.side(N, r)


def test_distinct_rotations():
    assert distinct_rotations(TILE_BY_ID["deep"]) == (0,)
    assert distinct_rotations(TILE_BY_ID["gal-full"]) == (0,)
    assert distinct_rotations(TILE_BY_ID["path-straight"]) == (0, 1)
    assert distinct_rotations(TILE_BY_ID["p2-twin"]) == (0, 1)  # the two planets look alike
    assert distinct_rotations(TILE_BY_ID["path-bend"]) == (0, 1, 2, 3)
    assert distinct_rotations(TILE_BY_ID["gal-two-corners"]) == (0, 1)


# --- playability (SPEC §3.4) -----------------------------------------------------------------
# A test-only sketch of placement (matching of §4, sun reservation ignored) and feature
# tracking, used to show that the designed set does not jam and that features complete.

def _fits(board, t, sq, r) -> bool:
    touching = False
    for b in range(4):
        n = neighbour(sq, b)
        if n not in board:
            continue
        touching = True
        tid, orot = board[n]
        mine, theirs = t.side(b, r), TILE_BY_ID[tid].side(opposite(b), orot)
        if "S" not in (mine, theirs) and mine != theirs:
            return False
    return touching


def _completed(board) -> tuple[int, int]:
    """(closed galaxies of 2+ tiles, planet-to-planet paths across 2+ tiles)."""
    parent: dict = {}

    def find(x):
        while parent[x] != x:
            x = parent[x]
        return x

    ends = ({}, {})  # galaxy / path: (square, board side) -> feature node
    for sq, (tid, r) in board.items():
        t = TILE_BY_ID[tid]
        for kind, feats in ((0, t.galaxies), (1, [seg.sides for seg in t.paths])):
            for i, sides in enumerate(feats):
                parent[(sq, kind, i)] = (sq, kind, i)
                for s in sides:
                    ends[kind][(sq, (s + r) % 4)] = (sq, kind, i)
    open_nodes = set()
    for table in ends:
        for (sq, b), node in table.items():
            other = table.get((neighbour(sq, b), opposite(b)))
            if other is None:
                open_nodes.add(node)
            else:
                parent[find(node)] = find(other)
    groups: dict = {}
    for node in parent:
        groups.setdefault(find(node), []).append(node)
    galaxies = paths = 0
    for members in groups.values():
        if any(m in open_nodes for m in members) or len({m[0] for m in members}) < 2:
            continue
        if members[0][1] == 0:
            galaxies += 1
        else:
            stops = [TILE_BY_ID[board[sq][0]].paths[i].end for sq, _, i in members]
            paths += [e for e in stops if e] == [END_PLANET, END_PLANET]
    return galaxies, paths


def _play(seed: int) -> tuple[int, int, int]:
    rng = random.Random(seed)
    deck = [tid for tid in SPACE_TILES if tid != QUEST_TILE_ID]
    rng.shuffle(deck)
    board = {sq: (tid, r) for tid, sq, r in START_LAYOUT}
    dropped = 0
    for tid in deck:
        t = TILE_BY_ID[tid]
        options = [((c, row), r) for row in range(SIZE) for c in range(SIZE)
                   if (c, row) not in board for r in distinct_rotations(t)
                   if _fits(board, t, (c, row), r)]
        if not options:
            dropped += 1
            continue
        # Prefer snug spots, as players building features do.
        snug = lambda o: sum(neighbour(o[0], b) in board for b in range(4))  # noqa: E731
        best = max(map(snug, options))
        sq, r = rng.choice([o for o in options if snug(o) == best])
        board[sq] = (tid, r)
    return (dropped, *_completed(board))


def test_set_is_playable_in_simulated_games():
    results = [_play(seed) for seed in range(10)]
    dropped = sum(d for d, _, _ in results)
    assert dropped <= 5, results  # tiles with no legal square are rare (rule 6)
    assert sum(g for _, g, _ in results) >= 20, results
    assert sum(p for _, _, p in results) >= 20, results
    assert all(g + p >= 2 for _, g, p in results), results
