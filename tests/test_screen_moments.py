"""Moments explained (SPEC §31.5, §31.6): the doom poll says what is at stake and every way
out; a placement refused for its sides says so in the words of `help`; fixed features of
the board have a legend line; the scores table fits 80 columns."""
from __future__ import annotations

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

import tests.test_specials as S
from cli.repl.local import LocalGame
from cli.repl.loop import Repl
from tests.helpers_engine import MOVE, Game, RiggedDealer
from p2p_asv import actions as A
from p2p_asv.geometry import square_name
from p2p_asv.state import TILES
from p2p_asv.tiles import TILE_BY_ID
from tests.test_repl import said, to_phase
from tests.test_screen_choices import driver_of


@pytest.fixture
def pipe():
    with create_pipe_input() as p:
        yield p


def sabotaged() -> Game:
    """Seat 0's s1 lands on E-4; seat 1 plays Sabotage on it; seat 0 lets it through."""
    dealer = RiggedDealer(3, tiles=["p2-a", "deep", "deep"], hands=[["Cephei", "Teleport"], ["Sabotage"]])
    g = Game(2, dealer=dealer, auto_pass=False)
    g.tiles([("p2-a", S.EAST, 0)], away=[S.HOME])
    g.to_phase(MOVE)
    g.act(A.Move(1, S.EAST))
    g.act(S.special(g, 1, "Sabotage", "s1"))
    return g


def test_the_sabotage_window_says_the_ship_is_at_stake(pipe):
    g = sabotaged()
    repl = Repl(driver_of(g), color=False, input=pipe, output=DummyOutput())
    asked = repl.screen.question()
    assert "s1" in asked and "destroyed if it takes effect" in asked and "Teleport" in asked


def test_the_doom_poll_says_the_ship_is_destroyed_and_offers_the_teleport(pipe):
    """Before: 'now move: pass / teleport' and nothing said the ship was about to go."""
    g = sabotaged()
    g.act(A.Pass())                       # seat 0 does not cancel the Sabotage
    assert g.state.doom is not None
    repl = Repl(driver_of(g), color=False, input=pipe, output=DummyOutput())
    asked = repl.screen.question()
    teleport = next(a for a in g.legal(0) if isinstance(a, A.Teleport))
    assert asked.startswith("Sabotage destroys your s1 (Star-T Ship at E-4)!")
    assert teleport.text() in asked and "pass to lose it" in asked
    assert repl.screen.prompt() == asked + "> "
    assert repl.screen.announce(("before",)) == asked      # the phase line says the same


def test_a_placement_refused_for_its_sides_says_galaxy_and_deep_space(pipe):
    driver = LocalGame(2, 0, seed=3)
    to_phase(driver, TILES)
    while driver.state().tiles_owed:
        driver.submit(driver.legal()[0])
        driver.wait_for_turn()
    state = driver.state()
    handle = state.drawn[0]
    tile = TILE_BY_ID[state.names[handle]]
    refused = next((sq, r) for sq in sorted(state.board._frontier) for r in range(4)
                   if "side shows" in (state.board.can_place(tile, sq, r) or ""))
    repl = Repl(driver, color=False, input=pipe, output=DummyOutput())
    repl.handle(f"place #{handle} {square_name(refused[0])} r{refused[1]}")
    text = said(repl)
    assert "not allowed:" in text and "does not fit on" in text
    assert "side shows" not in text and "on its" not in text
    assert any(w in text for w in ("galaxy but", "deep space but", "a space path but"))
    assert f"legal place #{handle}" in text


def test_the_scores_table_fits_80_columns_with_two_ships_a_seat():
    from cli.games.asv import render
    from tests.test_render import dealt_game
    state, _ = dealt_game(4)
    for seat in range(4):                  # a second ship, with an extra, for every seat
        first = state.ships_of(seat)[0]
        state.ships[first.id].extras = ["Ion Engine", "Shield"]
        state.ships[first.id].extra_cards = [900 + seat, 910 + seat]
        from dataclasses import replace
        extra_id = 20 + seat
        state.ships[extra_id] = replace(first, id=extra_id, name="Space Shuttle", extras=[], extra_cards=[])
    text = render.plain(render.scores(state))
    assert all(len(line) <= 80 for line in text.split("\n")), text
    assert "s21:Space Shuttle@" in text and "Ion Engine" in text
