"""Rulebook worked examples and scoring rules, played through the real engine (SPEC §8, §9).

Positions come from real actions; the rigged dealer only decides which tiles and cards come
up (tests/helpers_engine.py). Points are always read from the engine, never recomputed here.
"""
from __future__ import annotations

import pytest

from tests.helpers_engine import MOVE, Game, RiggedDealer
from p2p_asv import actions as A
from p2p_asv.endgame import finish_game, pirate_points, result, scoring_cards, title_for
from p2p_asv.engine import apply
from p2p_asv.errors import IllegalAction, OutOfTurn
from p2p_asv.state import PlanetRecord

HOME = (3, 3)          # D-4, blue home; seat 0's Star-T ship is s1
EAST = (4, 3)          # E-4: a planet tile placed here is one king step from s1


def gained(g: Game, seat: int, reason: str) -> int:
    return g.state.players[seat].breakdown.get(reason, 0)


def land(players: int, planet_tile: str, hands, seed: int = 3) -> Game:
    """Seat 0 places `planet_tile` on E-4 and moves s1 onto it: a discovery is due."""
    dealer = RiggedDealer(seed, tiles=[planet_tile, "deep", "deep"], hands=hands)
    g = Game(players, dealer=dealer)
    g.tiles([(planet_tile, EAST, 0)], away=[HOME])
    g.to_phase(MOVE)
    g.act(A.Move(1, EAST))
    assert g.state.discovery is not None and g.state.discovery.stage == "planet"
    return g


def discover(g: Game, name: str) -> None:
    g.act(A.Discover(g.hand_named(0, name), name, 0))


def pass_all(g: Game) -> None:
    """Every polled seat passes the current offer (environment or life form)."""
    stage = g.state.discovery.stage
    while g.state.discovery.stage == stage:
        g.act(A.Pass())


# -- SPEC §8.1 discovery -------------------------------------------------------------------
def test_discovery_example_a_pyrrhis_vast_land_embassy_gavins_raiders():
    """Rulebook example A: 2 x (3 + 1 + 0) = 8 for the planet, +5 Gavin's Raiders = 13."""
    g = land(2, "p2-a", [["Pyrrhis", "Vast Land", "Embassy", "Gavin's Raiders"]])
    before = g.state.players[0].score
    discover(g, "Pyrrhis")
    assert g.state.discovery.tile_value == 2
    g.act(A.PlayEnvironment(g.hand_named(0, "Vast Land"), "Vast Land"))
    g.act(A.PlayLifeForms(((g.hand_named(0, "Embassy"), "Embassy"),)))
    assert g.state.players[0].score - before == 8
    assert g.state.discovery.stage == "explorer"
    g.act(A.PlayExplorer(g.hand_named(0, "Gavin's Raiders"), "Gavin's Raiders"))
    g.act(A.Pass())
    assert g.state.discovery is None
    assert g.state.players[0].score - before == 13
    assert gained(g, 0, "planets") == 8 and gained(g, 0, "explorers") == 5
    record = g.state.planets[(EAST, 0)]
    assert record.owner == 0 and not record.home
    assert record.cards == ["Pyrrhis", "Vast Land", "Embassy", "Gavin's Raiders"]
    # SPEC §8.1: the scored cards go to the discoverer's personal pile
    assert {"Vast Land", "Embassy", "Gavin's Raiders"} <= set(g.state.players[0].pile)


def test_discovery_example_b_llemmer_poisonous_atmosphere_blocks_life_form():
    """Rulebook example B: Llemmer (+1), the discoverer has no environment, the seat on the left
    plays Poisonous Atmosphere (-2): 1 x (1 - 2) = -1. SPEC §8.1 Decision: the rulebook's
    example then plays a 0 life form, but the card forbids life forms, so the engine skips
    the life form offer altogether."""
    g = land(2, "p1-a", [["Llemmer", "Embassy"], ["Poisonous Atmosphere"]])
    before = [p.score for p in g.state.players]
    discover(g, "Llemmer")
    assert g.seat == 0
    assert not any(isinstance(a, A.PlayEnvironment) and a.name == "Poisonous Atmosphere"
                   for a in g.legal(0))
    g.act(A.Pass())                      # Mary passes on the environment
    assert g.seat == 1                   # the offer moves to John, on her left
    poison = g.hand_named(1, "Poisonous Atmosphere")
    assert A.PlayEnvironment(poison, "Poisonous Atmosphere") in g.legal(1)
    g.act(A.PlayEnvironment(poison, "Poisonous Atmosphere"))
    d = g.state.discovery
    assert d.stage == "explorer" and d.life_forms == []     # no life form offer at all
    assert g.seat == 0
    assert not any(isinstance(a, A.PlayLifeForms) for a in g.legal(0))
    h = g.state.clone().hash()
    with pytest.raises(IllegalAction, match="life form"):
        apply(g.state, 0, A.PlayLifeForms(((g.hand_named(0, "Embassy"), "Embassy"),)))
    assert g.state.hash() == h
    assert g.state.players[0].score - before[0] == -1
    assert g.state.players[1].score == before[1]
    # the environment lies on Mary's planet and in her personal pile, not John's
    assert "Poisonous Atmosphere" in g.state.players[0].pile
    assert "Poisonous Atmosphere" not in g.state.players[1].pile


def test_environment_offer_passes_left_and_all_declining_gives_none():
    """SPEC §8.1: discoverer first, then each seat to the left; all pass -> no environment."""
    g = land(3, "p2-a", [["Cephei"], ["Water"], ["Vast Land"]])
    before = g.state.players[0].score
    discover(g, "Cephei")
    order = []
    while g.state.discovery.stage == "environment":
        order.append(g.seat)
        if g.seat == 1:   # seat 2 may not answer before seat 1 has
            h = g.state.hash()
            with pytest.raises(OutOfTurn):
                apply(g.state, 2, A.PlayEnvironment(g.hand_named(2, "Vast Land"), "Vast Land"))
            assert g.state.hash() == h
        g.act(A.Pass())
    assert order == [0, 1, 2]
    assert g.state.discovery.environment is None
    assert g.state.discovery.stage == "life_form" and g.seat == 0
    pass_all(g)
    assert g.state.players[0].score - before == 2 * 2   # tile 2 x Cephei 2 only


def test_environment_played_by_a_later_seat_closes_the_offer():
    g = land(4, "p2-a", [["Cephei"], [], ["Water"], ["Vast Land"]])
    before = g.state.players[0].score
    discover(g, "Cephei")
    g.act(A.Pass())
    g.act(A.Pass())
    assert g.seat == 2
    g.act(A.PlayEnvironment(g.hand_named(2, "Water"), "Water"))
    assert g.state.discovery.stage == "life_form" and g.seat == 0
    pass_all(g)
    assert g.state.players[0].score - before == 2 * (2 + 1)
    assert "Water" in g.state.players[0].pile


@pytest.mark.parametrize("planet, life, explorer, points", [
    ("Valkriegon", None, "Lord DeWar", 8),
    ("Cephei", None, "Lord DeWar", 4),
    ("Cephei", "Automata", "Giant Meema", 9),
    ("Cephei", "Society of Robots", "Giant Meema", 9),
    ("Cephei", "Embassy", "Giant Meema", 3),
    ("X'am", None, "Madam Maxine", 10),
    ("Cephei", None, "Madam Maxine", 5),
    ("Sherco", None, "Dr. Nevets Yahsel", 6),
])
def test_explorer_base_camp_and_follower_bonuses(planet, life, explorer, points):
    """SPEC §8.1: an explorer adds its value, or its bonus on its base camp / with followers."""
    hand = [planet, explorer] + ([life] if life else [])
    g = land(2, "p2-a", [hand])
    discover(g, planet)
    pass_all(g)                                   # environment
    if life:
        g.act(A.PlayLifeForms(((g.hand_named(0, life), life),)))
    else:
        pass_all(g)
    planets_before = gained(g, 0, "planets")
    g.act(A.PlayExplorer(g.hand_named(0, explorer), explorer))
    assert gained(g, 0, "explorers") == points
    assert gained(g, 0, "planets") == planets_before


def test_kaygus_is_not_offered_on_an_own_discovery():
    g = land(2, "p2-a", [["Cephei", "The Kaygus"]])
    discover(g, "Cephei")
    pass_all(g)
    pass_all(g)
    assert g.state.discovery.stage == "explorer"
    assert not any(isinstance(a, A.PlayExplorer) for a in g.legal(0))


# -- SPEC §8.3 galaxies --------------------------------------------------------------------
FILL = ["path-bend", "path-bend", "path-bend", "path-straight", "path-straight"]


def galaxy_game(tiles) -> Game:
    return Game(2, dealer=RiggedDealer(5, tiles=tiles))


def test_two_tile_galaxy_scores_two_for_its_probe_holder_and_probes_return():
    g = galaxy_game(["gal-cap", "deep", "deep", "gal-cap", "deep", "deep"])
    area = [(3, 4), (3, 5)]
    g.tiles([("gal-cap", (3, 4), 2)], away=area)        # galaxy edge facing south, D-6 open
    g.act(A.PlaceProbe((3, 4), 0))
    g.end_turn()
    assert g.seat == 1
    g.tiles([("gal-cap", (3, 5), 0)], away=area)        # seat 1 closes it
    assert g.state.board.galaxy_complete((3, 4), 0)
    assert gained(g, 0, "galaxies") == 2
    assert gained(g, 1, "galaxies") == 0
    assert g.state.players[0].probes == []


def test_three_tile_galaxy_scores_two_a_tile_and_tied_probes_both_score():
    g = galaxy_game(["gal-cap", "deep", "deep", "gal-band", "deep", "deep", "gal-cap", *FILL])
    area = [(3, 4), (3, 5), (3, 6)]
    g.tiles([("gal-cap", (3, 4), 2)], away=area)
    g.act(A.PlaceProbe((3, 4), 0))
    g.end_turn()
    g.tiles([("gal-band", (3, 5), 0)], away=area)
    g.act(A.PlaceProbe((3, 5), 0))
    g.end_turn()
    assert g.seat == 0
    g.tiles([("gal-cap", (3, 6), 0)], away=area)
    assert len(g.state.board.galaxy_squares((3, 5), 0)) == 3
    assert gained(g, 0, "galaxies") == 6
    assert gained(g, 1, "galaxies") == 6
    assert g.state.players[0].probes == [] and g.state.players[1].probes == []
    # SPEC §6.2: no probe may go into a galaxy that is already complete
    assert not any(isinstance(a, A.PlaceProbe) and a.square == (3, 6) for a in g.legal())


def test_completed_galaxy_without_probes_scores_nothing():
    g = galaxy_game(["gal-cap", "deep", "deep", "gal-cap", "deep", "deep"])
    g.tiles([("gal-cap", (3, 4), 2)], away=[(3, 4), (3, 5)])
    g.end_turn()
    g.tiles([("gal-cap", (3, 5), 0)], away=[(3, 4), (3, 5)])
    assert g.state.board.galaxy_complete((3, 4), 0)
    assert gained(g, 0, "galaxies") == gained(g, 1, "galaxies") == 0


def test_unfinished_galaxy_scores_one_a_tile_at_the_end():
    g = galaxy_game(["gal-cap", "deep", "deep", "gal-band", "deep", "deep"])
    area = [(3, 4), (3, 5), (3, 6)]
    g.tiles([("gal-cap", (3, 4), 2)], away=area)
    g.act(A.PlaceProbe((3, 4), 0))
    g.end_turn()
    g.tiles([("gal-band", (3, 5), 0)], away=area)
    g.end_turn()
    assert g.state.board.galaxy_state((3, 4), 0) == "open"
    finish_game(g.state)
    assert gained(g, 0, "probes at end") == 2
    assert gained(g, 1, "probes at end") == 0
    assert g.state.players[0].probes == []


def test_every_seat_with_a_probe_in_an_unfinished_galaxy_scores_its_tiles():
    """SPEC §9.1 (rulebook: "a player with a Space Probe in a Galaxy scores only 1 point for
    each Space tile in the Galaxy if the Galaxy is unfinished"): no majority at the end, and
    a seat's second probe there adds nothing."""
    g = galaxy_game(["gal-cap", "deep", "deep", "gal-band", "deep", "deep"])
    area = [(3, 4), (3, 5), (3, 6)]
    g.tiles([("gal-cap", (3, 4), 2)], away=area)
    g.act(A.PlaceProbe((3, 4), 0))
    g.end_turn()
    g.tiles([("gal-band", (3, 5), 0)], away=area)
    g.act(A.PlaceProbe((3, 5), 0))
    g.end_turn()
    g.state.players[0].probes.append(((3, 5), 0))     # rigged: seat 0 holds the majority, 2 to 1
    finish_game(g.state)
    assert gained(g, 0, "probes at end") == 2
    assert gained(g, 1, "probes at end") == 2


# -- SPEC §8.5, §9.1 stations --------------------------------------------------------------
def test_station_worth_five_with_four_neighbours_and_nine_when_surrounded():
    """Rulebook station examples A (5 so far, cannot be scored) and B (9, may be scored)."""
    tiles = ["deep", "gal-cap", "gal-cap",              # turn 1: station tile and two neighbours
             "gal-cap", "gal-cap", "deep",              # turn 2
             "deep", "deep", "path-bend"]               # turn 3
    g = Game(1, dealer=RiggedDealer(11, tiles=tiles))
    st = (3, 4)                                          # D-5, below the blue home
    ring = [(2, 3), (4, 3), (2, 4), (4, 4), (2, 5), (3, 5), (4, 5)]
    area = [st] + ring
    g.tiles([("deep", st, 0), ("gal-cap", (2, 3), 0), ("gal-cap", (4, 3), 0)], away=area)
    g.act(A.PlaceStation(st))
    assert g.state.board.station_value(st) == 4         # own tile, home, two caps
    g.end_turn()
    g.tiles([("gal-cap", (2, 4), 3), ("gal-cap", (4, 4), 1), ("deep", (2, 5), 0)], away=area)
    board = g.state.board
    assert board.station_value(st) == 7
    assert not board.surrounded(st)
    assert not any(isinstance(a, A.ScoreStation) for a in g.legal())
    h = g.state.hash()
    with pytest.raises(IllegalAction, match="surrounded"):
        apply(g.state, 0, A.ScoreStation(st))
    assert g.state.hash() == h
    g.end_turn()
    g.tiles([("deep", (3, 5), 0), ("deep", (4, 5), 0)], away=area)
    assert board.surrounded(st) and board.station_value(st) == 9
    before = g.state.players[0].score
    assert A.ScoreStation(st) in g.legal()
    g.act(A.ScoreStation(st))
    assert g.state.players[0].score - before == 9
    assert g.state.players[0].stations == []


def test_station_five_points_at_the_end_with_four_neighbours():
    """Station example A: own tile and four neighbours = 5, scored at the end (SPEC §9.1)."""
    tiles = ["deep", "gal-cap", "gal-cap", "gal-cap", "path-bend", "path-bend"]
    g = Game(1, dealer=RiggedDealer(12, tiles=tiles))
    st = (3, 4)
    area = [st, (2, 3), (4, 3), (2, 4), (4, 4), (2, 5), (3, 5), (4, 5)]
    g.tiles([("deep", st, 0), ("gal-cap", (2, 3), 0), ("gal-cap", (4, 3), 0)], away=area)
    g.act(A.PlaceStation(st))
    g.end_turn()
    g.tiles([("gal-cap", (2, 4), 3)], away=area)
    assert g.state.board.station_value(st) == 5
    finish_game(g.state)
    assert gained(g, 0, "stations") == 5
    assert g.state.players[0].stations == []


def test_suns_do_not_count_for_a_station():
    tiles = ["deep", "sun", "sun", "sun", "sun", "path-bend", "path-bend"]
    g = Game(1, dealer=RiggedDealer(13, tiles=tiles))
    st = (3, 4)
    g.tiles([("deep", st, 0), ("sun", (2, 4), 0), ("sun", (2, 3), 0), ("sun", (2, 5), 0),
             ("sun", (1, 4), 0)], away=[st, (2, 4), (1, 4)])
    g.act(A.PlaceStation(st))
    # D-5 touches the home tile and three suns: own tile + home = 2
    assert g.state.board.station_value(st) == 2
    finish_game(g.state)
    assert gained(g, 0, "stations") == 2


def test_no_station_on_a_sun():
    g = Game(1, dealer=RiggedDealer(14, tiles=["sun", "sun", "deep", "deep", "deep"]))
    g.tiles([("sun", (1, 0), 0), ("sun", (2, 0), 0)], away=[(1, 0), (2, 0)])
    assert not any(isinstance(a, A.PlaceStation) and a.square in [(1, 0), (2, 0)] for a in g.legal())
    h = g.state.hash()
    with pytest.raises(IllegalAction, match="sun"):
        apply(g.state, 0, A.PlaceStation((1, 0)))
    assert g.state.hash() == h


# -- SPEC §6.1 suns --------------------------------------------------------------------------
def test_suns_score_one_two_three_four_in_the_order_played():
    tiles = ["sun", "sun", "deep", "deep", "deep", "sun", "sun", "deep", *FILL]
    g = Game(2, dealer=RiggedDealer(15, tiles=tiles))
    g.tiles([("sun", (3, 4), 0), ("sun", (3, 5), 0)], away=[(3, 4), (3, 5), (2, 4), (2, 5)])
    assert gained(g, 0, "suns") == 1 + 2
    g.end_turn()
    g.tiles([("sun", (2, 4), 0), ("sun", (2, 5), 0)], away=[(3, 4), (3, 5), (2, 4), (2, 5)])
    assert gained(g, 1, "suns") == 3 + 4
    assert g.state.suns_drawn == 4


# -- SPEC §8.5, §9.1 pirates ---------------------------------------------------------------
def test_pirate_points_formula_values():
    assert [pirate_points(n) for n in range(1, 6)] == [1, 3, 6, 10, 15]


def test_seven_tile_pirate_path_scores_fifteen_at_the_end():
    """A1 corner planet, five path tiles B1..F1, a planet tile on G1: 7 tiles, 1+2+3+4+5."""
    tiles = ["path-straight", "path-straight", "path-straight",
             "path-straight", "path-straight-gal", "p1-a"]
    g = Game(1, dealer=RiggedDealer(16, tiles=tiles))
    row = [(1, 0), (2, 0), (3, 0)]
    g.tiles([("path-straight", sq, 1) for sq in row], away=[(x, 0) for x in range(8)])
    g.act(A.PlacePirate((2, 0), 0))
    g.end_turn()
    g.tiles([("path-straight", (4, 0), 1), ("path-straight-gal", (5, 0), 1), ("p1-a", (6, 0), 3)],
            away=[(x, 0) for x in range(8)])
    board = g.state.board
    assert board.path_state((2, 0), 0) == "complete"
    assert len(board.path_squares((2, 0), 0)) == 7
    assert g.state.players[0].pirates == [((2, 0), 0)]
    finish_game(g.state)
    assert gained(g, 0, "pirates") == 15
    assert g.state.players[0].pirates == []


def test_pirate_on_an_unfinished_path_scores_nothing():
    g = Game(1, dealer=RiggedDealer(17, tiles=["path-straight"] * 3))
    g.tiles([("path-straight", (x, 0), 1) for x in (1, 2, 3)], away=[(x, 0) for x in range(6)])
    g.act(A.PlacePirate((1, 0), 0))
    finish_game(g.state)
    assert gained(g, 0, "pirates") == 0


# -- SPEC §9.2 planet bonuses, §9.3 result ------------------------------------------------
def test_end_game_planet_bonus_example_worth_21():
    """Rulebook example: 3 regular + 1 home inside the sector (5), 2 regular + 3 home
    outside (16). Discovering ten planets by play is impractical, so the planet records are
    set directly (the original blue home is real); the bonus is the engine's."""
    g = Game(1)
    s = g.state
    assert s.planets[(HOME, 0)].home and s.planets[(HOME, 0)].owner == 0
    for sq in [(1, 1), (2, 4), (5, 0)]:                      # inside blue's sector
        s.planets[(sq, 0)] = PlanetRecord(0, False)
    for sq in [(8, 8), (1, 10)]:                              # outside, regular
        s.planets[(sq, 0)] = PlanetRecord(0, False)
    for sq in [(9, 3), (3, 9), (6, 2)]:                       # outside (G-3 is the centre cross)
        s.planets[(sq, 0)] = PlanetRecord(0, True)
    finish_game(s)
    assert gained(g, 0, "planet bonus") == 21
    assert s.over and s.winners == [0]


@pytest.mark.parametrize("margin, title", [
    (0, None), (1, "Space Hero"), (20, "Space Hero"), (21, "Space Warrior"), (40, "Space Warrior"),
    (41, "Space Emperor or Space Empress"), (60, "Space Emperor or Space Empress"),
    (61, "Lord of the Universe"), (200, "Lord of the Universe")])
def test_winner_title_by_margin(margin, title):
    assert title_for(margin) == title


@pytest.mark.parametrize("score, cards", [
    (0, []), (49, []), (50, [50]), (99, [50]), (100, [100]), (149, [100]), (150, [50, 100]),
    (260, [50, 100])])
def test_special_scoring_card_thresholds(score, cards):
    assert scoring_cards(score) == cards


def test_result_of_a_finished_game_names_winner_and_title():
    g = Game(3)
    s = g.state
    for p, pts in zip(s.players, [70, 45, 10]):
        p.gain(pts, "test")
    finish_game(s)   # only start homes: each seat gets 2 for its home inside its sector
    r = result(s)
    assert r["scores"] == [72, 47, 12]
    assert r["winners"] == [0] and r["margin"] == 25 and r["title"] == "Space Warrior"
    assert r["scoring_cards"] == [[50], [], []]


def test_tied_winners_get_no_title():
    g = Game(2)
    for p in g.state.players:
        p.gain(30, "test")
    finish_game(g.state)
    r = result(g.state)
    assert r["winners"] == [0, 1] and r["title"] is None


def test_pirate_on_a_loop_joining_the_two_planets_of_the_twin_tile():
    """The twin tile's two planets joined by a loop of five path tiles round C-4: a completed
    path (two different planets) with five path-only tiles, 1+2+3+4+5 = 15 (SPEC §9.1)."""
    tiles = ["p2-twin", "path-bend", "path-bend", "path-bend", "path-straight", "path-bend"]
    g = Game(1, dealer=RiggedDealer(18, tiles=tiles))
    twin = (2, 3)                                   # C-4, west of the blue home
    area = [twin, (2, 2), (2, 4), (1, 2), (1, 3), (1, 4)]
    g.tiles([("p2-twin", twin, 0), ("path-bend", (2, 2), 2), ("path-bend", (2, 4), 3)], away=area)
    g.end_turn()
    g.tiles([("path-bend", (1, 2), 1), ("path-straight", (1, 3), 0), ("path-bend", (1, 4), 0)],
            away=area)
    board = g.state.board
    assert board.path_state((1, 3), 0) == "complete"
    assert sorted(board.path_planets((1, 3), 0)) == [(twin, 0), (twin, 1)]
    assert len(board.path_middle_squares((1, 3), 0)) == 5
    g.act(A.PlacePirate((1, 3), 0))
    finish_game(g.state)
    assert gained(g, 0, "pirates") == 15


# -- SPEC §8.8 Electromagnetic Web ------------------------------------------------------------
def test_the_discoverer_cannot_web_its_own_planet():
    g = land(2, "p2-a", [["Pyrrhis", "Electromagnetic Web"]])
    discover(g, "Pyrrhis")
    own_web = g.hand_named(0, "Electromagnetic Web")
    assert A.PlayEnvironment(own_web, "Electromagnetic Web") not in g.legal(0)
    with pytest.raises(IllegalAction, match="against the discoverer"):
        apply(g.state, 0, A.PlayEnvironment(own_web, "Electromagnetic Web"))


def test_the_web_catches_the_discoverers_ship_and_the_discovery_still_scores():
    g = land(2, "p2-a", [["Pyrrhis", "Embassy"], ["Electromagnetic Web"]])
    discover(g, "Pyrrhis")
    g.act(A.Pass())                                        # the discoverer plays no environment
    web = g.hand_named(1, "Electromagnetic Web")
    g.act(A.PlayEnvironment(web, "Electromagnetic Web"))
    assert 1 not in g.state.ships                          # s1 is caught: out of play
    assert EAST in g.state.webs and "Star-T Ship" in g.state.players[0].pile
    before = g.state.players[0].score
    g.act(A.PlayLifeForms(((g.hand_named(0, "Embassy"), "Embassy"),)))
    assert g.state.players[0].score - before == 2 * (3 + 0 + 0)   # the planet still scores


def test_a_ship_landing_on_a_webbed_tile_is_caught_too():
    g = land(2, "p2-a", [["Pyrrhis"], ["Electromagnetic Web"]])
    discover(g, "Pyrrhis")
    g.act(A.Pass())
    g.act(A.PlayEnvironment(g.hand_named(1, "Electromagnetic Web"), "Electromagnetic Web"))
    pass_all(g)                                            # no life form
    g.act(A.Pass())                                        # no explorer
    state = g.state
    # A ship of seat 1 next to the web lands there on its turn: it is caught as well.
    from p2p_asv.state import Ship
    state.ships[9] = Ship(9, 1, 999, "Scout Ship", (5, 3))
    state.active, state.phase, state.moved = 1, MOVE, False
    apply(state, 1, A.Move(9, EAST))
    assert 9 not in state.ships and state.discovery is None
    assert "Scout Ship" in state.players[1].pile


# -- SPEC §8.9 Binary System --------------------------------------------------------------------
def _binary_position():
    """Seat 0 discovers p2-a on E-4; a straight path on E-3 joins it to an undiscovered p1-a on E-2."""
    from p2p_asv.tiles import TILE_BY_ID
    g = land(2, "p2-a", [["Pyrrhis", "Binary System", "Galileo", "Embassy"]])
    g.state.board.place(TILE_BY_ID["path-straight"], (4, 2), 0, setup=True)
    g.state.board.place(TILE_BY_ID["p1-a"], (4, 1), 2, setup=True)
    discover(g, "Pyrrhis")
    g.act(A.PlayEnvironment(g.hand_named(0, "Binary System"), "Binary System"))
    return g


def test_binary_system_discovers_the_planet_at_the_other_end_with_the_same_cards():
    g = _binary_position()
    g.act(A.PlayLifeForms(((g.hand_named(0, "Embassy"), "Embassy"),)))
    d = g.state.discovery
    assert d.stage == "binary" and g.state.players[0].breakdown["planets"] == 2 * (3 + 0 + 0)
    galileo = g.hand_named(0, "Galileo")
    assert A.BinaryDiscover(galileo, "Galileo", (4, 1), 0) in g.legal(0)
    g.act(A.BinaryDiscover(galileo, "Galileo", (4, 1), 0))
    record = g.state.planets[((4, 1), 0)]
    assert record.owner == 0 and record.cards == ["Galileo", "Binary System", "Embassy"]
    # the second planet: its own tile value 1 times (Galileo 3 + Binary System 0 + Embassy 0)
    assert g.state.players[0].breakdown["planets"] == 6 + 1 * 3
    assert g.state.discovery.stage == "explorer"


def test_binary_system_second_discovery_may_be_declined_and_needs_a_joined_planet():
    g = _binary_position()
    g.act(A.PlayLifeForms(((g.hand_named(0, "Embassy"), "Embassy"),)))
    galileo = g.hand_named(0, "Galileo")
    with pytest.raises(IllegalAction, match="not joined"):
        apply(g.state.clone(), 0, A.BinaryDiscover(galileo, "Galileo", (0, 0), 0))
    g.act(A.Pass())
    assert g.state.discovery.stage == "explorer" and ((4, 1), 0) not in g.state.planets
