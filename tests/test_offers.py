"""The discovery's offers on the one poll stack (SPEC §8.2, §14.2): who is asked, in which
order, and how the windows a card opens stack over the offer it answered.

Games answer every window by hand (auto_pass off), so each question is visible.
"""
from __future__ import annotations

import pytest

from tests.helpers_engine import MOVE, Game, RiggedDealer
from p2p_asv import actions as A
from p2p_asv.engine import apply, legal_actions, to_move
from p2p_asv.errors import IllegalAction, OutOfTurn

GREEN_HOME = (9, 9)    # J-10, seat 2's home in a four-seat game; its Star-T ship is s3
GREEN_EAST = (10, 9)   # K-10: one king step from s3


def special(g: Game, seat: int, name: str, *args: str) -> A.PlaySpecial:
    return A.PlaySpecial(g.hand_named(seat, name), name, tuple(args))


def answer_top(g: Game) -> list[int]:
    """Every seat asked by the innermost window passes; returns who was asked, in order."""
    top, asked = g.state.polls[-1], []
    while g.state.polls and g.state.polls[-1] is top:
        asked.append(g.seat)
        g.act(A.Pass())
    return asked


def green_discovers(hands) -> Game:
    """Four seats; blue and yellow play quiet turns, then green (seat 2, the active seat)
    places a 2-point planet tile east of its home, moves s3 onto it and plays Cephei."""
    g = Game(4, dealer=RiggedDealer(3, tiles=[None] * 4 + ["p2-a"], hands=hands),
             auto_pass=False)
    for _ in range(2):
        g.quiet_turn(away=[GREEN_HOME])
    assert g.state.active == 2
    g.tiles([("p2-a", GREEN_EAST, 0)], away=[GREEN_HOME])
    g.to_phase(MOVE)
    g.act(A.Move(3, GREEN_EAST))
    assert answer_top(g) == [3, 0, 1]                      # the `moved` moment
    g.act(A.Discover(g.hand_named(2, "Cephei"), "Cephei", 0))
    return g


def test_the_environment_offer_waits_on_the_poll_stack_under_the_planet_moment():
    g = green_discovers([[], [], ["Cephei"], []])
    assert [p.kind for p in g.state.polls] == ["environment", "planet"]
    assert answer_top(g) == [2, 3, 0, 1]                   # Lost Colony / U.F.O. first
    offer = g.state.polls[-1]
    assert offer.kind == "environment" and offer.seats == (2, 3, 0, 1) and offer.resume == "stage"


def test_every_seat_is_asked_from_the_discoverers_left_whoever_holds_a_card():
    """The discoverer first, then 3, 0, 1 (wrapping), whether or not a seat holds a fitting
    card (seat 0 holds Water and Embassy, and passes like everyone else)."""
    g = green_discovers([["Water", "Embassy"], [], ["Cephei"], []])
    answer_top(g)                                          # the planet moment
    h = g.state.hash()
    with pytest.raises(OutOfTurn):                         # seat 0 is not asked before seat 3
        apply(g.state, 0, A.PlayEnvironment(g.hand_named(0, "Water"), "Water"))
    assert g.state.hash() == h
    assert A.PlayEnvironment(g.hand_named(0, "Water"), "Water") not in legal_actions(g.state, g.views[0])
    assert answer_top(g) == [2, 3, 0, 1]                   # the environment offer
    assert g.state.discovery.stage == "life_form" and g.state.polls[-1].kind == "life_form"
    assert answer_top(g) == [2, 3, 0, 1]                   # the life form offer
    assert g.state.discovery.environment is None and g.state.discovery.life_forms == []
    assert g.state.discovery.scored == 2 * 2               # Cephei alone
    assert g.state.polls[-1].kind == "scored"              # Acid Rain's moment, from green's left
    assert answer_top(g) == [3, 0, 1]


def test_a_response_chain_is_answered_inside_the_life_form_offer():
    """Seat 3 answers green's offer with Domed Cities; seat 0 answers that with Space Virus
    (the `life` moment, from seat 3's left); seat 3, the card's target, cancels it with
    Conspiracy. Every window stacks over the closed offer, which goes only when they are
    settled; then the planet scores with the life form."""
    g = green_discovers([["Space Virus"], [], ["Cephei"], ["Domed Cities", "Conspiracy"]])
    answer_top(g)                                          # the planet moment
    answer_top(g)                                          # the environment offer
    g.act(A.Pass())                                        # green keeps its life forms
    assert g.seat == 3
    g.act(A.PlayLifeForms(((g.hand_named(3, "Domed Cities"), "Domed Cities"),)))
    assert [p.kind for p in g.state.polls] == ["life_form", "life"] and g.seat == 0
    offer = g.state.polls[0]
    assert offer.asked == len(offer.seats)                 # the first card closed the offer
    virus = special(g, 0, "Space Virus")
    assert virus in g.legal(0)
    g.act(virus)
    assert [p.kind for p in g.state.polls] == ["life_form", "life", "respond"]
    g.act(A.Pass())                                        # seat 1
    g.act(A.Pass())                                        # seat 2
    assert g.seat == 3
    conspiracy = special(g, 3, "Conspiracy")
    assert conspiracy in g.legal(3)
    g.act(conspiracy)
    assert [p.kind for p in g.state.polls] == ["life_form", "life", "respond", "respond"]
    assert answer_top(g) == [0, 1, 2]                      # nobody answers the Conspiracy
    assert {virus.card, conspiracy.card} <= set(g.state.decks["junk"])
    assert [p.kind for p in g.state.polls] == ["life_form", "life"]
    assert answer_top(g) == [1, 2]                         # the moment goes on after seat 0
    d = g.state.discovery
    assert d.life_forms == ["Domed Cities"] and d.scored == 2 * (2 + 1)
    assert "Domed Cities" in g.state.players[2].pile
    assert [p.kind for p in g.state.polls] == ["scored"]


def test_a_terra_form_cancel_inside_the_environment_offer():
    """A negative environment played in the offer opens the owner's Terra-Form moment over
    the closed offer; a Time Warp cancels the Terra-Form, and the life form offer opens
    only once that chain is settled."""
    g = green_discovers([["Ice Age"], ["Time Warp"], ["Cephei", "Terra-Form"], []])
    answer_top(g)                                          # the planet moment
    g.act(A.Pass())                                        # green
    g.act(A.Pass())                                        # seat 3
    g.act(A.PlayEnvironment(g.hand_named(0, "Ice Age"), "Ice Age"))
    assert [p.kind for p in g.state.polls] == ["environment", "env"] and g.seat == 2
    g.act(special(g, 2, "Terra-Form"))
    assert [p.kind for p in g.state.polls] == ["environment", "env", "respond"]
    g.act(A.Pass())                                        # seat 3
    g.act(A.Pass())                                        # seat 0
    g.act(special(g, 1, "Time Warp"))
    assert answer_top(g) == [2, 3, 0]                      # nobody answers the Time Warp
    assert not g.state.terraformed and g.state.discovery.environment == "Ice Age"
    assert [p.kind for p in g.state.polls] == ["life_form"]   # the next offer, asked afresh
    assert answer_top(g) == [2, 3, 0, 1]
    assert g.state.discovery.scored == 2 * (2 - 1)


def test_sneak_attack_closes_the_moments_but_not_the_offers():
    """SPEC §14.4 and §8.2: after Sneak Attack no other seat answers a moment, but an offer
    still asks every seat: playing an environment is not a response to a Special Action."""
    hands = [["Cephei", "Sneak Attack"], ["Water"]]
    g = Game(2, dealer=RiggedDealer(3, tiles=["p2-a", "deep", "deep"], hands=hands), auto_pass=False)
    g.tiles([("p2-a", (4, 3), 0)], away=[(3, 3)])
    g.to_phase(MOVE)
    g.act(special(g, 0, "Sneak Attack"))
    assert g.state.sneak and not g.state.polls
    g.act(A.Move(1, (4, 3)))
    assert not g.state.polls                               # the `moved` moment asks nobody
    g.act(A.Discover(g.hand_named(0, "Cephei"), "Cephei", 0))
    assert [(p.kind, p.seats) for p in g.state.polls] == [("environment", (0, 1)), ("planet", (0,))]
    g.act(A.Pass())                                        # no Lost Colony
    g.act(A.Pass())                                        # green keeps its environments
    assert to_move(g.state) == 1
    g.act(A.PlayEnvironment(g.hand_named(1, "Water"), "Water"))
    assert g.state.discovery.environment == "Water"


def test_an_offer_accepts_only_its_own_card_or_a_pass():
    g = green_discovers([[], [], ["Cephei", "Embassy", "Negotiations"], []])
    answer_top(g)                                          # the planet moment
    h = g.state.hash()
    for refused in (A.PlayLifeForms(((g.hand_named(2, "Embassy"), "Embassy"),)),
                    special(g, 2, "Negotiations"), A.Next()):
        with pytest.raises(IllegalAction):
            apply(g.state, 2, refused)
        assert g.state.hash() == h
    assert {type(a) for a in g.legal(2)} <= {A.Pass, A.PlayEnvironment}
