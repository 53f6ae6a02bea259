"""Choices a person can read (SPEC §31.4): a combination is one line per part, never the
product of all its choices; `legal` prints no blank line and always lists the plain moves;
`draw refuel N` plays N draws one after another."""
from __future__ import annotations

import re

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

import tests.test_specials as S
from cli.games.legal_list import families, family_line
from cli.repl.local import LocalGame
from cli.repl.loop import Repl
from tests.helpers_engine import REFILL
from tests.test_repl import said


def driver_of(g, seat: int = 0) -> LocalGame:
    """A local driver over a constructed engine game (its state, views and rigged dealer)."""
    driver = LocalGame(len(g.state.players), seat, seed=3)
    driver._state, driver._views, driver._dealer = g.state, g.views, g.dealer
    driver._applied += 1
    return driver


@pytest.fixture
def pipe():
    with create_pipe_input() as p:
        yield p


def test_cyber_jump_discard_is_one_line_naming_each_card(pipe):
    """Before: 28 'discard two' lines, or `discard #89/#90/#89/#91/...`."""
    g = S.shift_ready(2, [["Cyber Jump", "Water", "Embassy"], []])
    repl = Repl(driver_of(g), color=False, input=pipe, output=DummyOutput())
    repl.handle("legal")
    jump = g.hand_named(0, "Cyber Jump")
    others = sorted(h for h in g.state.players[0].hand if h != jump)
    lines = [line for line in repl.transcript if "discard" in line]
    assert len(lines) == 1, lines
    line = lines[0]
    assert line.startswith(f"special #{jump}:cyber-jump discard two of: #{others[0]} ")
    for h in others:
        assert f"#{h} {g.views[0].name_of(h, g.state.names)}" in line
    assert f"({len(others) * (len(others) - 1) // 2} ways" in line
    assert "/" not in line.split("(")[0]
    assert "" not in said(repl).split("\n")
    assert re.search(r"^ *\d+\. next$", said(repl), re.M)          # the plain move is listed


def test_troika_summit_names_each_part_on_its_own_line(pipe):
    """Before: `s1/s1/s2/s1/s4/...`. Now the planet, the own ship and the guests, each once."""
    g = S.shift_ready(3, [["Troika Summit"], [], []])
    repl = Repl(driver_of(g), color=False, input=pipe, output=DummyOutput())
    repl.handle("legal")
    text = said(repl)
    troika = g.hand_named(0, "Troika Summit")
    lines = text.split("\n")
    head = next(i for i, line in enumerate(lines) if line.startswith(f"special #{troika}:troika-summit ("))
    assert lines[head + 1] == "    one of: D-4/0, J-4/0, J-10/0"
    assert lines[head + 2] == "    then one of: s1 blue Star-T Ship"
    assert lines[head + 3] == ("    then optionally up to two more of: s2 yellow Star-T Ship, "
                               "s3 green Star-T Ship")
    assert "s1/s" not in text and "" not in lines


def test_a_family_that_is_not_independent_parts_is_listed_action_by_action():
    """Only a family whose line loses nothing is folded: here D-5 goes with #1 alone."""
    numbered = [(1, "go #1 D-4"), (2, "go #1 D-5"), (3, "go #2 D-4"), (4, "go #3 D-4")]
    (family,) = families(numbered)
    assert family_line(family, lambda t: None) is None
    numbered = [(i, f"go #{a} D-{b}") for i, (a, b) in enumerate([(1, 4), (1, 5), (2, 4), (2, 5)], 1)]
    (family,) = families(numbered)
    assert family_line(family, lambda t: None).split("\n")[1:] == ["    one of: #1, #2", "    then one of: D-4, D-5"]


def test_legal_never_prints_a_blank_line_and_always_lists_next():
    """Several turns of a real game: at every decision `legal` has no empty line, and a
    legal `next` or `draw port` is on it (before: three blank lines in their place)."""
    driver = LocalGame(2, 0, seed=6)   # turn 1 lists draw-tile N beside 36 placements
    with create_pipe_input() as pipe:
        repl = Repl(driver, color=False, input=pipe, output=DummyOutput())
        driver.wait_for_turn()
        checked = 0
        while driver.state().turn < 6 and not driver.is_over():
            repl.transcript.clear()
            repl.handle("legal")
            text = said(repl)
            assert "" not in text.split("\n"), text
            for plain in ("next", "draw port", "draw refuel", "draw-tile 1"):
                if any(a.text() == plain for a in driver.legal()):
                    assert re.search(rf"(^|\. ){plain}($|\s)", text, re.M), (plain, text)
            checked += 1
            legal = driver.legal()
            nxt = [a for a in legal if a.text() == "next"]
            driver.submit(nxt[0] if nxt and driver.state().phase > 1 else legal[0])
            driver.wait_for_turn()
        assert checked > 10


def test_draw_refuel_with_a_count_draws_that_many(pipe):
    g = S.game(2, [[], []])
    g.tiles(away=[S.HOME])
    g.to_phase(REFILL)
    hand = g.state.players[0].hand
    del hand[4:]
    driver = driver_of(g)
    repl = Repl(driver, color=False, input=pipe, output=DummyOutput())
    repl.handle("draw refuel 4")
    assert len(g.state.players[0].hand) == 8
    assert said(repl).count("you: draw refuel") == 4
    repl.handle("draw refuel 5")        # two fit under the limit of 10: it stops there and says so
    assert len(g.state.players[0].hand) == 10
    assert "stops here" in said(repl)


def test_draw_port_then_refuel_on_one_line(pipe):
    """`draw port refuel 3` (SPEC §31.4): the face-up ship card first, then three from Refuel,
    each its own action; a count over ten is no such line."""
    g = S.game(2, [[], []])
    g.tiles(away=[S.HOME])
    g.to_phase(REFILL)
    hand = g.state.players[0].hand
    del hand[4:]
    driver = driver_of(g)
    repl = Repl(driver, color=False, input=pipe, output=DummyOutput())
    assert repl.screen.sequence("draw port 2 refuel") == ["draw port", "draw port", "draw refuel"]
    assert repl.screen.sequence("draw port refuel 10") == ["draw port refuel 10"]
    repl.handle("draw port refuel 3")
    assert len(g.state.players[0].hand) == 8
    text = said(repl)
    assert text.count("you: draw port") == 1 and text.count("you: draw refuel") == 3
