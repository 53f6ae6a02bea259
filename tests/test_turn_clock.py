"""The turn clock counts a seat's own decisions only (SPEC §29.14, §29.20): while another
seat answers a window or a poll in its turn, its clock stands still; the answer is on the
answering seat's own clock; a new turn gives every seat its full clock again. And the
host's clock options: `on_clock` defaults to pass, needs a clock, and never reaches an engine."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from cli.errors import UserError
from cli.games.table import clock_words, game_options
from cli.netplay.host import clock_config
from cli.netplay.turn_clock import TurnClock
from protocol.session import CHANCE


class Rules:
    """to_move and turn_of read straight from the fake state."""
    def to_move(self, st):
        return st["move"]

    def turn_of(self, st):
        return st["turn"]


def clock_of(config=None):
    st = {"move": 0, "turn": (1, 0)}
    session = SimpleNamespace(phase="play", state=st, rules=Rules(), config=config or {"turn_clock": 10},
                              seat_keys=[b"a" * 32, b"b" * 32], seat_of={b"a" * 32: 0, b"b" * 32: 1})
    node = SimpleNamespace(session=session, over=False, absent_for=lambda key: 0.0)
    now = [100.0]
    clock = TurnClock(node, now=lambda: now[0])
    clock.observe()
    return clock, st, now


def test_others_answer_steps_do_not_count_on_the_turn_owners_clock():
    clock, st, now = clock_of()
    now[0] += 3                                 # seat 0 thinks 3 s in its own turn
    st["move"] = 1
    clock.observe()                             # seat 1 answers a window in seat 0's turn
    now[0] += 8
    assert clock.on_clock() == (1, 2.0)         # the answer is on seat 1's own clock
    assert clock(b"a" * 32) == 0.0
    st["move"] = CHANCE
    clock.observe()
    now[0] += 50                                # a deck step counts for nobody
    st["move"] = 0
    clock.observe()
    now[0] += 4
    assert clock.on_clock() == (0, 3.0)         # 3 + 4 of seat 0's own, not the 8 s answer nor the 50 s
    now[0] += 5
    assert clock.on_clock() == (0, -2.0) and clock(b"a" * 32) == 2.0 and clock(b"b" * 32) == 0.0


def test_a_new_turn_gives_every_seat_its_full_clock():
    clock, st, now = clock_of()
    now[0] += 9
    st["move"], st["turn"] = 1, (1, 1)
    clock.observe()
    now[0] += 1
    assert clock.on_clock() == (1, 9.0)
    st["move"] = 0
    clock.observe()                             # seat 0 answers in seat 1's turn: a fresh clock
    assert clock.on_clock() == (0, 10.0)


def test_the_abort_of_a_connected_seat_out_of_time_is_told_as_the_clock():
    clock, st, now = clock_of()
    now[0] += 11
    clock.aborted(SimpleNamespace(body={"silent": b"a" * 32}))
    assert clock.abort_cause == "clock"
    other, _, later = clock_of()
    later[0] += 11
    other.node.absent_for = lambda key: 30.0    # gone, not typing: the old words stay
    other.aborted(SimpleNamespace(body={"silent": b"a" * 32}))
    assert other.abort_cause is None


def test_the_hosts_clock_options():
    args = SimpleNamespace(turn_clock=60, on_clock=None)
    assert clock_config(args) == {"turn_clock": 60, "on_clock": "pass"}     # the gentler default
    args.on_clock = "abort"
    assert clock_config(args) == {"turn_clock": 60, "on_clock": "abort"}
    with pytest.raises(UserError, match="--on-clock needs --turn-clock"):
        clock_config(SimpleNamespace(turn_clock=None, on_clock="pass"))
    assert clock_config(SimpleNamespace(turn_clock=None, on_clock=None)) == {}
    with pytest.raises(UserError, match="--turn-clock"):
        clock_config(SimpleNamespace(turn_clock=3, on_clock=None))
    assert game_options({"turn_clock": 60, "on_clock": "pass", "nine_planets": True}) == {"nine_planets": True}
    for bad in ({"turn_clock": 60, "on_clock": "skip"}, {"on_clock": "pass"}):
        with pytest.raises(ValueError, match="on_clock"):
            game_options(bad)
    assert clock_words({"turn_clock": 90, "on_clock": "pass"}) == "turn clock 1:30 a turn, then the turn passes"
    assert clock_words({"turn_clock": 90, "on_clock": "abort"}).endswith("then the game is aborted")
    assert clock_words({}) is None


def test_every_game_declares_its_pass_moves_and_its_turns():
    from cli.games import all_kits
    for kit in all_kits():
        rules = kit.session_rules()
        assert rules.TIMEOUT_MOVES and all(isinstance(m, str) for m in rules.TIMEOUT_MOVES)
        st = rules.new_state(kit.min_players, {"turn_clock": 60, "on_clock": "pass"})
        assert rules.turn_of(st) is not None


def test_line_mode_is_told_its_own_clock_at_its_turns_start_and_ten_seconds_before_the_end():
    """SPEC §31.12: without the full screen's status line a seat still hears of its clock."""
    from cli.netplay.clock_lines import ClockLines
    clock, st, now = clock_of({"turn_clock": 60})
    mine, theirs = ClockLines(0), ClockLines(1)
    assert mine.lines(clock, *clock.on_clock()) == [
        "your turn clock: 1:00 for this turn (it runs only while you are to move)"]
    assert theirs.lines(clock, *clock.on_clock()) == []          # only a seat's own clock is told
    now[0] += 30
    assert mine.lines(clock, *clock.on_clock()) == []            # each line once
    now[0] += 20.5
    assert mine.lines(clock, *clock.on_clock()) == ["9 s left on your turn clock"]
    now[0] += 1
    assert mine.lines(clock, *clock.on_clock()) == []
    st.update(move=1, turn=(2, 1))                               # seat 1's turn
    clock.observe()
    now[0] += 5
    assert theirs.lines(clock, *clock.on_clock())[0].startswith("your turn clock: 0:55")
    st["move"] = 0                                               # seat 0 answers in seat 1's turn:
    clock.observe()                                              # no start line, its turn it is not
    assert mine.lines(clock, *clock.on_clock()) == []
    now[0] += 51
    assert mine.lines(clock, *clock.on_clock()) == ["9 s left on your turn clock"]


def test_the_networked_seat_says_the_clock_lines_to_its_screen():
    """The driver's once-a-second clock check sends the lines to the REPL as notes, which
    line mode prints and the full screen puts in the feed."""
    from cli.netplay.clock_lines import ClockLines
    from cli.netplay.driver import NetDriver
    clock, st, now = clock_of({"turn_clock": 60})
    said, status = [], {}
    sink = SimpleNamespace(note=said.append, status=status.__setitem__)
    driver = NetDriver.__new__(NetDriver)    # no network: the clock check alone
    driver.node = SimpleNamespace(overtime=clock, session=clock.node.session, options=SimpleNamespace(timeout=5))
    driver.seat, driver.colours, driver._sink = 0, ["blue", "green"], sink
    driver._clock_shown, driver._clock_out, driver._clock_lines = False, None, ClockLines(0)
    driver._show_clock()
    now[0] += 55
    driver._show_clock()
    assert said == ["your turn clock: 1:00 for this turn (it runs only while you are to move)",
                    "5 s left on your turn clock"]
    assert status["clock"] == "you: 0:05 left"
