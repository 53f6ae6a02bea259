"""Rules read again against the rulebook's card texts (issue 20): extras played "at any time",
Sneak Attack and Peace Talks against a Teleport (SPEC §5.7, §14.4, §15.2)."""
from __future__ import annotations

import pytest

from p2p_asv import actions as A
from p2p_asv.engine import apply, to_move
from p2p_asv.errors import IllegalAction
from p2p_asv.state import MOVE, PLACE_PIECE, REFILL
from tests.helpers_engine import Game
from tests.rig_helpers import give

HOME = (3, 3)   # D-4: seat 0's home, where its Star-T s1 stands


def _game(config=None) -> Game:
    g = Game(2, seed=3, config=config)
    if config and config.get("advanced"):
        g.act(A.DrawTile(0))
        g.place_far(g.state.drawn[0], [HOME])
    else:
        g.tiles(away=[HOME])
        assert g.state.phase == PLACE_PIECE
    return g


# -- SPEC §5.7: Flash-jets, Fleet Admiral and Nano-computer "at any time" -----------------------
@pytest.mark.parametrize("name", ["Flash-jets", "Fleet Admiral", "Nano-computer"])
def test_an_any_time_extra_is_attached_in_any_phase_after_the_tiles(name):
    g = _game()
    g.to_phase(MOVE)
    card = give(g, 0, name)
    laser = give(g, 0, "Laser Beam")
    legal = g.legal(0)
    assert A.AttachExtra(1, card, name) in legal
    assert not any(isinstance(a, A.AttachExtra) and a.card == laser for a in legal)   # phase 2 only
    with pytest.raises(IllegalAction, match="phase 2"):
        apply(g.state.clone(), 0, A.AttachExtra(1, laser, "Laser Beam"))
    g.act(A.Next())
    g.to_phase(REFILL)
    g.act(A.AttachExtra(1, card, name))
    assert name in g.state.ships[1].extras and g.state.phase == REFILL


def test_an_any_time_extra_belongs_to_no_phase_in_the_advanced_game():
    """SPEC §13.5: attaching Flash-jets after the move does not leave phase 3 behind."""
    g = _game({"advanced": True})
    g.act(A.Discard((g.state.players[0].hand[0],)))   # the turn now stands in phase 4
    jets = give(g, 0, "Flash-jets")
    before = (g.state.phase, list(g.state.closed_phases), g.state.energy)
    assert A.AttachExtra(1, jets, "Flash-jets") in g.legal(0)
    g.act(A.AttachExtra(1, jets, "Flash-jets"))
    assert (g.state.phase, g.state.closed_phases, g.state.energy) == (before[0], before[1], before[2] - 1)
    assert PLACE_PIECE not in g.state.closed_phases
    assert "Flash-jets" in g.state.ships[1].extras


# -- SPEC §15.2 with §14.3-§14.4: a Teleport is a Special Action card like the others ----------
def _sabotaged(hands) -> Game:
    """Seat 0 lands s1 on a new planet at E-4; seat 1 sabotages it and seat 0 lets it stand."""
    from tests.helpers_engine import RiggedDealer
    dealer = RiggedDealer(3, tiles=["p2-a", "deep", "deep"], hands=hands)
    g = Game(2, dealer=dealer, auto_pass=False)
    g.tiles([("p2-a", (4, 3), 0)], away=[HOME])
    g.to_phase(MOVE)
    g.act(A.Move(1, (4, 3)))
    g.act(A.PlaySpecial(g.hand_named(1, "Sabotage"), "Sabotage", ("s1",)))
    g.act(A.Pass())
    assert g.state.doom is not None and to_move(g.state) == 0
    return g


def test_peace_talks_cancels_a_teleport_and_the_ship_is_doomed_again():
    g = _sabotaged([["Cephei", "Teleport"], ["Sabotage", "Peace Talks"]])
    teleport = next(a for a in g.legal(0) if isinstance(a, A.Teleport))
    g.act(teleport)
    assert g.seat == 1 and g.state.polls[-1].action.name == "Teleport"
    peace = A.PlaySpecial(g.hand_named(1, "Peace Talks"), "Peace Talks")
    assert peace in g.legal(1)
    g.act(peace)
    g.act(A.Pass())                         # seat 0 has no Time Warp for the Peace Talks
    assert not g.state.polls and g.state.doom is not None and g.seat == 0
    assert {teleport.card, peace.card} <= set(g.state.decks["junk"])
    assert g.legal(0) == [A.Pass()]         # no second Teleport: the ship is lost
    g.act(A.Pass())
    assert 1 not in g.state.ships and g.state.doom is None


def test_a_teleport_nobody_cancels_saves_the_ship():
    g = _sabotaged([["Cephei", "Teleport"], ["Sabotage", "Peace Talks"]])
    teleport = next(a for a in g.legal(0) if isinstance(a, A.Teleport))
    g.act(teleport)
    g.act(A.Pass())
    assert g.state.ships[1].square == HOME and g.state.doom is None
    assert teleport.card in g.state.decks["junk"]


def test_after_sneak_attack_no_other_seat_may_teleport():
    from tests.rig_helpers import ship
    g = Game(2, seed=3, auto_pass=False)
    g.tiles(away=[HOME])
    rival = ship(g, 1, "Fighter Ship", HOME)
    teleport = give(g, 1, "Teleport")
    sneak, kamikaze = give(g, 0, "Sneak Attack"), give(g, 0, "Kamikaze Attack")
    g.act(A.PlaySpecial(sneak, "Sneak Attack"))
    g.act(A.PlaySpecial(kamikaze, "Kamikaze Attack", ("s1",)))
    assert g.state.doom is not None and g.seat == 1      # no window: the cards took effect at once
    assert not any(isinstance(a, A.Teleport) for a in g.legal(1))
    yellow_home = next(sq for (sq, _), r in sorted(g.state.planets.items()) if r.owner == 1)
    before = g.state.hash()
    with pytest.raises(IllegalAction, match="Sneak Attack"):
        apply(g.state, 1, A.Teleport(rival, teleport, "Teleport", yellow_home))
    assert g.state.hash() == before
    g.act(A.Pass())
    assert rival not in g.state.ships


def test_the_greedy_bot_cancels_a_rivals_teleport():
    from p2p_asv.bots import GreedyBot
    g = _sabotaged([["Cephei", "Teleport"], ["Sabotage", "Peace Talks"]])
    g.act(next(a for a in g.legal(0) if isinstance(a, A.Teleport)))
    peace = A.PlaySpecial(g.hand_named(1, "Peace Talks"), "Peace Talks")
    assert {GreedyBot(seed).choose(g.state, g.views[1]) for seed in range(4)} == {peace}
