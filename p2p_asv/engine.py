"""The engine's front door (SPEC §11): who moves, what is legal, and applying an action.

`apply` validates first and mutates only when the action is legal, so a refused action leaves
the state exactly as it was. It mutates in place and returns the state: call
`state.clone()` first to keep the old one.
"""
from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from . import actions as A
from .cards import ANY_TIME_EXTRAS, CARD_BY_NAME, CARDS, ENVIRONMENT, EXPLORER, LIFE_FORM, ON_OPPONENT_PLANET, PLANET
from .chance import CHANCE_HANDLERS
from .checks import require
from .discovery import (DISCOVERY_ACTIONS, WEB, binary_targets, holds_planet_card, kaygus_target,
                        may_decline_discovery)
from . import energy
from .destruction import DOOM_ACTIONS, doom_due, doom_legal, doomed_owner
from .teleport import do_teleport
from .errors import EngineError, IllegalAction, MalformedAction, OutOfTurn
from .extras import (EXTRA_ACTIONS, allowed_after_only_action, attach_options, can_fire, can_plunder,
                     gavin_second_move, laser_targets, nothing_but_tiles, record, rookie_carrier,
                     rookie_targets, rookie_time, torpedo_targets)
from .movement import destinations, undiscovered_planets
from .life_effects import (bank_sources, can_bank, can_look_automata, do_bank, do_bank_give, do_keep,
                           do_look_automata, keep_limit)
from .quest_rules import do_score_quest, scorable_quests
from .special_legal import own_specials, poll_actions
from .specials import ANSWER_KINDS, OFFER_KINDS, do_answer, do_poll_pass, do_special, polled
from .quests import QUEST_DECK
from .state import CHANCE, DISCARD, MOVE, PLACE_PIECE, REFILL, TILES, GameState, Stage, Window
from .tiles import TILE_BY_ID
from .tiles import TILES as TILE_TYPES
from .turn import (BIG_SHIP, PHASE_ACTIONS, PIECE_LIMIT, advance, can_draw, can_peek, hand_limit,
                   home_squares, opponent_planet_next_to, second_star_t, peeked_in_deck, pirate_on_path,
                   station_at, tiles_to_draw)
from .view import PlayerView

NAMES_BY_SLUG = {A.slug(n): n for n in [c.name for c in CARDS] + [t.id for t in TILE_TYPES] + list(QUEST_DECK)}


def resolve_name(slug: str) -> str:
    return NAMES_BY_SLUG[slug]


CARD_BY_SLUG = {A.slug(c.name): c.name for c in CARDS}


def parse_action(text: str):
    """Notation to action, with card and tile names restored (SPEC §11.1). A card played by
    name is always a card: the Black Hole card and the black-hole tile share a slug."""
    action = A.parse(text, resolve_name)
    name = getattr(action, "name", None)
    if name is not None and name not in CARD_BY_NAME and A.slug(name) in CARD_BY_SLUG:
        action = replace(action, name=CARD_BY_SLUG[A.slug(name)])
    return action


def to_move(state: GameState) -> int | None:
    """The seat that writes the next event, CHANCE for a deck operation, None when over."""
    if state.over:
        return None
    if state.pending:
        return CHANCE
    if doom_due(state):
        return doomed_owner(state)
    if state.polls:
        return polled(state)
    if state.discovery is not None:   # the discoverer's own steps; its offers are polls
        return state.discovery.discoverer
    return state.active


def chance_request(state: GameState):
    return state.pending[0] if state.pending else None


def apply(state: GameState, seat: int, action) -> GameState:
    handler = CHANCE_HANDLERS.get(type(action))
    if handler is not None:
        if seat != CHANCE:
            raise OutOfTurn(f"seat {seat} cannot write a chance outcome")
        handler(state, action)
        state.step += 1
        return state
    if type(action) not in _PLAYER_HANDLERS:
        raise MalformedAction(f"not an action: {action!r}")
    if state.over:
        raise IllegalAction("the game is over")
    due = to_move(state)
    if due == CHANCE:
        raise OutOfTurn(f"waiting for a chance event ({state.pending[0].kind} {state.pending[0].deck})")
    if seat != due:
        raise OutOfTurn(f"seat {due} is to act, not seat {seat}")
    if doom_due(state):  # SPEC §15.2: the doomed ship's owner answers before anything else
        require(type(action) in DOOM_ANSWERS, f"answer for s{state.doom.ships[0]} first "
                "(escape, teleport or pass)")
        DOOM_ANSWERS[type(action)](state, seat, action)
        state.step += 1
        return state
    if state.polls and state.polls[-1].kind in ANSWER_KINDS:
        require(type(action) in (A.Discard, A.Pick), "answer the card first (SPEC §14.9)")
    elif state.polls and state.polls[-1].kind in OFFER_KINDS:
        require(type(action) in OFFER_ANSWERS, "answer the offer first: play a card or pass (SPEC §8.2)")
    elif state.polls:
        require(type(action) in (A.Pass, A.PlaySpecial), "answer the open window first: pass or play a card")
    elif state.discovery is not None:
        require(type(action) in DISCOVERY_ACTIONS and type(action) is not A.Move,
                "finish the discovery first")
    require(not state.automata_seen or type(action) is A.Keep,
            "choose which cards the Automata showed to keep first")
    require((state.bank_owed is None) == (type(action) is not A.BankGive),
            "give a card back for the one City of Banks took first" if state.bank_owed is not None
            else "City of Banks owes nobody a card now")
    if state.only_action and seat == state.active and state.discovery is None and not state.polls:
        require(allowed_after_only_action(state, action),
                f"this turn's only action is taken ({state.only_action}); place tiles or end the turn")
    if state.polls and state.polls[-1].kind in ANSWER_KINDS:
        do_answer(state, seat, action)
    elif state.variants.advanced:
        _apply_advanced(state, seat, action)
    else:
        _PLAYER_HANDLERS[type(action)](state, seat, action)
    record(state, seat, action)
    if seat == state.active and type(action) not in ONLY_ACTION_LEFT and not _sneak(action):
        state.busy = True               # no Only Action card after this (SPEC §14.4)
    state.step += 1
    return state


ONLY_ACTION_LEFT = (A.DrawTile, A.PlaceTile, A.ScrapTile, A.Next)
# What an offer accepts (SPEC §8.2); each handler refuses the card of the other offer.
OFFER_ANSWERS = (A.Pass, A.PlayEnvironment, A.PlayLifeForms)


def _sneak(action) -> bool:
    """Sneak Attack may come before an Only Action card (SPEC §14.4)."""
    return type(action) is A.PlaySpecial and action.name == "Sneak Attack"


def _do_pass(state: GameState, seat: int, action: A.Pass) -> None:
    if state.polls:
        do_poll_pass(state, seat, action)
    else:
        DISCOVERY_ACTIONS[A.Pass](state, seat, action)


def _apply_advanced(state: GameState, seat: int, action) -> None:
    """SPEC §13.5: the action's phase is entered first (closing the one left behind) and its
    energy is paid after it succeeds; a refusal puts the phase bookkeeping back."""
    price = energy.cost(state, seat, action)
    require(price <= state.energy, f"{action.text()} costs {price} energy; {state.energy} left")
    phase = energy.phase_of(action)
    saved = (state.phase, list(state.closed_phases), state.phase_used)
    if phase is not None and seat == state.active and state.discovery is None:
        energy.switch_phase(state, phase)
    try:
        _PLAYER_HANDLERS[type(action)](state, seat, action)
    except EngineError:
        state.phase, state.closed_phases, state.phase_used = saved
        raise
    if seat == state.active:
        state.energy -= price
        if phase is not None and not state.over:
            state.phase_used = True


def _do_next(state: GameState, seat: int, action: A.Next) -> None:
    if state.variants.advanced:
        require(not state.drawn, "place the tile you drew first")
    else:
        require(state.phase != TILES, "place this turn's tiles first")
        require(PLACE_PIECE <= state.phase <= REFILL, "nothing to end now")
    advance(state)


_PLAYER_HANDLERS = {**PHASE_ACTIONS, **DISCOVERY_ACTIONS, **EXTRA_ACTIONS, A.Next: _do_next,
                    A.ScoreQuest: do_score_quest, A.LookAutomata: do_look_automata,
                    A.Keep: do_keep, A.Bank: do_bank, A.BankGive: do_bank_give, A.Pass: _do_pass, A.PlaySpecial: do_special,
                    A.Pick: do_answer,
                    A.Escape: DOOM_ACTIONS[A.Escape], A.Teleport: do_teleport}
DOOM_ANSWERS = {**DOOM_ACTIONS, A.Teleport: do_teleport}


# -- legal actions (SPEC §11.2) -------------------------------------------------------------------
def _hand(state: GameState, view: PlayerView, *categories: str) -> list[tuple[int, str]]:
    out = []
    public, known = state.names, view.known   # view.name_of, inlined: every listing asks
    for h in state.players[view.seat].hand:
        name = public.get(h) or known.get(h)
        if name is not None and CARD_BY_NAME[name].category in categories:
            out.append((h, name))
    return out


def legal_actions(state: GameState, view: PlayerView) -> list:
    """Every legal action for view.seat, sorted by notation; empty when it is not their move."""
    found, specials = listed_actions(state, view)
    if specials:
        found += affordable(state, view.seat, own_specials(state, view))
    return sorted(set(found), key=A.sort_key)


def in_phase(state: GameState) -> bool:
    """Whether the seat to move acts in its turn's phase: no doomed ship, window, discovery,
    Automata look or City of Banks debt waits on an answer."""
    return not (doom_due(state) or state.polls or state.discovery is not None or state.automata_seen
                or state.bank_owed is not None)


def placing_tiles(state: GameState) -> bool:
    """Whether phase 1 lists the drawn tiles' placements (or scraps) rather than the piles."""
    return not (tiles_to_draw(state) and not (state.variants.advanced and state.drawn))


def affordable(state: GameState, seat: int, actions: list) -> list:
    """SPEC §13.5: in the advanced game, only the actions the seat's energy pays for."""
    if state.variants.advanced:
        return [a for a in actions if energy.cost(state, seat, a) <= state.energy]
    return actions


def listed_actions(state: GameState, view: PlayerView) -> tuple[list, bool]:
    """legal_actions before its sort, in two parts: the actions (unsorted, an action perhaps
    twice) and whether the seat's own Special Action plays, own_specials(state, view) as far as
    `affordable` keeps them, belong to the list too (the greedy bot scores the rest first)."""
    if to_move(state) != view.seat:
        return [], False
    if not in_phase(state):
        return affordable(state, view.seat, _answers(state, view)), False
    found = (_advanced_actions(state, view) if state.variants.advanced
             else _PHASE_LEGAL[state.phase](state, view))
    if state.only_action:
        return affordable(state, view.seat, [a for a in found if allowed_after_only_action(state, a)]), False
    return affordable(state, view.seat, found), True


def _answers(state: GameState, view: PlayerView) -> list:
    """The actions outside the turn's phase (not in_phase): a doomed ship's, a window's, a
    discovery's, Automata's keep, City of Banks' card given back."""
    if doom_due(state):
        return doom_legal(state, view)
    if state.polls and state.polls[-1].kind in OFFER_KINDS:
        return _offer_actions(state, view)
    if state.polls:
        return poll_actions(state, view)
    if state.discovery is not None:
        return _discovery_actions(state, view)
    if state.automata_seen:
        return _keeps(state, view)
    return [A.BankGive(h) for h in state.players[view.seat].hand]   # SPEC §8.10: the card given back


def _advanced_actions(state: GameState, view: PlayerView) -> list:
    """SPEC §13.5: the actions of every phase still open, each listed by its own phase's
    generator as if the turn stood in that phase (the phase `apply` enters for it, read from
    the one table energy.PHASE_OF, read through energy.phase_of); the phase-free actions as
    the turn stands."""
    found = ([A.Next()] + _free_actions(state, view)) if not state.drawn else []
    current = state.phase
    try:
        for phase in _PHASE_LEGAL:
            if energy.phase_open(state, phase):
                state.phase = phase
                found += [a for a in _PHASE_LEGAL[phase](state, view)
                          if energy.phase_of(a) == phase]
    finally:
        state.phase = current
    return found


def _discovery_actions(state: GameState, view: PlayerView) -> list:
    d, seat = state.discovery, view.seat
    if d.stage == Stage.PLANET:
        return ([A.Discover(h, n, i) for h, n in _hand(state, view, PLANET)
                 for i in undiscovered_planets(state, d.planet[0])]
                + ([A.Pass()] if may_decline_discovery(state) else []))
    out = [A.Pass()]
    if d.stage == Stage.BINARY:
        out += [A.BinaryDiscover(h, n, sq, i) for h, n in _hand(state, view, PLANET)
                for sq, i in binary_targets(state)]
    elif d.stage == Stage.EXPLORER:
        if state.planets[d.planet].owner == seat:   # not after a U.F.O. (SPEC §14.6)
            out += [A.PlayExplorer(h, n) for h, n in _hand(state, view, EXPLORER)
                    if CARD_BY_NAME[n].played_on != ON_OPPONENT_PLANET]
    return out


def _offer_actions(state: GameState, view: PlayerView) -> list:
    """SPEC §8.2: the polled seat passes or plays a card of the offered kind."""
    seat, d, out = view.seat, state.discovery, [A.Pass()]
    if state.polls[-1].kind == Window.ENVIRONMENT:
        out += [A.PlayEnvironment(h, n) for h, n in _hand(state, view, ENVIRONMENT)
                if not (n == WEB and seat == d.discoverer)]
    else:
        lifes = _hand(state, view, LIFE_FORM)
        out += [A.PlayLifeForms(((h, n),)) for h, n in lifes]
        spores = sorted((h, n) for h, n in lifes if CARD_BY_NAME[n].many_per_planet)
        out += [A.PlayLifeForms(group) for k in range(2, len(spores) + 1)   # any number together
                for group in combinations(spores, k)]
    return out


def _tiles(state: GameState, view: PlayerView) -> list:
    if not placing_tiles(state):
        return [A.DrawTile(i) for i, pile in enumerate(state.piles) if pile]
    out = []
    for h in state.drawn:
        spots = state.board.legal_placements(TILE_BY_ID[state.names[h]])
        out += [A.PlaceTile(h, sq, rot) for sq, rot in spots] or [A.ScrapTile(h)]
    return out


def _free_actions(state: GameState, view: PlayerView) -> list:
    """SPEC §6.6: scoring a surrounded station or a completed quest, in phases 2-5; Captain
    Rookie played or reassigned (SPEC §15.6)."""
    seat = view.seat
    return ([A.ScoreStation(sq) for sq in state.players[seat].stations
             if state.board.surrounded(sq)] + scorable_quests(state, seat, view) + _rookie(state, view)
            + _any_time_extras(state, view))


def _any_time_extras(state: GameState, view: PlayerView) -> list:
    """SPEC §5.7: Flash-jets, Fleet Admiral and Nano-computer go on at any time after the tiles."""
    if not rookie_time(state):
        return []
    ships = state.ships_of(view.seat)
    return [A.AttachExtra(s.id, h, n, evict) for h, n in _hand(state, view, "space_ship")
            if n in ANY_TIME_EXTRAS for s in ships for evict in attach_options(state, view.seat, s, n)]


def _rookie(state: GameState, view: PlayerView) -> list:
    seat = view.seat
    if not rookie_time(state):
        return []
    out = [A.PlayRookie(h, n, sid) for h, n in _hand(state, view, "space_ship") if n == "Captain Rookie"
           for sid in rookie_targets(state, seat)]
    carrier = rookie_carrier(state, seat)
    if carrier is not None and nothing_but_tiles(state):
        out += [A.Reassign(carrier.id, sid) for sid in rookie_targets(state, seat)]
    return out


def _pieces(state: GameState, view: PlayerView) -> list:
    seat, player = view.seat, state.players[view.seat]
    out = [A.Next()] + _free_actions(state, view)
    ships = state.ships_of(seat)
    for h, n in _hand(state, view, "space_ship"):
        card = CARD_BY_NAME[n]
        if card.ship_extra:  # SPEC §15: free, and not the turn's piece
            out += [A.AttachExtra(s.id, h, n, evict) for s in ships
                    for evict in attach_options(state, seat, s, n)]
            continue
        if state.piece_placed:
            continue
        big_elsewhere = lambda skip=None: any(CARD_BY_NAME[s.name].movement > BIG_SHIP  # noqa: E731
                                              for s in ships if s.id != skip)
        if (len(ships) < PIECE_LIMIT and (card.movement <= BIG_SHIP or not big_elsewhere())
                and not second_star_t(state, seat, n)):
            out += [A.NewShip(h, n, sq) for sq in home_squares(state, seat)]
        for s in ships:
            if (card.movement > CARD_BY_NAME[s.name].movement
                    and (card.movement <= BIG_SHIP or not big_elsewhere(s.id))
                    and all(n in CARD_BY_NAME[e].fits for e in s.extras)
                    and not second_star_t(state, seat, n, skip=s.id)):
                out.append(A.Upgrade(s.id, h, n))
    if state.piece_placed:
        return out
    for sq in state.placed_this_turn:
        tile = state.board.tile_at(sq).tile
        if len(player.probes) < PIECE_LIMIT:
            out += [A.PlaceProbe(sq, i) for i in range(len(tile.galaxies))
                    if not state.board.galaxy_complete(sq, i)]
        if len(player.stations) < PIECE_LIMIT and tile.kind != "sun" and not station_at(state, sq):
            out.append(A.PlaceStation(sq))
        if len(player.pirates) < PIECE_LIMIT and not tile.planets:
            out += [A.PlacePirate(sq, i) for i in range(len(tile.paths))
                    if state.board.path_state(sq, i) != "ruined" and not pirate_on_path(state, sq, i)
                    and not opponent_planet_next_to(state, seat, sq, i)]
    return out


def _moves(state: GameState, view: PlayerView) -> list:
    seat = view.seat
    out = [A.Next()] + _free_actions(state, view)
    may_discover = holds_planet_card(state, seat, view) and energy.can_afford_discovery(state, seat)
    if not state.moved:
        for ship in state.ships_of(seat):
            out += [A.Move(ship.id, sq) for sq in destinations(state, ship, may_discover)]
            out += torpedo_targets(state, ship)
            if can_fire(state, ship):
                out += laser_targets(state, ship)
    elif state.torpedo_ship:  # SPEC §15.5: the restricted move after a Photon Torpedo
        ship = state.ships[state.torpedo_ship]
        out += [A.Move(ship.id, sq) for sq in state.torpedo_to
                if may_discover or not undiscovered_planets(state, sq)]
    elif gavin_second_move(state, seat):  # SPEC §15.8
        ship = state.ships[state.moved_ship]
        out += [A.Move(ship.id, sq) for sq in destinations(state, ship, may_discover)]
    if can_plunder(state, seat):  # SPEC §15.7
        out += [A.Plunder(s, i) for s in state.plunder_from for i in range(len(state.players[s].hand))]
    if state.moved and kaygus_target(state, seat) is not None:
        out += [A.PlayExplorer(h, n) for h, n in _hand(state, view, EXPLORER)
                if CARD_BY_NAME[n].played_on == ON_OPPONENT_PLANET]
    return out


def _discards(state: GameState, view: PlayerView) -> list:
    """SPEC §6.4: one card; with Alien Artifact every non-empty set of cards, each listed once."""
    player = state.players[view.seat]
    hand = sorted(player.hand)
    sizes = range(1, len(hand) + 1) if "Alien Artifact" in player.continuing else (1,)
    return ([A.Next()] + _free_actions(state, view)
            + [A.Discard(cards) for n in sizes for cards in combinations(hand, n)])


def _keeps(state: GameState, view: PlayerView) -> list:
    seen, n = state.automata_seen, max(1, keep_limit(state, view.seat))
    out = [A.Keep((h,)) for h in seen]
    if n >= 2:
        out += [A.Keep((a, b)) for i, a in enumerate(seen) for b in seen[i + 1:]]
    return out


def _effects(state: GameState, seat: int) -> list:
    """SPEC §8.10: Automata and City of Banks, once a turn each in phase 5."""
    out = [A.LookAutomata()] if can_look_automata(state, seat) else []
    if can_bank(state, seat):
        out += [A.Bank(s, i) for s in bank_sources(state, seat) for i in range(len(state.players[s].hand))]
    return out


def _refills(state: GameState, view: PlayerView) -> list:
    seat = view.seat
    seer = ([A.Peek()] if can_peek(state, seat) else []) + [
        A.TakePeeked(h) for h in state.peeked
        if peeked_in_deck(state, h) and len(state.players[seat].hand) < hand_limit(state, seat)]
    return ([A.Next()] + _free_actions(state, view) + seer + _effects(state, seat)
            + [A.DrawCard(d) for d in A.DECKS if can_draw(state, seat, d)])


_PHASE_LEGAL = {TILES: _tiles, PLACE_PIECE: _pieces, MOVE: _moves, DISCARD: _discards, REFILL: _refills}
