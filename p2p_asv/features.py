"""Incrementally joined board features (SPEC §4.4, §4.5): galaxies and space paths.

A feature node is (square, index): a galaxy part or a path segment of the tile on that
square. Nodes joined across matched sides form one component. Components are kept with
explicit membership (every node maps to its component's root), merged smaller-into-larger,
so lookups are O(1), a merge costs the size of the smaller side and nothing is ever
recomputed from the whole board. Records are immutable, so copying the two dicts is a
complete, independent copy.
"""
from __future__ import annotations

from dataclasses import dataclass

from .geometry import Square
from .tile_model import END_PLANET, GALAXY, PATH, SUN, Tile

Node = tuple[Square, int]


def square_order(sq: Square) -> tuple[int, int]:
    """Reading order (row, then column): the order of every sorted square list (SPEC §4.1)."""
    return (sq[1], sq[0])


def node_order(node: Node) -> tuple[int, int, int]:
    return (node[0][1], node[0][0], node[1])


@dataclass(frozen=True, slots=True)
class Component:
    """One galaxy or path.

    open: sides of the feature facing an empty square (each counted once per tile side).
    blocked: for a galaxy, sides facing the edge, a sun or a non-galaxy side; for a path,
    ruined ends (edge, sun, black hole, galaxy, mid-tile stop, non-path side).
    planets: planet ends of a path, in node order.
    """
    nodes: tuple[Node, ...]
    rep: Node          # smallest node in reading order: the public representative
    open: int = 0
    blocked: int = 0
    planets: tuple[Node, ...] = ()

    def squares(self) -> tuple[Square, ...]:
        return tuple(sorted({n[0] for n in self.nodes}, key=square_order))


class Components:
    """Disjoint sets of nodes with per-set counters."""

    __slots__ = ("_root", "_rec")

    def __init__(self) -> None:
        self._root: dict[Node, Node] = {}
        self._rec: dict[Node, Component] = {}

    def copy(self) -> "Components":
        out = Components()
        out._root = dict(self._root)
        out._rec = dict(self._rec)
        return out

    def __contains__(self, node: Node) -> bool:
        return node in self._root

    def add(self, node: Node, open_: int = 0, blocked: int = 0,
            planets: tuple[Node, ...] = ()) -> None:
        if node in self._root:
            raise ValueError(f"feature node {node} already exists")
        self._root[node] = node
        self._rec[node] = Component((node,), node, open_, blocked, planets)

    def root(self, node: Node) -> Node:
        try:
            return self._root[node]
        except KeyError:
            raise KeyError(f"no such feature: square {node[0]}, index {node[1]}") from None

    def get(self, node: Node) -> Component:
        return self._rec[self.root(node)]

    def adjust(self, node: Node, open_delta: int = 0, blocked_delta: int = 0) -> None:
        r = self.root(node)
        c = self._rec[r]
        self._rec[r] = Component(c.nodes, c.rep, c.open + open_delta,
                                 c.blocked + blocked_delta, c.planets)

    def union(self, a: Node, b: Node) -> Node:
        ra, rb = self.root(a), self.root(b)
        if ra == rb:
            return ra
        ca, cb = self._rec[ra], self._rec[rb]
        if len(ca.nodes) < len(cb.nodes):
            ra, rb, ca, cb = rb, ra, cb, ca
        for n in cb.nodes:
            self._root[n] = ra
        del self._rec[rb]
        rep = min(ca.rep, cb.rep, key=node_order)
        planets = tuple(sorted(ca.planets + cb.planets, key=node_order))
        self._rec[ra] = Component(ca.nodes + cb.nodes, rep, ca.open + cb.open,
                                  ca.blocked + cb.blocked, planets)
        return ra


# --- where a tile's features meet its sides -------------------------------------------

def check_tile(tile: Tile) -> None:
    """Reject a malformed tile: a side claimed twice, or a feature on a side of the wrong code."""
    seen: dict[int, str] = {}
    for i, part in enumerate(tile.galaxies):
        for s in part:
            if s in seen:
                raise ValueError(f"tile {tile.id}: side {s} claimed by galaxy part {i} and {seen[s]}")
            if tile.sides[s] != GALAXY:
                raise ValueError(f"tile {tile.id}: galaxy part {i} reaches side {s} which shows {tile.sides[s]}")
            seen[s] = f"galaxy part {i}"
    for i, seg in enumerate(tile.paths):
        if len(seg.sides) not in (1, 2) or (len(seg.sides) == 1) != (seg.end is not None):
            raise ValueError(f"tile {tile.id}: path segment {i} must reach two sides, or one side "
                             "and stop at an end inside the tile")
        for s in seg.sides:
            if s in seen:
                raise ValueError(f"tile {tile.id}: side {s} claimed by path segment {i} and {seen[s]}")
            if tile.sides[s] != PATH:
                raise ValueError(f"tile {tile.id}: path segment {i} reaches side {s} which shows {tile.sides[s]}")
            seen[s] = f"path segment {i}"
        if seg.end == END_PLANET and (seg.planet is None or not 0 <= seg.planet < len(tile.planets)):
            raise ValueError(f"tile {tile.id}: path segment {i} ends at a planet that is not on the tile")
    if tile.kind == "sun" and tile.sides != (SUN,) * 4:
        raise ValueError(f"tile {tile.id}: a sun tile must show S on all four sides")


def part_on_side(tile: Tile, rotation: int, board_side: int) -> int | None:
    """Index of the galaxy part reaching board_side of the placed tile, if any."""
    s = (board_side - rotation) % 4
    for i, part in enumerate(tile.galaxies):
        if s in part:
            return i
    return None


def segment_on_side(tile: Tile, rotation: int, board_side: int) -> int | None:
    """Index of the path segment reaching board_side of the placed tile, if any."""
    s = (board_side - rotation) % 4
    for i, seg in enumerate(tile.paths):
        if s in seg.sides:
            return i
    return None
