"""The greedy bot's best actions (SPEC §12.1) without listing, scoring and sorting every legal
action: the same set as `legal_actions` filtered to its highest greedy_score, in the same
notation order, so GreedyBot's one draw among them picks what the plain procedure picks
(tests/greedy_reference.py, held to it by tests/test_greedy_sameness.py).

Two things are left out when they cannot reach the best score:
- a Special Action card's plays on the seat's own turn, when the most the card can score there
  (greedy_score.special_ceiling) is below the best of the phase's actions;
- in phase 1, the placements of a drawn tile with planets on squares farther from the seat's
  ships than its nearest legal square (they score 8 less the king steps), and every placement
  of a tile without planets (they score 0) unless 0 is the best.
Only the best actions are sorted.
"""
from __future__ import annotations

from typing import Callable

from . import actions as A
from .board import is_sun
from .engine import affordable, in_phase, listed_actions, placing_tiles, to_move
from .geometry import neighbour, opposite
from .greedy_score import greedy_score, nearest_ship, special_ceiling
from .special_legal import own_specials
from .state import TILES, GameState
from .tiles import TILE_BY_ID
from .view import PlayerView


def best_actions(state: GameState, view: PlayerView) -> list:
    """view.seat's legal actions of the highest greedy_score, each once, in notation order
    (ValueError when it has none, as max() of nothing)."""
    if (state.phase == TILES and not state.variants.advanced and not state.only_action
            and to_move(state) == view.seat and in_phase(state) and placing_tiles(state)):
        return _best_placements(state, view)
    found, specials = listed_actions(state, view)
    scored = [(greedy_score(state, view, a), a) for a in found]
    if specials:
        _add_specials(state, view, scored)
    return _ties(scored)


def _ties(scored: list) -> list:
    best = max(s for s, _ in scored)
    return sorted({a for s, a in scored if s == best}, key=A.sort_key)


def _reaching(floor: int | None) -> Callable[[str], bool] | None:
    """The Special Action cards worth listing when the other actions score `floor` at best."""
    if floor is None:
        return None
    return lambda name: special_ceiling(name) >= floor


def _add_specials(state: GameState, view: PlayerView, scored: list, floor: int | None = None) -> None:
    """The seat's own Special Action plays that might tie or beat the best of `scored`."""
    if scored:
        best = max(s for s, _ in scored)
        floor = best if floor is None else max(floor, best)
    plays = affordable(state, view.seat, own_specials(state, view, keep=_reaching(floor)))
    scored += [(greedy_score(state, view, a), a) for a in plays]


def _best_placements(state: GameState, view: PlayerView) -> list:
    """Phase 1 with tiles drawn: each drawn tile's placements (or its scrap when it fits
    nowhere) and the seat's own Special Action plays, as far as they might be best."""
    board = state.board
    scored: list = []
    plain = []   # tiles without planets: every placement, and a scrap, scores 0
    levels = None
    for h in state.drawn:
        tile = TILE_BY_ID[state.names[h]]
        if not tile.planets:
            plain.append((h, tile))
            continue
        if levels is None:
            levels = _squares_by_steps(state, view.seat)
        found = _nearest_fits(board, tile, levels)
        if found is None:
            scored.append((0, A.ScrapTile(h)))
        else:
            steps, spots = found
            scored += [(8 - steps, A.PlaceTile(h, sq, r)) for sq, r in spots]
    _add_specials(state, view, scored, floor=0 if plain else None)
    if plain and max((s for s, _ in scored), default=0) <= 0:
        for h, tile in plain:
            spots = board.legal_placements(tile)
            scored += [(0, A.PlaceTile(h, sq, r)) for sq, r in spots] or [(0, A.ScrapTile(h))]
    return _ties(scored)


def _squares_by_steps(state: GameState, seat: int) -> list[tuple[int, list]]:
    """The frontier squares a tile without a sun may take (not controlled by an unfinished sun,
    SPEC §4.3), grouped by king steps to the seat's nearest ship, nearest first."""
    controlled = set(state.board.controlled_squares())
    by_steps: dict[int, list] = {}
    for sq in state.board.frontier():
        if sq not in controlled:
            by_steps.setdefault(nearest_ship(state, seat, sq), []).append(sq)
    return sorted(by_steps.items())


def _nearest_fits(board, tile, levels: list[tuple[int, list]]):
    """(steps, [(square, rotation)]): the tile's legal placements (as Board.legal_placements
    finds them, for a tile that is no sun) on the nearest squares where it has any; None when it
    fits nowhere."""
    rotated = [tuple(tile.side(d, r) for d in range(4)) for r in range(4)]
    for steps, squares in levels:
        spots = []
        for sq in squares:
            need = []   # (board side, code the neighbouring non-sun tile shows there)
            for d in range(4):
                other = board.tile_at(neighbour(sq, d))
                if other is not None and not is_sun(other.tile):
                    need.append((d, other.tile.side(opposite(d), other.rotation)))
            spots += [(sq, r) for r in range(4) if all(rotated[r][d] == code for d, code in need)]
        if spots:
            return steps, spots
    return None
