"""Legal Special Action plays (SPEC §11.2, §14): candidates per card, kept when the card's own
check accepts them, so listing and applying can never disagree."""
from __future__ import annotations

from itertools import combinations
from typing import Callable

from .actions import Pass, PlaySpecial
from .cards import CARD_BY_NAME, SPECIAL_ACTION
from .errors import IllegalAction
from .geometry import square_name
from .destruction import destroyable_planets
from .hidden_specials import (ANSWER_KINDS, ESPIONAGE, SCIENCE_OUTPOST, TRADING_POST, answer_actions,
                              partners)
from .special_rules import (BLACK_HOLE, CONSPIRACY, CYBER_JUMP, KAMIKAZE, METEOR_SHOWER, SABOTAGE,
                            SHIFT_OF_FUNDS, SUPERNOVA, TROIKA_SUMMIT, WORM_HOLE, check_args, check_card,
                            check_troika_planet, counts_against_limit, landing_planets, may_play_another,
                            troika_ship_free)
from .state import GameState, Window
from .view import PlayerView


def _specials_in_hand(state: GameState, view: PlayerView) -> list[tuple[int, str]]:
    out = []
    public, known = state.names, view.known   # view.name_of, inlined: every listing asks
    for h in state.players[view.seat].hand:
        name = public.get(h) or known.get(h)
        if name is not None and CARD_BY_NAME[name].category == SPECIAL_ACTION:
            out.append((h, name))
    return out


def _planet_token(key) -> str:
    return f"{square_name(key[0])}/{key[1]}"


def _all_planets(state: GameState) -> list[str]:
    out = []
    for sq, placed in state.board.tiles():
        out += [_planet_token((sq, i)) for i in range(len(placed.tile.planets))]
    return out


def _troika_args(state: GameState, seat: int, judged: bool = False) -> list[tuple[str, ...]]:
    """Every (planet, own ship, guests' ships...) in listing order. `judged`: only those that
    pass Troika Summit's check, which is the planet's part and each ship's part (the shapes
    built here always pass the rest), so each planet and ship is judged once, not once for each
    of the hundreds of combinations (SPEC §11.2: the same list, checked argument by argument)."""
    planets = [_planet_token(k) for k in sorted(state.planets)]
    if judged:
        planets = [p for p in planets if _passes(check_troika_planet, state, p)]

    def ships(owner: int) -> list[str]:
        return [f"s{s.id}" for s in state.ships_of(owner) if not judged or troika_ship_free(state, s)]

    mine = ships(seat)
    others = [ships(p.seat) for p in state.players if p.seat != seat]
    guests: list[tuple[str, ...]] = [()]
    for k in (1, 2):
        for group in combinations(others, k):
            picks: list[tuple[str, ...]] = [()]
            for tokens in group:
                picks = [p + (s,) for p in picks for s in tokens]
            guests += picks
    return [(p, m) + g for p in planets for m in mine for g in guests]


def _passes(check_part, *args) -> bool:
    try:
        check_part(*args)
        return True
    except IllegalAction:
        return False


def _trading_post_args(state: GameState, seat: int, handle: int,
                       most: int | None = None) -> list[tuple[str, ...]]:
    """SPEC §14.9: every gift, each set of the player's other cards listed once (in handle
    order), to every seat but a partner, of at most as many cards as that seat holds (and at
    most `most` cards, when given)."""
    others = [f"#{h}" for h in sorted(h for h in state.players[seat].hand if h != handle)]
    out: list[tuple[str, ...]] = []
    for p in state.players:
        if p.seat == seat or partners(state, seat, p.seat):
            continue
        limit = min(len(others), len(p.hand)) if most is None else min(len(others), len(p.hand), most)
        for n in range(1, limit + 1):
            out += [(f"@{p.seat}",) + gift for gift in combinations(others, n)]
    return out


def _candidates(state: GameState, seat: int, handle: int, name: str,
                most_given: int | None = None) -> list[tuple[str, ...]]:
    seats = [f"@{p.seat}" for p in state.players if p.seat != seat]
    if name == CYBER_JUMP:
        others = [h for h in state.players[seat].hand if h != handle]
        return ([("tile",), ("piece",), ("move",)]
                + [("discard", f"#{a}", f"#{b}") for a, b in combinations(others, 2)])
    if name in (ESPIONAGE, SCIENCE_OUTPOST):
        return [(s,) for s in seats]
    if name == TRADING_POST:
        return _trading_post_args(state, seat, handle, most_given)
    if name == SHIFT_OF_FUNDS:
        return [(s,) for s in seats]
    if name == METEOR_SHOWER:
        return [(p,) for p in _all_planets(state)]
    if name == TROIKA_SUMMIT:
        return _troika_args(state, seat)
    if name == WORM_HOLE:
        ships = ([state.ships[state.moved_ship]] if state.polls and state.moved_ship in state.ships
                 else state.ships_of(seat))
        return [(f"s{s.id}", square_name(sq)) for s in ships for sq in landing_planets(state, webbed=True)]
    if name in (BLACK_HOLE, SUPERNOVA):
        return [(_planet_token(p),) for p in destroyable_planets(state)]
    if name == KAMIKAZE:
        return [(f"s{s.id}",) for s in state.ships_of(seat)]
    if name == SABOTAGE:
        return [(f"s{sid}",) for sid, s in sorted(state.ships.items()) if s.owner != seat]
    if name == CONSPIRACY:
        return [()] + [(s,) for s in seats]
    return [()]


def _plays(state: GameState, view: PlayerView, in_respond: bool,
           keep: Callable[[str], bool] | None = None, most_given: int | None = None) -> list:
    seat, poll = view.seat, (state.polls[-1] if state.polls else None)
    out = []
    for handle, name in _specials_in_hand(state, view):
        if keep is not None and not keep(name):
            continue
        if counts_against_limit(name) and not in_respond and not may_play_another(state, seat):
            continue
        try:   # a card that does not fit here at all: no argument can change that
            check_card(state, seat, name, poll)
        except IllegalAction:
            continue
        if name == TROIKA_SUMMIT and poll is None:
            out += [PlaySpecial(handle, name, args) for args in _troika_args(state, seat, judged=True)]
            continue
        verdicts: dict[tuple, bool] = {}
        for args in _candidates(state, seat, handle, name, most_given):
            action = PlaySpecial(handle, name, args)
            # A Trading Post gift of cards from the player's own hand is judged by its target and
            # its size alone (SPEC §14.9), so one check per pair stands for all its sets.
            key = (args[0], len(args)) if name == TRADING_POST else args
            if key not in verdicts:
                try:
                    check_args(state, seat, action, poll)   # check_card passed above
                    verdicts[key] = True
                except IllegalAction:
                    verdicts[key] = False
            if verdicts[key]:
                out.append(action)
    return out


def own_specials(state: GameState, view: PlayerView, keep: Callable[[str], bool] | None = None,
                 most_given: int | None = None) -> list:
    """Cards the active seat may play on its own turn, outside any window; with `keep`, only
    the plays of the cards whose name it accepts (the others are not even checked); with
    `most_given`, only the Trading Post gifts of at most that many cards."""
    if view.seat != state.active or state.automata_seen:
        return []
    return _plays(state, view, in_respond=False, keep=keep, most_given=most_given)


def poll_actions(state: GameState, view: PlayerView) -> list:
    """The polled seat's answers: pass, or a card that fits the open window."""
    if state.polls[-1].kind in ANSWER_KINDS:
        return answer_actions(state, view.seat)
    return [Pass()] + _plays(state, view, in_respond=state.polls[-1].kind == Window.RESPOND)
