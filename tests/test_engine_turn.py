"""Turn rules (SPEC §6), movement (SPEC §7) and the end of the game (SPEC §9.1), played
through the real engine with a rigged local dealer (tests/helpers_engine.py)."""
from __future__ import annotations

import pytest

from tests.helpers_engine import DISCARD, MOVE, REFILL, TILES, Game, RiggedDealer
from p2p_asv import actions as A
from p2p_asv.engine import apply, to_move
from p2p_asv.errors import IllegalAction
from p2p_asv.movement import destinations, king_distances, undiscovered_planets
from p2p_asv.selfplay import play_game
from p2p_asv.state import PlanetRecord, Ship

HOME = (3, 3)
EAST = (4, 3)
PLAIN = ["deep", "deep", "deep", "path-bend", "path-bend", "path-bend", "path-bend",
         "path-straight", "path-straight", "gal-corner", "gal-corner", "gal-corner"]
NO_PLANETS = ["Vast Land", "Water", "Embassy", "Negotiations", "Acid Rain", "Monarchy",
              "Republic", "Yottas", "Ice Age", "Methane Mix"]


def refused(g: Game, seat: int, action, match: str | None = None) -> IllegalAction:
    """The action is refused as illegal and the state is untouched (SPEC §11.3)."""
    h = g.state.hash()
    with pytest.raises(IllegalAction, match=match) as exc:
        apply(g.state, seat, action)
    assert g.state.hash() == h
    return exc.value


def draws_this_turn(g: Game) -> int:
    n = 0
    while any(isinstance(a, A.DrawTile) for a in g.legal()):
        g.act(A.DrawTile(0))
        n += 1
    return n


# -- SPEC §6.1 tiles ---------------------------------------------------------------------
@pytest.mark.parametrize("players, tiles", [(1, 3), (2, 3), (3, 2), (4, 2)])
def test_tiles_per_turn(players, tiles):
    g = Game(players, dealer=RiggedDealer(1, tiles=PLAIN))
    assert g.state.phase == TILES and g.state.tiles_owed == tiles
    assert draws_this_turn(g) == tiles
    assert len(g.state.drawn) == tiles


def test_sun_and_quest_tiles_give_another_draw_and_the_quest_goes_to_the_drawer_only():
    g = Game(2, dealer=RiggedDealer(2, tiles=["quest", "deep", "sun", "deep", "deep"]))
    assert draws_this_turn(g) == 5
    names = [g.state.names[h] for h in g.state.drawn]
    assert names == ["deep", "sun", "deep", "deep"]          # the quest tile is not placed
    quests = g.state.players[0].quests
    assert len(quests) == 1 and g.state.players[1].quests == []
    q = quests[0]
    assert q not in g.state.names                            # identity stays hidden ...
    assert g.views[0].known.get(q) in ("Peace Mission", "Strong Empire", "Trade Mission")
    assert q not in g.views[1].known                         # ... and reached seat 0 alone
    assert not any(isinstance(a, A.PlaceTile) and g.state.names[a.tile] == "quest"
                   for a in g.legal())


def test_placing_before_all_tiles_are_drawn_is_refused():
    g = Game(2, dealer=RiggedDealer(3, tiles=PLAIN))
    g.act(A.DrawTile(0))
    h = g.state.drawn[0]
    assert not any(isinstance(a, A.PlaceTile) for a in g.legal())
    refused(g, 0, A.PlaceTile(h, (4, 3), 0), "draw all")


def test_next_during_tiles_is_refused():
    g = Game(2, dealer=RiggedDealer(3, tiles=PLAIN))
    refused(g, 0, A.Next(), "tiles")


# -- SPEC §6.2 pieces ----------------------------------------------------------------------
def test_only_one_piece_per_turn():
    g = Game(1, dealer=RiggedDealer(4, tiles=["deep", "gal-cap", "path-straight"]))
    g.tiles([("deep", (3, 4), 0), ("gal-cap", (4, 4), 1), ("path-straight", (1, 0), 1)],
            away=[(3, 4), (4, 4)])
    g.act(A.PlaceStation((3, 4)))
    assert not any(isinstance(a, (A.PlaceProbe, A.PlaceStation, A.PlacePirate, A.NewShip, A.Upgrade))
                   for a in g.legal())
    refused(g, 0, A.PlaceProbe((4, 4), 0), "one piece")
    refused(g, 0, A.PlacePirate((1, 0), 0), "one piece")


def test_pieces_only_on_tiles_placed_this_turn_and_pirates_not_on_planet_tiles():
    g = Game(1, dealer=RiggedDealer(5, tiles=["deep", "gal-cap", "path-straight",
                                               "p1-a", "deep", "deep"]))
    g.tiles([("deep", (3, 4), 0), ("gal-cap", (4, 4), 1), ("path-straight", (1, 0), 1)],
            away=[(3, 4), (4, 4), (1, 0), (2, 0)])
    g.end_turn()
    g.tiles([("p1-a", (2, 0), 3)], away=[(3, 4), (4, 4), (1, 0), (2, 0)])
    refused(g, 0, A.PlaceStation((3, 4)), "placed this turn")
    refused(g, 0, A.PlaceProbe((4, 4), 0), "placed this turn")
    refused(g, 0, A.PlacePirate((1, 0), 0), "placed this turn")
    refused(g, 0, A.PlacePirate((2, 0), 0), "without a planet")
    assert not any(isinstance(a, A.PlacePirate) and a.square == (2, 0) for a in g.legal())
    assert A.PlaceStation((2, 0)) in g.legal()


def test_two_stations_at_most():
    g = Game(1, dealer=RiggedDealer(6, tiles=PLAIN))
    for turn in range(3):
        g.tiles()
        sq = g.state.placed_this_turn[0]
        if turn < 2:
            g.act(A.PlaceStation(sq))
            g.end_turn()
    assert len(g.state.players[0].stations) == 2
    assert not any(isinstance(a, A.PlaceStation) for a in g.legal())
    refused(g, 0, A.PlaceStation(sq), "two stations")


def test_pirate_is_removed_the_moment_its_path_is_ruined():
    g = Game(1, dealer=RiggedDealer(7, tiles=["path-straight", "deep", "deep",
                                               "path-end-mid", "deep", "gal-cap"]))
    away = [(x, 0) for x in range(5)]
    g.tiles([("path-straight", (1, 0), 1)], away=away)
    g.act(A.PlacePirate((1, 0), 0))
    g.end_turn()
    g.draw_all()
    h = next(h for h in g.state.drawn if g.state.names[h] == "path-end-mid")
    g.act(A.PlaceTile(h, (2, 0), 3))           # the path now stops mid-tile on C-1
    assert g.state.board.path_state((1, 0), 0) == "ruined"
    assert g.state.phase == TILES                # still placing: removal is immediate
    assert g.state.players[0].pirates == []


def ship_game() -> Game:
    """Seat 0 (alone) has drawn Colony Ship, then Star Cruiser and Fighter Ship from the Port."""
    g = Game(1, dealer=RiggedDealer(8, tiles=PLAIN, port=["Colony Ship", "Star Cruiser", "Fighter Ship"]))
    g.tiles()
    g.to_phase(DISCARD)
    g.act(A.Discard((g.state.players[0].hand[0],)))
    g.act(A.DrawCard("port"))
    g.end_turn()
    return g


def test_new_ship_only_on_an_own_home_planet():
    g = ship_game()
    g.tiles()
    colony = g.hand_named(0, "Colony Ship")
    ships = [a for a in g.legal() if isinstance(a, A.NewShip)]
    assert [a.square for a in ships] == [HOME]
    refused(g, 0, A.NewShip(colony, "Colony Ship", (4, 4)), "home planet")
    refused(g, 0, A.NewShip(colony, "Colony Ship", (9, 9)), "home planet")  # absent green's home
    g.act(A.NewShip(colony, "Colony Ship", HOME))
    assert [s.name for s in g.state.ships_of(0)] == ["Star-T Ship", "Colony Ship"]


def test_two_ships_one_above_m2_and_upgrades_need_a_higher_m():
    g = ship_game()
    g.tiles()
    g.act(A.NewShip(g.hand_named(0, "Colony Ship"), "Colony Ship", HOME))
    g.to_phase(DISCARD)
    g.act(A.Discard((g.state.players[0].hand[0],)))
    g.act(A.DrawCard("port"))
    g.act(A.DrawCard("port"))
    g.end_turn()
    g.tiles()
    cruiser, fighter = g.hand_named(0, "Star Cruiser"), g.hand_named(0, "Fighter Ship")
    star_t, colony = [s.id for s in g.state.ships_of(0)]
    refused(g, 0, A.NewShip(fighter, "Fighter Ship", HOME), "two ships")
    refused(g, 0, A.Upgrade(star_t, cruiser, "Star Cruiser"), "M\\+2")
    refused(g, 0, A.Upgrade(colony, fighter, "Fighter Ship"), "higher M")
    legal = g.legal()
    assert A.Upgrade(star_t, fighter, "Fighter Ship") in legal
    assert A.Upgrade(star_t, cruiser, "Star Cruiser") not in legal
    assert A.Upgrade(colony, cruiser, "Star Cruiser") not in legal   # 3 is not higher than 4
    g.act(A.Upgrade(star_t, fighter, "Fighter Ship"))
    assert g.state.ships[star_t].name == "Fighter Ship"
    assert "Star-T Ship" in g.state.players[0].pile


# -- SPEC §7 movement ------------------------------------------------------------------------
def test_king_moves_within_the_allowance_and_worm_holes_are_free():
    g = Game(1)
    dist = king_distances(g.state, (4, 4), 1)       # E-5, next to the F-6 worm hole
    assert dist[(5, 5)] == 1
    for hole in [(5, 7), (7, 5), (7, 7)]:           # out of any other uncovered worm hole
        assert dist[hole] == 1
    assert (8, 8) not in dist and (2, 2) not in dist
    scout = Ship(99, 0, -1, "Scout Ship", (4, 4))
    ends = destinations(g.state, scout, may_discover=False)
    assert (7, 7) in ends and (3, 5) in ends and (8, 8) not in ends


def test_ships_never_pass_through_suns():
    tiles = ["deep", "sun", "sun", "sun", "sun", "path-bend", "path-bend"]
    g = Game(1, dealer=RiggedDealer(9, tiles=tiles))
    g.tiles([("deep", (3, 4), 0), ("sun", (2, 4), 0), ("sun", (2, 3), 0), ("sun", (2, 5), 0),
             ("sun", (1, 4), 0)], away=[(3, 4), (2, 4), (1, 4), (1, 3), (1, 5)])
    suns = {(2, 3), (2, 4), (2, 5), (1, 4)}
    dist = king_distances(g.state, (3, 4), 4)
    assert not suns & set(dist)
    assert dist[(1, 3)] == 3                       # round the sun, not 2 straight through it
    saucer = Ship(99, 0, -1, "Flying Saucer", (3, 4))
    ends = destinations(g.state, saucer, may_discover=False)
    assert (1, 3) not in ends and (1, 5) not in ends and not suns & set(ends)


def test_only_scouts_and_saucers_stop_in_empty_deep_space():
    g = Game(1)
    for name, stops in [("Scout Ship", True), ("Flying Saucer", True), ("Star-T Ship", False),
                        ("Fighter Ship", False), ("Colony Ship", False)]:
        ends = destinations(g.state, Ship(99, 0, -1, name, HOME), may_discover=False)
        assert ((2, 2) in ends) is stops, name
    star_t = g.state.ships_of(0)[0]
    assert destinations(g.state, star_t, may_discover=False) == []


def path_trip_game() -> Game:
    """A completed path A-1 .. G-1 (corner planet, five path tiles, a 1-point planet); seat 1
    owns a pirate on E-1. Seat 0's s1 is then put on G-1, discovered by seat 0 (set directly:
    reaching it by play would take many turns)."""
    tiles = ["path-straight"] * 3 + ["path-straight", "path-straight-gal", "p1-a"]
    g = Game(2, dealer=RiggedDealer(10, tiles=tiles))
    away = [(x, y) for x in range(8) for y in range(2)]
    g.tiles([("path-straight", (x, 0), 1) for x in (1, 2, 3)], away=away)
    g.end_turn()
    g.tiles([("path-straight", (4, 0), 1), ("path-straight-gal", (5, 0), 1), ("p1-a", (6, 0), 3)],
            away=away)
    g.act(A.PlacePirate((4, 0), 0))
    g.end_turn()
    assert g.state.board.path_state((4, 0), 0) == "complete"
    g.state.planets[((6, 0), 0)] = PlanetRecord(0, False, ["Llemmer"])
    g.state.ships[1].square = (6, 0)
    return g


def test_path_trip_blocked_by_an_opponents_pirate_but_not_by_ones_own():
    g = path_trip_game()
    ship = g.state.ships[1]
    assert (0, 0) not in destinations(g.state, ship, may_discover=True)
    g.state.players[0].pirates, g.state.players[1].pirates = g.state.players[1].pirates, []
    assert (0, 0) in destinations(g.state, ship, may_discover=True)
    # SPEC §7.1: the corner planet is undiscovered; without a planet card it is no destination
    assert (0, 0) not in destinations(g.state, ship, may_discover=False)
    g.state.players[0].pirates = []
    assert (0, 0) in destinations(g.state, ship, may_discover=True)


def test_shuttles_move_only_along_paths():
    g = path_trip_game()
    shuttle = Ship(99, 0, -1, "Space Shuttle", (6, 0))
    assert destinations(g.state, shuttle, may_discover=True) == []        # pirate in the way
    g.state.players[1].pirates = []
    assert destinations(g.state, shuttle, may_discover=True) == [(0, 0)]
    at_home = Ship(98, 0, -1, "Space Shuttle", HOME)
    assert destinations(g.state, at_home, may_discover=True) == []


def test_no_landing_on_an_undiscovered_planet_without_a_planet_card():
    g = Game(2, dealer=RiggedDealer(11, tiles=["p2-a", "deep", "deep"], hands=[NO_PLANETS]))
    g.tiles([("p2-a", EAST, 0)], away=[HOME])
    g.to_phase(MOVE)
    assert [a for a in g.legal() if not isinstance(a, A.PlaySpecial)] == [A.Next()]   # no move
    g2 = Game(2, dealer=RiggedDealer(11, tiles=["p2-a", "deep", "deep"], hands=[["Rho"] + NO_PLANETS[1:]]))
    g2.tiles([("p2-a", EAST, 0)], away=[HOME])
    g2.to_phase(MOVE)
    assert A.Move(1, EAST) in g2.legal()


def test_absent_colours_home_planets_are_undiscovered_and_can_be_discovered():
    g = Game(2, dealer=RiggedDealer(12, tiles=PLAIN, hands=[["Mattaimee"]]))
    homes = {sq for (sq, _), r in g.state.planets.items() if r.home}
    assert homes == {HOME, (9, 9)}
    assert undiscovered_planets(g.state, (9, 3)) == [0]       # yellow, absent
    assert undiscovered_planets(g.state, (3, 9)) == [0]       # red, absent
    g.tiles(away=[(9, 3), (8, 3)])
    g.to_phase(MOVE)
    g.state.ships[1].square = (8, 3)   # put next to J-4 directly; flying there takes turns
    assert A.Move(1, (9, 3)) in g.legal()
    g.act(A.Move(1, (9, 3)))
    before = g.state.players[0].score
    g.act(A.Discover(g.hand_named(0, "Mattaimee"), "Mattaimee", 0))
    while g.state.discovery.stage != "explorer":
        g.act(A.Pass())
    assert g.state.players[0].score - before == 4 * 2
    record = g.state.planets[((9, 3), 0)]
    assert record.owner == 0 and record.home


# -- SPEC §6.4-6.5 discard and refill ------------------------------------------------------
def test_refill_up_to_ten():
    g = Game(1, dealer=RiggedDealer(13, tiles=PLAIN))
    g.tiles()
    g.to_phase(DISCARD)
    refused(g, 0, A.Discard(tuple(g.state.players[0].hand[:2])), "exactly one")
    g.act(A.Discard((g.state.players[0].hand[0],)))
    assert g.state.phase == REFILL
    g.act(A.DrawCard("refuel"))
    assert len(g.state.players[0].hand) == 10
    assert not any(isinstance(a, A.DrawCard) for a in g.legal())
    refused(g, 0, A.DrawCard("refuel"), "cannot draw")
    refused(g, 0, A.DrawCard("port"), "cannot draw")


def test_alien_ruins_refill_up_to_twelve():
    g = Game(2, dealer=RiggedDealer(14, tiles=["p2-a", "deep", "deep"], hands=[["Cephei", "Alien Ruins"]]))
    g.tiles([("p2-a", EAST, 0)], away=[HOME])
    g.to_phase(MOVE)
    g.act(A.Move(1, EAST))
    g.act(A.Discover(g.hand_named(0, "Cephei"), "Cephei", 0))
    while g.state.discovery.stage == "environment":
        g.act(A.Pass())
    g.act(A.PlayLifeForms(((g.hand_named(0, "Alien Ruins"), "Alien Ruins"),)))
    g.act(A.Pass())
    assert "Alien Ruins" in g.state.players[0].continuing
    g.to_phase(DISCARD)
    g.act(A.Discard((g.state.players[0].hand[0],)))
    while any(isinstance(a, A.DrawCard) for a in g.legal()):
        g.act(A.DrawCard("refuel"))
    assert len(g.state.players[0].hand) == 12


def test_space_junk_is_reshuffled_into_refuel_under_fresh_handles():
    g = Game(1, dealer=RiggedDealer(15, tiles=PLAIN))
    g.tiles()
    g.to_phase(DISCARD)
    g.act(A.Discard((g.state.players[0].hand[0],)))
    s = g.state
    # Emptying 98 Refuel cards by play is impractical: move four of them to Space Junk.
    s.decks["junk"] += s.decks["refuel"][:4]
    s.decks["refuel"] = []
    junk = list(s.decks["junk"])
    names = sorted(g.dealer.identity[h] for h in junk)
    first_fresh = s.next_handle
    apply(s, 0, A.DrawCard("refuel"))
    request = s.pending[0]
    assert request.kind == "shuffle" and request.deck == "refuel"
    assert request.source == tuple(junk) and request.contents is None
    assert list(request.handles) == list(range(first_fresh, first_fresh + 5))
    assert s.decks["junk"] == []
    g.settle()
    drawn = s.players[0].hand[-1]
    assert drawn >= first_fresh and drawn not in junk
    assert g.views[0].known[drawn] in names
    assert len(s.decks["refuel"]) == 4 and min(s.decks["refuel"]) >= first_fresh
    assert not set(junk) & set(s.names)          # no old identity became public


# -- SPEC §9.1 end of game -----------------------------------------------------------------
@pytest.mark.parametrize("players, seed", [(1, 3), (2, 4), (4, 5)])
def test_game_ends_after_the_turn_in_which_the_last_tile_is_drawn(players, seed):
    seen = {"last_draw_turn": None, "seat": None, "after": []}

    def watch(state, seat, action):
        if isinstance(action, A.DrawTile) and state.tiles_left() == 0:
            seen["last_draw_turn"], seen["seat"] = state.turn, seat
        elif seen["last_draw_turn"] is not None and seat >= 0 and seat == state.active:
            seen["after"].append((seat, action))   # others only answer windows (SPEC §14.2)

    state, summary = play_game(players, seed, ["random"] * players, on_event=watch)
    assert state.over and to_move(state) is None
    assert state.turn == seen["last_draw_turn"]
    assert {s for s, _ in seen["after"]} == {seen["seat"]}
    assert state.active == seen["seat"]
    assert seen["after"][-1][1] == A.Next()             # the drawer finished the turn
    assert state.winners == [p.seat for p in state.players if p.score == max(q.score for q in state.players)]
    refused_state = state.hash()
    with pytest.raises(IllegalAction, match="over"):
        apply(state, 0, A.Next())
    assert state.hash() == refused_state


def test_pirate_refused_next_to_an_opponent_planet_but_not_further_along_the_path():
    """SPEC §6.2 (rulebook: the pirate's tile "can be connected to another Space tile that
    contains either an undiscovered Planet, a Planet that belongs to the player placing the
    Pirate, or a Space Path"): only the tiles the new tile's path runs into are checked."""
    from p2p_asv.state import PlanetRecord
    from p2p_asv.tile_model import DEEP, PATH, PathSegment, Tile
    from p2p_asv.turn import opponent_planet_next_to
    from p2p_asv.geometry import parse_square
    g = Game(2)
    state = g.state
    end = Tile("t-end", "planet", 1, (DEEP, PATH, DEEP, DEEP), paths=(PathSegment((1,), "planet", 0),),
               planets=(1,))
    middle = Tile("t-mid", "path", 1, (DEEP, PATH, DEEP, PATH), paths=(PathSegment((1, 3)),),
                  path_shape="straight")
    a, b, c = parse_square("B-12"), parse_square("C-12"), parse_square("D-12")
    state.board.place(end, a, 0, setup=True)
    state.board.place(middle, b, 0, setup=True)
    state.board.place(middle, c, 0, setup=True)
    assert not opponent_planet_next_to(state, 0, b, 0)   # undiscovered: allowed
    state.planets[(a, 0)] = PlanetRecord(0, False)
    assert not opponent_planet_next_to(state, 0, b, 0)   # own planet: allowed
    state.planets[(a, 0)] = PlanetRecord(1, False)
    assert opponent_planet_next_to(state, 0, b, 0)       # another seat's planet next to it: refused
    assert not opponent_planet_next_to(state, 0, c, 0)   # one tile further it joins a path: allowed
    g.tiles(away=[a, b, c])
    state.placed_this_turn += [b, c]                     # rigged: as if placed this turn
    assert A.PlacePirate(c, 0) in g.legal() and A.PlacePirate(b, 0) not in g.legal()
    with pytest.raises(IllegalAction, match="connect to another player's planet"):
        apply(state.clone(), 0, A.PlacePirate(b, 0))
    g.act(A.PlacePirate(c, 0))
    assert state.players[0].pirates == [(c, 0)]


def _draw_port(g: Game) -> None:
    g.to_phase(DISCARD)
    g.act(A.Discard((g.state.players[0].hand[0],)))
    g.act(A.DrawCard("port"))
    g.end_turn()
    g.tiles()


def test_a_seat_has_one_star_t_piece():
    """SPEC §6.2: "All pieces must come from your supply": a second Star-T card finds no piece."""
    g = Game(1, dealer=RiggedDealer(8, tiles=PLAIN, port=["Star-T Ship", "Space Shuttle", "Fighter Ship"]))
    g.tiles()
    _draw_port(g)
    star_t = g.hand_named(0, "Star-T Ship")
    first = g.state.ships_of(0)[0].id
    assert not any(isinstance(a, A.NewShip) and a.card == star_t for a in g.legal())
    refused(g, 0, A.NewShip(star_t, "Star-T Ship", HOME), "one Star-T")
    _draw_port(g)
    g.act(A.NewShip(g.hand_named(0, "Space Shuttle"), "Space Shuttle", HOME))
    second = g.state.ships_of(0)[1].id
    _draw_port(g)
    refused(g, 0, A.Upgrade(second, star_t, "Star-T Ship"), "one Star-T")
    g.act(A.Upgrade(first, g.hand_named(0, "Fighter Ship"), "Fighter Ship"))
    g.end_turn()
    g.tiles()                                          # the Star-T piece is back in the supply
    assert A.Upgrade(second, star_t, "Star-T Ship") in g.legal()
