"""Amazing Space Venture's tutorial for `asv learn` (SPEC §31.10): the lessons of a short
solitaire game, one turn through its five phases, then a discovery and a card. The kit's
content only; the tutor that runs it is written once (cli.repl.tutor).

Each lesson is met when `met(state, seat, mine)` holds, where `mine` is this seat's own
actions so far; `hint(state, legal)` names one command that moves it on, from the legal list.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from p2p_asv import actions as A
from p2p_asv.movement import undiscovered_planets
from p2p_asv.state import DISCARD, MOVE, PLACE_PIECE, TILES
from p2p_asv.tiles import TILE_BY_ID

__all__ = ["Lesson", "Tutorial", "TUTORIAL"]

CARD_PLAYS = (A.NewShip, A.Upgrade, A.AttachExtra, A.PlayEnvironment, A.PlayLifeForms, A.PlayExplorer,
              A.PlaySpecial, A.BinaryDiscover)


@dataclass(frozen=True)
class Lesson:
    key: str
    title: str
    intro: str
    met: Callable[..., bool]
    hint: Callable[..., str]


@dataclass(frozen=True)
class Tutorial:
    players: int
    seed: int
    welcome: str
    lessons: tuple[Lesson, ...]
    farewell: str


def _first(legal: list, kind, words: str = "") -> str | None:
    for action in legal:
        if isinstance(action, kind) and action.text().startswith(words):
            return action.text()
    return None


def _near_ship(state, legal: list) -> str | None:
    """The placement a newcomer wants: a planet tile, as near one of this seat's ships as it fits."""
    ships = [ship.square for ship in state.ships.values() if ship.owner == state.active]
    best = None
    for action in legal:
        if not isinstance(action, A.PlaceTile):
            continue
        tile = TILE_BY_ID.get(state.names.get(action.tile, ""))
        planets = len(tile.planets) if tile is not None else 0
        away = min((max(abs(action.square[0] - s[0]), abs(action.square[1] - s[1])) for s in ships), default=99)
        key = (planets == 0, away)
        if best is None or key < best[0]:
            best = (key, action.text())
    return best[1] if best else None


def _to_planet(state, legal: list) -> str | None:
    """A move that ends on an undiscovered planet, if there is one."""
    for action in legal:
        if isinstance(action, A.Move) and undiscovered_planets(state, action.square):
            return action.text()
    return None


def _place_hint(state, legal: list) -> str:
    return (_first(legal, A.DrawTile) or _near_ship(state, legal) or _first(legal, A.ScrapTile)
            or "legal")


def _past(state, phase: int) -> bool:
    """This seat's first turn has left `phase` (or ended)."""
    return state.turn > 1 or state.phase > phase


def _hint_or_next(legal: list, kind, why: str) -> str:
    shown = _first(legal, kind)
    if shown:
        return f"try: {shown}   ({why}; or next to skip)"
    return "try: next   (nothing of that kind fits now)"


def _discovery_hint(state, legal: list) -> str:
    for shown, why in ((_first(legal, A.Discover), "play a planet card from your hand on the planet your ship reached"),
                       (_to_planet(state, legal), "move a ship onto a tile with an undiscovered planet"),
                       (_first(legal, A.DrawTile), "draw tiles; a planet tile placed near your ship is one to reach"),
                       (_near_ship(state, legal), "a planet tile near your ship, so it can reach it")):
        if shown:
            return f"try: {shown}   ({why}; legal lists every choice)"
    return "try: next   (play the turn on until your ship can reach a planet)"


def _card_hint(state, legal: list) -> str:
    for kind in CARD_PLAYS:
        shown = _first(legal, kind)
        if shown:
            return f"try: {shown}   (help #N tells what a card does)"
    return "play on: in a discovery an environment (env #N) or life form (life #N) card scores"


LESSONS = (
    Lesson("draw", "Phase 1: draw tiles",
           "A turn has five phases. In the first you draw tiles from one of four piles, one at a "
           "time (solitaire: 3 a turn). Type draw-tile 1 (or draw-tile 1 2 3 for all three).",
           lambda state, seat, mine: _past(state, TILES) or (any(isinstance(a, A.DrawTile) for a in mine)
                                                             and not state.tiles_owed),
           lambda state, legal: f"try: {_first(legal, A.DrawTile) or 'legal'}"),
    Lesson("place", "Phase 1: place the tiles",
           "Each drawn tile goes next to a placed one, its sides matching: galaxy to galaxy, deep "
           "space to deep space, path to path. place #T SQ rR puts tile #T on square SQ, turned R "
           "quarter turns. legal place #T lists where it fits; look #T shows its sides.",
           lambda state, seat, mine: _past(state, TILES),
           lambda state, legal: f"try: {_place_hint(state, legal)}"
                                "   (a planet tile near your ship; the board is drawn after each tile)"),
    Lesson("pieces", "Phase 2: a ship or a piece",
           "Now you may play one ship card on a home planet, upgrade a ship, or put a probe, "
           "station or pirate on a tile placed this turn. Or type next to go on.",
           lambda state, seat, mine: _past(state, PLACE_PIECE),
           lambda state, legal: _hint_or_next(legal, (A.PlaceStation, A.PlaceProbe, A.NewShip),
                                              "one piece this turn")),
    Lesson("move", "Phase 3: move a ship",
           "Move one ship within its M-number of king steps: move sN SQ. A ship that ends on an "
           "undiscovered planet may discover it with a planet card (the next lesson).",
           lambda state, seat, mine: _past(state, MOVE),
           lambda state, legal: (f"try: {_to_planet(state, legal)}   (a ship that lands on a planet can discover it)"
                                 if _to_planet(state, legal) else
                                 _hint_or_next(legal, A.Move, "a ship moves to a planet or a station"))),
    Lesson("discard", "Phase 4: discard",
           "You may discard one card (discard #C), or next to keep them all.",
           lambda state, seat, mine: _past(state, DISCARD),
           lambda state, legal: _hint_or_next(legal, A.Discard, "one card you do not want")),
    Lesson("refill", "Phase 5: refill and end the turn",
           "Draw back up to 10 cards: draw refuel (or draw refuel 3 for three), draw port for a "
           "face-up card of the Space Port; then next ends your turn.",
           lambda state, seat, mine: state.turn > 1,
           lambda state, legal: f"try: {_first(legal, A.DrawCard) or 'next'}"),
    Lesson("discovery", "A discovery",
           "A ship that lands on an undiscovered planet discovers it: discover #C P plays planet "
           "card #C on planet P of that tile. Its value times the tile's worth is your score, and "
           "environment and life form cards played on it add to it.",
           lambda state, seat, mine: any(isinstance(a, (A.Discover, A.BinaryDiscover)) for a in mine),
           _discovery_hint),
    Lesson("card", "Playing a card",
           "Cards do more than discover: an environment (env #C) or life forms (life #C ...) on "
           "your discovery, a ship card (ship #C SQ), an upgrade or a Special Action (special #C).",
           lambda state, seat, mine: any(isinstance(a, CARD_PLAYS) for a in mine),
           _card_hint),
)

TUTORIAL = Tutorial(
    players=1, seed=7,
    welcome=("Welcome to Amazing Space Venture. This is a short solitaire game that walks you "
             "through a turn, a discovery and a card. Each lesson says what to try; hint names one "
             "command that fits, lesson repeats the lesson, help lists every command, quit leaves."),
    lessons=LESSONS,
    farewell=("That is the whole loop of the game. Play on to the end (the tiles running out), or "
              "quit; asv play starts a game against bots, asv host one with friends."),
)
