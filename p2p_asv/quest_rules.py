"""Scoring the Special Quests (SPEC §8.7): a seat reveals a quest it holds once it is done."""
from __future__ import annotations

from .actions import ScoreQuest
from .checks import require
from .errors import MalformedAction
from .geometry import sector_of
from .quests import PEACE_MISSION, QUEST_BY_NAME, STRONG_EMPIRE, TRADE_MISSION
from .state import GameState
from .turn import free_scoring_now


def _peace_mission(state: GameState, seat: int) -> bool:
    colour = state.players[seat].colour
    for ship in state.ships_of(seat):
        placed = state.board.tile_at(ship.square)
        if placed is None or sector_of(ship.square) == colour:
            continue
        for i in range(len(placed.tile.planets)):
            record = state.planets.get((ship.square, i))
            if record is not None and record.owner != seat:
                return True
    return False


def _sector_planets(state: GameState, seat: int) -> int:
    colour = state.players[seat].colour
    return sum(1 for (sq, _), r in state.planets.items() if r.owner == seat and sector_of(sq) == colour)


def _longest_trade_route(state: GameState, seat: int) -> int:
    """Tiles of the longest complete path joining one of the seat's planets to an opponent's."""
    best = 0
    for (sq, planet), record in sorted(state.planets.items()):
        if record.owner != seat:
            continue
        for seg in state.board.planet_paths(sq, planet):
            if state.board.path_state(sq, seg) != "complete":
                continue
            for end in state.board.path_planets(sq, seg):
                other = state.planets.get(end)
                if end != (sq, planet) and other is not None and other.owner != seat:
                    best = max(best, len(state.board.path_squares(sq, seg)))
    return best


def quest_points(state: GameState, seat: int, name: str) -> int | None:
    """What the quest scores now, or None while it is not complete."""
    quest = QUEST_BY_NAME[name]
    if name == PEACE_MISSION:
        return quest.points if _peace_mission(state, seat) else None
    if name == STRONG_EMPIRE:
        return quest.points if _sector_planets(state, seat) >= quest.sector_planets else None
    if name == TRADE_MISSION:
        tiles = _longest_trade_route(state, seat)
        return quest.score(tiles) if tiles else None
    return None


def scorable_quests(state: GameState, seat: int, view) -> list[ScoreQuest]:
    if not free_scoring_now(state) or state.discovery is not None:
        return []
    out = []
    for handle in state.players[seat].quests:
        name = view.name_of(handle, state.names)
        if name is not None and quest_points(state, seat, name) is not None:
            out.append(ScoreQuest(handle, name))
    return out


def do_score_quest(state: GameState, seat: int, action: ScoreQuest) -> None:
    if action.name not in QUEST_BY_NAME:
        raise MalformedAction(f"no Special Quest named {action.name!r}")
    require(free_scoring_now(state), "quests are scored after the tiles are placed")
    player = state.players[seat]
    require(action.card in player.quests, f"quest #{action.card} is not yours")
    known = state.names.get(action.card)
    require(known is None or known == action.name, f"quest #{action.card} is {known!r}")
    points = quest_points(state, seat, action.name)
    require(points is not None, f"{action.name} is not complete")
    player.quests.remove(action.card)
    state.names[action.card] = action.name
    player.pile.append(action.name)
    player.gain(points, "quests")
