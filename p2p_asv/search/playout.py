"""The search bot's playout policy and leaf evaluation (SPEC §12.3).

The policy is a cheap greedy rule over the engine's own `legal_actions`: it ranks actions by
their immediate worth (like GreedyBot) and breaks ties at random. The evaluation turns a cut-off
position into points: the score already earned, what the pieces on the board would score if the
game ended now, end-game planet bonuses, and a modest value for cards in hand and ships.
"""
from __future__ import annotations

import math

from .. import actions as A
from ..cards import CARD_BY_NAME, ENVIRONMENT, EXPLORER, LIFE_FORM, PLANET, SPACE_SHIP
from ..endgame import pirate_points
from ..engine import legal_actions
from ..geometry import king_steps, neighbour, opposite, sector_of
from ..movement import ship_allowance
from ..state import DISCARD, REFILL, TILES, GameState
from ..turn import can_draw, hand_limit, tiles_to_draw
from ..tiles import TILE_BY_ID
from ..variants import TEAMS


def _value(name: str | None) -> int:
    card = CARD_BY_NAME.get(name or "")
    return 0 if card is None or card.value is None else card.value


def _nearest_ship(state: GameState, seat: int, sq) -> int:
    best = 12
    for s in state.ships.values():
        if s.owner == seat:
            best = min(best, max(abs(s.square[0] - sq[0]), abs(s.square[1] - sq[1])))
    return best


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


class _Targets:
    """planet_targets and holds_planet worked out once per choice, only if a move needs them."""
    __slots__ = ("state", "seat", "identity", "_list", "_holds")

    def __init__(self, state, seat, identity) -> None:
        self.state, self.seat, self.identity = state, seat, identity
        self._list = self._holds = None

    def closer(self, ship_square, square) -> int:
        """Squares a move brings the ship nearer to the nearest undiscovered planet (when the
        seat holds a planet card to discover it with)."""
        if self._holds is None:
            self._holds = holds_planet(self.state, self.seat, self.identity)
        if not self._holds:
            return 0
        if self._list is None:
            self._list = [sq for sq, _ in planet_targets(self.state)]
        if not self._list:
            return 0
        before = min(king_steps(ship_square, t) for t in self._list)
        after = min(king_steps(square, t) for t in self._list)
        return max(0, before - after)


def action_score(state: GameState, seat: int, identity: dict[int, str], action, targets=None) -> int:
    """Immediate worth of an action for `seat`, in rough points; unknown kinds score 0."""
    d = state.discovery
    kind = type(action)
    if kind is A.PlaceTile:
        planets = TILE_BY_ID[state.names[action.tile]].planets
        return (8 - _nearest_ship(state, seat, action.square)) if planets else 0
    if kind is A.Next:
        return -1
    if kind is A.Pass:
        return 0
    if kind is A.Discover or kind is A.BinaryDiscover:
        return 100 + _value(action.name)
    if kind is A.PlayEnvironment:
        if action.name == "Electromagnetic Web":
            return 6
        v = _value(action.name) * d.tile_value
        return v if d.discoverer == seat else -v
    if kind is A.PlayLifeForms:
        v = sum(_value(n) for _, n in action.cards) * d.tile_value
        return v if d.discoverer == seat else -v
    if kind is A.PlayExplorer:
        return 50
    if kind is A.Move:
        placed = state.board.tile_at(action.square)
        if placed is not None and any((action.square, i) not in state.planets
                                      for i in range(len(placed.tile.planets))):
            return 40 + max(placed.tile.planets)
        if targets is None:
            targets = _Targets(state, seat, identity)
        ship = state.ships.get(action.ship)
        return -1 + (targets.closer(ship.square, action.square) if ship is not None else 0)
    if kind is A.NewShip or kind is A.Upgrade:
        return 6 + CARD_BY_NAME[action.name].movement
    if kind is A.AttachExtra:
        return 5
    if kind is A.PlaceStation:
        return state.board.station_value(action.square)
    if kind is A.PlaceProbe:
        return len(state.board.galaxy_squares(action.square, action.part))
    if kind is A.PlacePirate:
        return 2
    if kind is A.ScoreQuest:
        return 60
    if kind is A.ScoreStation:
        return 20 + state.board.station_value(action.square)
    if kind is A.TakePeeked:
        return 4 + _value(identity.get(action.card))
    if kind is A.Peek or kind is A.LookAutomata:
        return 4
    if kind is A.Keep:
        return len(action.cards)
    if kind is A.Bank:
        return 3
    if kind is A.BankGive:   # give back the least valuable card
        return -_value(identity.get(action.card))
    if kind is A.DrawCard:
        return 3 if action.deck == "refuel" else 2
    if kind is A.PlaySpecial and action.name == "Trading Post":
        return 2 - len(action.args)   # a blind swap: the fewer cards risked, the better
    if kind is A.Discard:
        if len(state.players[seat].hand) < 10:
            return -2   # a card in hand is worth more than nothing
        return 1 - _value(identity.get(action.cards[0]))
    return 0


def ranked(state: GameState, seat: int, identity: dict[int, str], actions: list, rng) -> list:
    """Actions best first by action_score; equal scores in a random order."""
    targets = _Targets(state, seat, identity)
    keyed = [(-action_score(state, seat, identity, a, targets), rng.next64(), i)
             for i, a in enumerate(actions)]
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


def quick_placements(board, tile, rng, wanted: int, tries: int = 40) -> list:
    """Up to `wanted` legal placements found by random probing of the frontier, far cheaper
    than enumerating them all (a sun tile's few places are enumerated)."""
    if tile.kind == "sun":
        spots = board.legal_placements(tile)
        return [spots[rng.below(len(spots))]] if spots else []
    controlled = board.controlled_squares()  # only a sun may go there (SPEC §4.3)
    frontier = board.frontier()
    found = []
    for _ in range(tries):
        sq, r = frontier[rng.below(len(frontier))], rng.below(4)
        if sq not in controlled and _fits(board, tile, sq, r) and (sq, r) not in found:
            found.append((sq, r))
            if len(found) == wanted:
                break
    return found


def _quick_tile_action(state: GameState, seat: int, rng):
    """Phase 1 of the basic turn without listing every placement: a random pile, then the first
    drawn tile near the seat's ships when it has planets, anywhere otherwise."""
    if tiles_to_draw(state):
        piles = [i for i, pile in enumerate(state.piles) if pile]
        return A.DrawTile(piles[rng.below(len(piles))])
    handle = state.drawn[0]
    tile = TILE_BY_ID[state.names[handle]]
    spots = quick_placements(state.board, tile, rng, 6 if tile.planets else 1)
    if not spots:
        return None
    if tile.planets:
        spots.sort(key=lambda spot: _nearest_ship(state, seat, spot[0]))
    return A.PlaceTile(handle, spots[0][0], spots[0][1])


def _plain_end_of_turn(state: GameState, seat: int):
    """Phases 4 and 5 of a seat with nothing special to do (no station or quest to score, no
    look-ahead or swap effect): keep the hand, then draw while there is room, Refuel first."""
    player = state.players[seat]
    if player.stations or player.quests or player.role is not None or player.continuing:
        return None
    if state.phase == DISCARD:
        return A.Next() if len(player.hand) < hand_limit(state, seat) else None
    for deck in ("refuel", "port"):
        if can_draw(state, seat, deck):
            return A.DrawCard(deck)
    return A.Next()


def policy_action(world, seat: int):
    """The playout choice of `seat` in `world`: the best immediate gain, ties at random; None
    when the seat has no legal action, which a sound world never gives but a determinisation
    that missed a public claim could; World.play then ends the playout (ImpossibleWorld)."""
    state = world.state
    if (state.discovery is None and not state.polls and state.doom is None and not state.only_action
            and not state.variants.advanced and not state.automata_seen):
        quick = None
        if state.phase == TILES:
            quick = _quick_tile_action(state, seat, world.rng)
        elif state.phase == DISCARD or state.phase == REFILL:
            quick = _plain_end_of_turn(state, seat)
        if quick is not None:
            return quick
    options = legal_actions(state, world.views[seat])
    if len(options) == 1:
        return options[0]
    best, chosen, ties = None, None, 0
    identity = world.identity
    targets = _Targets(state, seat, identity)
    for a in options:
        s = action_score(state, seat, identity, a, targets)
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
HAND_WORTH = {PLANET: 1.0, ENVIRONMENT: 0.0, LIFE_FORM: 0.0, EXPLORER: 1.0, SPACE_SHIP: 1.0}
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
            self._list = planet_targets(self.state)
        return self._list


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
    for h in player.hand:
        card = CARD_BY_NAME.get(identity.get(h) or "")
        if card is None:
            continue
        value += HAND_WORTH.get(card.category, 0.0) + VALUE_SHARE.get(card.category, 0.0) * abs(card.value or 0)
    reach = 0.0
    holds = None   # whether the seat holds a planet card, asked only when a ship can move
    for ship in state.ships.values():
        if ship.owner == seat:
            value += 2 + (CARD_BY_NAME[ship.name].movement or 0)
            allowance = ship_allowance(ship)
            if allowance <= 0:
                continue
            if holds is None:
                holds = holds_planet(state, seat, identity)
            for sq, best in targets.get() if holds else ():
                turns = max(1, -(-king_steps(ship.square, sq) // allowance))
                reach = max(reach, REACH_SHARE * (3.0 * best + 2.0) * REACH_DISCOUNT ** (turns - 1))
    return value + reach


def evaluate(state: GameState, seat: int, identity: dict[int, str]) -> float:
    """A reward in [0, 1] for `seat`: its value against the best other seat (or team)."""
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
        theirs = max(v for s, v in enumerate(values) if s != seat)
    margin = mine - theirs
    if state.over:
        won = seat in state.winners
        margin += 10.0 if won else -10.0
    return 0.5 + 0.5 * math.tanh(margin / 20.0)
