"""Legality and application agree (SPEC §11.2, §13.5): every action `legal_actions` offers is
accepted by `apply`, and an action `apply` refuses leaves the state exactly as it was."""
from __future__ import annotations

import random
from dataclasses import fields, replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_asv import actions as A
from p2p_asv.bots import make_bot
from p2p_asv.dealer import LocalDealer
from p2p_asv.engine import apply, legal_actions, to_move
from p2p_asv.errors import EngineError, IllegalAction
from p2p_asv.geometry import parse_square
from p2p_asv.setup import new_game
from p2p_asv.state import CHANCE, MOVE, PLACE_PIECE
from p2p_asv.view import PlayerView
from tests.helpers_engine import Game
from tests.rig_helpers import ROUTE, route, ship

ADVANCED = {"advanced": True}


def play(players: int, seed: int, bots: str, config: dict | None, check, limit: int = 20_000) -> None:
    """Play a game of `bots` bots to the end, calling check(state, views, seat, step) before
    every player event."""
    state = new_game(players, config)
    dealer = LocalDealer(seed)
    views = [PlayerView(s) for s in range(players)]
    agents = [make_bot(bots, f"{seed}/{s}") for s in range(players)]
    step = 0
    while not state.over:
        assert step < limit, "game did not end"
        seat = to_move(state)
        if seat == CHANCE:
            action = dealer.outcome(state, views)
        else:
            check(state, views, seat, step)
            action = agents[seat].choose(state, views[seat])
        apply(state, seat, action)
        step += 1


def every_offer_applies(state, views, seat, step) -> None:
    before = state.hash()
    for action in legal_actions(state, views[seat]):
        try:
            apply(state.clone(), seat, action)
        except EngineError as exc:   # pragma: no cover - the failure message is the point
            raise AssertionError(f"offered but refused at step {step}: {action.text()}: {exc}") from None
    assert state.hash() == before


# -- nothing offered is refused (SPEC §13.5's one phase table) ----------------------------------
@pytest.mark.parametrize("players,seed", [(2, 4), (3, 7)])
def test_the_advanced_games_that_refused_the_kaygus_now_finish(players, seed):
    """These two greedy games listed The Kaygus from phase 3 while the turn stood in phase 2,
    and apply refused it; the phase is now read from one table by both. (The old engine
    refused the greedy's own choice, so finishing the game is the first check.)"""
    play(players, seed, "greedy", ADVANCED,
         lambda state, views, seat, step: every_offer_applies(state, views, seat, step) if step % 3 == 0 else None)


@pytest.mark.parametrize("players,seed,bots", [(2, 11, "random"), (4, 12, "random"), (3, 13, "greedy")])
def test_every_offered_action_applies_in_advanced_games(players, seed, bots):
    play(players, seed, bots, {**ADVANCED, "role_play": True}, every_offer_applies)


@settings(max_examples=4, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(1, 4), seed=st.integers(0, 2**32), role_play=st.booleans())
def test_every_offered_action_applies_in_greedy_advanced_games(players, seed, role_play):
    play(players, seed, "greedy", {**ADVANCED, "role_play": role_play},
         lambda state, views, seat, step: every_offer_applies(state, views, seat, step) if step % 2 == 0 else None)


# -- a refusal changes nothing -------------------------------------------------------------------
def test_a_refused_move_after_a_photon_torpedo_leaves_the_state_unchanged():
    """SPEC §15.5 with §13.5: the follow-up move onto an undiscovered planet is refused for want
    of energy; the torpedo's restriction must still be there afterwards."""
    g = Game(2, seed=3)
    g.tiles()
    assert g.state.phase == PLACE_PIECE
    route(g, east_owner=None)                      # the far end is undiscovered
    g.state.players[1].pirates.append((ROUTE[1], 0))
    armed = ship(g, 0, "Fighter Ship", ROUTE[0], extras=("Photon Torpedo",))
    g.to_phase(MOVE)
    g.act(A.Torpedo(armed, ROUTE[1], 0))
    assert g.state.torpedo_to == [ROUTE[3]]
    g.state.variants = replace(g.state.variants, advanced=True)
    g.state.energy = 0                              # nothing left to pay the planet card
    before = g.state.hash()
    with pytest.raises(IllegalAction, match="energy"):
        apply(g.state, 0, A.Move(armed, ROUTE[3]))
    assert g.state.hash() == before
    assert g.state.torpedo_ship == armed and g.state.torpedo_to == [ROUTE[3]]


SQUARES = [parse_square(s) for s in ("A-1", "D-4", "E-5", "F-6", "G-7", "J-10", "M-13")]
NAMES = ["Fighter Ship", "Photon Torpedo", "Laser Beam", "Teleport", "Worm Hole", "Sneak Attack",
         "The Kaygus", "Water", "Peace Talks", "Shift of Funds", "Captain Rookie", "Fleet Admiral"]


def garbage(rng: random.Random, handles: list[int]):
    """An action of a random class with random but well-typed fields."""
    cls = rng.choice([c for c in A.Action.__args__ if c not in A.CHANCE_ACTIONS])
    values = {}
    for f in fields(cls):
        kind = str(f.type)
        if f.name == "square":
            values[f.name] = rng.choice(SQUARES)
        elif f.name == "name":
            values[f.name] = rng.choice(NAMES)
        elif f.name == "kind":
            values[f.name] = rng.choice(["ship", "probe", "pirate", "station"])
        elif f.name == "deck":
            values[f.name] = rng.choice(A.DECKS)
        elif f.name == "evict":
            values[f.name] = rng.choice(["", "port", "s1"])
        elif f.name == "args":
            values[f.name] = tuple(rng.choice(["@0", "@1", "s1", "s2", "D-4", "tile", "discard", "#3"])
                                   for _ in range(rng.randint(0, 2)))
        elif f.name == "cards" and "str" in kind:
            values[f.name] = ((rng.choice(handles), rng.choice(NAMES)),)
        elif f.name == "cards":
            values[f.name] = tuple(rng.sample(handles, rng.randint(1, 2)))
        elif f.name in ("card", "tile"):
            values[f.name] = rng.choice(handles)
        else:
            values[f.name] = rng.randint(0, 4)
    return cls(**values)


def refusals_change_nothing(rng: random.Random, pool: list, every: int):
    """A check: at every `every`th decision try garbage and the actions other states offered,
    for every seat; each refused one must leave the hash as it was."""
    def check(state, views, seat, step):
        offered = legal_actions(state, views[seat])
        pool.extend(rng.sample(offered, min(3, len(offered))))
        if step % every:
            return
        before = state.hash()
        handles = sorted(state.names)[:40] + [h for p in state.players for h in p.hand]
        tries = [garbage(rng, handles) for _ in range(12)] + rng.sample(pool, min(20, len(pool)))
        trial = state.clone()
        refused = 0
        for action in tries:
            for s in range(len(state.players)):
                try:
                    apply(trial, s, action)
                except EngineError:
                    refused += 1
                    assert trial.hash() == before, f"refused {action.text()} by seat {s} changed the state"
                else:
                    trial = state.clone()
        assert refused and state.hash() == before
    return check


@pytest.mark.parametrize("players,seed,config", [
    (2, 21, None), (3, 22, ADVANCED), (4, 23, {**ADVANCED, "role_play": True}),
    (2, 24, {"role_play": True, "captain_rookie": True}), (4, 25, {"partnership": True, "advanced": True})])
def test_refused_garbage_and_out_of_phase_actions_change_nothing(players, seed, config):
    rng = random.Random(seed)
    play(players, seed, "random", config, refusals_change_nothing(rng, [], every=7))
