"""The greedy worth of one legal action (SPEC §12.1): a cheap estimate, in rough points, of what
the action gains its seat now. GreedyBot plays the best of them; the search bot's playouts and
its ranking of a node's actions use the very same numbers (SPEC §12.3), so the opponents it
simulates are the greedy bots it plays against.

`greedy_score(state, view, action)` reads the public state and the seat's view only (in a
search world the view knows every identity). One function per action type, found by a dict
lookup on the exact type: the playouts call this for every listed action.
"""
from __future__ import annotations

from . import actions as A
from .bot_extras import (attach_worth, cyber_jump_worth, fire_worth, laser_ready, torpedo_aim, torpedo_setup,
                         torpedo_worth, wants_port_card)
from .cards import CARD_BY_NAME
from .extras import is_opponent
from .geometry import king_steps, parse_square
from .state import GameState, Window
from .tiles import TILE_BY_ID
from .view import PlayerView


def card_value(name: str) -> int:
    value = CARD_BY_NAME[name].value
    return 0 if value is None else value


def nearest_ship(state: GameState, seat: int, sq) -> int:
    """King steps from sq to the seat's nearest ship (12, beyond any board, with none)."""
    best = 12
    for s in state.ships.values():
        if s.owner == seat:
            steps = king_steps(s.square, sq)
            if steps < best:
                best = steps
    return best


# A rough worth for each Special Action (SPEC §12.1): positive when it hurts a rival or helps us.
_SPECIAL_WORTH = {"Shift of Funds": 5, "Troika Summit": 1, "Meteor Shower": 1, "Cyber Jump": 12,
                  "Lost Colony": 3, "Terra-Form": 4, "Sneak Attack": 1, "Negotiations": 0}


def special_score(state: GameState, view: PlayerView, action) -> int:
    """Greedy worth of a Special Action: cancel what hurts us, spoil a rival's big planet."""
    name, d, seat = action.name, state.discovery, view.seat
    if state.polls and state.polls[-1].kind == Window.RESPOND:
        answered = state.polls[-1]
        if answered.action.name == "Teleport":   # a rival's doomed ship escaping (SPEC §15.2)
            return 6 if is_opponent(state, seat, answered.seat) else -1
        hurts_me = seat in answered.targets or (d is not None and d.discoverer == seat)
        return 8 if hurts_me else -1
    if name in ("Acid Rain", "U.F.O."):
        return (d.scored // 2 if name == "Acid Rain" else 3 * d.tile_value) if d is not None else 0
    if name == "Space Virus" and d is not None:
        return d.tile_value * sum(card_value(n) for n in d.life_forms)
    if name == "Worm Hole":
        return 6 if d is not None and d.discoverer != seat else -1
    if name in _BLASTS:
        return _blast_worth(state, seat, action)
    if name == "Trading Post":   # a blind swap: the fewer cards risked, the better
        return 2 - len(action.args)
    if name == "Cyber Jump":
        return cyber_jump_worth(state, view, action)
    return _SPECIAL_WORTH.get(name, 0)


_BLASTS = ("Black Hole", "Supernova", "Kamikaze Attack", "Sabotage")


def special_ceiling(name: str) -> float:
    """The most special_score can give this card on its seat's own turn outside any window
    and any discovery (the playout's shortcuts list the actions only when a card in hand might
    beat what they would play)."""
    if name in _BLASTS:
        return float("inf")
    if name == "Worm Hole":
        return -1
    if name == "Trading Post":   # a target and at least one card: 2 - 2
        return 0
    return _SPECIAL_WORTH.get(name, 0)


def gift_reaching(floor: int) -> int:
    """The most cards a Trading Post gift may hold for special_score (2 less its arguments,
    the target and each card) to reach `floor` on the seat's own turn."""
    return 1 - floor


def _blast_worth(state: GameState, seat: int, action) -> int:
    """Rivals' planets and ships destroyed, less our own."""
    token = action.args[0]
    if token.startswith("s"):
        ship = state.ships[int(token[1:])]
        sq = ship.square
        if action.name == "Sabotage":
            return 4 if ship.owner != seat else -5
    else:
        sq = parse_square(token.partition("/")[0])
    worth = sum(3 if s.owner != seat else -3 for s in state.ships.values() if s.square == sq)
    worth += sum(4 if r.owner != seat else -6 for (p, _), r in state.planets.items() if p == sq)
    return worth


# -- one scorer per action type: (state, view, action) -> int ---------------------------------
def _discover(state, view, a):
    return 100 + card_value(a.name)


def _environment(state, view, a):
    if a.name == "Electromagnetic Web":   # catches the discoverer's ship (SPEC §8.8)
        return 6
    d = state.discovery
    v = card_value(a.name) * d.tile_value
    return v if d.discoverer == view.seat else -v


def _life_forms(state, view, a):
    d = state.discovery
    v = sum(card_value(n) for _, n in a.cards) * d.tile_value
    return v if d.discoverer == view.seat else -v


def _move(state, view, a):
    sq = a.square
    placed = state.board.tile_at(sq)
    if placed is not None:
        planets = placed.tile.planets
        for i in range(len(planets)):
            if (sq, i) not in state.planets:   # an undiscovered planet there
                return 40 + max(planets) + torpedo_setup(state, a.ship, sq)
    return torpedo_aim(state, a.ship, sq)


def _place_tile(state, view, a):
    planets = TILE_BY_ID[state.names[a.tile]].planets
    if planets and state.board.tile_at(a.square) is None:
        return 8 - nearest_ship(state, view.seat, a.square)
    return 0


def _ship(state, view, a):
    return 6 + CARD_BY_NAME[a.name].movement


def _take_peeked(state, view, a):
    name = view.name_of(a.card, state.names)
    return 4 + (card_value(name) if name else 0)


def _bank_give(state, view, a):   # City of Banks: give back the least valuable card
    name = view.name_of(a.card, state.names)
    return -card_value(name) if name else 0


def _draw_card(state, view, a):
    if a.deck == "refuel":
        return 3
    return 4 if wants_port_card(state, view) else 2


def _discard(state, view, a):
    if len(a.cards) != 1:   # Alien Artifact's many-card discards: not worth a hand
        return -2
    if len(state.players[view.seat].hand) < 10:
        return -1
    name = view.name_of(a.cards[0], state.names)
    return 1 - card_value(name) if name else 0


def _next(state, view, a):
    """Keep phase 2 empty for a Laser Beam shot worth more than a piece (SPEC §15.4): the shot
    is the turn's only action, so phase 2 must stay unused; a little below the shot itself."""
    shot = laser_ready(state, view)
    return shot - 2 if shot else -1


def _const(n: int):
    return lambda state, view, a: n


SCORERS = {
    A.Discover: _discover,
    A.BinaryDiscover: _discover,
    A.PlayEnvironment: _environment,
    A.PlayLifeForms: _life_forms,
    A.PlayExplorer: _const(50),
    A.Move: _move,
    A.PlaceTile: _place_tile,
    A.NewShip: _ship,
    A.Upgrade: _ship,
    A.AttachExtra: lambda state, view, a: attach_worth(state, view.seat, a),
    A.PlaceStation: lambda state, view, a: state.board.station_value(a.square),
    A.PlaceProbe: lambda state, view, a: len(state.board.galaxy_squares(a.square, a.part)),
    A.PlacePirate: _const(2),
    A.ScoreQuest: _const(60),
    A.ScoreStation: lambda state, view, a: 20 + state.board.station_value(a.square),
    A.TakePeeked: _take_peeked,
    A.Peek: _const(4),
    A.LookAutomata: _const(4),
    A.Keep: lambda state, view, a: len(a.cards),
    A.Bank: _const(3),
    A.BankGive: _bank_give,
    A.DrawCard: _draw_card,
    A.Discard: _discard,
    A.Fire: lambda state, view, a: fire_worth(state, view.seat, a),
    A.Torpedo: lambda state, view, a: torpedo_worth(state, view, a.square, a.segment),
    A.Plunder: _const(4),
    A.PlayRookie: lambda state, view, a: 4 + CARD_BY_NAME[state.ships[a.ship].name].movement,  # slow the fastest rival
    A.Reassign: _const(3),
    A.Escape: _const(20),     # SPEC §15.2: a saved ship beats a lost one
    A.Teleport: _const(20),
    A.PlaySpecial: special_score,
    A.Pass: _const(0),
    A.Next: _next,
}


def greedy_score(state: GameState, view: PlayerView, action) -> int:
    """Immediate worth of `action` for view.seat, in rough points; kinds not listed score 0."""
    scorer = SCORERS.get(type(action))
    return 0 if scorer is None else scorer(state, view, action)
