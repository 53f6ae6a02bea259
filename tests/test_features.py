"""Component bookkeeping and tile feature lookups (SPEC §4.4, §4.5)."""
import pytest

from p2p_asv.features import (Components, check_tile, node_order, part_on_side,
                              segment_on_side, square_order)
from p2p_asv.geometry import E, N, S, W
from p2p_asv.tile_model import PathSegment, Tile


def test_union_sums_counters_and_keeps_smallest_rep():
    c = Components()
    c.add(((3, 2), 0), open_=2)
    c.add(((1, 2), 1), open_=1, blocked=1, planets=(((1, 2), 0),))
    c.add(((5, 0), 0), planets=(((5, 0), 0),))
    c.union(((3, 2), 0), ((1, 2), 1))
    comp = c.get(((3, 2), 0))
    assert (comp.open, comp.blocked) == (3, 1)
    assert comp.rep == ((1, 2), 1)
    c.union(((5, 0), 0), ((3, 2), 0))
    comp = c.get(((1, 2), 1))
    assert comp.rep == ((5, 0), 0)  # row 0 comes first in reading order
    assert comp.planets == (((5, 0), 0), ((1, 2), 0))
    assert comp.squares() == ((5, 0), (1, 2), (3, 2))
    assert c.root(((3, 2), 0)) == c.root(((5, 0), 0))


def test_union_of_joined_nodes_is_a_no_op():
    c = Components()
    c.add(((0, 0), 0), open_=1)
    c.add(((1, 0), 0), open_=1)
    c.union(((0, 0), 0), ((1, 0), 0))
    c.union(((1, 0), 0), ((0, 0), 0))
    assert c.get(((0, 0), 0)).open == 2
    assert len(c.get(((0, 0), 0)).nodes) == 2


def test_adjust_and_copy_are_independent():
    c = Components()
    c.add(((0, 0), 0), open_=1)
    d = c.copy()
    d.adjust(((0, 0), 0), open_delta=-1, blocked_delta=1)
    d.add(((1, 0), 0))
    assert c.get(((0, 0), 0)).open == 1 and c.get(((0, 0), 0)).blocked == 0
    assert ((1, 0), 0) not in c
    assert d.get(((0, 0), 0)).blocked == 1


def test_unknown_and_duplicate_nodes_are_rejected():
    c = Components()
    with pytest.raises(KeyError, match="no such feature"):
        c.get(((0, 0), 0))
    c.add(((0, 0), 0))
    with pytest.raises(ValueError, match="already exists"):
        c.add(((0, 0), 0))


def test_orders_are_reading_order():
    assert sorted([(2, 1), (0, 3), (5, 0)], key=square_order) == [(5, 0), (2, 1), (0, 3)]
    assert node_order(((2, 1), 3)) == (1, 2, 3)


def test_side_lookups_follow_rotation():
    t = Tile("g", "galaxy", 1, ("G", "D", "P", "D"), galaxies=((N,),),
             paths=(PathSegment((S,), "mid"),))
    assert part_on_side(t, 0, N) == 0
    assert part_on_side(t, 1, E) == 0   # N turned a quarter clockwise shows on E
    assert part_on_side(t, 1, N) is None
    assert segment_on_side(t, 1, W) == 0
    assert segment_on_side(t, 3, E) == 0


@pytest.mark.parametrize("tile, msg", [
    (Tile("a", "galaxy", 1, ("G", "G", "D", "D"), galaxies=((N,), (N, E))), "claimed"),
    (Tile("b", "galaxy", 1, ("D", "G", "D", "D"), galaxies=((N,),)), "shows D"),
    (Tile("c", "path", 1, ("P", "D", "D", "D"), paths=(PathSegment((N,)),)), "must reach"),
    (Tile("d", "path", 1, ("P", "D", "P", "D"), paths=(PathSegment((N, S), "mid"),)), "must reach"),
    (Tile("e", "planet", 1, ("P", "D", "D", "D"), paths=(PathSegment((N,), "planet", 1),),
          planets=(2,)), "not on the tile"),
    (Tile("f", "sun", 1, ("S", "S", "S", "D")), "sun tile"),
])
def test_check_tile_rejects_malformed_tiles(tile, msg):
    with pytest.raises(ValueError, match=msg):
        check_tile(tile)


def test_check_tile_accepts_a_well_formed_tile():
    check_tile(Tile("ok", "path", 1, ("P", "G", "P", "D"), galaxies=((E,),),
                    paths=(PathSegment((N, S)),)))
    check_tile(Tile("bh", "path", 1, ("P", "D", "P", "D"), black_hole=True,
                    paths=(PathSegment((N,), "black_hole"), PathSegment((S,), "black_hole"))))
