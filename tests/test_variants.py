"""The rulebook's variants as game options (SPEC §13)."""
from __future__ import annotations

import pytest

from tests.helpers_engine import DISCARD, MOVE, REFILL, Game, RiggedDealer
from p2p_asv import actions as A
from p2p_asv.endgame import finish_game, result
from p2p_asv.engine import apply
from p2p_asv.errors import IllegalAction
from p2p_asv.selfplay import play_game
from p2p_asv.setup import new_game
from p2p_asv.state import Discovery, PlanetRecord
from p2p_asv.variants import Variants

HOME, EAST = (3, 3), (4, 3)


class VariantGame(Game):
    def __init__(self, players: int, config: dict, dealer) -> None:
        super().__init__(players, dealer=dealer, config=config)


def test_options_are_checked_and_the_basic_game_has_an_empty_config():
    assert Variants.from_config({}) == Variants() and Variants().to_config() == {}
    assert Variants.from_config({"role_play": True}).to_config() == {"role_play": True}
    for bad in ({"expert": True}, {"role_play": 1}, {"tiles_per_turn": 4}, {"tiles_per_turn": True}):
        with pytest.raises(ValueError):
            Variants.from_config(bad)
    with pytest.raises(ValueError, match="four players"):
        new_game(3, {"partnership": True})


def test_tiles_per_turn_option():
    assert new_game(4, {"tiles_per_turn": 3}).tiles_per_turn == 3
    assert new_game(4).tiles_per_turn == 2


def test_partnership_adds_partners_scores_and_both_partners_win():
    g = VariantGame(4, {"partnership": True}, RiggedDealer(1))
    for seat, points in enumerate((10, 30, 25, 0)):
        g.state.players[seat].gain(points, "test")
    finish_game(g.state)
    r = result(g.state)
    team_a = sum(g.state.players[s].score for s in (0, 2))
    team_b = sum(g.state.players[s].score for s in (1, 3))
    assert r["team_scores"] == [team_a, team_b] and r["teams"] == [[0, 2], [1, 3]]
    assert r["winners"] == ([0, 2] if team_a > team_b else [1, 3])
    assert r["margin"] == abs(team_a - team_b)


def test_nine_planets_win_at_once_when_a_discovery_ends():
    g = VariantGame(2, {"nine_planets": True}, RiggedDealer(1))
    state = g.state
    g.tiles()
    owned = [(sq, 0) for sq in ((0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2), (0, 3), (1, 3))]
    for key in owned:  # with the home planet: nine
        state.planets[key] = PlanetRecord(0, False)
    state.phase = MOVE
    state.discovery = Discovery(owned[-1], 0, 1, 1, "Llemmer", stage="explorer")
    apply(state, 0, A.Pass())
    assert state.over and state.victory == "nine planets" and state.winners == [0]
    assert result(state)["victory"] == "nine planets" and result(state)["title"] is None


def test_eight_planets_do_not_end_the_game():
    g = VariantGame(2, {"nine_planets": True}, RiggedDealer(1))
    g.tiles()
    g.state.phase = MOVE
    g.state.discovery = Discovery((HOME, 0), 0, 1, 4, "Otto", stage="explorer")
    apply(g.state, 0, A.Pass())
    assert not g.state.over


def _role_game(role: str, hands=(), tiles=("deep", "deep", "deep")) -> VariantGame:
    dealer = RiggedDealer(3, tiles=list(tiles), hands=hands)
    dealer.order["roles"] = [role]
    return VariantGame(2, {"role_play": True}, dealer)


def test_role_play_deals_explorers_face_up_and_keeps_them_out_of_the_refuel_deck():
    g = _role_game("Giant Meema")
    state = g.state
    assert state.players[0].role == "Giant Meema" and state.players[1].role is not None
    roles = [p.role for p in state.players]
    assert all(r in state.names.values() for r in roles)           # public
    everything = [g.dealer.identity[h] for h in state.decks["refuel"] + state.players[0].hand
                  + state.players[1].hand]
    assert len(everything) == 102 and not {"Giant Meema", "Lord DeWar", "The Kaygus"} & set(everything)


def test_yahsel_gains_a_point_for_each_planet_card_played():
    g = _role_game("Dr. Nevets Yahsel", hands=[["Pyrrhis"]], tiles=["p2-a", "deep", "deep"])
    g.tiles([("p2-a", EAST, 0)], away=[HOME])
    g.to_phase(MOVE)
    g.act(A.Move(1, EAST))
    g.act(A.Discover(g.hand_named(0, "Pyrrhis"), "Pyrrhis", 0))
    assert g.state.players[0].breakdown.get("role") == 1


def test_madam_maxine_sees_four_cards_and_takes_one():
    g = _role_game("Madam Maxine")
    g.tiles(away=[HOME])
    g.to_phase(DISCARD)
    g.act(A.Discard((g.state.players[0].hand[0],)))
    state = g.state
    assert A.Peek() in g.legal(0)
    tops = state.decks["refuel"][:2] + state.decks["port"][:2]
    g.act(A.Peek())
    assert all(h in g.views[0].known for h in tops)                # seen by Maxine only
    assert not any(h in g.views[1].known for h in tops)
    assert A.Peek() not in g.legal(0)
    choice = tops[3]                                               # the second Space Port card
    g.act(A.TakePeeked(choice))
    assert choice in state.players[0].hand and choice not in state.decks["port"]
    assert state.decks["refuel"][:2] == tops[:2]                   # the rest stay where they were
    with pytest.raises(IllegalAction):
        apply(state, 0, A.TakePeeked(tops[0]))


def test_other_roles_may_not_peek():
    g = _role_game("Lord DeWar")
    g.tiles(away=[HOME])
    g.to_phase(REFILL)
    with pytest.raises(IllegalAction, match="Madam Maxine"):
        apply(g.state, 0, A.Peek())


@pytest.mark.parametrize("config, players", [({"role_play": True, "nine_planets": True}, 3),
                                             ({"partnership": True, "role_play": True}, 4),
                                             ({"tiles_per_turn": 1}, 2)])
def test_variant_games_finish(config, players):
    for seed in range(3):
        for bot in ("random", "greedy"):
            state, summary = play_game(players, seed, [bot] * players, config=config)
            assert state.over and summary["winners"]


# -- Advanced Strategy (SPEC §13.5) ---------------------------------------------------------
def _advanced(tiles=("deep", "deep", "deep", "deep"), seed=3) -> VariantGame:
    return VariantGame(2, {"advanced": True}, RiggedDealer(seed, tiles=list(tiles)))


def test_advanced_turn_starts_with_seven_energy_and_nothing_is_mandatory():
    g = _advanced()
    assert g.state.energy == 7
    assert A.Next() in g.legal(0)
    g.act(A.Next())                                      # no tiles drawn at all
    assert g.state.active == 1 and g.state.energy == 7


def test_advanced_tiles_cost_two_and_are_placed_one_at_a_time():
    g = _advanced()
    g.act(A.DrawTile(0))
    assert g.state.energy == 5 and len(g.state.drawn) == 1
    legal = g.legal(0)
    assert legal and all(isinstance(a, (A.PlaceTile, A.ScrapTile)) for a in legal)
    with pytest.raises(IllegalAction, match="place the tile you drew first"):
        apply(g.state.clone(), 0, A.DrawTile(0))
    g.place_far(g.state.drawn[0], [HOME])
    g.act(A.DrawTile(0))
    g.place_far(g.state.drawn[0], [HOME])
    g.act(A.DrawTile(0))
    g.place_far(g.state.drawn[0], [HOME])
    assert g.state.energy == 1
    g.state.energy = 7                                   # even with energy, three tiles at most
    assert not any(isinstance(a, A.DrawTile) for a in g.legal(0))


def test_a_sun_tile_costs_nothing():
    g = _advanced(tiles=("sun", "deep"))
    g.act(A.DrawTile(0))
    g.place_far(g.state.drawn[0], [HOME])
    assert g.state.energy == 7 and g.state.players[0].breakdown.get("suns") == 1


def test_a_phase_left_behind_is_closed_and_a_refusal_changes_nothing():
    g = _advanced()
    g.act(A.Discard((g.state.players[0].hand[0],)))      # phase 4, free
    g.act(A.DrawCard("refuel"))                         # phase 5 closes nothing new: 4 is spent
    assert g.state.energy == 6 and DISCARD in g.state.closed_phases
    g.act(A.DrawTile(0))                                 # back to tiles: phase 5 closes
    g.place_far(g.state.drawn[0], [HOME])
    assert REFILL in g.state.closed_phases
    before = g.state.hash()
    with pytest.raises(IllegalAction, match="over for this turn"):
        apply(g.state, 0, A.DrawCard("refuel"))
    assert g.state.hash() == before


def test_not_enough_energy_is_refused_with_the_price():
    g = _advanced()
    g.state.energy = 1
    before = g.state.hash()
    with pytest.raises(IllegalAction, match="costs 2 energy"):
        apply(g.state, 0, A.DrawTile(0))
    assert g.state.hash() == before
    assert not any(isinstance(a, A.DrawTile) for a in g.legal(0))


def test_advanced_games_finish():
    for seed in range(3):
        for bot in ("random", "greedy"):
            state, summary = play_game(3, seed, [bot] * 3, config={"advanced": True})
            assert state.over and summary["winners"]


def test_advanced_roles_make_cards_free_instead_of_scoring():
    dealer = RiggedDealer(3, tiles=["p2-a", "deep", "deep"], hands=[["Pyrrhis"]])
    dealer.order["roles"] = ["Dr. Nevets Yahsel"]
    g = VariantGame(2, {"advanced": True, "role_play": True}, dealer)
    g.act(A.DrawTile(0))
    g.act(A.PlaceTile(g.state.drawn[0], EAST, 0))
    g.act(A.Move(1, EAST))
    assert g.state.energy == 4                         # tile 2 + move 1
    g.act(A.Discover(g.hand_named(0, "Pyrrhis"), "Pyrrhis", 0))
    assert g.state.energy == 4 and "role" not in g.state.players[0].breakdown
