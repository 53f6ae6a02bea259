"""Space Trading Race rules (SPEC Part IV): the rulebook's own examples first, then every rule."""
from __future__ import annotations

import pytest

from space_trading_race import CHANCE, IllegalAction, OutOfTurn, apply, legal_actions, to_move
from space_trading_race.actions import (BUY, BYPASS, DECLINE, DRIFT, END, EXCHANGE, KEEP, LAND, ROLL,
                                        ChanceDice, Pick, parse_action)
from space_trading_race.board import (AMALTHEA, DOCK_SPACES, EARTH, N_SPACES, SPACES, distance_at_most_one,
                                      walk)
from space_trading_race.deeds import DEED_BY_SLUG, DEEDS, GROUP_DEEDS
from space_trading_race.engine import due
from space_trading_race.state import BANK, LASER_TOKENS, STARTING_CASH

from tests.str_helpers import deed, dice, give, roll, started


# ---- the rulebook's examples --------------------------------------------------------------

def test_ganymede_rent_is_140_alone_and_400_with_io_and_amalthea():
    """SPEC §51.2: the one printed row fixes the ladder."""
    assert DEED_BY_SLUG["ganymede"].rents[0] == 140 and DEED_BY_SLUG["ganymede"].rents[2] == 400
    state, _, _ = started(2)
    give(state, 1, "ganymede")
    state.pos[0] = 27                      # Jupiter; 4 more is Ganymede (31)
    roll(state, 1, 3)
    assert state.pos[0] == 31 and state.cash == [STARTING_CASH - 140, STARTING_CASH + 140]
    apply(state, 0, END)
    _finish_turn(state, 1, roll_first=True)
    state.pos[0] = 27
    give(state, 1, "io", "amalthea")
    roll(state, 2, 2)                      # doubles: $100 and a choice
    apply(state, 0, LAND)
    assert state.cash[0] == STARTING_CASH - 140 + 100 - 400
    assert state.cash[1] == STARTING_CASH + 140 + 400


def test_doubles_pay_100_land_then_roll_again():
    state, _, _ = started(2)
    roll(state, 2, 2)                      # Earth + 4: Lunar Base ($100 and a token)
    assert state.pos[0] == 4 and state.cash[0] == STARTING_CASH + 100 and due(state) == "choose"
    assert legal_actions(state, _view(0)) == [BYPASS, LAND]
    apply(state, 0, LAND)
    assert state.cash[0] == STARTING_CASH + 200 and state.tokens[0] == 2
    assert state.seat == 0 and due(state) == "roll"


def test_bypass_takes_nothing_of_the_space_and_rolls_again():
    state, _, _ = started(2)
    roll(state, 2, 2)
    apply(state, 0, BYPASS)
    assert state.cash[0] == STARTING_CASH + 100 and state.tokens[0] == 1
    assert not state.landed[0] and due(state) == "roll" and state.seat == 0


def test_bypass_needs_doubles():
    state, _, _ = started(2)
    state.pos[0] = 27
    roll(state, 2, 4)                      # onto Amalthea (33) without doubles
    assert legal_actions(state, _view(0)) == [DRIFT, LAND]
    before = state.hash()
    with pytest.raises(IllegalAction):
        apply(state, 0, BYPASS)
    assert state.hash() == before


def test_amalthea_stay_until_five_paying_rent_each_time():
    """SPEC §54.6: stuck on another's Amalthea, each roll under 5 pays again."""
    state, _, _ = started(2)
    give(state, 1, "amalthea")
    state.pos[0] = 27
    roll(state, 2, 4)
    apply(state, 0, LAND)
    rent = DEED_BY_SLUG["amalthea"].rents[0]
    assert state.stuck[0] and state.cash[0] == STARTING_CASH - rent
    apply(state, 0, END)
    apply(state, 1, ROLL)
    dice(state, 1, 2)                       # seat 1 moves off Earth
    _finish_turn(state, 1)
    roll(state, 1, 2)                       # 3: stays, pays again
    assert state.pos[0] == AMALTHEA and state.cash[0] == STARTING_CASH - 2 * rent and state.stuck[0]
    assert due(state) == "after"
    apply(state, 0, END)
    _finish_turn(state, 1, roll_first=True)
    roll(state, 2, 3)                       # 5: free, moves 5 from 33 to 38, sent on to a dock
    assert not state.stuck[0] and walk(AMALTHEA, 5).end == 38 and state.pos[0] == 51


def test_amalthea_stuck_doubles_pay_but_give_no_roll():
    state, _, _ = started(2)
    state.pos[0], state.stuck[0] = AMALTHEA, True
    roll(state, 2, 2)                       # 4 < 5: stays
    assert state.pos[0] == AMALTHEA and state.cash[0] == STARTING_CASH + 100 and due(state) == "after"


def test_amalthea_drift_lands_on_the_blue_dot_instead():
    state, _, _ = started(2)
    state.pos[0] = 27
    roll(state, 2, 4)
    apply(state, 0, DRIFT)
    assert state.pos[0] == AMALTHEA + 1 and not state.stuck[0] and state.landed[0]


# ---- the board ----------------------------------------------------------------------------

def test_board_shape():
    assert N_SPACES == 85 and SPACES[EARTH].kind == "earth"
    assert len([s for s in SPACES if s.deed is not None]) == 36 and len(DOCK_SPACES) == 4
    assert sorted(s.deed for s in SPACES if s.deed is not None) == list(range(36))
    assert {"io", "ganymede", "amalthea"} <= {DEEDS[d].slug for d in GROUP_DEEDS["jupiter"]}


def test_a_short_roll_orbits_and_a_long_one_leaves():
    """SPEC §50.2: from Deimos (20), Mars's last ring space, clearing two dots needs 3."""
    assert walk(20, 2).end == 18            # round the ring: 17, 18
    assert walk(20, 3).end == 23            # 21, 22 (dots), 23
    for start in (i for i in range(N_SPACES) if SPACES[i].kind != "dot"):
        for steps in range(2, 13):
            assert SPACES[walk(start, steps).end].kind != "dot"


def test_earth_and_venus_pull_a_short_roll_back_onto_the_planet():
    assert walk(11, 3).end == 12 and walk(11, 3).pulled_back and not walk(11, 1).pulled_back
    assert walk(11, 1).end == 12 and walk(11, 4).end == 15
    assert walk(EARTH, 2).end == EARTH and walk(EARTH, 2).pulled_back


def test_pulled_back_after_doubles_must_land():
    state, _, _ = started(2)
    roll(state, 1, 1)                       # 2 from Earth: cannot clear the dots
    assert state.pos[0] == EARTH and due(state) == "exchange"


def test_passing_earth_pays_500():
    state, _, _ = started(2)
    state.pos[0] = 84
    roll(state, 2, 3)                       # 0 (pay), then 1, 2, 3, 4 (Lunar Base)
    assert state.pos[0] == 4 and state.laps[0] == 1
    assert state.cash[0] == STARTING_CASH + 500 + 100


def test_distance_and_the_closed_ring():
    assert distance_at_most_one(31, 31) == 0 and distance_at_most_one(31, 32) == 1
    assert distance_at_most_one(27, 34) == 1          # Jupiter's ring closes
    assert distance_at_most_one(34, 38) is None       # three dots between


# ---- Earth and missions ------------------------------------------------------------------

def test_landing_on_earth_exchanges_the_mission_under_the_pile():
    state, views, dealer = started(2)
    state.pos[0] = 78
    roll(state, 2, 3)                       # 83 is "advance to Earth": +500, land on Earth
    assert state.pos[0] == EARTH and due(state) == "exchange" and state.cash[0] == STARTING_CASH + 500
    old, top = state.hand[0], state.deck[0]
    apply(state, 0, EXCHANGE)
    assert to_move(state) == CHANCE
    apply(state, CHANCE, dealer.outcome(state, views))
    assert state.hand[0] == top and state.deck[-1] == old and top in views[0].known
    assert old not in state.names and due(state) == "after"


def test_keep_leaves_the_mission():
    state, _, _ = started(2)
    state.pos[0] = 82
    roll(state, 1, 2)
    hand = state.hand[0]
    apply(state, 0, KEEP)
    assert state.hand[0] == hand and due(state) == "after"


# ---- buying, rent, fuel docks, stations, blue dots ------------------------------------------

def test_buy_or_decline_an_unowned_deed():
    state, _, _ = started(2)
    roll(state, 3, 4)                       # 7: Mercury
    assert state.pos[0] == 7 and due(state) == "buy"
    apply(state, 0, BUY)
    assert state.owner[deed("mercury")] == 0 and state.cash[0] == STARTING_CASH - 200
    state2, _, _ = started(2)
    roll(state2, 3, 4)
    apply(state2, 0, DECLINE)
    assert state2.owner[deed("mercury")] == BANK and state2.cash[0] == STARTING_CASH


def test_no_buy_without_the_money_and_no_rent_on_ones_own():
    state, _, _ = started(2)
    state.cash[0] = 100
    roll(state, 3, 4)
    assert due(state) == "after"
    state, _, _ = started(2)
    give(state, 0, "mercury")
    roll(state, 3, 4)
    assert due(state) == "after" and state.cash[0] == STARTING_CASH


def test_rent_counts_the_owners_deeds_in_the_group():
    state, _, _ = started(2)
    give(state, 1, "mars", "phobos", "deimos")
    state.pos[0] = 12
    roll(state, 2, 3)                       # 17: Mars
    assert state.cash[0] == STARTING_CASH - DEED_BY_SLUG["mars"].rents[2]


def test_fuel_dock_fee_is_a_second_roll_times_the_multiplier():
    state, _, _ = started(2)
    give(state, 1, "sunward-dock", "belt-dock")
    state.pos[0] = 1
    roll(state, 1, 3)                       # 5: Sunward Dock
    assert to_move(state) == CHANCE and state.pending[0].purpose == "fuel"
    dice(state, 5, 6)
    assert state.cash[0] == STARTING_CASH - 11 * 25 and state.cash[1] == STARTING_CASH + 11 * 25


def test_station_pays_and_tokens_stop_when_the_bank_is_empty():
    state, _, _ = started(2)
    state.pos[0] = 12
    roll(state, 1, 3)                       # 16: Venus Relay, $100 and a token
    assert state.tokens[0] == 2 and state.bank_tokens == LASER_TOKENS - 2 - 1
    assert state.cash[0] == STARTING_CASH + 100
    state, _, _ = started(2)
    state.bank_tokens = 0
    state.pos[0] = 12
    roll(state, 1, 3)
    assert state.tokens[0] == 1 and state.bank_tokens == 0 and state.cash[0] == STARTING_CASH + 100


def test_blue_dot_pay_and_collect():
    state, _, _ = started(2)
    state.pos[0] = 20
    roll(state, 1, 2)                       # 23: pay $200
    assert state.cash[0] == STARTING_CASH - 200
    state, _, _ = started(2)
    state.pos[0] = 7
    roll(state, 1, 3)                       # 8, then the two dots, 11: collect $100
    assert state.pos[0] == 11 and state.cash[0] == STARTING_CASH + 100
    state, _, _ = started(2)
    state.pos[0] = 11
    roll(state, 1, 3)                       # 12 (Venus) clears its dots: 13, 14, 15: a token
    assert state.pos[0] == 15 and state.tokens[0] == 2


def test_blue_dot_advance_to_the_next_fuel_dock_lands_on_it():
    state, _, _ = started(2)
    state.pos[0] = 34
    roll(state, 1, 3)                       # 38: to the next dock, 51 Ring Dock
    assert state.pos[0] == 51 and due(state) == "buy"


def test_blue_dot_free_deed_or_500_when_all_are_owned():
    state, views, _ = started(2)
    state.pos[0] = 62
    roll(state, 1, 1)                       # doubles: 64 after choosing to land
    apply(state, 0, LAND)
    assert due(state) == "pick"
    apply(state, 0, Pick(deed("pluto")))
    assert state.owner[deed("pluto")] == 0 and state.cash[0] == STARTING_CASH + 100
    state, _, _ = started(2)
    state.owner = [1] * len(DEEDS)
    state.pos[0] = 62
    roll(state, 1, 1)
    apply(state, 0, LAND)
    assert state.cash[0] == STARTING_CASH + 100 + 500 and due(state) == "roll"


# ---- lasers ---------------------------------------------------------------------------------

def _view(seat):
    from space_trading_race import PlayerView
    return PlayerView(seat)


def _at(state, **where):
    for seat, pos in where.items():
        state.pos[int(seat[1:])] = pos


def test_fire_at_the_same_space_gives_two_shots_next_space_one():
    state, _, _ = started(2)
    _at(state, s0=31, s1=31)
    apply(state, 0, parse_action("fire 31"))
    assert state.tokens[0] == 0 and state.bank_tokens == LASER_TOKENS - 1 and state.shots == [31, 2]
    dice(state, 1, 2)
    dice(state, 3, 4)
    assert state.shots is None and to_move(state) == 0 and state.cash == [STARTING_CASH] * 2
    state, _, _ = started(2)
    _at(state, s0=31, s1=32)
    apply(state, 0, parse_action("fire 32"))
    assert state.shots == [32, 1]


def test_no_fire_beyond_one_space_nor_from_or_at_earth_nor_without_a_token():
    state, _, _ = started(2)
    _at(state, s0=31, s1=33)
    with pytest.raises(IllegalAction):
        apply(state, 0, parse_action("fire 33"))
    _at(state, s0=EARTH, s1=3)
    with pytest.raises(IllegalAction):
        apply(state, 0, parse_action("fire 3"))
    _at(state, s0=84, s1=EARTH)
    with pytest.raises(IllegalAction):
        apply(state, 0, parse_action("fire 0"))
    _at(state, s0=31, s1=31)
    state.tokens[0] = 0
    before = state.hash()
    with pytest.raises(IllegalAction):
        apply(state, 0, parse_action("fire 31"))
    assert state.hash() == before


def test_doubles_damage_every_target_there_100_times_the_roll():
    state, _, _ = started(3)
    _at(state, s0=31, s1=32, s2=32)
    apply(state, 0, parse_action("fire 32"))
    dice(state, 4, 4)
    assert state.cash == [STARTING_CASH + 1600, STARTING_CASH - 800, STARTING_CASH - 800]
    assert state.hits[0] == 1


def test_double_six_disables_and_the_shooter_takes_everything():
    state, views, _ = started(3)
    _at(state, s0=31, s1=31, s2=40)
    give(state, 1, "io")
    state.tokens[1] = 3
    apply(state, 0, parse_action("fire 31"))
    dice(state, 6, 6)
    assert to_move(state) == 1 and due(state) == "shield"
    apply(state, 1, parse_action("pass"))
    assert not state.alive[1] and state.out[1] == "disabled"
    assert state.owner[deed("io")] == 0 and state.tokens[0] == 3 and state.cash[0] == 2 * STARTING_CASH
    assert state.hand[1] == -1 and state.shots is None and not state.over


def test_force_field_survives_a_double_six_and_wins():
    state, views, _ = started(2)
    _at(state, s0=31, s1=31)
    handle = state.hand[1]
    views[1].known[handle] = "force-field"
    apply(state, 0, parse_action("fire 31"))
    dice(state, 6, 6)
    assert parse_action(f"claim #{handle}:force-field") in legal_actions(state, views[1])
    apply(state, 1, parse_action(f"claim #{handle}:force-field"))
    assert state.over and state.winners == [1] and state.names[handle] == "force-field"


def test_last_on_the_board_wins():
    state, _, _ = started(2)
    _at(state, s0=31, s1=31)
    apply(state, 0, parse_action("fire 31"))
    dice(state, 6, 6)
    apply(state, 1, parse_action("pass"))
    assert state.over and state.winners == [0] and state.end == "last on the board"


def test_a_blue_dot_laser_costs_no_token_and_must_be_fired():
    state, _, _ = started(2)
    _at(state, s0=23, s1=24)
    roll(state, 1, 1)                      # 25: fire a laser; doubles, so land first
    apply(state, 0, LAND)
    assert due(state) == "free-fire" and legal_actions(state, _view(0)) == [parse_action("fire 24")]
    apply(state, 0, parse_action("fire 24"))
    assert state.tokens[0] == 1
    dice(state, 1, 2)
    assert due(state) == "roll"            # doubles: roll again after the order is done


# ---- trading ------------------------------------------------------------------------------

def test_a_half_made_offer_changes_nothing_but_the_offer():
    state, _, _ = started(2)
    give(state, 0, "io")
    before = state.plain()
    apply(state, 0, parse_action("offer 1 io for $300"))
    after = state.plain()
    changed = {k for k in before if before[k] != after[k]}
    assert changed == {"offer", "offers_made", "step"} and to_move(state) == 1
    apply(state, 1, parse_action("reject"))
    assert state.owner[deed("io")] == 0 and state.cash == [STARTING_CASH] * 2 and to_move(state) == 0


def test_an_accepted_offer_moves_deeds_and_money():
    state, _, _ = started(2)
    give(state, 0, "io")
    give(state, 1, "ganymede", "mars")
    apply(state, 0, parse_action("offer 1 io+$50 for mars+ganymede"))
    apply(state, 1, parse_action("accept"))
    assert state.owner[deed("io")] == 1 and state.owner[deed("mars")] == 0 and state.owner[deed("ganymede")] == 0
    assert state.cash == [STARTING_CASH - 50, STARTING_CASH + 50]


def test_offer_limits():
    state, _, _ = started(2)
    give(state, 0, "io", "europa", "callisto")
    with pytest.raises(IllegalAction):
        apply(state, 0, parse_action("offer 1 titan for $10"))       # not yours
    with pytest.raises(IllegalAction):
        apply(state, 0, parse_action("offer 1 io for $5000"))       # they cannot pay
    with pytest.raises(IllegalAction):
        apply(state, 0, parse_action("offer 0 io for $5"))          # not an opponent
    for text in ("offer 1 io for $1", "offer 1 europa for $1"):
        apply(state, 0, parse_action(text))
        apply(state, 1, parse_action("reject"))
    with pytest.raises(IllegalAction):
        apply(state, 0, parse_action("offer 1 callisto for $1"))    # two a turn
    with pytest.raises(OutOfTurn):
        apply(state, 1, parse_action("offer 0 nothing for io"))     # not seat 1's turn


# ---- debts, bankruptcy, leaving ----------------------------------------------------------------

def test_rent_beyond_cash_is_paid_by_ceding_deeds_to_the_owner():
    state, _, _ = started(2)
    give(state, 1, "ganymede")
    give(state, 0, "mercury", "venus")
    state.cash[0] = 40
    state.pos[0] = 27
    roll(state, 1, 3)                        # Ganymede 140: 40 cash, 100 owed
    assert due(state) == "debt" and state.debts == [[0, 1, 100]]
    with pytest.raises(OutOfTurn):
        apply(state, 0, END)
    apply(state, 0, parse_action("cede mercury"))
    assert state.owner[deed("mercury")] == 1 and state.debts == [] and state.cash == [0, STARTING_CASH + 40]
    assert due(state) == "after"


def test_bankrupt_when_deeds_cannot_cover_the_debt():
    state, _, _ = started(3)
    give(state, 1, "ganymede")
    state.cash[0] = 40
    state.pos[0] = 27
    roll(state, 1, 3)
    assert not state.alive[0] and state.out[0] == "bankrupt" and state.tokens[0] == 0
    assert to_move(state) == 1 and state.seat == 1 and not state.over
    apply(state, 1, ROLL)
    dice(state, 1, 2)
    _finish_turn(state, 1)
    assert state.seat == 2                    # seat 0 is never polled again


def test_a_bank_debt_returns_deeds_to_the_bank():
    state, _, _ = started(2)
    give(state, 0, "mercury")
    state.cash[0] = 50
    state.pos[0] = 20
    roll(state, 1, 2)                         # 23: pay $200
    apply(state, 0, parse_action("cede mercury"))
    assert state.owner[deed("mercury")] == BANK and state.debts == []


# ---- missions and the end --------------------------------------------------------------------

def test_a_completed_mission_wins_and_a_false_claim_is_refused():
    state, views, _ = started(2)
    handle = state.hand[0]
    views[0].known[handle] = "inner-circuit"
    claim = parse_action(f"claim #{handle}:inner-circuit")
    before = state.hash()
    with pytest.raises(IllegalAction):
        apply(state, 0, claim)
    assert state.hash() == before and claim not in legal_actions(state, views[0])
    give(state, 0, "mercury", "venus")
    state.pos[0] = 12
    assert claim in legal_actions(state, views[0])
    with pytest.raises(IllegalAction):
        apply(state, 0, parse_action(f"claim #{state.hand[1]}:inner-circuit"))   # not your card
    with pytest.raises(IllegalAction):
        apply(state, 0, parse_action(f"claim #{handle}:force-field"))            # only when hit
    apply(state, 0, claim)
    assert state.over and state.winners == [0] and state.names == {handle: "inner-circuit"}


def test_a_bypassed_ship_does_not_rest_for_a_mission():
    from space_trading_race.missions import completed
    state, _, _ = started(2)
    give(state, 0, "mercury", "venus")
    state.pos[0], state.landed[0] = 12, False
    assert not completed(state, 0, "inner-circuit")


def test_time_limit_ends_with_most_assets():
    state, _, _ = started(2, config={"time_limit": 1})
    give(state, 1, "pluto")
    roll(state, 1, 2)
    _finish_turn(state, 0)
    _finish_turn(state, 1, roll_first=True)
    assert state.over and state.end == "most assets at the time limit" and state.winners == [1]


def test_config_is_checked():
    from space_trading_race import new_game
    for bad in ({"time_limit": 0}, {"time_limit": True}, {"rounds": 3}):
        with pytest.raises(ValueError):
            new_game(2, bad)
    for bad in (1, 5, True):
        with pytest.raises(ValueError):
            new_game(bad)


def test_chance_and_players_write_only_when_due():
    state, _, _ = started(2)
    with pytest.raises(OutOfTurn):
        apply(state, CHANCE, ChanceDice(1, 2))
    with pytest.raises(OutOfTurn):
        apply(state, 1, ROLL)
    apply(state, 0, ROLL)
    before = state.hash()
    with pytest.raises(OutOfTurn):
        apply(state, 0, ROLL)
    with pytest.raises(IllegalAction):
        apply(state, CHANCE, parse_action("chance shuffle missions"))
    assert state.hash() == before


def _finish_turn(state, seat, roll_first=False):
    """Play `seat`'s turn out plainly: roll if asked, then land/decline/keep/cede until `end`."""
    if roll_first:
        apply(state, seat, ROLL)
        dice(state, 1, 2)
    while not state.over and state.seat == seat and state.alive[seat]:
        kind = due(state)
        if to_move(state) == CHANCE:
            dice(state, 1, 2)
        elif kind == "after":
            apply(state, seat, END)
        elif kind == "roll":
            apply(state, seat, ROLL)
            dice(state, 1, 2)
        else:
            apply(state, to_move(state), legal_actions(state, _view(to_move(state)))[0])


def test_damage_beyond_cash_is_a_debt_settled_before_the_next_shot():
    state, _, _ = started(2)
    _at(state, s0=31, s1=31)
    give(state, 1, "io")
    state.cash[1] = 100
    apply(state, 0, parse_action("fire 31"))
    dice(state, 2, 2)                        # $400: 100 cash, 300 owed
    assert due(state) == "debt" and to_move(state) == 1 and state.shots == [31, 1]
    apply(state, 1, parse_action("cede io"))
    assert to_move(state) == CHANCE and state.pending[0].purpose == "shot"   # the second shot
    dice(state, 1, 2)
    assert state.shots is None and to_move(state) == 0 and state.owner[deed("io")] == 0


def test_a_double_six_polls_every_ship_hit_in_seat_order_from_the_left():
    state, views, _ = started(4)
    _at(state, s0=40, s1=31, s2=31, s3=31)
    state.seat = 2
    state.pos[2] = 32
    apply(state, 2, parse_action("fire 31"))
    dice(state, 6, 6)
    assert state.shield == [3, 1]              # from seat 2's left: 3, 0, 1; seat 0 is elsewhere
    apply(state, 3, parse_action("pass"))
    apply(state, 1, parse_action("pass"))
    assert state.alive == [True, False, True, False] and state.out == ["", "disabled", "", "disabled"]


def test_legal_offers_are_single_deeds_at_face_value():
    state, views, _ = started(2)
    give(state, 0, "io")
    give(state, 1, "mars")
    offers = [a.text() for a in legal_actions(state, views[0]) if a.text().startswith("offer")]
    assert offers == ["offer 1 $400 for mars", "offer 1 io for $520"]


def test_bankrupt_to_the_bank_returns_its_deeds_unowned():
    state, _, _ = started(3)
    give(state, 0, "mercury")
    state.cash[0] = 0
    state.pos[0] = 20
    roll(state, 1, 2)                         # 23: pay $200 with nothing: Mercury (200) covers it
    assert due(state) == "debt"
    state, _, _ = started(3)
    state.cash[0] = 50
    state.pos[0] = 20
    roll(state, 1, 2)                         # no deed at all: bankrupt to the bank
    assert not state.alive[0] and state.out[0] == "bankrupt" and state.bank_tokens == LASER_TOKENS - 2


def test_leaving_retires_the_mission_and_hands_debts_owed_to_it_to_the_bank():
    from space_trading_race.money import eliminate
    state, _, _ = started(3)
    hand = state.hand[1]
    state.debts = [[2, 1, 300]]
    eliminate(state, 1, "disabled")
    assert state.retired == [hand] and state.hand[1] == -1 and state.debts == [[2, BANK, 300]]
    assert hand not in state.deck and not state.over


# ---- a seat that forfeits (SPEC §56.5) ------------------------------------------------------

def test_the_mover_leaving_mid_roll_passes_the_turn_and_frees_its_deeds():
    from space_trading_race import leave
    state, _, _ = started(3)
    give(state, 0, "io", "mars")
    apply(state, 0, ROLL)
    assert to_move(state) == CHANCE and state.pending[0].seat == 0     # the roller is named
    leave(state, 0)
    assert state.pending == [] and state.seat == 1 and due(state) == "roll" and to_move(state) == 1
    assert state.owner[deed("io")] == BANK and state.out[0] == "left" and state.tokens[0] == 0
    assert state.bank_tokens == LASER_TOKENS - 2 and not state.over


def test_a_polled_target_leaving_lets_the_double_six_finish():
    from space_trading_race import leave
    state, _, _ = started(4)
    _at(state, s0=31, s1=31, s2=31, s3=40)
    apply(state, 0, parse_action("fire 31"))
    dice(state, 6, 6)
    apply(state, 1, parse_action("pass"))
    assert to_move(state) == 2
    leave(state, 2)
    assert state.alive == [True, False, False, True] and state.out == ["", "disabled", "left", ""]
    assert to_move(state) == 0 and state.shots is None


def test_a_debtor_leaving_voids_its_debt_and_the_last_ship_wins():
    from space_trading_race import leave
    state, _, _ = started(2)
    give(state, 1, "ganymede")
    give(state, 0, "mercury")
    state.cash[0] = 40
    state.pos[0] = 27
    roll(state, 1, 3)
    assert due(state) == "debt"
    leave(state, 0)
    assert state.over and state.winners == [1] and state.owner[deed("mercury")] == BANK
    with pytest.raises(IllegalAction):
        leave(state, 1)
