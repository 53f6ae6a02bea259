"""Bots (SPEC §12): a random-legal player, a greedy one that takes the best immediate gain, and
the search bot (SPEC §12.3, package p2p_asv.search).

Bots see only the public state and their own view, like any player.
"""
from __future__ import annotations

from . import actions as A
from .bot_extras import attach_worth, laser_ready, torpedo_aim, torpedo_worth, wants_port_card
from .cards import CARD_BY_NAME
from .engine import legal_actions
from .geometry import king_steps, parse_square
from .search import SearchBot
from .seeded import SeededRandom
from .state import GameState
from .tiles import TILE_BY_ID
from .view import PlayerView


class RandomBot:
    name = "random"

    def __init__(self, seed: int | str) -> None:
        self.rng = SeededRandom(seed, "random-bot")

    def choose(self, state: GameState, view: PlayerView):
        return self.rng.choice(legal_actions(state, view))


def _value(name: str) -> int:
    value = CARD_BY_NAME[name].value
    return 0 if value is None else value


def _nearest_ship(state: GameState, seat: int, sq) -> int:
    ships = state.ships_of(seat)
    if not ships:
        return 12
    return min(king_steps(s.square, sq) for s in ships)


# A rough worth for each Special Action (SPEC §12.1): positive when it hurts a rival or helps us.
_SPECIAL_WORTH = {"Shift of Funds": 5, "Troika Summit": 1, "Meteor Shower": 1, "Cyber Jump": 2,
                  "Lost Colony": 3, "Terra-Form": 4, "Sneak Attack": 1, "Negotiations": 0}


def special_score(state: GameState, seat: int, action) -> int:
    """Greedy worth of a Special Action: cancel what hurts us, spoil a rival's big planet."""
    name, d = action.name, state.discovery
    if state.polls and state.polls[-1].kind == "respond":
        answered = state.polls[-1]
        hurts_me = seat in answered.targets or (d is not None and d.discoverer == seat)
        return 8 if hurts_me else -1
    if name in ("Acid Rain", "U.F.O."):
        return (d.scored // 2 if name == "Acid Rain" else 3 * d.tile_value) if d is not None else 0
    if name == "Space Virus" and d is not None:
        return d.tile_value * sum(_value(n) for n in d.life_forms)
    if name == "Worm Hole":
        return 6 if d is not None and d.discoverer != seat else -1
    if name in ("Black Hole", "Supernova", "Kamikaze Attack", "Sabotage"):
        return _blast_worth(state, seat, action)
    if name == "Trading Post":   # a blind swap: the fewer cards risked, the better
        return 2 - len(action.args)
    return _SPECIAL_WORTH.get(name, 0)


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


class GreedyBot:
    """Ranks each legal action by a cheap estimate of the points it gains now; ties at random."""
    name = "greedy"

    def __init__(self, seed: int | str) -> None:
        self.rng = SeededRandom(seed, "greedy-bot")

    def score(self, state: GameState, view: PlayerView, action) -> int:
        seat = view.seat
        d = state.discovery
        mine = d is not None and d.discoverer == seat
        match action:
            case A.Discover(name=name) | A.BinaryDiscover(name=name):
                return 100 + _value(name)
            case A.PlayEnvironment(name=name):
                if name == "Electromagnetic Web":  # catches the discoverer's ship (SPEC §8.8)
                    return 6
                v = _value(name) * d.tile_value
                return v if mine else -v
            case A.PlayLifeForms(cards=cards):
                v = sum(_value(n) for _, n in cards) * d.tile_value
                return v if mine else -v
            case A.PlayExplorer():
                return 50
            case A.Move(ship=sid, square=sq):
                placed = state.board.tile_at(sq)
                undiscovered = placed is not None and any(
                    (sq, i) not in state.planets for i in range(len(placed.tile.planets)))
                return 40 + max(placed.tile.planets) if undiscovered else torpedo_aim(state, sid, sq)
            case A.PlaceTile(tile=h, square=sq):
                tile = state.board.tile_at(sq)
                planets = TILE_BY_ID[state.names[h]].planets
                return (8 - _nearest_ship(state, seat, sq)) if planets and tile is None else 0
            case A.NewShip(name=name) | A.Upgrade(name=name):
                return 6 + CARD_BY_NAME[name].movement
            case A.AttachExtra():
                return attach_worth(state, seat, action)
            case A.PlaceStation(square=sq):
                return state.board.station_value(sq)
            case A.PlaceProbe(square=sq, part=part):
                return len(state.board.galaxy_squares(sq, part))
            case A.PlacePirate():
                return 2
            case A.ScoreQuest():
                return 60
            case A.ScoreStation(square=sq):
                return 20 + state.board.station_value(sq)
            case A.TakePeeked(card=h):
                name = view.name_of(h, state.names)
                return 4 + (_value(name) if name else 0)
            case A.Peek() | A.LookAutomata():
                return 4
            case A.Keep(cards=cards):
                return len(cards)
            case A.Bank():
                return 3
            case A.BankGive(card=h):  # City of Banks: give back the least valuable card
                name = view.name_of(h, state.names)
                return -_value(name) if name else 0
            case A.DrawCard(deck=deck):
                return 3 if deck == "refuel" else (4 if wants_port_card(state, view) else 2)
            case A.Discard(cards=(h,)):
                if len(state.players[seat].hand) < 10:
                    return -1
                name = view.name_of(h, state.names)
                return 1 - _value(name) if name else 0
            case A.Discard():  # Alien Artifact's many-card discards: not worth a hand
                return -2
            case A.Fire(kind=kind):  # SPEC §15.4: an opponent's ship is the prize
                return {"ship": 30, "station": 10, "pirate": 8}.get(kind, 5)
            case A.Torpedo(square=sq, segment=seg):
                return torpedo_worth(state, view, sq, seg)
            case A.Plunder():
                return 4
            case A.PlayRookie(ship=sid):  # slow down the fastest opponent ship
                return 4 + CARD_BY_NAME[state.ships[sid].name].movement
            case A.Reassign():
                return 3
            case A.Escape() | A.Teleport():  # SPEC §15.2: a saved ship beats a lost one
                return 20
            case A.PlaySpecial():
                return special_score(state, seat, action)
            case A.Pass():
                return 0
            case A.Next():  # keep phase 2 empty when a Laser Beam can hit a ship (SPEC §15.4)
                return 25 if laser_ready(state, seat) else -1
        return 0

    def choose(self, state: GameState, view: PlayerView):
        options = legal_actions(state, view)
        scored = [(self.score(state, view, a), a) for a in options]
        best = max(s for s, _ in scored)
        return self.rng.choice([a for s, a in scored if s == best])


BOTS = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}


def make_bot(kind: str, seed: int | str, **search_options):
    """A bot of `kind` (KeyError if unknown). The options (think, iterations, clock, horizon)
    are the search bot's budget (SPEC §12.3) and mean nothing to the other bots."""
    if BOTS[kind] is SearchBot:
        return SearchBot(seed, **search_options)
    return BOTS[kind](seed)
