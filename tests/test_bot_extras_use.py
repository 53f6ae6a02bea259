"""The greedy bot (and so the search bot's playouts, SPEC §12.3) uses the extras and Cyber Jump
it used to leave idle (issue 20): Photon Torpedo shots, Laser Beam shots at every kind of
target, Cyber Jump's other choices (SPEC §12.1)."""
from __future__ import annotations

import collections

import pytest

from p2p_asv import actions as A
from p2p_asv.bots import GreedyBot
from p2p_asv.cards import CARD_BY_NAME, PLANET
from p2p_asv.geometry import parse_square
from p2p_asv.selfplay import play_game
from p2p_asv.state import MOVE, PLACE_PIECE
from p2p_asv.tile_model import DEEP, GALAXY, Tile
from tests.helpers_engine import Game
from tests.rig_helpers import ROUTE, give, planet, route, ship

HOME, E5, F6 = parse_square("D-4"), parse_square("E-5"), parse_square("F-6")
SEEDS = range(6)   # greedy breaks ties at random: a choice must hold whatever the seed


def _game() -> Game:
    g = Game(2, seed=3)
    g.tiles()
    assert g.state.phase == PLACE_PIECE
    return g


def _without_planet_cards(g: Game, seat: int) -> None:
    player = g.state.players[seat]
    player.hand = [h for h in player.hand
                   if CARD_BY_NAME[g.views[seat].name_of(h, g.state.names)].category != PLANET]


def _choices(g: Game) -> set:
    return {GreedyBot(seed).choose(g.state, g.views[g.seat]) for seed in SEEDS}


def _rival_probe(g: Game):
    gal = Tile("t-gal", "galaxy", 1, (GALAXY, DEEP, DEEP, DEEP), galaxies=((0,),))
    g.state.board.place(gal, F6, 0, setup=True)
    g.state.players[1].probes.append((F6, 0))
    return A.Fire(0, "probe", F6, 0)


def _rival_station(g: Game):
    g.state.players[1].stations.append(E5)
    return A.Fire(0, "station", E5)


def _rival_pirate(g: Game):
    route(g)
    g.state.players[1].pirates.append((ROUTE[1], 0))
    return A.Fire(0, "pirate", ROUTE[1], 0)


@pytest.mark.parametrize("target", [_rival_probe, _rival_station, _rival_pirate])
def test_greedy_fires_the_laser_beam_at_a_probe_a_station_or_a_pirate(target):
    """With no discovery in reach the greedy keeps phase 2 empty for the shot, then fires."""
    g = _game()
    shot = target(g)
    at = ROUTE[0] if shot.kind == "pirate" else HOME
    gunner = ship(g, 0, "Fighter Ship", at, extras=("Laser Beam",))
    shot = A.Fire(gunner, shot.kind, shot.square, shot.index)
    _without_planet_cards(g, 0)
    bot = GreedyBot(0)
    assert bot.score(g.state, g.views[0], A.Next()) > max(
        bot.score(g.state, g.views[0], a) for a in g.legal() if not isinstance(a, A.Next))
    g.to_phase(MOVE)
    assert shot in g.legal()
    assert _choices(g) == {shot}


def test_greedy_plays_cyber_jump_for_a_second_move_that_discovers():
    g = _game()
    planet(g, "C-4", owner=0)              # a discovered planet next to the Star-T's home
    planet(g, "B-4")                       # undiscovered, one step further: out of M 1 from D-4
    jump = give(g, 0, "Cyber Jump")
    give(g, 0, "Cephei")
    g.to_phase(MOVE)
    g.act(A.Move(1, parse_square("C-4")))
    assert g.state.discovery is None and g.state.moved
    assert _choices(g) == {A.PlaySpecial(jump, "Cyber Jump", ("move",))}
    g.act(A.PlaySpecial(jump, "Cyber Jump", ("move",)))
    assert A.Move(1, parse_square("B-4")) in g.legal()
    assert _choices(g) == {A.Move(1, parse_square("B-4"))}


def test_twenty_greedy_games_fire_the_torpedo_and_use_the_laser_and_cyber_jump_fully():
    """Counts over 20 four-player games (before issue 20: the torpedo never fired, the laser hit
    only ships, Cyber Jump only discarded)."""
    counts: collections.Counter = collections.Counter()

    def on_event(state, seat, action):
        if isinstance(action, A.Torpedo):
            counts["torpedo"] += 1
        elif isinstance(action, A.Fire):
            counts[f"fire {action.kind}"] += 1
        elif isinstance(action, A.PlaySpecial) and action.name == "Cyber Jump":
            counts[f"cyber {action.args[0]}"] += 1

    for seed in range(20):
        play_game(4, seed, on_event=on_event)
    assert counts["torpedo"] >= 1
    assert sum(n for k, n in counts.items() if k.startswith("fire ") and k != "fire ship") >= 1
    assert sum(n for k, n in counts.items() if k.startswith("cyber ") and k != "cyber discard") >= 3


def test_greedy_still_beats_random():
    wins = 0
    for seed in range(10):
        kinds = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        _, summary = play_game(2, 500 + seed, kinds)
        mine = kinds.index("greedy")
        wins += summary["scores"][mine] > summary["scores"][1 - mine]
    assert wins >= 9
