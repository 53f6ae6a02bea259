"""Destroying planets and ships (SPEC §15.1, §15.2): the module every destroying card calls."""
from __future__ import annotations

import pytest

from p2p_asv import actions as A
from p2p_asv import destruction as D
from p2p_asv.engine import apply, legal_actions, parse_action, to_move
from p2p_asv.errors import IllegalAction, OutOfTurn
from p2p_asv.geometry import parse_square
from p2p_asv.movement import destinations, undiscovered_planets
from p2p_asv.quest_rules import quest_points
from p2p_asv.quests import STRONG_EMPIRE, TRADE_MISSION
from p2p_asv.state import PLACE_PIECE
from tests.helpers_engine import Game
from tests.rig_helpers import ROUTE, give, planet, route, ship

BLUE_HOME, GREEN_HOME = parse_square("D-4"), parse_square("J-10")


def _game() -> Game:
    """Two seats, seat 0 in phase 2 of its first turn."""
    g = Game(2, seed=3)
    g.tiles()
    assert g.state.phase == PLACE_PIECE
    return g


def _planet(g: Game, square: str, owner: int | None = None, home: bool = False):
    return planet(g, square, owner, home)


_route, _ship, _give = route, ship, give


# -- planets (SPEC §15.1) ------------------------------------------------------------------------
def test_a_destroyed_planet_ruins_its_path_sends_the_pirate_home_and_spoils_the_trade_route():
    g = _game()
    _route(g)
    state = g.state
    state.players[1].pirates.append((ROUTE[1], 0))
    assert quest_points(state, 0, TRADE_MISSION) == 4
    D.destroy_planet(state, (ROUTE[3], 0), "Black Hole")
    assert (ROUTE[3], 0) not in state.planets
    assert state.board.path_state(ROUTE[1], 0) == "ruined"
    assert state.players[1].pirates == []                  # recomputed: the path leads nowhere
    assert quest_points(state, 0, TRADE_MISSION) is None   # SPEC §8.7: checked when scored
    assert undiscovered_planets(state, ROUTE[3]) == []     # nothing left to discover there
    assert ("destroyed", ROUTE[3], 0) in state.board.state_items()
    assert (ROUTE[3], 0) not in D.destroyable_planets(state)
    with pytest.raises(IllegalAction, match="already destroyed"):
        D.destroy_planet(state, (ROUTE[3], 0), "Supernova")


def test_an_undiscovered_planet_may_be_destroyed_and_can_no_longer_be_discovered():
    g = _game()
    corner = (parse_square("A-1"), 0)
    assert corner in D.destroyable_planets(g.state)
    D.destroy_planet(g.state, corner, "Black Hole")
    assert undiscovered_planets(g.state, corner[0]) == []
    assert g.state.doom is None                            # no ship stood there


def test_a_players_only_home_planet_is_protected_but_a_second_home_is_not():
    g = _game()
    state = g.state
    home = (BLUE_HOME, 0)
    assert D.planet_refusal(state, home) == "a player's only home planet cannot be destroyed"
    assert home not in D.destroyable_planets(state)
    before = state.hash()
    with pytest.raises(IllegalAction, match="only home planet"):
        D.destroy_planet(state, home, "Supernova")
    assert state.hash() == before
    _planet(g, "E-5", owner=0, home=True)                              # a second large disk
    assert D.planet_refusal(state, home) is None


def test_strong_empire_is_no_longer_complete_after_a_planet_is_destroyed():
    g = _game()
    state = g.state
    for s in ("B-2", "C-2", "E-2", "E-5", "F-1"):
        _planet(g, s, owner=0)
    assert quest_points(state, 0, STRONG_EMPIRE) == 5
    D.destroy_planet(state, (parse_square("E-5"), 0), "Black Hole")
    assert quest_points(state, 0, STRONG_EMPIRE) is None


# -- ships (SPEC §15.2) --------------------------------------------------------------------------
def test_supernova_dooms_every_ship_on_the_tile_and_leaves_a_black_disk():
    g = _game()
    _route(g)
    state = g.state
    mine = _ship(g, 0, "Fighter Ship", ROUTE[3])
    theirs = _ship(g, 1, "Star Cruiser", ROUTE[3], extras=("Captain Rookie",))
    D.destroy_planet(state, (ROUTE[3], 0), "Supernova")
    assert state.black_disks == [ROUTE[3]]
    assert state.doom.ships == [theirs, mine]              # polled from the active seat's left
    assert to_move(state) == 1
    legal = legal_actions(state, g.views[1])
    assert A.Pass() in legal and not any(isinstance(a, A.Escape) for a in legal)  # no fleeing a Supernova
    with pytest.raises(IllegalAction, match="only a Teleport"):
        apply(state.clone(), 1, A.Escape(theirs, GREEN_HOME))
    with pytest.raises(OutOfTurn):
        apply(state.clone(), 0, A.Pass())
    junk = len(state.decks["junk"])
    g.act(A.Pass(), seat=1)
    assert theirs not in state.ships
    assert len(state.decks["junk"]) == junk + 1            # the cruiser to Space Junk ...
    assert state.players[1].pile[-1] == "Captain Rookie"   # ... the Captain lost in space
    g.act(A.Pass(), seat=0)
    assert state.doom is None and to_move(state) == 0
    # Nothing lands on the black disk again, not even with a station there.
    state.players[0].stations.append(ROUTE[2])
    scout = state.ships[_ship(g, 0, "Scout Ship", ROUTE[2])]
    assert ROUTE[3] not in destinations(state, scout, may_discover=True)


def test_black_hole_ships_may_flee_within_their_m_number_to_a_discovered_planet():
    g = _game()
    state = g.state
    target = _planet(g, "E-5", owner=1)
    near = _planet(g, "F-6", owner=1)
    slow = _ship(g, 0, "Scout Ship", near)                 # M1: E-5 is one step away
    D.destroy_planet(state, (near, 0), "Black Hole")
    assert A.Escape(slow, target) in legal_actions(state, g.views[0])
    assert A.Escape(slow, BLUE_HOME) not in legal_actions(state, g.views[0])   # two steps
    with pytest.raises(IllegalAction, match="within its M-number"):
        apply(state.clone(), 0, A.Escape(slow, BLUE_HOME))
    g.act(A.Escape(slow, target))
    assert state.ships[slow].square == target and state.doom is None
    assert not state.moved                                 # fleeing is not the turn's move


def test_a_teleport_card_saves_a_doomed_ship_to_a_home_planet():
    g = _game()
    _route(g)
    state = g.state
    theirs = _ship(g, 1, "Fighter Ship", ROUTE[3])
    teleport = _give(g, 1, "Teleport")
    D.doom_ships(state, [theirs], "Kamikaze Attack")
    legal = legal_actions(state, g.views[1])
    assert A.Teleport(theirs, teleport, "Teleport", GREEN_HOME) in legal
    assert legal == sorted(legal, key=A.sort_key)
    wrong = _give(g, 1, "Negotiations")
    with pytest.raises(IllegalAction, match="not a Teleport"):
        apply(state.clone(), 1, A.Teleport(theirs, wrong, "Negotiations", GREEN_HOME))
    with pytest.raises(IllegalAction, match="home planets"):
        apply(state.clone(), 1, A.Teleport(theirs, teleport, "Teleport", BLUE_HOME))
    state.players[1].role = "Lord DeWar"                   # rigged: SPEC §13.3's point for the card
    g.act(A.Teleport(theirs, teleport, "Teleport", GREEN_HOME), seat=1)
    assert state.players[1].breakdown.get("role") == 1
    assert state.ships[theirs].square == GREEN_HOME
    assert teleport in state.decks["junk"] and state.names[teleport] == "Teleport"
    assert state.doom is None


def test_sabotage_sets_a_lost_ships_cards_aside_in_the_owners_pile():
    g = _game()
    state = g.state
    sid = _ship(g, 1, "Flying Saucer", parse_square("E-5"), extras=("Flash-jets",))
    D.doom_ships(state, [sid], "Sabotage")
    g.act(A.Pass(), seat=1)
    assert state.players[1].pile[-2:] == ["Flying Saucer", "Flash-jets"]


def test_nothing_else_may_happen_while_a_ship_is_doomed():
    g = _game()
    state = g.state
    own = state.ships_of(0)[0].id
    D.doom_ships(state, [own], "Kamikaze Attack")
    with pytest.raises(IllegalAction, match="answer for"):
        apply(state.clone(), 0, A.Next())
    with pytest.raises(IllegalAction, match="no ship is being destroyed"):
        apply(_without_doom(state), 0, A.Escape(own, BLUE_HOME))
    with pytest.raises(ValueError, match="destroys nothing"):
        D.doom_ships(state, [own], "Negotiations")


def _without_doom(state):
    copy = state.clone()
    copy.doom = None
    return copy


@pytest.mark.parametrize("text", ["escape s3 E-5", "teleport s12 #40:teleport J-10"])
def test_destruction_notation_round_trips(text):
    assert parse_action(text).text() == text
