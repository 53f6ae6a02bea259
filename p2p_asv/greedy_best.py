"""The greedy bot's choice (SPEC §12.1) without listing, scoring and sorting every legal action:
it draws among the same best actions as the plain procedure (every legal action, each
scored by greedy_score, one of the best drawn from the notation-ordered list), so it picks
what that picks (tests/greedy_reference.py, held to it by tests/test_greedy_sameness.py).

Left out when they cannot reach the best score:
- a Special Action card's plays on the seat's own turn, when the most the card can score there
  (greedy_score.special_ceiling) is below the best of the phase's actions, and the Trading
  Post gifts of more cards than could reach it (greedy_score.gift_reaching);
- in phase 1, the placements of a drawn tile with planets on squares farther from the seat's
  ships than its nearest legal square (they score 8 less the king steps), and every placement
  of a tile without planets (they score 0) unless 0 is the best.
Only the best actions are ordered, by their notation (tile placements without writing it out);
a tile placement among them becomes an action only when it is the one drawn.
"""
from __future__ import annotations

from typing import Callable

from . import actions as A
from .board import Board, is_sun
from .engine import affordable, in_phase, listed_actions, placing_tiles, to_move
from .geometry import SIZE, STEP, square_name
from .greedy_score import gift_reaching, greedy_score, nearest_ship, special_ceiling
from .seeded import SeededRandom
from .special_legal import own_specials
from .state import TILES, GameState
from .tile_model import Tile
from .tiles import TILE_BY_ID
from .view import PlayerView


def greedy_choice(state: GameState, view: PlayerView, rng: SeededRandom):
    """rng.choice of view.seat's legal actions with the highest greedy_score, in notation
    order (ValueError when it has none, as max() of nothing)."""
    if (state.phase == TILES and not state.variants.advanced and not state.only_action
            and to_move(state) == view.seat and in_phase(state) and placing_tiles(state)):
        scored, groups = _best_placements(state, view)
    else:
        found, specials = listed_actions(state, view)
        scored, groups = [(greedy_score(state, view, a), a) for a in found], []
        if specials:
            _add_specials(state, view, scored)
    return _draw(rng, scored, groups)


def _draw(rng: SeededRandom, scored: list, groups: list):
    """rng.choice of the best of `scored` ((score, action) pairs) and of `groups` ((score,
    placements) pairs) in notation order. The placements are ordered without their text:
    "place #H SQ rR" sorts by the handle's digits, then the square's name, then the rotation
    (a shorter number or name first: the space after it is below any digit), and every other
    action's text sorts wholly before or after all of them."""
    best = max([s for s, _ in scored] + [s for s, _ in groups])
    if not groups:   # most decisions: a window's pass or play, a phase without tiles
        ties = [a for s, a in scored if s == best]
        return rng.choice(ties if len(ties) == 1 else sorted(set(ties), key=A.sort_key))
    others = sorted({a.text(): a for s, a in scored if s == best}.items())
    before = sum(1 for text, _ in others if text < _PLACE)
    spots: dict[int, list[int]] = {}   # tile handle: its placements, each its square's rank * 4 + rotation
    for s, group in groups:
        if s == best:
            for h, sq, r in group:
                spots.setdefault(h, []).append(_NAME_RANK[sq] * 4 + r)
    k = rng.choice(range(len(others) + sum(len(v) for v in spots.values())))
    if k < before:
        return others[k][1]
    k -= before
    for h in sorted(spots, key=str):
        if k < len(spots[h]):
            key = sorted(spots[h])[k]
            return A.PlaceTile(h, _BY_RANK[key // 4], key % 4)
        k -= len(spots[h])
    return others[before + k][1]


_PLACE = f"{A.PlaceTile.VERB} #"   # how every placement's text starts
_BY_RANK = sorted(((x, y) for x in range(SIZE) for y in range(SIZE)), key=square_name)
_NAME_RANK = {sq: i for i, sq in enumerate(_BY_RANK)}


def _reaching(floor: int | None) -> Callable[[str], bool] | None:
    """The Special Action cards worth listing when the other actions score `floor` at best."""
    if floor is None:
        return None
    return lambda name: special_ceiling(name) >= floor


def _add_specials(state: GameState, view: PlayerView, scored: list, floor: int | None = None) -> None:
    """The seat's own Special Action plays that might tie or beat `floor` and the best of `scored`."""
    if scored:
        best = max(s for s, _ in scored)
        floor = best if floor is None else max(floor, best)
    plays = affordable(state, view.seat, own_specials(
        state, view, keep=_reaching(floor), most_given=None if floor is None else gift_reaching(floor)))
    scored += [(greedy_score(state, view, a), a) for a in plays]


def _best_placements(state: GameState, view: PlayerView) -> tuple[list, list]:
    """Phase 1 with tiles drawn: the best of each drawn tile's placements (or its scrap when it
    fits nowhere) and the seat's own Special Action plays, as (scored, groups) for _draw."""
    fits = _Fits(state.board)
    scored: list = []          # (score, action): scraps and Special Action plays
    near: list = []            # (score, placements) of each tile with planets that fits somewhere
    plain = []                 # tiles without planets: every placement, and a scrap, scores 0
    levels = None
    for h in state.drawn:
        tile = TILE_BY_ID[state.names[h]]
        if not tile.planets:
            plain.append((h, tile))
            continue
        if levels is None:
            levels = _squares_by_steps(state, view.seat, fits.controlled)
        found = _nearest_fits(fits, tile, levels)
        if found is None:
            scored.append((0, A.ScrapTile(h)))
        else:
            near.append((8 - found[0], [(h, sq, r) for sq, r in found[1]]))
    floors = [s for s, _ in near] + ([0] if plain else [])
    _add_specials(state, view, scored, max(floors) if floors else None)
    if plain and max([s for s, _ in scored] + floors) == 0:
        for h, tile in plain:
            spots = (state.board.legal_placements(tile) if is_sun(tile)
                     else fits.spots(tile, state.board.frontier()))
            if spots:
                near.append((0, [(h, sq, r) for sq, r in spots]))
            else:
                scored.append((0, A.ScrapTile(h)))
    return scored, near


def _squares_by_steps(state: GameState, seat: int, controlled) -> list[tuple[int, list]]:
    """The frontier squares a tile without a sun may take (not controlled by an unfinished sun,
    SPEC §4.3), grouped by king steps to the seat's nearest ship, nearest first."""
    by_steps: dict[int, list] = {}
    for sq in state.board.frontier():
        if sq not in controlled:
            by_steps.setdefault(nearest_ship(state, seat, sq), []).append(sq)
    return sorted(by_steps.items())


def _nearest_fits(fits: "_Fits", tile: Tile, levels: list[tuple[int, list]]):
    """(steps, [(square, rotation)]): the tile's legal placements on the nearest squares where
    it has any; None when it fits nowhere."""
    for steps, squares in levels:
        found = fits.spots(tile, squares)
        if found:
            return steps, found
    return None


# The sides a square's neighbours show it, for each (neighbours' board sides), and the rotations
# in which a tile's sides match them: both depend on nothing but their keys.
_AROUND = {sq: tuple((d, (sq[0] + dx, sq[1] + dy), (d + 2) % 4) for d, (dx, dy) in sorted(STEP.items()))
           for sq in ((x, y) for x in range(-1, SIZE + 1) for y in range(-1, SIZE + 1))}
_ROTATIONS: dict[tuple, tuple[int, ...]] = {}


class _Fits:
    """Board.legal_placements for tiles that are no sun, square by square, on one board: every
    rotation in which the tile shows each neighbouring non-sun tile the side that tile shows it,
    on the frontier squares no unfinished sun controls (SPEC §4.1-§4.3). What each square's
    neighbours show it is read once for all the tiles drawn."""

    def __init__(self, board: Board) -> None:
        self.controlled = set(board.controlled_squares())
        self._at = board.placed().get
        self._needs: dict[tuple[int, int], tuple] = {}

    def _need(self, sq: tuple[int, int]) -> tuple:
        need = []   # (board side, the side the non-sun tile there shows this square)
        for d, n, facing in _AROUND[sq]:
            other = self._at(n)
            if other is not None and not is_sun(other.tile):
                need.append((d, other.tile.sides[(facing - other.rotation) % 4]))
        self._needs[sq] = found = tuple(need)
        return found

    def spots(self, tile: Tile, squares) -> list[tuple[tuple[int, int], int]]:
        sides, needs, controlled = tile.sides, self._needs, self.controlled
        out = []
        for sq in squares:
            if sq in controlled:
                continue
            need = needs.get(sq)
            if need is None:
                need = self._need(sq)
            rotations = _ROTATIONS.get((sides, need))
            if rotations is None:
                rotations = _ROTATIONS[sides, need] = tuple(
                    r for r in range(4) if all(sides[(d - r) % 4] == code for d, code in need))
            out += [(sq, r) for r in rotations]
        return out
