"""The Space Ship Extras (SPEC §15.3-§15.8) played through the engine on rigged positions."""
from __future__ import annotations

import pytest

from p2p_asv import actions as A
from p2p_asv.engine import apply, parse_action, to_move
from p2p_asv.errors import IllegalAction
from p2p_asv.extras import rookie_welcome
from p2p_asv.geometry import parse_square
from p2p_asv.movement import ship_allowance
from p2p_asv.setup import new_game
from p2p_asv.state import MOVE, PLACE_PIECE
from p2p_asv.tile_model import DEEP, GALAXY, Tile
from p2p_asv.view import PlayerView
from tests.helpers_engine import Game
from tests.rig_helpers import ROUTE, give, planet, route, ship

HOME, E5 = parse_square("D-4"), parse_square("E-5")


def _game() -> Game:
    g = Game(2, seed=3)
    g.tiles()
    assert g.state.phase == PLACE_PIECE
    return g


def refused(g: Game, seat: int, action, match: str) -> None:
    before = g.state.hash()
    with pytest.raises(IllegalAction, match=match):
        apply(g.state, seat, action)
    assert g.state.hash() == before


def _next_own_turn(g: Game, phase: int) -> None:
    g.end_turn()
    g.quiet_turn(away=[HOME, E5])
    g.tiles(away=[HOME, E5])
    g.to_phase(phase)


# -- Laser Beam (SPEC §15.4) ---------------------------------------------------------------------
def test_laser_beam_fires_from_the_next_turn_instead_of_moving_and_is_the_only_action():
    g = _game()
    fighter = ship(g, 0, "Fighter Ship", HOME)
    laser = give(g, 0, "Laser Beam")
    refused(g, 0, A.AttachExtra(1, laser, "Laser Beam"), "cannot go on a Star-T")
    g.act(A.AttachExtra(fighter, laser, "Laser Beam"))
    assert not g.state.piece_placed                     # an extra is not the turn's piece
    enemy = ship(g, 1, "Star Cruiser", E5)
    g.to_phase(MOVE)
    assert not any(isinstance(a, A.Fire) for a in g.legal())
    refused(g, 0, A.Fire(fighter, "ship", index=enemy), "turn after it was attached")
    _next_own_turn(g, MOVE)
    legal = g.legal()
    assert A.Fire(fighter, "ship", index=enemy) in legal
    assert A.Fire(fighter, "ship", index=2) not in legal   # seat 1's Star-T at J-10: out of range
    g.act(A.Fire(fighter, "ship", index=enemy))
    assert to_move(g.state) == 1                         # the doom poll: a Teleport could save it
    g.act(A.Pass(), seat=1)
    assert enemy not in g.state.ships and g.state.players[1].pile[-1] == "Star Cruiser"
    assert g.legal() == [A.Next()]                       # the only action of the turn
    g.act(A.Next())
    assert g.legal() == [A.Next()]
    refused(g, 0, A.Discard((g.state.players[0].hand[0],)), "only action")


def test_a_laser_beam_cannot_fire_after_another_action_and_hits_pieces_in_range():
    g = _game()
    fighter = ship(g, 0, "Fighter Ship", HOME, extras=("Laser Beam",))
    g.state.players[1].stations.append(E5)
    gal = Tile("t-gal", "galaxy", 1, (GALAXY, DEEP, DEEP, DEEP), galaxies=((0,),))
    g.state.board.place(gal, parse_square("F-6"), 0, setup=True)
    g.state.players[1].probes.append((parse_square("F-6"), 0))
    route(g)
    g.state.players[1].pirates.append((ROUTE[1], 0))
    guest = ship(g, 1, "Scout Ship", E5)
    g.act(A.PlaceStation(g.state.placed_this_turn[0]))
    g.to_phase(MOVE)
    refused(g, 0, A.Fire(fighter, "station", E5), "only action")
    _next_own_turn(g, MOVE)
    legal = g.legal()
    assert A.Fire(fighter, "probe", parse_square("F-6"), 0) in legal
    assert A.Fire(fighter, "pirate", ROUTE[1], 0) not in legal   # beyond M 2
    g.act(A.Fire(fighter, "station", E5))
    assert g.state.players[1].stations == [] and g.state.doom.ships == [guest]


# -- Photon Torpedo (SPEC §15.5) ------------------------------------------------------------------
def test_photon_torpedo_clears_the_pirate_and_allows_only_the_move_along_that_path():
    g = _game()
    route(g)
    g.state.players[1].pirates.append((ROUTE[1], 0))
    armed = ship(g, 0, "Fighter Ship", ROUTE[0], extras=("Photon Torpedo",))
    g.to_phase(MOVE)
    legal = g.legal()
    assert A.Move(armed, ROUTE[3]) not in legal          # the pirate closes the path (§7.4)
    assert A.Torpedo(armed, ROUTE[1], 0) in legal
    assert not any(isinstance(a, A.Torpedo) and a.ship == 1 for a in legal)   # no torpedo aboard
    g.act(A.Torpedo(armed, ROUTE[1], 0))
    assert g.state.players[1].pirates == []
    assert [a for a in g.legal() if isinstance(a, A.Move)] == [A.Move(armed, ROUTE[3])]
    refused(g, 0, A.Move(1, E5), "follows that path")
    g.act(A.Move(armed, ROUTE[3]))
    assert g.state.ships[armed].square == ROUTE[3]
    assert not any(isinstance(a, A.Move) for a in g.legal())


# -- Pirate Crew (SPEC §15.7) ---------------------------------------------------------------------
def test_pirate_crew_takes_one_blind_card_from_a_reshuffled_hand():
    g = _game()
    planet(g, "E-5", owner=1)
    raider = ship(g, 0, "Fighter Ship", HOME, extras=("Pirate Crew",))
    ship(g, 1, "Scout Ship", E5)
    g.to_phase(MOVE)
    g.act(A.Move(raider, E5))
    victim, taker = g.state.players[1], g.state.players[0]
    old = list(victim.hand)
    names = sorted(g.dealer.identity[h] for h in old)
    plunders = [a for a in g.legal() if isinstance(a, A.Plunder)]
    assert sorted(plunders) == [A.Plunder(1, i) for i in range(len(old))]
    g.act(A.Plunder(1, 3))
    taken = taker.hand[-1]
    assert len(victim.hand) == len(old) - 1 and not set(old) & set(victim.hand + taker.hand)
    assert sorted(g.dealer.identity[h] for h in victim.hand + [taken]) == names
    assert taken in g.views[0].known and taken not in g.views[1].known
    assert all(h in g.views[1].known for h in victim.hand)    # the victim still knows its hand
    assert not any(isinstance(a, A.Plunder) for a in g.legal())   # one card a move
    assert parse_action("plunder 1 4") == A.Plunder(1, 3)


# -- Captain Rookie, Fleet Admiral, Nano-computer (SPEC §15.6) ------------------------------------
def test_captain_rookie_goes_on_an_opponents_ship_and_slows_it():
    g = _game()
    rookie = give(g, 0, "Captain Rookie")
    fighter = ship(g, 1, "Fighter Ship", E5)
    shuttle = ship(g, 1, "Space Shuttle", E5)
    guarded = ship(g, 1, "Scout Ship", E5, extras=("Nano-computer",))
    offers = sorted(a.ship for a in g.legal() if isinstance(a, A.PlayRookie))
    assert offers == [2, fighter]                         # seat 1's Star-T and the Fighter
    refused(g, 0, A.PlayRookie(rookie, "Captain Rookie", shuttle), "not a Shuttle")
    refused(g, 0, A.PlayRookie(rookie, "Captain Rookie", guarded), "Nano-computer")
    refused(g, 0, A.PlayRookie(rookie, "Captain Rookie", 1), "another player's ship")
    g.act(A.PlayRookie(rookie, "Captain Rookie", fighter))
    assert ship_allowance(g.state.ships[fighter]) == 1
    assert g.state.phase == PLACE_PIECE and not g.state.piece_placed


def test_reassigning_captain_rookie_is_the_only_action_of_the_turn():
    g = _game()
    burdened = ship(g, 0, "Fighter Ship", HOME, extras=("Captain Rookie",))
    assert A.Reassign(burdened, 2) in g.legal()
    g.act(A.Reassign(burdened, 2))
    assert "Captain Rookie" in g.state.ships[2].extras and not g.state.ships[burdened].extras
    assert g.legal() == [A.Next()]
    g2 = _game()
    burdened = ship(g2, 0, "Fighter Ship", HOME, extras=("Captain Rookie",))
    g2.act(A.PlaceStation(g2.state.placed_this_turn[0]))
    refused(g2, 0, A.Reassign(burdened, 2), "only action")


def test_nano_computer_sends_captain_rookie_into_the_reshuffled_space_port_deck():
    g = _game()
    burdened = ship(g, 0, "Fighter Ship", HOME, extras=("Captain Rookie",))
    rookie_card = g.state.ships[burdened].extra_cards[0]
    nano = give(g, 0, "Nano-computer")
    port = list(g.state.decks["port"])
    g.act(A.AttachExtra(burdened, nano, "Nano-computer"))
    assert g.state.ships[burdened].extras == ["Nano-computer"]
    deck = g.state.decks["port"]
    assert len(deck) == len(port) + 1 and not set(deck) & set(port + [rookie_card])  # fresh handles
    assert not rookie_welcome(g.state, g.state.ships[burdened])   # and he cannot come back


def test_fleet_admiral_evicts_captain_rookie_to_another_ship_or_the_port():
    g = _game()
    burdened = ship(g, 0, "Fighter Ship", HOME, extras=("Captain Rookie",))
    admiral = give(g, 0, "Fleet Admiral")
    options = sorted(a.evict for a in g.legal() if isinstance(a, A.AttachExtra) and a.card == admiral
                     and a.ship == burdened)
    assert options == ["port", "s2"]
    refused(g, 0, A.AttachExtra(burdened, admiral, "Fleet Admiral"), "evicts Captain Rookie")
    g.act(A.AttachExtra(burdened, admiral, "Fleet Admiral", "s2"))
    assert g.state.ships[2].extras == ["Captain Rookie"]
    assert g.state.ships[burdened].extras == ["Fleet Admiral"]
    assert parse_action("extra s3 #40:fleet-admiral s2").evict == "s2"


# -- Gavin's Raiders (SPEC §15.8) -----------------------------------------------------------------
def _advanced(role: str) -> Game:
    g = Game(2, seed=3)
    g.state = new_game(2, {"advanced": True, "role_play": True})
    g.views = [PlayerView(s) for s in range(2)]
    g.settle()
    g.state.players[0].role = role                       # rigged: the role dealt face up
    planet(g, "E-5", owner=1)
    return g


def test_gavins_raiders_move_the_same_ship_twice_and_do_nothing_else():
    g = _advanced("Gavin's Raiders")
    g.act(A.Move(1, E5))
    assert A.Move(1, HOME) in g.legal()
    g.act(A.Move(1, HOME))
    assert g.legal() == [A.Next()]
    assert g.state.energy == 5
    other = _advanced("Lord DeWar")
    other.act(A.Move(1, E5))
    assert not any(isinstance(a, A.Move) for a in other.legal())


def test_captain_rookie_as_a_role_starts_aboard_the_star_t_ship():
    """SPEC §15.6: with the captain_rookie option he is one of seven role cards."""
    from tests.helpers_engine import RiggedDealer
    from p2p_asv.setup import port_contents
    from p2p_asv.variants import Variants
    config = {"role_play": True, "captain_rookie": True}
    dealer = RiggedDealer(4)
    dealer.order["roles"] = ["Captain Rookie"]
    g = Game(2, seed=4, dealer=dealer)
    g.state = new_game(2, config)
    g.views = [PlayerView(s) for s in range(2)]
    g.settle()
    star_t = g.state.ships_of(0)[0]
    assert g.state.players[0].role == "Captain Rookie" and star_t.extras == ["Captain Rookie"]
    assert ship_allowance(star_t) == 0
    assert "Captain Rookie" not in port_contents(2, Variants.from_config(config))
    g.tiles()
    g.act(A.Reassign(star_t.id, 2))                   # got rid of, as the turn's only action
    assert g.state.ships[2].extras == ["Captain Rookie"]
    with pytest.raises(ValueError, match="needs role_play"):
        new_game(2, {"captain_rookie": True})


def test_laser_beam_sends_a_probe_and_a_pirate_home_unscored():
    g = _game()
    fighter = ship(g, 0, "Fighter Ship", HOME, extras=("Laser Beam",))
    gal = Tile("t-gal", "galaxy", 1, (GALAXY, DEEP, DEEP, DEEP), galaxies=((0,),))
    g.state.board.place(gal, parse_square("F-6"), 0, setup=True)
    g.state.players[1].probes.append((parse_square("F-6"), 0))
    g.to_phase(MOVE)
    probe = A.Fire(fighter, "probe", parse_square("F-6"), 0)
    assert probe in g.legal()
    g.act(probe)
    assert g.state.players[1].probes == [] and g.state.moved and g.state.doom is None
    g2 = _game()
    route(g2)
    g2.state.players[1].pirates.append((ROUTE[1], 0))
    near = ship(g2, 0, "Star Cruiser", ROUTE[0], extras=("Laser Beam",))
    g2.to_phase(MOVE)
    g2.act(A.Fire(near, "pirate", ROUTE[1], 0))
    assert g2.state.players[1].pirates == []


def test_pirate_crew_needs_its_own_move_onto_an_opponents_tile():
    g = _game()
    planet(g, "E-5", owner=1)
    raider = ship(g, 0, "Fighter Ship", E5, extras=("Pirate Crew",))
    ship(g, 1, "Scout Ship", E5)
    g.to_phase(MOVE)
    assert not any(isinstance(a, A.Plunder) for a in g.legal())    # standing there is not enough
    refused(g, 0, A.Plunder(1, 0), "right after its ship's move")
    g.act(A.Move(raider, HOME))
    assert not any(isinstance(a, A.Plunder) for a in g.legal())    # nobody to rob at home


def test_pirate_crew_never_takes_from_a_partner():
    """SPEC §13.4: partners never exchange cards, so the Pirate Crew offers only the rival."""
    g = Game(4, seed=3, config={"partnership": True})
    g.tiles()
    planet(g, "E-5", owner=1)
    raider = ship(g, 0, "Fighter Ship", HOME, extras=("Pirate Crew",))
    ship(g, 1, "Scout Ship", E5)
    ship(g, 2, "Scout Ship", E5)
    g.to_phase(MOVE)
    g.act(A.Move(raider, E5))
    assert {a.seat for a in g.legal() if isinstance(a, A.Plunder)} == {1}
    refused(g, 0, A.Plunder(2, 0), "no ship of seat 2")


def test_extras_cost_energy_in_the_advanced_game():
    """SPEC §15.4, §15.6: firing and playing Captain Rookie cost 1 energy each."""
    g = _advanced("Lord DeWar")
    rookie = give(g, 0, "Captain Rookie")
    g.act(A.PlayRookie(rookie, "Captain Rookie", 2))
    assert g.state.energy == 6
    g = _advanced("Lord DeWar")
    fighter = ship(g, 0, "Fighter Ship", HOME, extras=("Laser Beam",))
    target = ship(g, 1, "Scout Ship", E5)
    g.state.energy = 1
    assert A.Fire(fighter, "ship", index=target) in g.legal()
    g.state.energy = 0
    assert A.Fire(fighter, "ship", index=target) not in g.legal()
    g.state.energy = 7
    g.act(A.Fire(fighter, "ship", index=target))
    assert g.state.energy == 6
