"""The greedy bot's play of ship cards and Space Ship Extras (SPEC §12.1, §15), on rigged
positions, and the selfplay games it plays using every Special Action and extra (SPEC §12.2)."""
from __future__ import annotations

from p2p_asv import actions as A
from p2p_asv.bot_extras import TORPEDO_SHOT, torpedo_worth, wants_port_card
from p2p_asv.bots import GreedyBot
from p2p_asv.cards import CARD_BY_NAME, CARDS, PLANET, SPECIAL_ACTION
from p2p_asv.geometry import parse_square
from p2p_asv.selfplay import play_game
from p2p_asv.state import MOVE
from tests.helpers_engine import Game
from tests.rig_helpers import ROUTE, give, planet, route, ship

SEEDS = range(6)   # greedy breaks ties at random: a choice must hold whatever the seed


def _rigged(east_owner: int | None = 1) -> Game:
    """Seat 0 in phase 2 of its turn; row 12 holds a complete path with seat 1's pirate on it."""
    g = Game(2, seed=3)
    g.tiles()
    route(g, east_owner=east_owner)
    g.state.players[1].pirates.append((ROUTE[1], 0))
    return g


def _without_planet_cards(g: Game, seat: int) -> None:
    """The seat cannot discover, so no move of its ships is a discovery."""
    player = g.state.players[seat]
    player.hand = [h for h in player.hand
                   if CARD_BY_NAME[g.views[seat].name_of(h, g.state.names)].category != PLANET]


def _choices(g: Game) -> set:
    return {GreedyBot(seed).choose(g.state, g.views[g.seat]) for seed in SEEDS}


def test_greedy_fires_a_photon_torpedo_at_a_rivals_pirate_from_the_end_of_its_path():
    g = _rigged()
    armed = ship(g, 0, "Fighter Ship", ROUTE[0], extras=("Photon Torpedo",))
    _without_planet_cards(g, 0)
    g.to_phase(MOVE)
    assert _choices(g) == {A.Torpedo(armed, ROUTE[1], 0)}


def test_greedy_clears_a_pirate_off_the_path_to_a_planet_it_can_discover_before_a_plain_discovery():
    g = _rigged(east_owner=None)                       # ROUTE[3] is undiscovered
    armed = ship(g, 0, "Fighter Ship", ROUTE[0], extras=("Photon Torpedo",))
    give(g, 0, "Cephei")
    g.to_phase(MOVE)
    bot = GreedyBot(0)
    assert any(isinstance(a, A.Move) and bot.score(g.state, g.views[0], a) >= 40 for a in g.legal())
    # the shot's base, 3 for the pirate's points (two middle tiles), 40 + 1 for the discovery
    assert torpedo_worth(g.state, g.views[0], ROUTE[1], 0) == TORPEDO_SHOT + 3 + 40 + 1
    assert _choices(g) == {A.Torpedo(armed, ROUTE[1], 0)}
    g.act(A.Torpedo(armed, ROUTE[1], 0))
    assert _choices(g) == {A.Move(armed, ROUTE[3])}    # the follow-up move discovers it


def test_a_ship_armed_with_a_photon_torpedo_heads_for_a_rivals_pirate_instead_of_wandering():
    g = _rigged()
    far = planet(g, "A-11", owner=0)
    armed = ship(g, 0, "Fighter Ship", far, extras=("Photon Torpedo",))
    _without_planet_cards(g, 0)
    g.to_phase(MOVE)
    assert A.Move(armed, ROUTE[0]) in g.legal()
    assert _choices(g) == {A.Move(armed, ROUTE[0])}
    g.state.ships[armed].extras.clear()                 # unarmed, that move is as good as none
    bot = GreedyBot(0)
    assert bot.score(g.state, g.views[0], A.Move(armed, ROUTE[0])) == bot.score(g.state, g.views[0], A.Next())


def test_greedy_draws_from_space_port_while_it_holds_no_ship_card():
    g = Game(2, seed=3)
    view = g.views[0]
    names = [view.name_of(h, g.state.names) for h in g.state.players[0].hand]
    assert all(CARD_BY_NAME[n].category != "space_ship" for n in names)   # ten Refuel cards
    assert wants_port_card(g.state, view)
    give(g, 0, "Photon Torpedo")
    assert not wants_port_card(g.state, view)


def test_four_greedy_games_play_every_special_action_and_every_ship_extra():
    """A cheap stand-in for the 30-game measure (`asv selfplay --players 4 --games 30 --seed 1`),
    its first four games (about 1.5 CPU s): a bot that never plays some card fails it."""
    wanted = {c.name for c in CARDS if c.category == SPECIAL_ACTION or c.ship_extra}
    played: set[str] = set()
    for seed in range(1, 5):
        played |= set(play_game(4, seed)[1]["cards_played"])
    assert sorted(wanted - played) == []


def _best_attach(g: Game, name: str) -> set:
    """The greedy's favourite ways to attach the extra `name` (SPEC §12.1)."""
    bot, view = GreedyBot(0), g.views[0]
    options = [a for a in g.legal() if isinstance(a, A.AttachExtra) and a.name == name]
    best = max(bot.score(g.state, view, a) for a in options)
    return {a for a in options if bot.score(g.state, view, a) == best}


def test_a_fleet_admiral_goes_on_the_ship_carrying_captain_rookie_and_sends_him_to_the_fastest_rival():
    g = _rigged()
    slowed = ship(g, 0, "Fighter Ship", parse_square("D-4"), extras=("Captain Rookie",))
    cruiser = ship(g, 1, "Star Cruiser", parse_square("J-10"))
    admiral = give(g, 0, "Fleet Admiral")
    assert _best_attach(g, "Fleet Admiral") == {A.AttachExtra(slowed, admiral, "Fleet Admiral", f"s{cruiser}")}


def test_a_photon_torpedo_goes_on_the_armed_ship_that_can_shoot_a_pirate_this_turn():
    g = _rigged()
    ship(g, 0, "Star Cruiser", parse_square("D-4"))
    ready = ship(g, 0, "Fighter Ship", ROUTE[0])
    torpedo = give(g, 0, "Photon Torpedo")
    assert _best_attach(g, "Photon Torpedo") == {A.AttachExtra(ready, torpedo, "Photon Torpedo")}
    g.act(A.AttachExtra(ready, torpedo, "Photon Torpedo"))
    _without_planet_cards(g, 0)
    g.to_phase(MOVE)
    assert _choices(g) == {A.Torpedo(ready, ROUTE[1], 0)}
