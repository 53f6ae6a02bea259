"""Space Trading Race as a whole (SPEC §52.3, §57): notation round trips, purity, the hash under
two PYTHONHASHSEEDs, random play to the end for 2-4 players, greedy against random."""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from space_trading_race import (CHANCE, IllegalAction, LocalDealer, MalformedAction, OutOfTurn, PlayerView, apply,
                                chance_outcomes, legal_actions, new_game, parse_action, to_move)
from space_trading_race.bots import RandomBot
from space_trading_race.selfplay import play_game
from space_trading_race.state import LASER_TOKENS, BANK

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "space_trading_race"
FORBIDDEN = {"protocol", "cli", "p2p_asv", "space_walk", "trio", "msgpack", "nacl", "cryptography",
             "prompt_toolkit", "socket", "asyncio", "random", "time", "os"}


def test_the_engine_imports_nothing_forbidden():
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text())
        roots = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        roots |= {n.module.split(".")[0] for n in ast.walk(tree)
                  if isinstance(n, ast.ImportFrom) and n.level == 0 and n.module}
        assert not roots & FORBIDDEN, (path.name, roots & FORBIDDEN)


@pytest.mark.parametrize("text", [
    "roll", "end", "land", "bypass", "drift", "buy", "decline", "exchange", "keep", "pass", "accept", "reject",
    "fire 0", "fire 31", "pick io", "cede sunward-dock", "offer 2 io+$50 for ganymede", "offer 1 nothing for mars+phobos",
    "offer 3 mercury+venus for $900", "claim #4:red-planet", "chance dice 3 4", "chance shuffle missions",
    "chance deal 1 #5"])
def test_notation_round_trips(text):
    action = parse_action(text)
    assert action.text() == text and parse_action(action.text()) == action and hash(action) == hash(parse_action(text))


@pytest.mark.parametrize("text", [
    "", "roll ", "Roll", "fly", "fire", "fire x", "fire 01", "pick pluto-x", "offer 1 io for", "offer 1 nothing for nothing",
    "offer 1 io+$5 for $5", "offer 1 ganymede+io for $5", "offer 1 $5+io for mars", "offer 1 io+$0 for mars",
    "offer 1 io+io for mars", "claim 4:red-planet", "claim #4", "claim #4:Red", "chance dice 0 3", "chance dice 7 1",
    "chance deal 1 5", "chance roll", 7])
def test_bad_notation_is_malformed(text):
    with pytest.raises(MalformedAction):
        parse_action(text)


def _random_game(players: int, seed: int, check_refusals: bool = False):
    state = new_game(players)
    views = [PlayerView(s) for s in range(players)]
    dealer = LocalDealer(seed)
    bots = [RandomBot(f"{seed}/{s}") for s in range(players)]
    while not state.over:
        seat = to_move(state)
        if seat == CHANCE:
            action = dealer.outcome(state, views)
            assert action in chance_outcomes(state)
        else:
            legal = legal_actions(state, views[seat])
            assert legal == sorted(set(legal), key=lambda a: a.text()) and legal
            for other in range(players):
                assert other == seat or legal_actions(state, views[other]) == []
            for a in legal:
                assert parse_action(a.text()) == a
            action = bots[seat].choose(state, views[seat])
            if check_refusals:
                before = state.hash()
                with pytest.raises((OutOfTurn, IllegalAction)):
                    apply(state, (seat + 1) % players if players > 1 else CHANCE, action)
                assert state.hash() == before
        apply(state, seat, action)
        _invariants(state)
    return state


def _invariants(state):
    assert sum(state.tokens) + state.bank_tokens == LASER_TOKENS
    assert all(c >= 0 for c in state.cash) and all(t >= 0 for t in state.tokens)
    assert all(o == BANK or state.alive[o] for o in state.owner)
    assert sorted(state.deck + [h for h in state.hand if h >= 0] + state.retired) == list(range(20))
    for seat in range(state.players):
        assert state.alive[seat] == (state.out[seat] == "")


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 2), (3, 3), (3, 4), (4, 5), (4, 6)])
def test_random_play_reaches_the_end(players, seed):
    state = _random_game(players, seed, check_refusals=seed % 2 == 1)
    assert state.over and state.winners and all(state.alive[w] for w in state.winners)
    assert state.end


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**9), mixed=st.booleans())
def test_any_seeded_game_ends_with_its_invariants_kept(players, seed, mixed):
    """Property: whatever the seed and bots, a game ends, tokens and missions are conserved,
    money never goes negative and the winners are in the game."""
    kinds = [("greedy", "random")[(s + seed) % 2] if mixed else "random" for s in range(players)]
    state, summary = play_game(players, seed, kinds, on_event=lambda st_, seat, action: _invariants(st_))
    assert state.over and summary["winners"] and all(state.alive[w] for w in summary["winners"])


def test_every_end_is_reached_in_a_few_games():
    ends = set()
    for seed in range(20):
        _, summary = play_game(2, seed, ["greedy", "greedy"])
        ends.add(summary["end"].split(":")[0])
    assert ends == {"mission", "last on the board", "most assets at the time limit"}


def test_greedy_beats_random():
    """SPEC §57.5: forty two-player games, greedy in either seat (a fair share is 20), and ten
    four-player games against three random bots (a fair share is 2.5)."""
    wins = 0.0
    for seed in range(40):
        kinds = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        _, summary = play_game(2, seed, kinds)
        greedy = kinds.index("greedy")
        wins += (greedy in summary["winners"]) / len(summary["winners"])
    assert wins >= 25
    four = sum(0 in play_game(4, seed, ["greedy", "random", "random", "random"])[1]["winners"] for seed in range(10))
    assert four >= 5


def test_selfplay_summary_and_its_determinism():
    state, a = play_game(3, 7)
    _, b = play_game(3, 7)
    assert a == b and a["state_hash"] == state.hash()
    assert set(a) >= {"winners", "winner", "end", "rounds", "turns", "events", "cash", "assets", "alive", "out",
                      "deeds", "missions", "seed", "players", "state_hash", "bots"}


def test_the_hash_is_the_same_under_two_hash_seeds():
    code = ("import json; from space_trading_race.selfplay import play_game\n"
            "print(json.dumps([play_game(n, 11, (['greedy', 'random'] * 2)[:n])[1]['state_hash'] for n in (2, 4)]))\n")
    out = []
    for seed in ("0", "12345"):
        run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                             env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"}, check=True)
        out.append(json.loads(run.stdout))
    assert out[0] == out[1]


def test_importing_the_engine_loads_no_forbidden_module():
    code = ("import sys, json\n"
            "before = set(sys.modules)\n"
            "import space_trading_race.engine, space_trading_race.selfplay, space_trading_race.bots\n"
            "print(json.dumps(sorted(set(sys.modules) - before)))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                         check=True)
    roots = {name.split(".")[0] for name in json.loads(out.stdout)}
    assert "space_trading_race" in roots and not roots & FORBIDDEN, sorted(roots & FORBIDDEN)


PROBES = ["roll", "end", "land", "bypass", "drift", "buy", "decline", "exchange", "keep", "pass", "accept", "reject",
          "fire 31", "fire 4", "pick io", "cede io", "cede mercury", "offer 1 io for $10", "offer 0 nothing for io",
          "claim #0:tycoon", "claim #1:force-field", "chance dice 6 6", "chance shuffle missions", "chance deal 0 #7"]


@pytest.mark.parametrize("players,seed", [(2, 21), (3, 22), (4, 23)])
def test_a_refused_action_leaves_the_hash_unchanged(players, seed):
    """Every probe the engine refuses, at every step of a random game, changes nothing."""
    state = new_game(players)
    views = [PlayerView(s) for s in range(players)]
    dealer, bots = LocalDealer(seed), [RandomBot(f"{seed}/{s}") for s in range(players)]
    refused = 0
    while not state.over and state.step < 200:
        seat = to_move(state)
        for text in PROBES:
            trial = state.clone()
            before = trial.hash()
            try:
                apply(trial, seat, parse_action(text))
            except (IllegalAction, OutOfTurn, MalformedAction):
                refused += 1
                assert trial.hash() == before and trial.plain() == state.plain()
        action = dealer.outcome(state, views) if seat == CHANCE else bots[seat].choose(state, views[seat])
        apply(state, seat, action)
    assert refused > 500


def test_the_catalog_is_plain_data_of_every_fixed_fact():
    from space_trading_race.catalog import catalog
    data = catalog()
    assert json.loads(json.dumps(data)) == data
    assert len(data["spaces"]) == 85 and len(data["deeds"]) == 36 and len(data["missions"]) == 20
    ganymede = next(d for d in data["deeds"] if d["deed"] == "ganymede")
    assert ganymede["rents"][0] == 140 and ganymede["rents"][2] == 400
    assert data["lasers"]["shots_per_token"] == {"0": 2, "1": 1} and data["money"]["starting_cash"] == 1660
    assert sum(1 for s in data["spaces"] if s["kind"] == "station") == 7
