"""A Special Action cancelled or redirected gets a plain line on every REPL screen (SPEC
§31.3, §14.3): the local REPL and the networked one (RecordingRules) both narrate it."""
from __future__ import annotations

from types import SimpleNamespace

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from cli.games.asv.narrate import Settled, before, settled, settled_line
from cli.netplay.driver import RecordingRules
from cli.repl.loop import Happened, Repl
from p2p_asv import actions as A
from tests.test_specials import example_nine, shift_ready, special


def act(g, action) -> tuple[Settled, ...]:
    """Play one action and return what it cancelled or redirected."""
    seat, was = g.seat, before(g.state)
    g.act(action)
    return settled(was, g.state, action, seat)


def test_peace_talks_cancelling_acid_rain_is_one_line_naming_both_seats():
    g = example_nine(mine=["Peace Talks"])
    assert act(g, special(g, 1, "Acid Rain")) == ()
    assert act(g, special(g, 0, "Peace Talks")) == ()
    cancelled = act(g, A.Pass())               # green lets it stand: the cancel takes effect
    assert cancelled == (Settled("Acid Rain", 1, "Peace Talks", 0),)
    colours, labels = ["blue", "green"], ["alice", "bob"]
    assert settled_line(cancelled[0], colours, labels, 0) == "green bob's Acid Rain was cancelled by your Peace Talks"
    assert settled_line(cancelled[0], colours, labels, 1) == "Your Acid Rain was cancelled by blue alice's Peace Talks"


def test_a_cancelled_cancel_is_the_only_line_and_the_card_under_it_takes_effect():
    g = example_nine(others=(["Acid Rain", "Time Warp"],), mine=["Peace Talks"])
    act(g, special(g, 1, "Acid Rain"))
    act(g, special(g, 0, "Peace Talks"))
    act(g, special(g, 1, "Time Warp"))
    assert act(g, A.Pass()) == (Settled("Peace Talks", 0, "Time Warp", 1),)
    assert g.state.discovery.scored == 5         # Acid Rain went through


def test_a_conspiracy_redirect_and_the_later_cancel_each_get_a_line():
    g = shift_ready(3, [["Shift of Funds"], ["Conspiracy"], ["Time Warp"]])
    act(g, special(g, 0, "Shift of Funds", "@1"))
    act(g, special(g, 1, "Conspiracy", "@2"))
    assert act(g, A.Pass()) == ()               # seat 2 passes on the Conspiracy window...
    redirect = act(g, A.Pass())                 # ...and seat 0 too: the redirect takes effect
    assert redirect == (Settled("Shift of Funds", 0, "Conspiracy", 1, to=2),)
    assert settled_line(redirect[0], ["blue", "yellow", "green"], ["you", "bob", "carol"], 0) == \
        "Your Shift of Funds was redirected to green carol by yellow bob's Conspiracy"
    act(g, A.Pass())                            # seat 1, asked again after the redirect
    act(g, special(g, 2, "Time Warp"))
    events = [act(g, A.Pass()) for _ in range(2)]
    assert [e for e in events if e] == [(Settled("Shift of Funds", 0, "Time Warp", 2),)]


def test_the_networked_repl_records_it_and_the_screen_prints_it():
    """RecordingRules (every networked seat) records the cancel with the event; the REPL
    prints it as its own line, after the action line."""
    g = example_nine(mine=["Peace Talks"])
    rules = RecordingRules()
    rules.apply_action(g.state, 1, special(g, 1, "Acid Rain").text())
    rules.apply_action(g.state, 0, special(g, 0, "Peace Talks").text())
    rules.apply_action(g.state, 1, "pass")
    event = rules.applied[-1]
    assert event.settled == (Settled("Acid Rain", 1, "Peace Talks", 0),)
    driver = SimpleNamespace(kit=rules.kit, state=lambda: g.state, seat=0, labels=["you", "bob"], legal=lambda: [])
    with create_pipe_input() as pipe:
        repl = Repl(driver, color=False, input=pipe, output=DummyOutput())
        repl.tell([Happened(1, A.Pass(), (), event.settled)])
    colour = g.state.players[1].colour
    assert repl.transcript[-1].strip() == f"{colour} bob's Acid Rain was cancelled by your Peace Talks"
    assert repl.happened[-1].strip() == repl.transcript[-1].strip()     # and `history` keeps it
