"""Special Action cards and response windows, played through the real engine (SPEC §14).

Positions come from real actions; the rigged dealer only decides which tiles and cards come
up. Games here answer every window by hand (auto_pass off), so each poll is visible.
"""
from __future__ import annotations

import pytest

from tests.helpers_engine import MOVE, PLACE_PIECE, REFILL, TILES, Game, RiggedDealer
from p2p_asv import actions as A
from p2p_asv.engine import apply, parse_action
from p2p_asv.errors import IllegalAction, MalformedAction, OutOfTurn
from p2p_asv.geometry import square_name
from p2p_asv.state import PlanetRecord

HOME = (3, 3)          # D-4, blue home; seat 0's Star-T ship is s1
EAST = (4, 3)          # E-4: a planet tile placed here is one king step from s1


def special(g: Game, seat: int, name: str, *args: str) -> A.PlaySpecial:
    return A.PlaySpecial(g.hand_named(seat, name), name, tuple(args))


def pass_window(g: Game) -> list[int]:
    """Every seat asked by the innermost window passes; returns who was asked, in order."""
    top = g.state.polls[-1]
    asked = []
    while g.state.polls and g.state.polls[-1] is top:
        asked.append(g.seat)
        g.act(A.Pass())
    return asked


def game(players: int, hands, tiles=("deep", "deep", "deep"), seed: int = 3, config=None) -> Game:
    return Game(players, dealer=RiggedDealer(seed, tiles=list(tiles), hands=hands), config=config,
                auto_pass=False)


def land(players: int, planet_tile: str, hands, seed: int = 3) -> Game:
    """Seat 0 places `planet_tile` on E-4 and moves s1 onto it; the move's window is passed."""
    g = game(players, hands, tiles=[planet_tile, "deep", "deep"], seed=seed)
    g.tiles([(planet_tile, EAST, 0)], away=[HOME])
    g.to_phase(MOVE)
    g.act(A.Move(1, EAST))
    assert g.state.polls[-1].kind == "moved"
    assert pass_window(g) == [(0 + i) % players for i in range(1, players)]
    assert g.state.discovery.stage == "planet"
    return g


def discover(g: Game, name: str) -> None:
    g.act(A.Discover(g.hand_named(0, name), name, 0))
    assert g.state.polls[-1].kind == "planet"


def example_nine(players: int = 2, others=(["Acid Rain"],), mine=()) -> Game:
    """The rulebook's Acid Rain example up to the score: a 3-point tile, +2 planet card, +0
    environment, +1 life form: 3 x (2 + 0 + 1) = 9."""
    hands = [["Cephei", "Very Cold!", "Domed Cities", *mine], *others]
    g = land(players, "p3-a", hands)
    discover(g, "Cephei")
    pass_window(g)
    g.act(A.PlayEnvironment(g.hand_named(0, "Very Cold!"), "Very Cold!"))
    g.act(A.PlayLifeForms(((g.hand_named(0, "Domed Cities"), "Domed Cities"),)))
    assert g.state.polls[-1].kind == "life"
    pass_window(g)
    assert g.state.discovery.scored == 9 and g.state.polls[-1].kind == "scored"
    return g


# -- SPEC §14.6 Acid Rain, and the response window of §14.2-14.3 ---------------------------------
def test_acid_rain_turns_the_rulebooks_nine_into_five():
    g = example_nine()
    before = g.state.players[0].score
    acid = special(g, 1, "Acid Rain")
    assert acid in g.legal(1)
    g.act(acid)
    assert g.state.polls[-1].kind == "respond" and g.seat == 0   # the victim may answer
    g.act(A.Pass())
    assert g.state.players[0].score - before == 5 - 9
    assert g.state.discovery.scored == 5
    record = g.state.planets[(EAST, 0)]
    assert "Acid Rain" in record.cards and "Acid Rain" in g.state.players[0].pile
    assert acid.card not in g.state.decks["junk"]          # it stays with the planet
    assert g.state.discovery.stage == "explorer" and g.seat == 0


def test_peace_talks_cancels_acid_rain_and_both_go_to_space_junk():
    g = example_nine(mine=["Peace Talks"])
    acid = special(g, 1, "Acid Rain")
    g.act(acid)
    peace = special(g, 0, "Peace Talks")
    assert peace in g.legal(0)
    g.act(peace)
    assert [p.kind for p in g.state.polls] == ["scored", "respond", "respond"] and g.seat == 1
    g.act(A.Pass())
    assert g.state.discovery.scored == 9 and not g.state.polls
    assert {acid.card, peace.card} <= set(g.state.decks["junk"])
    assert 0 not in g.state.specials_used and 1 in g.state.specials_used   # R cards are free


def test_a_cancel_can_itself_be_cancelled():
    """Time Warp on Acid Rain, answered by the other Time Warp: Acid Rain stands."""
    g = example_nine(mine=["Time Warp"], others=(["Acid Rain", "Time Warp"],))
    g.act(special(g, 1, "Acid Rain"))
    g.act(special(g, 0, "Time Warp"))
    g.act(special(g, 1, "Time Warp"))
    assert len(g.state.polls) == 4 and g.seat == 0
    g.act(A.Pass())                       # nobody answers the second Time Warp
    # the first Time Warp is cancelled; seat 0 has already answered Acid Rain, which stands
    assert not g.state.polls and g.state.discovery.scored == 5


def test_every_other_seat_is_polled_whether_or_not_it_holds_a_card():
    g = land(4, "p2-a", [["Cephei"], [], [], []])       # nobody holds a Special Action
    discover(g, "Cephei")
    assert pass_window(g) == [0, 1, 2, 3]               # discoverer first, then to the left


def test_out_of_turn_answers_and_windows_are_refused_out_of_order():
    g = example_nine(others=(["Acid Rain"], ["Time Warp"]), players=3)
    h = g.state.hash()
    with pytest.raises(OutOfTurn):
        apply(g.state, 2, special(g, 2, "Time Warp"))
    with pytest.raises(IllegalAction, match="window"):
        apply(g.state, 1, A.Next())
    with pytest.raises(IllegalAction, match="answers another card"):
        apply(g.state, 1, A.PlaySpecial(g.hand_named(1, "Acid Rain"), "Time Warp"))
    assert g.state.hash() == h


# -- SPEC §14.3 Conspiracy ------------------------------------------------------------------------
def shift_ready(players: int, hands) -> Game:
    g = game(players, hands)
    g.tiles(away=[HOME])
    assert g.state.phase == PLACE_PIECE
    return g


def test_conspiracy_redirect_is_answered_by_the_third_player():
    g = shift_ready(3, [["Shift of Funds"], ["Conspiracy"], ["Time Warp"]])
    shift = special(g, 0, "Shift of Funds", "@1")
    g.act(shift)
    assert g.seat == 1
    # no redirect back to the player who played the card
    assert special(g, 1, "Conspiracy", "@0") not in g.legal(1)
    with pytest.raises(IllegalAction, match="redirected to the player who played"):
        apply(g.state.clone(), 1, special(g, 1, "Conspiracy", "@0"))
    g.act(special(g, 1, "Conspiracy", "@2"))
    assert pass_window(g) == [2, 0]                     # nobody stops the redirect
    top = g.state.polls[-1]
    assert top.action.args == ("@2",) and top.targets == (2,) and top.asked == 0
    assert g.seat == 1
    g.act(A.Pass())
    assert g.seat == 2                                  # the new target answers in turn
    g.act(special(g, 2, "Time Warp"))
    pass_window(g)
    assert not g.state.polls and g.state.skips == []    # cancelled
    assert shift.card in g.state.decks["junk"]
    # SPEC §14.4: cancelled or not, the Only Action card leaves only the tiles
    assert g.state.only_action and g.legal(0) == [A.Next()]


def test_conspiracy_cancels_a_card_played_on_you_but_not_one_on_others():
    g = shift_ready(3, [["Shift of Funds"], ["Conspiracy"], []])
    g.act(special(g, 0, "Shift of Funds", "@2"))
    assert g.seat == 1 and g.legal(1) == [A.Pass()]     # seat 1 holds Conspiracy but is not the target
    with pytest.raises(IllegalAction, match="only a card played on you"):
        apply(g.state.clone(), 1, special(g, 1, "Conspiracy"))
    g = shift_ready(3, [["Shift of Funds"], ["Conspiracy"], []])
    g.act(special(g, 0, "Shift of Funds", "@1"))
    g.act(special(g, 1, "Conspiracy"))                   # cancel
    pass_window(g)
    assert not g.state.polls and g.state.skips == []


# -- SPEC §14.4 one Special Action a turn, Sneak Attack -------------------------------------------
def test_one_special_action_a_turn_and_sneak_attack_closes_every_window():
    g = shift_ready(2, [["Sneak Attack", "Shift of Funds", "Meteor Shower", "Cyber Jump"],
                        ["Time Warp", "Conspiracy"]])
    g.act(special(g, 0, "Sneak Attack"))
    assert not g.state.polls and g.state.sneak
    g.act(special(g, 0, "Shift of Funds", "@1"))
    assert not g.state.polls and g.state.skips == [1]   # no window: seat 1 could not answer
    assert g.state.phase == TILES and g.state.tiles_owed == 1
    g.tiles(away=[HOME])
    legal = g.legal(0)
    assert any(isinstance(a, A.PlaceStation) for a in legal)   # "then continue with your turn"
    # Sneak Attack and the one card it allows: a third red card is refused (SPEC §14.4)
    assert not any(isinstance(a, A.PlaySpecial) for a in legal)
    with pytest.raises(IllegalAction, match="one Special Action a turn"):
        apply(g.state.clone(), 0, special(g, 0, "Meteor Shower", "D-4/0"))
    g.end_turn()
    assert g.state.active == 0                          # seat 1 missed its turn
    assert g.state.skips == [] and not g.state.sneak


def test_a_cancelled_shift_of_funds_leaves_only_the_tiles_a_successful_one_the_whole_turn():
    g = shift_ready(2, [["Shift of Funds"], ["Time Warp"]])
    g.act(special(g, 0, "Shift of Funds", "@1"))
    g.act(special(g, 1, "Time Warp"))
    g.act(A.Pass())                                     # seat 0 lets the Time Warp stand
    assert g.state.skips == [] and g.state.only_action == "Shift of Funds"
    assert g.legal(0) == [A.Next()]                     # only tiles, and none are owed
    g2 = shift_ready(2, [["Shift of Funds"], ["Time Warp"]])
    g2.act(special(g2, 0, "Shift of Funds", "@1"))
    g2.act(A.Pass())
    assert g2.state.skips == [1] and g2.state.only_action is None
    g2.tiles(away=[HOME])
    assert any(isinstance(a, A.PlaceStation) for a in g2.legal(0))


def test_a_second_special_action_is_refused_without_sneak_attack():
    g = shift_ready(2, [["Meteor Shower", "Cyber Jump"], []])
    g.act(special(g, 0, "Meteor Shower", "D-4/0"))
    pass_window(g)
    assert not any(isinstance(a, A.PlaySpecial) for a in g.legal(0))
    with pytest.raises(IllegalAction, match="one Special Action a turn"):
        apply(g.state.clone(), 0, special(g, 0, "Cyber Jump", "tile"))


def test_only_action_must_come_right_after_the_tiles():
    g = shift_ready(2, [["Shift of Funds"], []])
    g.to_phase(MOVE)                                    # only phases ended so far: still allowed
    assert special(g, 0, "Shift of Funds", "@1") in g.legal(0)
    g2 = shift_ready(2, [["Shift of Funds"], []])
    g2.act(A.PlaceStation(g2.state.placed_this_turn[0]))
    with pytest.raises(IllegalAction, match="right after the tiles"):
        apply(g2.state.clone(), 0, special(g2, 0, "Shift of Funds", "@1"))


# -- SPEC §14.6 the other public cards -----------------------------------------------------------
def test_cyber_jump_repeats_a_move_a_piece_a_tile_or_discards_two():
    g = shift_ready(2, [["Cyber Jump"], []])
    first, second = g.state.placed_this_turn[:2]
    g.act(A.PlaceStation(first))
    assert A.PlaceStation(second) not in g.legal(0)
    g.act(special(g, 0, "Cyber Jump", "piece"))
    pass_window(g)
    assert A.PlaceStation(second) in g.legal(0)
    g = shift_ready(2, [["Cyber Jump", "Water", "Embassy"], []])
    tiles_before = g.state.tiles_left()
    g.act(special(g, 0, "Cyber Jump", "tile"))
    pass_window(g)
    assert g.state.phase == TILES and g.state.tiles_owed == 1
    g.tiles(away=[HOME])
    assert g.state.tiles_left() == tiles_before - 1 and g.state.phase == PLACE_PIECE
    g = shift_ready(2, [["Cyber Jump", "Water", "Embassy"], []])
    water, embassy = g.hand_named(0, "Water"), g.hand_named(0, "Embassy")
    g.act(special(g, 0, "Cyber Jump", "discard", f"#{water}", f"#{embassy}"))
    pass_window(g)
    assert g.state.decks["junk"][-3:] == [water, embassy, g.state.decks["junk"][-1]]
    assert water not in g.state.players[0].hand and embassy not in g.state.players[0].hand


def test_cyber_jump_moves_a_ship_again():
    g = game(2, [["Cyber Jump"], []], tiles=["p2-a", "deep", "deep"])
    g.tiles([("p2-a", EAST, 0)], away=[HOME])
    g.state.planets[(EAST, 0)] = PlanetRecord(1, False)   # a discovered planet to fly to
    g.to_phase(MOVE)
    g.act(A.Move(1, EAST))
    pass_window(g)
    assert not any(isinstance(a, A.Move) for a in g.legal(0))
    g.act(special(g, 0, "Cyber Jump", "move"))
    pass_window(g)
    assert A.Move(1, HOME) in g.legal(0)


def test_meteor_shower_freezes_a_planets_tile_until_the_players_next_turn():
    g = shift_ready(2, [["Meteor Shower"], []])
    g.act(special(g, 0, "Meteor Shower", "D-4/0"))      # seat 0's own home with s1 on it
    pass_window(g)
    g.to_phase(MOVE)
    assert not any(isinstance(a, A.Move) and a.ship == 1 for a in g.legal(0))
    with pytest.raises(IllegalAction):
        apply(g.state.clone(), 0, A.Move(1, (4, 4)))
    g.end_turn()
    assert g.state.meteor                               # still frozen during seat 1's turn
    g.quiet_turn(away=[HOME])
    assert g.state.active == 0 and not g.state.meteor   # thawed when its player's turn comes


def test_worm_hole_sends_an_opponents_moving_ship_away_and_it_discovers_nothing():
    dealer = RiggedDealer(3, tiles=["p2-a", "deep", "deep"], hands=[["Cephei"], ["Worm Hole"]])
    g = Game(2, dealer=dealer, auto_pass=False)
    g.tiles([("p2-a", EAST, 0)], away=[HOME])
    g.to_phase(MOVE)
    g.act(A.Move(1, EAST))
    yellow_home = next(sq for (sq, _), r in sorted(g.state.planets.items()) if r.owner == 1)
    worm = special(g, 1, "Worm Hole", "s1", square_name(yellow_home))
    assert worm in g.legal(1)
    g.act(worm)
    pass_window(g)
    assert g.state.ships[1].square == yellow_home and g.state.discovery is None
    assert (EAST, 0) not in g.state.planets
    assert g.state.phase == MOVE and g.state.moved


def test_own_worm_hole_is_the_turns_move():
    g = shift_ready(2, [["Worm Hole"], []])
    g.to_phase(MOVE)
    yellow_home = next(sq for (sq, _), r in sorted(g.state.planets.items()) if r.owner == 1)
    g.act(special(g, 0, "Worm Hole", "s1", square_name(yellow_home)))
    pass_window(g)
    assert g.state.ships[1].square == yellow_home and g.state.moved
    assert not any(isinstance(a, A.Move) for a in g.legal(0))


def test_worm_hole_may_send_a_ship_to_a_webbed_planet_where_the_web_catches_it():
    """SPEC §14.6: "any already discovered Planet", webbed ones too; the Web then catches the
    ship as it catches every ship that lands there (§8.8)."""
    from tests.rig_helpers import planet
    dealer = RiggedDealer(3, tiles=["p2-a", "deep", "deep"], hands=[["Cephei"], ["Worm Hole"]])
    g = Game(2, dealer=dealer, auto_pass=False)
    g.tiles([("p2-a", EAST, 0)], away=[HOME])
    webbed = planet(g, "K-12", owner=1)
    g.state.webs.append(webbed)
    g.to_phase(MOVE)
    g.act(A.Move(1, EAST))
    worm = special(g, 1, "Worm Hole", "s1", "K-12")
    assert worm in g.legal(1)
    g.act(worm)
    pass_window(g)
    assert 1 not in g.state.ships and g.state.players[0].pile[-1] == "Star-T Ship"
    assert g.state.discovery is None and (EAST, 0) not in g.state.planets


def test_ufo_steals_the_planet_and_its_points_but_the_discoverer_plays_on():
    g = land(2, "p2-a", [["Cephei", "Water", "Gavin's Raiders"], ["U.F.O."]])
    discover(g, "Cephei")
    g.act(A.Pass())                                     # seat 0: no Lost Colony
    g.act(special(g, 1, "U.F.O."))
    g.act(A.Pass())                                     # seat 0 does not cancel
    assert g.state.planets[(EAST, 0)].owner == 1
    before = [p.score for p in g.state.players]
    g.act(A.PlayEnvironment(g.hand_named(0, "Water"), "Water"))   # the discoverer goes on
    while g.state.discovery.stage == "life_form":
        g.act(A.Pass())
    pass_window(g)                                      # the scored window (Acid Rain)
    assert g.state.players[1].score - before[1] == 2 * (2 + 1)
    assert g.state.players[0].score == before[0]
    assert not any(isinstance(a, A.PlayExplorer) for a in g.legal(0))   # not his planet
    assert "Water" in g.state.players[1].pile


def test_lost_colony_makes_the_discovered_planet_a_home_planet():
    g = land(2, "p2-a", [["Cephei", "Lost Colony"], []])
    discover(g, "Cephei")
    g.act(special(g, 0, "Lost Colony"))
    pass_window(g)
    assert g.state.planets[(EAST, 0)].home
    assert "Lost Colony" in g.state.planets[(EAST, 0)].cards


def test_terra_form_turns_a_negative_environment_positive_before_scoring():
    g = land(2, "p2-a", [["Cephei", "Terra-Form"], ["Ice Age"]])
    discover(g, "Cephei")
    pass_window(g)
    g.act(A.Pass())
    g.act(A.PlayEnvironment(g.hand_named(1, "Ice Age"), "Ice Age"))
    assert g.state.polls[-1].kind == "env" and g.seat == 0
    g.act(special(g, 0, "Terra-Form"))
    pass_window(g)
    before = g.state.players[0].score
    while g.state.discovery.stage == "life_form":
        g.act(A.Pass())
    assert g.state.players[0].score - before == 2 * (2 + 1)    # Ice Age -1 became +1


def _virus_on_domed_cities():
    """Seat 0 discovers Cephei and plays Domed Cities on it; seat 1 answers with Space Virus,
    whose window is still open. Returns the game, Domed Cities' handle, the virus and seat 0's
    score before the life form."""
    g = land(2, "p2-a", [["Cephei", "Domed Cities"], ["Space Virus"]])
    discover(g, "Cephei")
    pass_window(g)
    while g.state.discovery.stage == "environment":
        g.act(A.Pass())
    domed = g.hand_named(0, "Domed Cities")
    before = g.state.players[0].score
    g.act(A.PlayLifeForms(((domed, "Domed Cities"),)))
    virus = special(g, 1, "Space Virus")
    g.act(virus)
    return g, domed, virus, before


def test_space_virus_removes_the_life_form_just_played():
    g, domed, virus, before = _virus_on_domed_cities()
    g.act(A.Pass())
    pass_window(g)                                      # the scored window
    assert g.state.players[0].score - before == 2 * 2   # Cephei alone
    assert g.state.discovery.life_forms == [] and "Domed Cities" not in g.state.players[0].pile
    assert {domed, virus.card} <= set(g.state.decks["junk"])


def test_a_second_space_virus_on_the_same_life_form_is_a_typed_impossible_state():
    """Only a sampled world (SPEC §12.3) can hold a second Space Virus; its effect then finds
    the life form gone and says so with a typed error, which a search world ends its playout on,
    instead of a plain ValueError from list.remove."""
    from p2p_asv.errors import ImpossibleState
    from p2p_asv.search.world import ImpossibleWorld, _apply
    from p2p_asv.special_rules import _effect_virus
    g, _, virus, _ = _virus_on_domed_cities()
    below = g.state.polls[-2]                       # the life form window the virus answers
    g.act(A.Pass())                                 # the first virus strikes
    before = g.state.hash()
    with pytest.raises(ImpossibleState, match="Domed Cities"):
        _effect_virus(g.state, 1, virus, below)
    assert g.state.hash() == before                 # refused before changing anything
    from unittest import mock
    with mock.patch("p2p_asv.search.world.apply", lambda *a: _effect_virus(g.state, 1, virus, below)):
        with pytest.raises(ImpossibleWorld):
            _apply(g.state, 1, virus)


def test_troika_summit_moves_you_and_a_chosen_player_to_a_planet():
    g = shift_ready(2, [["Troika Summit"], []])
    yellow_home = next(k for k, r in sorted(g.state.planets.items()) if r.owner == 1)
    token = f"{square_name(yellow_home[0])}/0"
    action = special(g, 0, "Troika Summit", token, "s1", "s2")
    assert action in g.legal(0)
    g.act(action)
    assert g.state.polls[-1].targets == (1,)
    pass_window(g)
    assert g.state.ships[1].square == yellow_home[0] == g.state.ships[2].square
    assert not g.state.moved                            # not the turn's move


def test_troika_summit_refuses_a_webbed_planet_or_two_ships_of_one_player():
    g = shift_ready(2, [["Troika Summit"], []])
    g.state.webs.append((3, 3))
    with pytest.raises(IllegalAction, match="Web"):
        apply(g.state.clone(), 0, special(g, 0, "Troika Summit", "D-4/0", "s1"))
    yellow = next(k for k, r in sorted(g.state.planets.items()) if r.owner == 1)
    with pytest.raises(IllegalAction, match="one ship for each"):
        apply(g.state.clone(), 0, special(g, 0, "Troika Summit", f"{square_name(yellow[0])}/0", "s1", "s1"))


# -- SPEC §14.7 Advanced Strategy and Lord DeWar ---------------------------------------------------
def test_advanced_special_costs_one_energy_but_sneak_attack_is_free():
    g = game(2, [["Meteor Shower", "Sneak Attack"], ["Time Warp"]], config={"advanced": True})
    assert g.state.energy == 7
    g.act(special(g, 0, "Sneak Attack"))
    assert g.state.energy == 7
    g.act(special(g, 0, "Meteor Shower", "D-4/0"))
    assert g.state.energy == 6


def test_lord_dewar_scores_a_point_a_special_action_in_the_basic_game():
    g = game(2, [["Meteor Shower"], []], config={"role_play": True})
    g.state.players[0].role = "Lord DeWar"              # the role deal is chance; fix it here
    g.tiles(away=[HOME])
    before = g.state.players[0].score
    g.act(special(g, 0, "Meteor Shower", "D-4/0"))
    assert g.state.players[0].score - before == 1
    assert g.state.players[0].breakdown["role"] >= 1


# -- SPEC §11.1 notation ---------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["special #12:time-warp", "special #3:conspiracy @2",
                                  "special #4:troika-summit D-4/0 s1 s5", "special #5:worm-hole s2 K-4",
                                  "special #6:cyber-jump discard #7 #8", "special #9:u-f-o"])
def test_special_notation_round_trips(text):
    assert parse_action(text).text() == text


@pytest.mark.parametrize("text", ["special", "special #3", "special #3:time-warp @x", "special #3:ufo Z-99",
                                  "special #3:ufo s"])
def test_bad_special_notation_is_malformed(text):
    with pytest.raises(MalformedAction):
        parse_action(text)


def test_non_canonical_tokens_are_normalised():
    assert parse_action("special #04:worm-hole s02 k-4").text() == "special #4:worm-hole s2 K-4"


# -- SPEC §14.6 with §15: the cards that destroy ---------------------------------------------------
def rival_planet_here(g: Game, owner: int = 1):
    """Seat `owner` owns the planet just placed on E-4 and its first ship stands there."""
    g.state.planets[(EAST, 0)] = PlanetRecord(owner, False)
    ship = g.state.ships_of(owner)[0]
    ship.square = EAST
    return ship


def test_black_hole_destroys_a_planet_and_its_ships_may_flee_or_be_lost():
    g = game(2, [["Black Hole"], []], tiles=["p2-a", "deep", "deep"])
    g.tiles([("p2-a", EAST, 0)], away=[HOME])
    ship = rival_planet_here(g)
    hole = special(g, 0, "Black Hole", "E-4/0")
    assert hole in g.legal(0)
    g.act(hole)
    assert g.state.polls[-1].targets == (1,)
    pass_window(g)
    assert (EAST, 0) not in g.state.planets and g.state.doom is not None
    assert g.seat == 1 and A.Pass() in g.legal(1)
    g.act(A.Pass())                                     # no escape taken: the ship is lost
    assert ship.id not in g.state.ships and hole.card in g.state.decks["junk"]


def test_black_hole_spares_a_players_only_home_planet():
    g = shift_ready(2, [["Black Hole"], []])
    yellow = next(k for k, r in sorted(g.state.planets.items()) if r.owner == 1)
    token = f"{square_name(yellow[0])}/0"
    assert special(g, 0, "Black Hole", token) not in g.legal(0)
    with pytest.raises(IllegalAction, match="only home planet"):
        apply(g.state.clone(), 0, special(g, 0, "Black Hole", token))


def test_supernova_is_an_only_action_and_leaves_a_black_disk():
    g = game(2, [["Supernova"], []], tiles=["p2-a", "deep", "deep"])
    g.tiles([("p2-a", EAST, 0)], away=[HOME])
    ship = rival_planet_here(g)
    g.act(special(g, 0, "Supernova", "E-4/0"))
    pass_window(g)
    assert EAST in g.state.black_disks and g.state.only_action
    assert not any(isinstance(a, A.Escape) for a in g.legal(1))   # only a Teleport saves it
    g.act(A.Pass())
    assert ship.id not in g.state.ships and g.legal(0) == [A.Next()]


def test_kamikaze_attack_destroys_your_ship_and_every_ship_on_its_tile():
    g = game(2, [["Kamikaze Attack"], []], tiles=["p2-a", "deep", "deep"])
    g.tiles([("p2-a", EAST, 0)], away=[HOME])
    rival = rival_planet_here(g)
    g.state.ships[1].square = EAST
    g.act(special(g, 0, "Kamikaze Attack", "s1"))
    pass_window(g)
    while g.state.doom is not None:
        g.act(A.Pass())
    assert 1 not in g.state.ships and rival.id not in g.state.ships


def test_sabotage_on_a_landing_ship_stops_the_discovery_unless_it_teleports():
    dealer = RiggedDealer(3, tiles=["p2-a", "deep", "deep"], hands=[["Cephei", "Teleport"], ["Sabotage"]])
    g = Game(2, dealer=dealer, auto_pass=False)
    g.tiles([("p2-a", EAST, 0)], away=[HOME])
    g.to_phase(MOVE)
    g.act(A.Move(1, EAST))
    sabotage = special(g, 1, "Sabotage", "s1")
    assert sabotage in g.legal(1)
    g.act(sabotage)
    g.act(A.Pass())                                     # seat 0 does not cancel it
    assert g.state.discovery is None and (EAST, 0) not in g.state.planets
    teleport = next(a for a in g.legal(0) if isinstance(a, A.Teleport))
    g.act(teleport)                                     # its window: seat 1 may cancel it
    assert g.seat == 1 and g.state.polls[-1].action.name == "Teleport"
    g.act(A.Pass())                                     # saved: back to a home planet
    assert g.state.ships[1].square == HOME and g.state.doom is None


def test_sabotage_at_the_start_of_your_own_movement_phase():
    g = shift_ready(2, [["Sabotage"], []])
    assert not any(a.name == "Sabotage" for a in g.legal(0) if isinstance(a, A.PlaySpecial))
    g.to_phase(MOVE)
    g.act(special(g, 0, "Sabotage", "s2"))
    pass_window(g)
    g.act(A.Pass())                                     # seat 1 has no Teleport
    assert 2 not in g.state.ships


def test_the_black_hole_card_and_tile_share_a_slug_but_parse_apart():
    assert parse_action("special #9:black-hole E-4/0").name == "Black Hole"
    assert parse_action("chance reveal #3:black-hole").cards == ((3, "black-hole"),)


# -- SPEC §14.9 hidden cards: each seat's view learns exactly what the table would show ----------
def known(g: Game, seat: int) -> dict:
    return dict(g.views[seat].known)


def test_science_outpost_shows_one_player_a_whole_hand_and_nobody_else():
    g = shift_ready(3, [["Science Outpost"], ["Water", "Embassy"], []])
    hand = list(g.state.players[1].hand)
    before2 = known(g, 2)
    g.act(special(g, 0, "Science Outpost", "@1"))
    names = dict(g.state.names)                                  # the card itself is face up
    pass_window(g)
    assert all(g.views[0].known[h] == g.dealer.identity[h] for h in hand)
    assert known(g, 2) == before2 and g.state.names == names     # nothing public, nothing to seat 2
    assert g.state.players[1].hand == hand                       # the cards stay where they were


def test_espionage_makes_the_victim_discard_half_face_down_choosing_which():
    g = shift_ready(2, [["Espionage"], []])
    g.act(special(g, 0, "Espionage", "@1"))
    pass_window(g)
    assert g.seat == 1 and g.state.polls[-1].kind == "espionage"
    with pytest.raises(IllegalAction, match="answer the card first"):
        apply(g.state.clone(), 1, A.Pass())
    hand = sorted(g.state.players[1].hand)
    with pytest.raises(IllegalAction, match="exactly 5"):
        apply(g.state.clone(), 1, A.Discard(tuple(hand[:4])))
    assert A.Discard(tuple(hand[:5])) in g.legal(1)
    g.act(A.Discard(tuple(hand[5:])))
    assert sorted(g.state.players[1].hand) == hand[:5] and not g.state.polls
    assert all(h in g.state.decks["junk"] and h not in g.state.names for h in hand[5:])
    assert all(h not in g.views[0].known for h in hand[5:])      # face down


def test_the_scavenger_looks_through_space_junk_unseen_and_swaps():
    g = game(3, [["The Scavenger"], ["Embassy"], []])
    g.quiet_turn(away=[HOME])
    g.tiles(away=[HOME])
    g.to_phase(4)
    embassy = g.hand_named(1, "Embassy")
    g.act(A.Discard((embassy,)))
    g.end_turn()
    g.quiet_turn(away=[HOME])
    g.tiles(away=[HOME])
    assert embassy not in g.views[0].known and embassy not in g.views[2].known
    scavenger = special(g, 0, "The Scavenger")
    g.act(scavenger)
    pass_window(g)
    assert g.views[0].known[embassy] == "Embassy" and embassy not in g.views[2].known
    assert g.seat == 0 and A.Pick((embassy,)) in g.legal(0)
    g.act(A.Pick((embassy,)))
    assert embassy in g.state.players[0].hand and g.state.decks["junk"][-1] == scavenger.card
    assert embassy not in g.state.names                           # the others never see it


def test_trading_post_gives_cards_and_draws_as_many_blind_from_a_reshuffled_hand():
    g = game(3, [["Trading Post", "Water"], ["Embassy"], []])
    g.tiles(away=[HOME])
    g.to_phase(REFILL)
    water = g.hand_named(0, "Water")
    old = list(g.state.players[1].hand)
    g.act(special(g, 0, "Trading Post", "@1", f"#{water}"))
    pass_window(g)
    fresh = g.state.players[1].hand
    assert not set(fresh) & set(old)                             # fresh handles: positions unlinkable
    assert all(h not in g.views[0].known for h in fresh)         # the picker picks blind
    assert all(h in g.views[1].known for h in fresh)             # the holder knows its hand again
    assert g.seat == 0 and len(g.legal(0)) == len(fresh)
    picked = fresh[0]
    g.act(A.Pick((picked,)))
    assert picked in g.state.players[0].hand and water in g.state.players[1].hand
    assert g.views[0].known[picked] == g.dealer.identity[picked]
    assert g.views[1].known[water] == "Water" and water not in g.views[2].known
    assert picked not in g.views[2].known and picked not in g.state.names


def test_partners_cannot_trade():
    g = game(4, [["Trading Post", "Water"], [], [], []], config={"partnership": True})
    g.tiles(away=[HOME])
    g.to_phase(REFILL)
    water = g.hand_named(0, "Water")
    with pytest.raises(IllegalAction, match="partners"):
        apply(g.state.clone(), 0, special(g, 0, "Trading Post", "@2", f"#{water}"))
    assert special(g, 0, "Trading Post", "@1", f"#{water}") in g.legal(0)


def test_negotiations_has_no_effect_but_goes_to_space_junk_and_uses_the_turns_card():
    g = shift_ready(2, [["Negotiations", "Meteor Shower"], []])
    before = g.state.clone()
    card = special(g, 0, "Negotiations")
    g.act(card)
    pass_window(g)
    assert g.state.decks["junk"][-1] == card.card
    assert [p.score for p in g.state.players] == [p.score for p in before.players]
    assert not any(isinstance(a, A.PlaySpecial) for a in g.legal(0))


def test_advanced_shift_of_funds_is_free_and_owes_one_more_tile():
    g = game(2, [["Shift of Funds", "Cyber Jump"], ["Time Warp"]], config={"advanced": True})
    g.act(A.DrawTile(0))
    g.place_far(g.state.drawn[0], [HOME])
    assert g.state.energy == 5
    g.act(special(g, 0, "Shift of Funds", "@1"))
    assert g.state.energy == 5                          # free (SPEC §14.7)
    g.act(A.Pass())
    assert g.state.skips == [1] and g.state.tiles_owed == 3   # one more owed tile
    g.act(A.DrawTile(0))
    g.place_far(g.state.drawn[0], [HOME])
    assert any(isinstance(a, A.DrawCard) for a in g.legal(0))   # and the turn goes on (SPEC §14.4)


def test_advanced_cyber_jump_is_free_and_reopens_a_closed_phase():
    g = game(2, [["Cyber Jump"], ["Peace Talks"]], config={"advanced": True})
    g.act(A.DrawTile(0))
    g.place_far(g.state.drawn[0], [HOME])
    g.act(A.PlaceStation(g.state.placed_this_turn[0]))
    other = next(h for h in g.state.players[0].hand if h != g.hand_named(0, "Cyber Jump"))
    g.act(A.Discard((other,)))                           # leaving phase 2 closed it
    assert PLACE_PIECE in g.state.closed_phases
    energy = g.state.energy
    g.act(special(g, 0, "Cyber Jump", "piece"))
    assert g.state.energy == energy                      # Cyber Jump is free
    g.act(A.Pass())
    assert PLACE_PIECE not in g.state.closed_phases and not g.state.piece_placed


def test_advanced_a_special_response_costs_nothing():
    g = game(2, [["Cephei", "Peace Talks"], ["U.F.O."]], tiles=["p2-a", "deep", "deep"],
             config={"advanced": True})
    g.act(A.DrawTile(0))
    g.act(A.PlaceTile(g.state.drawn[0], EAST, 0))
    g.act(A.Move(1, EAST))
    pass_window(g)
    discover(g, "Cephei")
    energy = g.state.energy
    g.act(A.Pass())
    g.act(special(g, 1, "U.F.O."))
    g.act(special(g, 0, "Peace Talks"))
    pass_window(g)
    assert g.state.energy == energy and g.state.planets[(EAST, 0)].owner == 0
