"""The search bot's playout policy and leaf evaluation (SPEC §12.3).

The policy is GreedyBot itself: the engine's own `legal_actions` scored by the one greedy
scorer (p2p_asv/greedy_score.py), ties at random, with shortcuts that choose as it would
without listing every tile placement or card draw. The evaluation turns a cut-off
position into points: the score already earned, what the pieces on the board would score if the
game ended now, end-game planet bonuses, and a modest value for cards in hand and ships.
"""
from __future__ import annotations

import math

from .. import actions as A
from ..cards import ANY_TIME_EXTRAS, CARD_BY_NAME, ENVIRONMENT, EXPLORER, LIFE_FORM, PLANET, SPACE_SHIP, SPECIAL_ACTION
from ..endgame import pirate_points
from ..engine import legal_actions
from ..extras import ROOKIE
from ..geometry import neighbour, opposite, sector_of
from ..greedy_score import greedy_score, nearest_ship, special_ceiling
from ..life_effects import can_bank, can_look_automata
from ..movement import ship_allowance
from ..quest_rules import scorable_quests
from ..state import DISCARD, REFILL, TILES, GameState
from ..turn import HAND_LIMIT, can_draw, tiles_to_draw
from ..tiles import TILE_BY_ID
from ..variants import TEAMS
from ..view import PlayerView


def planet_targets(state: GameState) -> list:
    """(square, best tile value) of every placed tile with an undiscovered planet."""
    out = []
    for sq, placed in state.board.tiles():
        values = placed.tile.planets
        if values:
            best = max((v for i, v in enumerate(values) if (sq, i) not in state.planets), default=0)
            if best:
                out.append((sq, best))
    return out


def holds_planet(state: GameState, seat: int, identity: dict[int, str]) -> bool:
    for h in state.players[seat].hand:
        card = CARD_BY_NAME.get(identity.get(h) or "")
        if card is not None and card.category == PLANET:
            return True
    return False


def ranked(state: GameState, view: PlayerView, actions: list, rng) -> list:
    """Actions best first by the greedy score (SPEC §12.1); equal scores in a random order."""
    keyed = [(-greedy_score(state, view, a), rng.next64(), i) for i, a in enumerate(actions)]
    keyed.sort()
    return [actions[i] for _, _, i in keyed]


def _fits(board, tile, sq, rotation: int) -> bool:
    """Whether tile matches every non-sun neighbour of sq (a frontier square, no active sun)."""
    for d in range(4):
        other = board.tile_at(neighbour(sq, d))
        if other is not None and other.tile.kind != "sun" and \
                tile.side(d, rotation) != other.tile.side(opposite(d), other.rotation):
            return False
    return True


class _Hand:
    """What the playout's shortcuts need to know of a seat's hand: the highest greedy score a
    Special Action card in it could get on the seat's own turn (-inf with none), whether
    Captain Rookie is in it or aboard one of the seat's ships, whether it holds a Space Port
    card, whether it holds an extra attached at any time (SPEC §5.7)."""
    __slots__ = ("special", "rookie", "port_card", "any_time_extra")

    def __init__(self, state: GameState, seat: int, view: PlayerView) -> None:
        self.special, self.rookie, self.port_card = float("-inf"), False, False
        self.any_time_extra = False
        public, known = state.names, view.known   # view.name_of, inlined
        for h in state.players[seat].hand:
            name = public.get(h) or known.get(h)
            if name is None:
                continue
            category = CARD_BY_NAME[name].category
            if category == SPECIAL_ACTION:
                self.special = max(self.special, special_ceiling(name))
            elif category == SPACE_SHIP:
                self.port_card = True
                self.rookie = self.rookie or name == ROOKIE
                self.any_time_extra = self.any_time_extra or name in ANY_TIME_EXTRAS
        if not self.rookie:
            self.rookie = any(s.owner == seat and ROOKIE in s.extras for s in state.ships.values())


def _quick_tile_action(state: GameState, seat: int, rng):
    """Phase 1 as greedy plays it (SPEC §12.1), without listing every placement: a random
    pile; then, of the drawn tiles, one with planets on a legal spot nearest the seat's ships
    (8 - steps points, ties at random), unless that scores below a plain tile's 0; otherwise a
    uniformly random legal placement of a tile without planets. None (list the actions) for a
    sun, a tie at 0, or when nothing was found."""
    if tiles_to_draw(state):
        piles = [i for i, pile in enumerate(state.piles) if pile]
        return A.DrawTile(piles[rng.below(len(piles))])
    tiles = [(h, TILE_BY_ID[state.names[h]]) for h in state.drawn]
    if any(tile.kind == "sun" for _, tile in tiles):
        return None
    with_planets = [(h, tile) for h, tile in tiles if tile.planets]
    plain = [(h, tile) for h, tile in tiles if not tile.planets]
    if with_planets:
        found = _nearest_placements(state, seat, with_planets)
        if found is None:
            return None    # a planet tile fits nowhere: let the listing see its ScrapTile
        steps, fits = found
        if not plain or 8 - steps > 0:
            h, sq, r = fits[rng.below(len(fits))]
            return A.PlaceTile(h, sq, r)
        if 8 - steps == 0:
            return None
    return _random_placement(state.board, plain, rng)


def _nearest_placements(state: GameState, seat: int, tiles: list):
    """(steps, [(tile handle, square, rotation)]): the legal placements of these tiles whose
    square is fewest king steps from the seat's ships, trying the nearest squares first."""
    board = state.board
    controlled = board.controlled_squares()
    by_steps: dict[int, list] = {}
    for sq in board.frontier():
        if sq not in controlled:
            by_steps.setdefault(nearest_ship(state, seat, sq), []).append(sq)
    for steps in sorted(by_steps):
        fits = [(h, sq, r) for h, tile in tiles for sq in by_steps[steps] for r in range(4)
                if _fits(board, tile, sq, r)]
        if fits:
            return steps, fits
    return None


def _random_placement(board, tiles: list, rng, tries: int = 60):
    """A uniformly random legal (tile, square, rotation) by rejection sampling over the
    frontier; None if the probes found none."""
    controlled = board.controlled_squares()   # only a sun may go there (SPEC §4.3)
    frontier = board.frontier()
    for _ in range(tries):
        h, tile = tiles[rng.below(len(tiles))]
        sq, r = frontier[rng.below(len(frontier))], rng.below(4)
        if sq not in controlled and _fits(board, tile, sq, r):
            return A.PlaceTile(h, sq, r)
    return None


def _plain_end_of_turn(state: GameState, seat: int, view: PlayerView, rng):
    """Phases 4 and 5 as greedy plays them, for a seat with nothing special to do (no station
    or quest to score now, no role, no Automata or City of Banks to use, no Captain Rookie to
    play or reassign, no extra to attach at any time): phase 4, with no Special Action card in hand, ends or
    discards one card, all alike to greedy below a full hand; phase 5 draws while there is
    room, from Space Port first while the hand holds no Space Port card, else from Refuel
    first, unless a Special Action card in hand might score as much. None: list the actions
    instead."""
    player = state.players[seat]
    if player.role is not None:
        return None
    if any(state.board.surrounded(sq) for sq in player.stations) or scorable_quests(state, seat, view):
        return None
    hand = _Hand(state, seat, view)
    if hand.rookie or hand.any_time_extra:
        return None
    if state.phase == DISCARD:
        cards = player.hand
        # Alien Artifact lists many-card discards; from 10 cards on (Alien Ruins allows 12)
        # greedy scores each discard by the card
        if len(cards) >= HAND_LIMIT or hand.special > float("-inf") or "Alien Artifact" in player.continuing:
            return None
        k = rng.below(len(cards) + 1)
        return A.Next() if k == 0 else A.Discard((sorted(cards)[k - 1],))
    if can_look_automata(state, seat) or can_bank(state, seat):
        return None
    choice, worth = A.Next(), -1
    for deck in (("refuel", "port") if hand.port_card else ("port", "refuel")):
        if can_draw(state, seat, deck):
            choice = A.DrawCard(deck)
            worth = greedy_score(state, view, choice)
            break
    return choice if hand.special < worth else None


def policy_action(world, seat: int):
    """The playout choice of `seat` in `world`: greedy's (SPEC §12.1), the best greedy score
    with ties at random; None when the seat has no legal action, which a sound world never
    gives but a determinisation that missed a public claim could; World.play then ends the
    playout (ImpossibleWorld)."""
    state = world.state
    view = world.views[seat]
    if (state.discovery is None and not state.polls and state.doom is None and not state.only_action
            and not state.variants.advanced and not state.automata_seen and state.bank_owed is None):
        quick = None
        if state.phase == TILES:
            # a Special Action card waits until the drawn tiles are placed; before, it could
            # beat drawing a tile (0) unless it scores below that
            if state.drawn or _Hand(state, seat, view).special < 0:
                quick = _quick_tile_action(state, seat, world.rng)
        elif state.phase == DISCARD or state.phase == REFILL:
            quick = _plain_end_of_turn(state, seat, view, world.rng)
        if quick is not None:
            return quick
    options = legal_actions(state, view)
    if len(options) == 1:
        return options[0]
    best, chosen, ties = None, None, 0
    for a in options:
        s = greedy_score(state, view, a)
        if best is None or s > best:
            best, chosen, ties = s, a, 1
        elif s == best:
            ties += 1  # reservoir sampling keeps a uniform pick among the ties
            if world.rng.below(ties) == 0:
                chosen = a
    return chosen


# -- evaluation -----------------------------------------------------------------------------
# A card in hand is worth less than what it scores when played, or the bot would hoard it:
# a base per category plus a share of the card's value (of its size for the environments and
# life forms, which are as useful on an opponent's planet when bad).
HAND_WORTH = {PLANET: 1.0, ENVIRONMENT: 0.0, LIFE_FORM: 0.0, EXPLORER: 1.0}
# Space Port cards: the first in hand keeps a ship or an extra within reach, more add little
# (greedy draws from Space Port only while it holds none, SPEC §12.1).
FIRST_PORT_CARD, MORE_PORT_CARDS = 1.5, 0.5
# An extra aboard one of the seat's ships: worth more than the card in hand, or attaching it
# (free, SPEC §6.2) would look like a loss; Captain Rookie counts through the slower ship.
EXTRA_WORTH = 2.0
# A seat with no ship in play moves nowhere and discovers nothing until it places one: a ship
# card it could place is then worth most of a ship in play (2 + M).
SHIPLESS_SHIP_SHARE = 0.8
VALUE_SHARE = {PLANET: 0.5, ENVIRONMENT: 0.3, LIFE_FORM: 0.3, EXPLORER: 0.5}
# A reachable undiscovered planet: a discovery scores its tile value times the cards' values
# (about 3 all told) plus a planet bonus (about 2); counted at REACH_SHARE for the chance that
# it happens, less REACH_DISCOUNT for each further turn the nearest ship needs.
REACH_SHARE, REACH_DISCOUNT = 0.6, 0.6


class _PlanetTargets:
    """planet_targets(state), worked out at most once however many seats' values need it."""
    __slots__ = ("state", "_list")

    def __init__(self, state: GameState) -> None:
        self.state, self._list = state, None

    def get(self) -> list:
        if self._list is None:
            # (square, REACH_SHARE × (3 × best + 2)), the product the reach starts from, the
            # most valuable first
            worths = [(sq, REACH_SHARE * (3.0 * best + 2.0)) for sq, best in planet_targets(self.state)]
            self._list = sorted(worths, key=lambda t: -t[1])
        return self._list

    def reach(self, square, allowance: int) -> float:
        """The best likely discovery for a ship on `square` moving `allowance` (> 0) squares a
        turn: REACH_SHARE × (3 × best + 2) × REACH_DISCOUNT^(turns - 1), the same products as
        one expression (the same floats), each discount power worked out once; a target worth
        no more than the best so far, even at once, ends the look."""
        col, row = square
        reach = 0.0
        for (c, r), worth in self.get():
            if worth <= reach:
                break
            dc, dr = abs(col - c), abs(row - r)
            turns = -(-(dc if dc > dr else dr) // allowance) or 1   # king steps / allowance
            value = worth * (_DISCOUNTS[turns - 1] if turns <= len(_DISCOUNTS) else REACH_DISCOUNT ** (turns - 1))
            if value > reach:
                reach = value
        return reach


_DISCOUNTS = tuple(REACH_DISCOUNT ** k for k in range(16))


def seat_value(state: GameState, seat: int, identity: dict[int, str],
               targets: _PlanetTargets | None = None) -> float:
    """Points `seat` has, plus what its pieces, planets and hand are likely to bring."""
    if targets is None:
        targets = _PlanetTargets(state)
    player = state.players[seat]
    value = float(player.score)
    if state.over:
        return value
    board = state.board
    for sq in player.stations:
        value += board.station_value(sq)
    for sq, seg in player.pirates:
        if board.path_state(sq, seg) == "complete":
            value += pirate_points(len(board.path_middle_squares(sq, seg)))
        else:
            value += 1
    for sq, part in player.probes:
        value += 0.5 * len(board.galaxy_squares(sq, part))
    for (sq, _), record in state.planets.items():
        if record.owner == seat:
            value += (2 if record.home else 1) * (1 if sector_of(sq) == player.colour else 2)
    port_cards = 0
    shipless = not any(s.owner == seat for s in state.ships.values())
    for h in player.hand:
        card = CARD_BY_NAME.get(identity.get(h) or "")
        if card is None:
            continue
        if card.category == SPACE_SHIP:
            if shipless and not card.ship_extra and card.movement:
                value += SHIPLESS_SHIP_SHARE * (2 + card.movement)
                shipless = False
            else:
                value += FIRST_PORT_CARD if port_cards == 0 else MORE_PORT_CARDS
            port_cards += 1
            continue
        value += HAND_WORTH.get(card.category, 0.0) + VALUE_SHARE.get(card.category, 0.0) * abs(card.value or 0)
    reach = 0.0
    holds = None   # whether the seat holds a planet card, asked only when a ship can move
    for ship in state.ships.values():
        if ship.owner == seat:
            allowance = ship_allowance(ship)
            value += 2 + allowance + EXTRA_WORTH * sum(1 for e in ship.extras if e != ROOKIE)
            if allowance <= 0:
                continue
            if holds is None:
                holds = holds_planet(state, seat, identity)
            if holds:
                reach = max(reach, targets.reach(ship.square, allowance))
    return value + reach


# Rivals are weighed by a soft maximum of their values (SPEC §12.3): the best rival counts
# most, but one a few points behind it counts nearly as much, as it can still overtake. With
# the plain maximum the bot won 16 of 40 four-player games against greedy, with this 22 of the
# same 40 (100 iterations a decision).
RIVAL_SOFTNESS = 8.0


def soft_max(values: list[float], softness: float = RIVAL_SOFTNESS) -> float:
    """softness × log Σ exp(v / softness), worked out from the top value: at least the
    maximum, and exactly it for one value (log 1 = 0), so two-player rewards are unchanged."""
    top = max(values)
    if len(values) == 1:
        return top
    return top + softness * math.log(sum(math.exp((v - top) / softness) for v in values))


def evaluate(state: GameState, seat: int, identity: dict[int, str]) -> float:
    """A reward in [0, 1] for `seat`: its value against its rivals' (the other team's),
    weighed by soft_max."""
    targets = _PlanetTargets(state)
    values = [seat_value(state, s, identity, targets) for s in range(len(state.players))]
    if state.variants.partnership:
        team = next(t for t in TEAMS if seat in t)
        mine = sum(values[s] for s in team)
        theirs = sum(values[s] for s in range(len(values)) if s not in team)
    elif len(values) == 1:
        mine, theirs = values[0], 40.0  # solitaire: points against a nominal target
    else:
        mine = values[seat]
        theirs = soft_max([v for s, v in enumerate(values) if s != seat])
    margin = mine - theirs
    if state.over:
        won = seat in state.winners
        margin += 10.0 if won else -10.0
    return 0.5 + 0.5 * math.tanh(margin / 20.0)
