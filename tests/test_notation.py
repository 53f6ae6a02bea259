"""Action notation round trips and typed errors (SPEC §11)."""
from __future__ import annotations

import pytest

from tests.helpers_engine import Game, RiggedDealer
from p2p_asv import actions as A
from p2p_asv.bots import RandomBot
from p2p_asv.dealer import LocalDealer
from p2p_asv.engine import apply, legal_actions, parse_action, to_move
from p2p_asv.errors import EngineError, IllegalAction, MalformedAction, OutOfTurn
from p2p_asv.setup import new_game
from p2p_asv.state import CHANCE
from p2p_asv.view import PlayerView


def game_events(players: int, seed: int):
    """(state before, seat, action, legal list) for every event of a random game."""
    state = new_game(players)
    dealer = LocalDealer(seed)
    views = [PlayerView(s) for s in range(players)]
    bots = [RandomBot(f"{seed}/{s}") for s in range(players)]
    while not state.over:
        seat = to_move(state)
        if seat == CHANCE:
            action, legal = dealer.outcome(state, views), None
        else:
            legal = legal_actions(state, views[seat])
            action = bots[seat].choose(state, views[seat])
        yield state, seat, action, legal
        apply(state, seat, action)


# -- SPEC §11.1 round trip ---------------------------------------------------------------
@pytest.mark.parametrize("players, seed", [(1, 21), (2, 22), (3, 23), (4, 24)])
def test_every_played_and_every_legal_action_round_trips(players, seed):
    kinds = set()
    for _, _, action, legal in game_events(players, seed):
        for a in [action] + (legal or []):
            text = a.text()
            back = parse_action(text)
            assert back == a, text
            assert back.text() == text
            kinds.add(type(a).__name__)
    # chance outcomes of every kind and the common player actions were exercised
    assert {"ChanceShuffle", "ChanceReveal", "ChanceDeal", "DrawTile", "PlaceTile", "Next",
            "DrawCard"} <= kinds


def test_round_trip_of_hand_written_actions_with_awkward_names():
    cases = [
        A.Discover(7, "X'am", 0), A.Discover(8, "KC's Star", 0), A.Discover(9, "Geo-Gaia", 0),
        A.PlayEnvironment(3, "99% Pure Atmosphere"), A.PlayEnvironment(4, "Very Cold!"),
        A.PlayLifeForms(((5, "Öorts"),)), A.PlayLifeForms(((5, "Plasma Spores"), (6, "Plasma Spores"))),
        A.PlayExplorer(10, "Dr. Nevets Yahsel"), A.PlayExplorer(11, "Gavin's Raiders"),
        A.NewShip(12, "Star-T Ship", (3, 3)), A.Upgrade(2, 13, "Star Cruiser"),
        A.AttachExtra(1, 14, "Flash-jets"), A.PlaceProbe((12, 12), 1), A.PlacePirate((0, 12), 0),
        A.PlaceStation((6, 6)), A.ScoreStation((6, 6)), A.Move(3, (12, 0)), A.Pass(), A.Next(),
        A.Discard((1, 2, 3)), A.DrawCard("port"), A.DrawTile(3), A.PlaceTile(5, (1, 2), 3),
        A.ScrapTile(5), A.ChanceShuffle("quests"), A.ChanceDeal(2, (40, 41)),
        A.ChanceReveal(((5, "path-straight-gal2"), (6, "p2-twin"))),
        # SPEC §15
        A.Escape(3, (4, 4)), A.Teleport(3, 40, "Teleport", (9, 9)),
        A.AttachExtra(1, 14, "Fleet Admiral", "port"), A.AttachExtra(1, 14, "Fleet Admiral", "s7"),
        A.Fire(1, "ship", index=4), A.Fire(1, "probe", (5, 5), 1), A.Fire(1, "pirate", (5, 5), 0),
        A.Fire(1, "station", (5, 5)), A.Torpedo(2, (3, 11), 0), A.Plunder(1, 0), A.Plunder(3, 11),
        A.PlayRookie(15, "Captain Rookie", 4), A.Reassign(4, 2),
        A.Bank(2, 0), A.Bank(1, 11), A.BankGive(17),   # SPEC §8.10
    ]
    for a in cases:
        assert parse_action(a.text()) == a, a.text()


@pytest.mark.parametrize("text", [
    "", "   ", "fly s1 D-4", "draw-tile 0", "draw-tile x", "draw-tile 1 2", "place #1 D-4",
    "place #1 D-4 r4", "place 1 D-4 r0", "place #1 Z-4 r0", "place #1 D-14 r0", "move 1 D-4",
    "move s1", "discover #3 0", "discover #3:not-a-card 0", "env #3", "life", "discard",
    "draw junk", "next now", "pass 1", "probe D-4", "pirate D-4/x", "chance", "chance deal 1",
    "chance shuffle", "chance reveal", "chance reveal #1:no-such-tile", "ship #4:star-t-ship",
    "fire s1", "fire s1 moon D-4/0", "fire s1 station", "plunder 1 0", "plunder 1", "torpedo s1 D-4",
    "rookie #3 s1", "reassign s1", "escape s1", "teleport s1 #3 D-4", "extra s1 #3:fleet-admiral x",
    "bank 1 0", "bank #3 #4", "bank 1", "give 3", "give #3 #4",
])
def test_malformed_notation_is_refused(text):
    with pytest.raises(MalformedAction):
        parse_action(text)


# -- SPEC §11.3 typed errors leave the state unchanged ------------------------------------
def unchanged(state, seat, action, error):
    before = state.hash()
    with pytest.raises(error) as exc:
        apply(state, seat, action)
    assert state.hash() == before
    assert str(exc.value)        # every refusal says why
    return str(exc.value)


def test_a_non_action_is_malformed():
    g = Game(2)
    unchanged(g.state, 0, "next", MalformedAction)
    unchanged(g.state, 0, None, MalformedAction)


def test_acting_out_of_turn():
    g = Game(3)
    assert to_move(g.state) == 0
    msg = unchanged(g.state, 1, A.DrawTile(0), OutOfTurn)
    assert "seat 0" in msg
    unchanged(g.state, 2, A.Next(), OutOfTurn)


def test_chance_outcome_written_by_a_player_is_out_of_turn():
    state = new_game(2)
    dealer = LocalDealer(1)
    views = [PlayerView(0), PlayerView(1)]
    outcome = dealer.outcome(state, views)
    unchanged(state, 0, outcome, OutOfTurn)
    unchanged(state, 0, A.Next(), OutOfTurn)          # a player while chance is due
    apply(state, CHANCE, outcome)


def test_wrong_chance_outcome_is_illegal():
    state = new_game(2)
    unchanged(state, CHANCE, A.ChanceShuffle("port"), IllegalAction)     # tiles are due first
    unchanged(state, CHANCE, A.ChanceDeal(0, (1,)), IllegalAction)
    unchanged(state, CHANCE, A.ChanceReveal(((0, "deep"),)), IllegalAction)


def test_illegal_actions_say_why_and_change_nothing():
    g = Game(2, dealer=RiggedDealer(3, tiles=["deep", "deep", "deep"]))
    s = g.state
    assert "draw" in unchanged(s, 0, A.PlaceTile(0, (4, 3), 0), IllegalAction)
    assert "pile" in unchanged(s, 0, A.DrawTile(7), IllegalAction)
    assert "phase" in unchanged(s, 0, A.Discard((s.players[0].hand[0],)), IllegalAction)
    assert "phase" in unchanged(s, 0, A.Move(1, (4, 4)), IllegalAction)
    assert "discover" in unchanged(s, 0, A.Discover(s.players[0].hand[0], "Rho", 0), IllegalAction)
    g.tiles()
    bad_card = s.players[1].hand[0]
    msg = unchanged(s, 0, A.NewShip(bad_card, "Fighter Ship", (3, 3)), IllegalAction)
    assert "not in seat 0's hand" in msg
    unchanged(s, 0, A.NewShip(s.players[0].hand[0], "Nonesuch", (3, 3)), MalformedAction)
    assert issubclass(MalformedAction, EngineError) and issubclass(OutOfTurn, EngineError)


def test_card_of_the_wrong_category_is_refused():
    """The engine cannot see hidden cards, but a claimed name must fit the action (SPEC §10.3)."""
    g = Game(1)
    g.tiles()
    h = g.state.players[0].hand[0]
    msg = unchanged(g.state, 0, A.NewShip(h, "Water", (3, 3)), IllegalAction)
    assert "environment" in msg and "space_ship" in msg


@pytest.mark.parametrize("text", ["draw-tile ²", "place #1 D-² r0", "discard #١", "move s² D-4",
                                  "probe D-4/²", "discover #3:pyrrhis ²"])
def test_non_ascii_digits_are_malformed_not_a_crash(text):
    """SPEC §11.3: only ASCII digits are numbers; '²' passes str.isdigit() but not int()."""
    with pytest.raises(MalformedAction):
        parse_action(text)
