"""Special Quests scored when revealed (SPEC §8.7)."""
from __future__ import annotations

import pytest

from p2p_asv import actions as A
from p2p_asv.engine import apply, legal_actions
from p2p_asv.errors import IllegalAction
from p2p_asv.geometry import parse_square
from p2p_asv.quests import PEACE_MISSION, STRONG_EMPIRE, TRADE_MISSION
from p2p_asv.state import PLACE_PIECE, PlanetRecord
from p2p_asv.tile_model import DEEP, PATH, PathSegment, Tile
from tests.helpers_engine import Game


def _holding(quest: str, players: int = 2) -> tuple[Game, int]:
    """Seat 0 in phase 2 of its first turn, holding `quest` (a real quest handle)."""
    game = Game(players, seed=3)
    state = game.state
    handle = state.decks["quests"].pop(0)
    state.players[0].quests.append(handle)
    game.views[0].learn(handle, quest)
    game.tiles()
    assert state.phase == PLACE_PIECE
    return game, handle


def test_strong_empire_needs_six_planets_in_own_sector():
    game, handle = _holding(STRONG_EMPIRE)
    state = game.state
    blue = [parse_square(s) for s in ("A-2", "B-2", "C-2", "E-5")]
    for sq in blue:  # home D-4 plus four more: five, one short
        state.planets[(sq, 0)] = PlanetRecord(0, False)
    assert A.ScoreQuest(handle, STRONG_EMPIRE) not in legal_actions(state, game.views[0])
    with pytest.raises(IllegalAction, match="not complete"):
        apply(state.clone(), 0, A.ScoreQuest(handle, STRONG_EMPIRE))
    state.planets[(parse_square("F-1"), 0)] = PlanetRecord(0, False)
    # A planet outside the sector does not count; the sixth inside does.
    assert A.ScoreQuest(handle, STRONG_EMPIRE) in legal_actions(state, game.views[0])
    before = state.players[0].score
    apply(state, 0, A.ScoreQuest(handle, STRONG_EMPIRE))
    assert state.players[0].score == before + 5
    assert handle not in state.players[0].quests and state.names[handle] == STRONG_EMPIRE


def test_peace_mission_needs_a_ship_on_an_opponent_planet_outside_own_sector():
    game, handle = _holding(PEACE_MISSION)
    state = game.state
    ship = state.ships_of(0)[0]
    green_home = parse_square("J-10")  # seat 1 is green in a two-player game
    assert A.ScoreQuest(handle, PEACE_MISSION) not in legal_actions(state, game.views[0])
    ship.square = green_home
    assert A.ScoreQuest(handle, PEACE_MISSION) in legal_actions(state, game.views[0])
    before = state.players[0].score
    apply(state, 0, A.ScoreQuest(handle, PEACE_MISSION))
    assert state.players[0].score == before + 5


def test_trade_mission_scores_every_tile_of_the_route():
    game, handle = _holding(TRADE_MISSION)
    state = game.state
    # A route of four tiles in row 12: planet (seat 0) - path - path - planet (seat 1).
    end_w = Tile("t-end-w", "planet", 1, (DEEP, PATH, DEEP, DEEP),
                 paths=(PathSegment((1,), "planet", 0),), planets=(1,))
    middle = Tile("t-mid", "path", 1, (DEEP, PATH, DEEP, PATH), paths=(PathSegment((1, 3)),),
                  path_shape="straight")
    end_e = Tile("t-end-e", "planet", 1, (DEEP, DEEP, DEEP, PATH),
                 paths=(PathSegment((3,), "planet", 0),), planets=(1,))
    squares = [parse_square(s) for s in ("C-12", "D-12", "E-12", "F-12")]
    for tile, sq in zip((end_w, middle, middle, end_e), squares):
        state.board.place(tile, sq, 0, setup=True)
    state.planets[(squares[0], 0)] = PlanetRecord(0, False)
    assert A.ScoreQuest(handle, TRADE_MISSION) not in legal_actions(state, game.views[0])
    state.planets[(squares[3], 0)] = PlanetRecord(1, False)
    assert A.ScoreQuest(handle, TRADE_MISSION) in legal_actions(state, game.views[0])
    before = state.players[0].score
    apply(state, 0, A.ScoreQuest(handle, TRADE_MISSION))
    assert state.players[0].score == before + 4


def test_a_quest_not_held_cannot_be_scored():
    game, handle = _holding(STRONG_EMPIRE)
    other = game.state.decks["quests"][0]
    with pytest.raises(IllegalAction, match="not yours"):
        apply(game.state, 0, A.ScoreQuest(other, STRONG_EMPIRE))
