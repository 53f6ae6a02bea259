"""The board (SPEC §4): legal tile placement, suns, and incrementally kept galaxies and paths.

Everything derived (the frontier of empty squares next to tiles, galaxy and path
components, the suns) is updated by place(); nothing is recomputed from the whole board.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import count

from .features import (Components, Node, check_tile, node_order, part_on_side,
                       segment_on_side, square_order)
from .geometry import (SIDE_NAMES, SIZE, Square, king_neighbours, neighbour, on_board,
                       opposite, square_name)
from .tile_model import END_PLANET, Tile

SUN_TILES = 4  # sun tiles in the game (SPEC §4.3)

# Board revisions, unique in the process: every change to what state_items() reads takes a
# fresh one, and only clone() (the same contents) shares one, so a revision names contents.
_REVISIONS = count(1)


@dataclass(frozen=True)
class Placed:
    tile: Tile
    rotation: int


class IllegalPlacement(ValueError):
    """A tile may not go on that square in that rotation; the message says why."""


@dataclass(frozen=True)
class PlaceReport:
    completed_galaxies: tuple[Node, ...] = ()  # representative node of each galaxy just completed
    ruined_paths: tuple[Node, ...] = ()        # representative node of each path just ruined
    completed_paths: tuple[Node, ...] = ()     # representative node of each path just completed


@dataclass(frozen=True)
class Sun:
    """SPEC §4.3: `size` tiles make this sun; `squares` in the order they were placed."""
    size: int
    squares: tuple[Square, ...]

    @property
    def complete(self) -> bool:
        return len(self.squares) >= self.size


def is_sun(tile: Tile) -> bool:
    return tile.kind == "sun"


def on_outer_ring(sq: Square) -> bool:
    return sq[0] in (0, SIZE - 1) or sq[1] in (0, SIZE - 1)


def _side_name(side: int) -> str:
    return SIDE_NAMES[side]


class Board:
    def __init__(self, sun_tiles: int = SUN_TILES) -> None:
        self._tiles: dict[Square, Placed] = {}
        self._frontier: set[Square] = set()
        self._suns: list[Sun] = []
        self._sun_tiles = sun_tiles
        self._gal = Components()
        self._path = Components()
        self._destroyed: list[Node] = []   # planets destroyed (SPEC §15.1), in order
        self._rev = next(_REVISIONS)         # see _REVISIONS and state_items_json
        self._items_json: tuple[int, str] | None = None

    def clone(self) -> "Board":
        out = Board.__new__(Board)
        out._tiles = dict(self._tiles)
        out._frontier = set(self._frontier)
        out._suns = list(self._suns)
        out._sun_tiles = self._sun_tiles
        out._gal = self._gal.copy()
        out._path = self._path.copy()
        out._destroyed = list(self._destroyed)
        out._rev, out._items_json = self._rev, self._items_json   # the same contents, the same text
        return out

    # --- squares -----------------------------------------------------------------------

    def tile_at(self, sq: Square) -> Placed | None:
        return self._tiles.get(sq)

    def placed(self) -> Mapping[Square, Placed]:
        """Square to placed tile, not to be changed: tile_at for a reader that asks a lot."""
        return self._tiles

    def tiles(self) -> list[tuple[Square, Placed]]:
        """Every placed tile in reading order."""
        return [(sq, self._tiles[sq]) for sq in sorted(self._tiles, key=square_order)]

    def __len__(self) -> int:
        return len(self._tiles)

    def frontier(self) -> tuple[Square, ...]:
        """Empty squares orthogonally next to a tile, in reading order (SPEC §4.1)."""
        return tuple(sorted(self._frontier, key=square_order))

    # --- suns (SPEC §4.3) --------------------------------------------------------------

    def suns(self) -> tuple[Sun, ...]:
        return tuple(self._suns)

    def suns_placed(self) -> int:
        return sum(len(s.squares) for s in self._suns)

    def _active_sun(self) -> Sun | None:
        # Only the newest sun can still control squares: a new sun starts only when no
        # square is controlled, and an older sun that ran out of room never regains it.
        if self._suns and not self._suns[-1].complete:
            return self._suns[-1]
        return None

    def controlled_squares(self) -> tuple[Square, ...]:
        sun = self._active_sun()
        if sun is None:
            return ()
        out = {n for sq in sun.squares for n in self._empty_neighbours(sq)}
        return tuple(sorted(out, key=square_order))

    def sun_controlled(self, sq: Square) -> bool:
        return sq in self.controlled_squares()

    def _empty_neighbours(self, sq: Square) -> list[Square]:
        out = []
        for d in range(4):
            n = neighbour(sq, d)
            if on_board(n) and n not in self._tiles:
                out.append(n)
        return out

    def _new_sun_size(self, sq: Square) -> int:
        size = 2 if on_outer_ring(sq) else 4
        return min(size, self._sun_tiles - self.suns_placed())

    def _has_room(self, sq: Square, need: int) -> bool:
        """At least `need` empty squares connect orthogonally to sq (bounded search)."""
        seen = {sq}
        todo = [sq]
        found = 0
        while todo and found < need:
            cur = todo.pop()
            for n in self._empty_neighbours(cur):
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
                    found += 1
        return found >= need

    # --- legality (SPEC §4.1-§4.3) -----------------------------------------------------

    def can_place(self, tile: Tile, sq: Square, rotation: int) -> str | None:
        """None when legal, else the reason it is not."""
        return self._reason(tile, sq, rotation, frozenset(self.controlled_squares()))

    def _reason(self, tile: Tile, sq: Square, rotation: int,
                controlled: frozenset[Square]) -> str | None:
        if rotation not in (0, 1, 2, 3):
            return f"rotation must be 0..3, not {rotation!r}"
        if not on_board(sq):
            return f"square {sq} is off the board"
        where = square_name(sq)
        if sq in self._tiles:
            return f"{where} is occupied by tile {self._tiles[sq].tile.id}"
        if sq not in self._frontier:
            return (f"{where} touches no placed tile along a side "
                    "(corner-only contact does not count)")
        if is_sun(tile):
            if controlled:
                if sq not in controlled:
                    first = square_name(min(controlled, key=square_order))
                    return (f"{where} is not controlled by the unfinished sun: a sun tile must "
                            f"go on a controlled square (such as {first})")
                return None
            need = self._new_sun_size(sq) - 1
            if not self._has_room(sq, need):
                return f"{where} has no room for the {need} further tiles this sun needs"
            return None  # a sun side matches anything
        if sq in controlled:
            return f"{where} is controlled by an unfinished sun: only a sun tile may go there"
        bad = []
        for d in range(4):
            n = neighbour(sq, d)
            other = self._tiles.get(n)
            if other is None or is_sun(other.tile):
                continue
            mine = tile.side(d, rotation)
            theirs = other.tile.side(opposite(d), other.rotation)
            if mine != theirs:
                bad.append(f"{_side_name(d)} side shows {mine} but tile {other.tile.id} on "
                           f"{square_name(n)} shows {theirs} on its {_side_name(opposite(d))} side")
        return "; ".join(bad) if bad else None

    def legal_placements(self, tile: Tile) -> list[tuple[Square, int]]:
        """Every legal (square, rotation), sorted by row, column, rotation. Only frontier
        squares are tried; all four rotations are kept even when they look alike (SPEC §4.2).
        Same rules as can_place, without building the reasons."""
        controlled = frozenset(self.controlled_squares())
        if is_sun(tile):
            if controlled:
                squares = sorted(controlled, key=square_order)
            else:
                squares = [sq for sq in sorted(self._frontier, key=square_order)
                           if self._has_room(sq, self._new_sun_size(sq) - 1)]
            return [(sq, r) for sq in squares for r in range(4)]
        rotated = [tuple(tile.side(d, r) for d in range(4)) for r in range(4)]
        out = []
        for sq in sorted(self._frontier, key=square_order):
            if sq in controlled:
                continue
            need = []  # (board side, code the neighbouring non-sun tile shows there)
            for d in range(4):
                other = self._tiles.get(neighbour(sq, d))
                if other is not None and not is_sun(other.tile):
                    need.append((d, other.tile.side(opposite(d), other.rotation)))
            for r in range(4):
                sides = rotated[r]
                if all(sides[d] == code for d, code in need):
                    out.append((sq, r))
        return out

    # --- placing -----------------------------------------------------------------------

    def place(self, tile: Tile, sq: Square, rotation: int, *, setup: bool = False) -> PlaceReport:
        """Put tile on sq and update every derived feature. setup=True (the nine start
        tiles, SPEC §4.1) skips the contact, matching and sun rules but still joins features."""
        check_tile(tile)
        if setup:
            if rotation not in (0, 1, 2, 3):
                raise IllegalPlacement(f"rotation must be 0..3, not {rotation!r}")
            if not on_board(sq):
                raise IllegalPlacement(f"square {sq} is off the board")
            if sq in self._tiles:
                raise IllegalPlacement(f"{square_name(sq)} is occupied")
        else:
            reason = self.can_place(tile, sq, rotation)
            if reason is not None:
                raise IllegalPlacement(reason)

        self._rev = next(_REVISIONS)   # before any change, so a half-done one is not cached
        if is_sun(tile):
            sun = self._active_sun()
            if sun is not None and sq in self.controlled_squares():
                self._suns[-1] = Sun(sun.size, sun.squares + (sq,))
            else:
                self._suns.append(Sun(max(1, self._new_sun_size(sq)), (sq,)))

        self._tiles[sq] = Placed(tile, rotation)
        self._frontier.discard(sq)
        for n in self._empty_neighbours(sq):
            self._frontier.add(n)

        new_gal = self._add_galaxies(tile, sq, rotation)
        prior_paths, new_paths = self._add_paths(tile, sq, rotation)
        return self._report(new_gal, prior_paths, new_paths)

    def _add_galaxies(self, tile: Tile, sq: Square, rotation: int) -> list[Node]:
        """SPEC §4.4. Returns the nodes whose galaxy may have changed."""
        touched: list[Node] = []
        for i, part in enumerate(tile.galaxies):
            node = (sq, i)
            open_ = blocked = 0
            for s in part:
                d = (s + rotation) % 4
                n = neighbour(sq, d)
                if not on_board(n):
                    blocked += 1
                elif n not in self._tiles:
                    open_ += 1
                else:
                    other = self._tiles[n]
                    if part_on_side(other.tile, other.rotation, opposite(d)) is None:
                        blocked += 1  # a sun (or, in setup only, a mismatched side)
            self._gal.add(node, open_, blocked)
            touched.append(node)
        for d in range(4):
            n = neighbour(sq, d)
            other = self._tiles.get(n)
            if other is None:
                continue
            theirs = part_on_side(other.tile, other.rotation, opposite(d))
            if theirs is None:
                continue
            their_node = (n, theirs)
            mine = part_on_side(tile, rotation, d)
            if mine is None:
                self._gal.adjust(their_node, open_delta=-1, blocked_delta=1)
            else:
                self._gal.adjust(their_node, open_delta=-1)
                self._gal.union((sq, mine), their_node)
            touched.append(their_node)
        return touched

    def _add_paths(self, tile: Tile, sq: Square, rotation: int
                   ) -> tuple[dict[Node, bool], list[Node]]:
        """SPEC §4.5. Returns {neighbour node: was its path ruined before} and the new nodes."""
        prior: dict[Node, bool] = {}
        for d in range(4):
            n = neighbour(sq, d)
            other = self._tiles.get(n)
            if other is None:
                continue
            theirs = segment_on_side(other.tile, other.rotation, opposite(d))
            if theirs is not None:
                prior[(n, theirs)] = self.path_state(n, theirs) == "ruined"
        new: list[Node] = []
        for i, seg in enumerate(tile.paths):
            node = (sq, i)
            open_ = blocked = 0
            planets: tuple[Node, ...] = ()
            if seg.end == END_PLANET:
                planets = ((sq, seg.planet),)
            elif seg.end is not None:
                blocked += 1  # black hole, galaxy or a stop mid-tile
            for s in seg.sides:
                d = (s + rotation) % 4
                n = neighbour(sq, d)
                if not on_board(n):
                    blocked += 1
                elif n not in self._tiles:
                    open_ += 1
                else:
                    other = self._tiles[n]
                    if segment_on_side(other.tile, other.rotation, opposite(d)) is None:
                        blocked += 1  # a sun (or, in setup only, a mismatched side)
            self._path.add(node, open_, blocked, planets)
            new.append(node)
        for their_node in prior:
            n = their_node[0]
            d = next(d for d in range(4) if neighbour(sq, d) == n)
            mine = segment_on_side(tile, rotation, d)
            if mine is None:
                self._path.adjust(their_node, open_delta=-1, blocked_delta=1)
            else:
                self._path.adjust(their_node, open_delta=-1)
                self._path.union((sq, mine), their_node)
        return prior, new

    def _report(self, gal_nodes: list[Node], prior: dict[Node, bool],
                new_paths: list[Node]) -> PlaceReport:
        done_gal = {}
        for node in gal_nodes:
            c = self._gal.get(node)
            if self._galaxy_state(c) == "complete":
                done_gal[c.rep] = True
        # A path is reported ruined if it held a node that was on an unruined path before,
        # or if it is made only of the new tile's segments (it was born ruined).
        groups: dict[Node, list[bool]] = {}
        for node in new_paths:
            groups.setdefault(self._path.get(node).rep, [])
        for node, was_ruined in prior.items():
            groups.setdefault(self._path.get(node).rep, []).append(was_ruined)
        ruined, completed = [], []
        for rep, flags in groups.items():
            state = self._path_state(self._path.get(rep))
            if state == "ruined" and (not flags or not all(flags)):
                ruined.append(rep)
            elif state == "complete":
                completed.append(rep)
        return PlaceReport(tuple(sorted(done_gal, key=node_order)),
                           tuple(sorted(ruined, key=node_order)),
                           tuple(sorted(completed, key=node_order)))

    # --- galaxies (SPEC §4.4) ----------------------------------------------------------

    @staticmethod
    def _galaxy_state(c) -> str:
        if c.blocked:
            return "blocked"
        if c.open == 0:
            return "complete" if len({n[0] for n in c.nodes}) >= 2 else "blocked"
        return "open"

    def galaxy_key(self, sq: Square, part: int) -> tuple:
        """Equal for joined parts: ("galaxy", col, row, part) of the representative node.
        It changes when the galaxy merges with another; a complete galaxy keeps it for good."""
        rep = self._gal.get((sq, part)).rep
        return ("galaxy", rep[0][0], rep[0][1], rep[1])

    def galaxy_rep(self, sq: Square, part: int) -> Node:
        return self._gal.get((sq, part)).rep

    def galaxy_squares(self, sq: Square, part: int) -> tuple[Square, ...]:
        return self._gal.get((sq, part)).squares()

    def galaxy_nodes(self, sq: Square, part: int) -> tuple[Node, ...]:
        return tuple(sorted(self._gal.get((sq, part)).nodes, key=node_order))

    def galaxy_state(self, sq: Square, part: int) -> str:
        """"complete", "open" (may still complete) or "blocked" (can never complete)."""
        return self._galaxy_state(self._gal.get((sq, part)))

    def galaxy_complete(self, sq: Square, part: int) -> bool:
        return self.galaxy_state(sq, part) == "complete"

    # --- paths (SPEC §4.5) -------------------------------------------------------------

    @staticmethod
    def _path_state(c) -> str:
        if c.blocked:
            return "ruined"
        if c.open == 0 and len(c.planets) == 2:
            # both ends on one planet: a loop that joins no two planets (SPEC §4.5)
            return "ruined" if c.planets[0] == c.planets[1] else "complete"
        return "open"

    def path_key(self, sq: Square, segment: int) -> tuple:
        rep = self._path.get((sq, segment)).rep
        return ("path", rep[0][0], rep[0][1], rep[1])

    def path_rep(self, sq: Square, segment: int) -> Node:
        return self._path.get((sq, segment)).rep

    def path_squares(self, sq: Square, segment: int) -> tuple[Square, ...]:
        return self._path.get((sq, segment)).squares()

    def path_nodes(self, sq: Square, segment: int) -> tuple[Node, ...]:
        return tuple(sorted(self._path.get((sq, segment)).nodes, key=node_order))

    def path_middle_squares(self, sq: Square, segment: int) -> tuple[Square, ...]:
        """Squares of the path other than those of its planet ends (pirate scoring, SPEC §4.5)."""
        c = self._path.get((sq, segment))
        ends = {p[0] for p in c.planets}
        return tuple(s for s in c.squares() if s not in ends)

    def path_state(self, sq: Square, segment: int) -> str:
        return self._path_state(self._path.get((sq, segment)))

    def path_planets(self, sq: Square, segment: int) -> tuple[Node, ...]:
        return self._path.get((sq, segment)).planets

    def joined_segments(self, sq: Square, segment: int) -> tuple[Node, ...]:
        """The segments of neighbouring tiles that this segment runs straight into."""
        placed = self._tiles[sq]
        out = []
        for s in placed.tile.paths[segment].sides:
            d = (s + placed.rotation) % 4
            n = neighbour(sq, d)
            other = self._tiles.get(n)
            if other is not None:
                theirs = segment_on_side(other.tile, other.rotation, opposite(d))
                if theirs is not None:
                    out.append((n, theirs))
        return tuple(sorted(out, key=node_order))

    def segment_planet(self, sq: Square, segment: int) -> Node | None:
        """The planet this segment ends at inside its own tile, if any."""
        seg = self._tiles[sq].tile.paths[segment]
        return (sq, seg.planet) if seg.end == END_PLANET else None

    def planet_paths(self, sq: Square, planet: int) -> tuple[int, ...]:
        """Indices of the segments on sq that end at that planet."""
        placed = self._tiles.get(sq)
        if placed is None:
            return ()
        return tuple(i for i, seg in enumerate(placed.tile.paths)
                     if seg.end == END_PLANET and seg.planet == planet)

    # --- destroyed planets (SPEC §15.1) ------------------------------------------------

    def planet_destroyed(self, sq: Square, planet: int) -> bool:
        return (sq, planet) in self._destroyed

    def destroyed_planets(self) -> tuple[Node, ...]:
        return tuple(self._destroyed)

    def destroy_planet(self, sq: Square, planet: int) -> tuple[Node, ...]:
        """The planet is gone: every path segment ending at it now ends at nothing, so its
        path counts one more blocked end and is ruined for good (SPEC §15.1). Returns the
        representative node of each path this ruins that was not ruined before."""
        placed = self._tiles.get(sq)
        if placed is None or not 0 <= planet < len(placed.tile.planets):
            raise ValueError(f"no planet {planet} on {square_name(sq)}")
        if (sq, planet) in self._destroyed:
            raise ValueError(f"planet {square_name(sq)}/{planet} is already destroyed")
        self._rev = next(_REVISIONS)
        self._destroyed.append((sq, planet))
        newly = []
        for seg in self.planet_paths(sq, planet):
            was = self.path_state(sq, seg) == "ruined"
            self._path.adjust((sq, seg), blocked_delta=1)
            rep = self.path_rep(sq, seg)
            if not was and rep not in newly:
                newly.append(rep)
        return tuple(sorted(newly, key=node_order))

    # --- stations (SPEC §4.6) ----------------------------------------------------------

    def station_value(self, sq: Square) -> int:
        """1 for the station's own tile and 1 for each tile among the 8 around it; suns score 0."""
        value = 0
        for s in [sq] + king_neighbours(sq):
            placed = self._tiles.get(s)
            if placed is not None and not is_sun(placed.tile):
                value += 1
        return value

    def surrounded(self, sq: Square) -> bool:
        """All eight neighbour squares hold tiles (suns included). An edge square has fewer
        than eight neighbours and so is never surrounded (SPEC §4.6)."""
        ns = king_neighbours(sq)
        return len(ns) == 8 and all(n in self._tiles for n in ns)

    # --- hashing -----------------------------------------------------------------------

    def state_items(self) -> list:
        """Plain, deterministic data fixing the board: ((col, row), tile id, rotation) in
        reading order, then one ("sun", size, squares in placement order) per sun, because
        which sun a sun tile joined depends on the order of play."""
        items: list = [(sq, p.tile.id, p.rotation) for sq, p in self.tiles()]
        items.extend(("sun", s.size, s.squares) for s in self._suns)
        items.extend(("destroyed", sq, planet) for sq, planet in self._destroyed)
        return items

    def state_items_json(self, encode) -> str:
        """`encode(self.state_items())`, encoded again only when the board changed: the largest
        member of the state hash (SPEC §10.4), and most events place no tile. Keyed on the
        board's revision (SPEC §35.7): place() and destroy_planet(), the only writers of the
        tiles, suns and destroyed planets, take a fresh one; a clone keeps its original's, and
        a state put back by a takeback is such a clone, so its text is its own board's."""
        memo = self._items_json
        if memo is None or memo[0] != self._rev:
            memo = self._items_json = (self._rev, encode(self.state_items()))
        return memo[1]
