"""The REPL seat (issue 4 item 5) driven through prompt_toolkit's pipe input, no terminal."""
from __future__ import annotations

import re
import threading
import time
from contextlib import contextmanager

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from cli.commands import play as cmd_play
from cli.repl.local import LocalGame
from cli.main import build_parser
from cli.repl.loop import ActionCompleter, Repl, default_history, natural_key
from p2p_asv.cards import CARDS, lookup
from p2p_asv.state import DISCARD, MOVE, PLACE_PIECE, REFILL, TILES


class ScriptedRepl(Repl):
    """Types one line into the pipe each time the REPL prompts; `script(repl)` picks the line."""

    def __init__(self, driver, pipe, script, **kw) -> None:
        super().__init__(driver, input=pipe, output=DummyOutput(), color=kw.pop("color", False), **kw)
        self.pipe, self.script, self.typed = pipe, script, []

    MAX_LINES = 400  # a script that stops making progress fails instead of hanging the suite

    def read_line(self) -> str:
        if len(self.typed) >= self.MAX_LINES:
            raise AssertionError(f"the script typed {len(self.typed)} lines; last: {self.typed[-5:]}")
        line = self.script(self)
        self.typed.append(line)
        self.pipe.send_text(line + "\r")
        return super().read_line()


@contextmanager
def repl_with_lines(driver, text: str):
    """A REPL reading the given keystrokes from a pipe; Ctrl-D (EOF) after them ends it."""
    with create_pipe_input() as pipe:
        pipe.send_text(text)
        repl = Repl(driver, color=False, input=pipe, output=DummyOutput(), history=default_history(True))
        pipe.close()
        yield repl


@pytest.fixture
def pipe():
    with create_pipe_input() as p:
        yield p


def said(repl: Repl) -> str:
    return "\n".join(repl.transcript)


def one_turn_script(repl: Repl) -> str:
    """Draw every tile, place each at its first legal spot, skip pieces and movement,
    discard one card, draw one refuel card, end the turn; then quit when due again."""
    if repl.driver.state().polls:
        return window_line(repl)        # a bot's Special Action window asks us too (SPEC §14.2)
    if repl.driver.state().turn > 1:
        return "quit"
    return plain_turn_line(repl)


def window_line(repl: Repl) -> str:
    """The answer when polled: pass where one may; a card that must be answered (Espionage's
    discard, SPEC §14.9) gets the first legal answer."""
    texts = [a.text() for a in repl.legal_sorted()]
    return "pass" if "pass" in texts or not texts else texts[0]


def plain_turn_line(repl: Repl) -> str:
    """The next line of a plain turn: first tiles, no piece or move, one discard and refill."""
    state, seat = repl.driver.state(), repl.driver.seat
    texts = [a.text() for a in repl.driver.legal()]
    if state.polls:
        return window_line(repl)
    if state.phase == TILES:
        draws = [t for t in texts if t.startswith("draw-tile")]
        return draws[0] if draws else next(t for t in texts if t.startswith(("place", "scrap")))
    if state.phase in (PLACE_PIECE, MOVE):
        return "next"
    if state.phase == DISCARD:
        return next(t for t in texts if t.startswith("discard")) \
            if len(state.players[seat].hand) == 10 else "next"
    if state.phase == REFILL:
        return "draw refuel" if "draw refuel" in texts and len(state.players[seat].hand) < 10 else "next"
    raise AssertionError(f"unexpected state: phase {state.phase}, legal {texts}")


def test_a_full_turn_of_the_human_seat_through_pipe_input():
    driver = LocalGame(2, 0, seed=11, bots="greedy")
    tiles_at_start = 9
    with create_pipe_input() as pipe:
        repl = ScriptedRepl(driver, pipe, one_turn_script)
        assert repl.run() == 0
    state = driver.state()
    typed = repl.typed
    assert typed[:3] == ["draw-tile 1"] * 3                 # two players draw three tiles a turn
    draws = sum(t.startswith("draw-tile") for t in typed)
    assert draws >= 3                                        # a sun or quest tile earns one more
    assert sum(t.startswith(("place", "scrap")) for t in typed) == draws - len(state.players[0].quests)
    assert typed.count("next") >= 3 and any(t.startswith("discard") for t in typed)
    assert "draw refuel" in typed and typed[-1] == "quit"
    # the bot played turn 2 and the human is due again at the start of turn 3
    assert state.turn == 3 and state.active == 0 and state.phase == TILES
    assert len(state.players[0].hand) == 10                  # one discarded, one drawn
    assert len(state.decks["junk"]) >= 1                    # the discard went to the junk pile
    assert len(state.board) >= tiles_at_start + 6            # three tiles each for two turns
    text = said(repl)
    assert "you: draw-tile 1" in text and "you: next" in text
    assert "green [G] (greedy bot): draw-tile" in text and "green [G] (greedy bot): place #" in text
    assert "you receive: #" in text                          # the refuel card, shown to us only
    assert "left the game" in text


def test_illegal_action_prints_the_reason_and_keeps_the_state():
    driver = LocalGame(2, 0, seed=3)
    with repl_with_lines(driver, "next\rplace #5 A-1 r0\rmove s1 D-5\rdraw-tile 9\rfly away\r"
                                 "move s2 E-4\r") as repl:
        repl.catch_up()
        before = driver.state().hash()
        for _ in range(6):
            repl.handle(repl.read_line())
        assert driver.state().hash() == before
    text = said(repl)
    assert "not allowed: place this turn's tiles first" in text
    assert "not allowed: draw all of this turn's tiles before placing" in text
    assert "not allowed: ships move in phase 3" in text
    assert "pile 9 is empty or does not exist" in text
    assert "not understood: unknown action 'fly away'" in text
    assert "you:" not in text


def test_out_of_turn_is_refused_and_not_kept(pipe):
    """SPEC §31.2: an action typed out of turn is refused at once, never queued."""
    driver = LocalGame(2, 1, seed=3)       # seat 1; the bot in seat 0 moves first
    repl = Repl(driver, color=False, input=pipe, output=DummyOutput())
    # before catching up, the dealer is due
    before = driver.state().hash()
    for line in ("draw-tile 1", "1", "next"):
        repl.handle(line)
    assert driver.state().hash() == before
    assert said(repl).count("not your turn: dealing") == 3
    repl.catch_up()                        # the bot's turn is played; nothing typed earlier is
    assert driver.state().active == 1 and driver.state().tiles_owed == driver.state().tiles_per_turn


def test_completion_offers_legal_actions_for_a_prefix():
    driver = LocalGame(2, 0, seed=3)
    driver.wait_for_turn()
    completer = ActionCompleter(driver)

    def complete(text: str) -> list[str]:
        doc = Document(text, len(text))
        return [c.text for c in completer.get_completions(doc, CompleteEvent(completion_requested=True))]

    assert complete("draw-t") == ["draw-tile 1", "draw-tile 2", "draw-tile 3", "draw-tile 4"]
    for _ in range(3):
        driver.submit(driver.legal()[0])
        driver.wait_for_turn()
    legal = sorted((a.text() for a in driver.legal()), key=natural_key)   # A-2 before A-12
    drawn = driver.state().drawn[0]
    offered = complete(f"place #{drawn} ")
    assert offered and offered == [t for t in legal if t.startswith(f"place #{drawn} ")]
    every = complete("")
    assert every[:len(legal)] == legal                     # the empty prefix offers every action
    assert complete("boa") == ["board"]
    assert "help Water" in complete("help wat")
    # a completion replaces the whole typed line
    doc = Document("pla", 3)
    first = next(completer.get_completions(doc, CompleteEvent(completion_requested=True)))
    assert first.start_position == -3


def wait_until(condition, timeout: float = 30.0) -> None:
    """A bounded wait for the prompt's thread (long: a guard, met in milliseconds when idle)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the prompt did not get there in time")
        time.sleep(0.01)


def test_tab_completes_through_the_prompt():
    """Keys go in one at a time, each after the prompt has handled the one before (completion
    runs as a task of the prompt's event loop, so keys sent together would overtake it)."""
    driver = LocalGame(2, 0, seed=3)
    driver.wait_for_turn()
    with create_pipe_input() as pipe:
        repl = Repl(driver, color=False, input=pipe, output=DummyOutput())
        buffer = repl.session.default_buffer

        def type_keys() -> None:
            try:
                wait_until(lambda: repl.session.app.is_running)
                pipe.send_text("draw-t\t")
                # the menu exists (empty) while completions still load; once all are in, Tab
                # inserts their common part, so wait for that before reading the menu
                wait_until(lambda: buffer.text == "draw-tile " and buffer.complete_state is not None)
                seen.extend(c.display_text for c in buffer.complete_state.completions)
                pipe.send_text("\t")
                wait_until(lambda: buffer.text == "draw-tile 1")
            except AssertionError as exc:
                failed.append(exc)      # Enter below still ends the prompt: no hang
            pipe.send_text("\r")

        seen: list[str] = []
        failed: list[AssertionError] = []
        feeder = threading.Thread(target=type_keys, daemon=True)
        feeder.start()
        line = repl.read_line()
        feeder.join(30)
    assert not failed, f"{failed[0]}; the line read {buffer.text!r}"
    assert seen == ["draw-tile 1", "draw-tile 2", "draw-tile 3", "draw-tile 4"]
    assert line == "draw-tile 1"


def test_help_lists_commands_and_cards():
    driver = LocalGame(1, 0, seed=1)
    with repl_with_lines(driver, "help\rhelp water\rhelp fighter-ship\rhelp strong empire\r"
                                 "help p1-a\rhelp no-such-card\rhelp actions\rhelp topics\r") as repl:
        repl.handle(repl.read_line())
        alone = said(repl)
        assert len(alone.splitlines()) <= 24 - 4    # fits 80x24 with the prompt and toolbar
        assert "help actions" in alone and "help rules" in alone
        for _ in range(7):
            repl.handle(repl.read_line())
    text = said(repl)
    assert "scrap #T" in text and "Topics: help" in text and "wormhole" in text
    for command in ("board", "hand", "scores", "legal", "look", "quit", "draw-tile N", "next"):
        assert command in text
    assert lookup("water").name in text and lookup("Fighter Ship").name in text
    assert "Strong Empire (special quest):" in text
    assert "tile p1-a (planet" in text
    assert "no help on 'no-such-card'" in text


def test_help_card_prints_its_effect(pipe):
    card = next(c for c in CARDS if c.effect)
    repl = Repl(LocalGame(1, 0, seed=1), color=False, input=pipe, output=DummyOutput())
    repl.handle(f"help {card.name}")
    assert card.effect in said(repl)


def test_commands_show_board_hand_scores_legal_and_look(pipe):
    driver = LocalGame(3, 0, seed=2)
    repl = Repl(driver, color=True, input=pipe, output=DummyOutput())
    repl.catch_up()
    for line in ("board", "hand", "scores", "legal", "look D-4", "look Z-99", "legal draw-tile 2", "2"):
        repl.handle(line)
    text = said(repl)
    assert "A    B    C" in text and "Your hand (blue, 10 cards)" in text
    assert "s1:Star-T Ship@D-4" in text
    assert "  1. draw-tile 1" in text and "  4. draw-tile 4" in text
    assert "D-4: home-blue" in text and "ship s1 of blue" in text
    assert "not a square" in text
    assert "you: draw-tile 2" in text                     # a number plays that legal action
    assert driver.state().tiles_owed == 1


def test_quit_and_end_of_input_leave_cleanly():
    with repl_with_lines(LocalGame(2, 0, seed=3), "board\r") as repl:
        assert repl.run() == 0                             # EOF after the line ends the loop
    assert said(repl).rstrip().endswith("bye")


def first_legal(repl: Repl) -> str:
    return repl.driver.legal()[0].text()


def test_a_whole_game_through_the_repl_typing_the_first_legal_action():
    for players, seat, seed in ((4, 1, 3), (2, 0, 8)):
        driver = LocalGame(players, seat, seed=seed, bots="greedy")
        with create_pipe_input() as pipe:   # speed is benchmarks' business; MAX_LINES stops a loop
            repl = ScriptedRepl(driver, pipe, first_legal, color=True)
            assert repl.run() == 0
        state = driver.state()
        assert state.over and state.winners
        text = said(repl)
        assert "Final scoreboard" in text and "Winner:" in text
        assert len(repl.typed) > 20
        assert "not allowed" not in text and "internal error" not in text
        # SPEC §31.3: every score change has its line with the reason, e.g. "+3 blue: sun no. 3 ..."
        assert re.search(r"^  \+\d+ (blue|yellow|green|red): (sun no\. \d placed at [A-M]-\d+|discovery at )",
                         text, re.M), text[-3000:]
        assert "☼ a sun: " in text and "a quest tile: " in text   # every full game draws them all


def test_asv_play_is_registered():
    args = build_parser().parse_args(["play", "--players", "3", "--seat", "yellow", "--seed", "4"])
    assert args._module is cmd_play
    assert cmd_play.seat_number(args.seat, args.players) == 1
    assert cmd_play.bot_kinds("random,greedy", 3, 1) == ["random", None, "greedy"]


def test_local_game_rejects_bad_seats_and_bots():
    with pytest.raises(ValueError, match="seat 2 does not exist"):
        LocalGame(2, 2, seed=1)
    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        LocalGame(2, 0, seed=1, bots="clever")


def to_phase(driver, phase) -> None:
    """Play the human seat's first legal choices (next in the piece phase) up to `phase`."""
    driver.wait_for_turn()
    while driver.state().phase != phase:
        legal = driver.legal()
        nxt = [a for a in legal if a.text() == "next"]
        driver.submit(nxt[0] if nxt and driver.state().phase != TILES else legal[0])
        driver.wait_for_turn()


def test_help_topics_teach_the_game(pipe):
    """SPEC §31.4: help rules, help ACTION, help PIECE and help #N for a card in hand."""
    driver = LocalGame(2, 0, seed=3)
    driver.wait_for_turn()
    repl = Repl(driver, color=False, input=pipe, output=DummyOutput())
    card = driver.state().players[0].hand[1]
    for line in ("help rules", "help move", "help station", "help pirate", "help ships",
                 f"help #{card}", "help #99999", "help Scout Ship"):
        repl.handle(line)
    text = said(repl)
    assert "Goal:" in text and "1 tiles" in text and "5 refill" in text and "highest total wins" in text
    assert "king steps" in text and "Worth 1 for its tile" in text and "1+2+...+n" in text
    assert "Space Shuttle    M0, moves only along space paths" in text
    assert f"#{card} {driver.view().name_of(card, driver.state().names)}" in text
    assert "#99999 is hidden from you" in text
    assert "no card named" not in text and "no help on" not in text


def test_help_columns_keep_each_command_beside_its_own_words():
    """Issue 22: `help draw` had two commands share one sentence (`... the Space Port,` then
    `draw port          ship cards) ...` on one line once reflowed). The left column's gap is
    the only wide gap in any topic's line, and help draw gives each draw command a line."""
    from cli.games.asv.help_topics import TOPICS, topic
    for name, text in TOPICS.items():
        for line in text.split("\n"):
            assert not [m for m in re.finditer(r"\S {3,}\S", line) if m.start() > 22], (name, line)
    lines = topic("draw").split("\n")
    assert [line[:19].strip() for line in lines] == ["draw refuel", "draw port", "draw refuel 4", "draw port refuel 3"]
    assert all(len(line) < 80 for line in lines)


def test_squares_any_case_and_legal_in_natural_order(pipe):
    """SPEC §31.6: look d4 / D4 work; legal lists A-2 before A-12."""
    driver = LocalGame(2, 0, seed=3)
    to_phase(driver, TILES)
    while driver.state().tiles_owed:
        driver.submit(driver.legal()[0])
        driver.wait_for_turn()
    repl = Repl(driver, color=False, input=pipe, output=DummyOutput())
    for line in ("look d4", "look D4", "look j-10"):
        repl.handle(line)
    text = said(repl)
    assert text.count("D-4: home-blue") == 2 and "J-10:" in text
    tile = driver.state().drawn[0]
    repl.handle(f"legal place #{tile}")
    texts = sorted((a.text() for a in driver.legal() if a.text().startswith(f"place #{tile} ")), key=natural_key)
    assert len(texts) > 30           # at the start a tile fits in many places: grouped, not 30+ lines
    grouped = next(line for line in repl.transcript if line.startswith(f"place #{tile} ["))
    squares = re.findall(r"\b([A-M]-\d+) r", grouped)
    assert squares == sorted(squares, key=natural_key) and len(squares) > 1   # A-2 before A-12
    assert f"\nlegal place #{tile} {squares[0]};" in said(repl) or f" legal place #{tile} {squares[0]};" in said(repl)
    # the narrower prefix gives a numbered list, and typing a number plays exactly that action
    repl.handle(f"legal place #{tile} {squares[0]}")
    listed = [line.split(". ", 1)[1].split("   [")[0] for line in repl.transcript
              if re.match(r"^ *\d+\. place", line)]
    assert listed == [t for t in texts if t.split()[2] == squares[0]]
    number = next(line for line in repl.transcript if re.match(r"^ *\d+\. place", line)).split(".")[0]
    repl.handle(number.strip())
    assert f"you: {listed[0]}" in said(repl)


def test_refused_move_and_draw_say_why_and_next_asks_first(pipe):
    """SPEC §31.5: a ship that cannot move gets a reason; a full hand is named; next asks
    before skipping a move that is still possible."""
    driver = LocalGame(2, 0, seed=3)
    to_phase(driver, MOVE)
    repl = Repl(driver, color=False, input=pipe, output=DummyOutput())
    repl.handle("move s1 M-13")
    assert "M-13 is 9 steps away and s1 (Star-T Ship) moves 1; s1 can reach" in said(repl) \
        or "s1 has nowhere to go" in said(repl)
    if any(a.text().startswith("move") for a in driver.legal()):
        repl.handle("next")
        assert "can still move. End the move phase without moving?" in said(repl)
        assert repl._prompt_text().endswith("[y/N]> ")
        repl.handle("n")
        assert driver.state().phase == MOVE and "not done" in said(repl)
        repl.handle("next")
        repl.handle("next")                       # next again confirms
    else:
        repl.handle("next")
    assert driver.state().phase == DISCARD
    card = driver.state().players[0].hand[0]
    repl.handle(f"discard #{card}")               # ends phase 4 by itself: a line says so
    assert driver.state().phase == REFILL
    assert "now refill: draw / next" in said(repl)
    repl.handle("draw refuel")
    assert len(driver.state().players[0].hand) == 10
    repl.handle("draw refuel")
    assert "your hand is full (10 of 10 cards)" in said(repl)
    repl.handle("legal")
    if len(driver.legal()) == 1:
        assert "the only move: your hand is full" in said(repl)
    else:                                         # a Special Action card may still be played (SPEC §14)
        assert "your hand is full" in said(repl) and "1. next" in said(repl)


def test_a_typo_gets_a_suggestion(pipe):
    repl = Repl(LocalGame(1, 0, seed=1), color=False, input=pipe, output=DummyOutput())
    repl.handle("mvoe s1 D-5")
    assert "did you mean move?" in said(repl)
    repl.handle("move D-5")                       # a right word, wrong arguments: no 'did you mean move?'
    assert said(repl).count("did you mean") == 1 and "help move shows how to write it" in said(repl)


def test_score_lines_name_the_reason_and_the_square():
    from cli.games.asv.narrate import Before, score_lines
    from p2p_asv.actions import Pass
    driver = LocalGame(2, 0, seed=3)
    driver.wait_for_turn()
    state = driver.state().clone()
    was = Before(tuple(tuple(sorted(p.breakdown.items())) for p in state.players), (9, 4))
    state.players[1].gain(5, "planets")
    assert score_lines(was, state, Pass()) == ("+5 green: discovery at J-5 (now 5)",)


def test_the_prompt_names_whose_turn_and_asks_the_question():
    """SPEC §31.6: the prompt says whose turn and which phase; when this seat must answer
    another's discovery it asks the question instead."""
    from cli.games.asv.narrate import prompt
    from p2p_asv.actions import Pass
    from p2p_asv.engine import to_move
    from p2p_asv.state import Discovery
    driver = LocalGame(2, 1, seed=3)
    assert prompt(driver.state(), 1, []) == "green · dealing · setup · waiting> "
    driver.wait_for_turn()
    state = driver.state().clone()
    assert prompt(state, 1, driver.legal()) == "green · your turn · tiles (3 to draw)> "
    assert prompt(state, 0, []) == "blue · green's turn · tiles (3 to draw) · waiting> "
    state.discovery = Discovery(((9, 4), 0), 0, 1, 2, "Water", stage="environment")
    assert prompt(state, 1, [Pass()]) == "blue discovered J-5: play an environment? env #N / pass> "
    assert to_move(state) == 0   # the seat whose turn it is waits on the seat asked, and is told so
    assert prompt(state, 1, []) == "green · your turn, blue to answer · tiles (3 to draw) · waiting> "
    state.discovery.stage = "life_form"
    assert prompt(state, 1, [Pass()]).startswith("blue discovered J-5: play life forms? life #N")
    state.discovery.discoverer = 1
    state.discovery.stage = "explorer"
    assert prompt(state, 1, [Pass()]) == "you discovered J-5: play an explorer? explorer #N / pass> "


def test_an_offer_on_the_poll_stack_is_asked_as_the_discovery_question():
    """SPEC §31.6 with §8.2: the offers are windows on the poll stack, yet the prompt still
    names the discovery and the card kind, for the discoverer and for a seat to its left."""
    from tests.helpers_engine import Game, RiggedDealer
    from cli.games.asv.narrate import prompt
    from p2p_asv.actions import Discover, Move, Pass
    hands = [["Cephei"], ["Water"]]
    g = Game(2, dealer=RiggedDealer(3, tiles=["p2-a", "deep", "deep"], hands=hands))
    g.tiles([("p2-a", (4, 3), 0)], away=[(3, 3)])
    g.to_phase(MOVE)
    g.act(Move(1, (4, 3)))
    g.act(Discover(g.hand_named(0, "Cephei"), "Cephei", 0))
    assert g.state.polls[-1].kind == "environment" and g.seat == 0
    assert prompt(g.state, 0, g.legal(0)) == "you discovered E-4: play an environment? env #N / pass> "
    g.act(Pass())
    assert g.seat == 1
    assert prompt(g.state, 1, g.legal(1)) == "blue discovered E-4: play an environment? env #N / pass> "
    assert prompt(g.state, 0, []) == "blue · your turn, green to answer · move · waiting> "
    g.act(Pass())
    assert g.state.polls[-1].kind == "life_form"
    assert prompt(g.state, 0, g.legal(0)).startswith("you discovered E-4: play life forms? life #N")


def test_board_sizes_and_history(pipe):
    """SPEC §31.6: board full / board compact on demand; history repeats what happened."""
    driver = LocalGame(2, 0, seed=3)
    repl = Repl(driver, color=False, input=pipe, output=DummyOutput())
    repl.catch_up()
    for line in ("board full", "board compact", "board huge", "history 3", "history", "history abc"):
        repl.handle(line)
    text = said(repl)
    assert "history takes a number of lines, e.g. history 50 ('abc' is not one)" in text
    lines = text.splitlines()
    assert sum(line.startswith("    A    B") for line in lines) == 2        # full: header and footer
    assert sum(line.startswith("   A    B") for line in lines) == 1         # compact: header only
    assert "board, board full or board compact" in text
    recent = repl.happened[-3:]
    assert len(recent) == 3 and "\n".join(recent) in text


def test_history_holds_this_seats_own_actions_too(pipe):
    """Issue 22: `history` left out the seat's own actions (they are echoed as typed, so the
    event's own line is not said again); the echo now goes into history, in its place."""
    driver = LocalGame(2, 0, seed=3)
    driver.wait_for_turn()
    repl = Repl(driver, color=False, input=pipe, output=DummyOutput())
    repl.handle("draw-tile 1")
    repl.handle("draw-tile 2")
    start = len(repl.transcript)
    repl.handle("history")
    shown = "\n".join(repl.transcript[start:]).split("\n")
    own = [line for line in shown if line.startswith("you: ")]
    assert own == ["you: draw-tile 1", "you: draw-tile 2"], shown
    assert shown.index("you: draw-tile 1") < next(i for i, line in enumerate(shown) if "revealed:" in line)


def test_a_response_window_asks_its_question():
    """SPEC §31.6 with §14.2: a seat polled in another's window is asked, not told 'your turn'."""
    from cli.games.asv.narrate import prompt
    from p2p_asv.actions import Pass
    from p2p_asv.state import Poll
    driver = LocalGame(2, 1, seed=3)
    driver.wait_for_turn()
    state = driver.state().clone()
    state.active = 0
    state.polls = [Poll("respond", 0, (1,), action=Pass(), targets=(1,))]
    assert prompt(state, 1, [Pass()]) == "blue played pass: answer? pass> "
    state.polls = [Poll("after-move", 0, (1,))]
    assert prompt(state, 1, [Pass()]) == "blue's turn (after-move): play a card? pass> "


def test_a_card_typed_by_its_handle_alone_is_named_for_the_notation(pipe):
    """Hands and prompts show cards as #N ("env #N / pass"): `env #92` plays #92:very-hot."""
    from cli.games.asv.screen import name_handles
    names = {92: "Very Hot!", 7: "Plasma Spores", 8: "Geo Traders"}.get
    assert name_handles("env #92", names) == "env #92:very-hot"
    assert name_handles("life #7 #8", names) == "life #7:plasma-spores #8:geo-traders"
    assert name_handles("special #92 #7", names) == "special #92:very-hot #7"   # later args are handles
    assert name_handles("discard #92", names) == "discard #92"                  # discard takes handles
    assert name_handles("env #5", names) == "env #5"                            # unknown: left as typed
    driver = LocalGame(2, 0, seed=3)
    repl = Repl(driver, color=False, input=pipe, output=DummyOutput())
    driver.wait_for_turn()
    for _ in range(300):
        assert not driver.is_over()
        named = [a for a in repl.legal_sorted() if re.search(r"#\d+:", a.text())]
        if named:
            typed = re.sub(r"(#\d+):[a-z0-9-]+", r"\1", named[0].text())
            repl.handle(typed)
            assert f"you: {named[0].text()}" in said(repl), said(repl)[-400:]
            return
        repl.handle(plain_turn_line(repl))
        driver.wait_for_turn()
    raise AssertionError("no card to play by handle came up")


def test_every_action_word_and_command_has_help(pipe):
    """Issue 8 item 5: `help ACTION` for every action the notation has (SPEC §11.1), and
    `help COMMAND` for the REPL's commands (a suggestion 'did you mean legal? (help legal)'
    must lead somewhere)."""
    from cli.games.asv.help_topics import topic
    from cli.games.asv.screen import ACTION_WORDS
    from cli.games.asv.info_commands import COMMANDS
    from p2p_asv.actions import PARSERS
    verbs = {v for v in PARSERS if not v.startswith("chance ")}   # every verb parse reads
    assert verbs and verbs <= set(ACTION_WORDS)
    assert [v for v in sorted(verbs) if topic(v) is None] == []
    repl = Repl(LocalGame(1, 0, seed=1), color=False, input=pipe, output=DummyOutput())
    for name in COMMANDS:
        repl.handle(f"help {name}")
    repl.handle("help special")
    text = said(repl)
    assert "no help on" not in text
    assert "legal [PREFIX]" in text and "look SQUARE" in text and "Special Action card" in text


def test_espionage_asks_for_its_discard_and_legal_lists_the_cards_not_252_ways(pipe):
    """A window that must be answered with cards (SPEC §14.9) says what to do; `legal` for a
    choice of 5 cards from 10 names the cards and one example instead of 252 grouped lines."""
    from cli.games.asv.narrate import prompt
    from p2p_asv.actions import PlaySpecial
    from p2p_asv.state import Poll
    driver = LocalGame(2, 0, seed=3)
    driver.wait_for_turn()
    state = driver.state()
    state.polls.append(Poll("espionage", 1, (0,), PlaySpecial(999, "Espionage", ("@0",)), (5,)))
    legal = driver.legal()
    assert len(legal) == 252 and all(a.text().startswith("discard ") for a in legal)
    assert prompt(state, 0, legal) == "green played Espionage on you: discard 5 of your cards> "
    repl = Repl(driver, color=False, input=pipe, output=DummyOutput())
    repl.handle("legal")
    hand = ", ".join(f"#{h} {driver.view().name_of(h, state.names)}" for h in sorted(state.players[0].hand))
    first = sorted(legal, key=lambda a: natural_key(a.text()))[0].text()
    assert said(repl) == f"discard five of: {hand}  (252 ways, e.g. {first})"   # SPEC §31.4


def test_a_revealed_tile_line_is_wrapped_at_word_boundaries(pipe):
    """At 80 columns `revealed: #0 gal-two-corners (tile: ... south-west)` was cut mid-word by
    the terminal ('sout' / 'h-west'); it is wrapped like the other long lines (SPEC §31.6)."""
    from cli.repl.loop import Happened
    from p2p_asv.actions import ChanceReveal
    from p2p_asv.state import CHANCE
    from cli.games.asv import render
    driver = LocalGame(2, 0, seed=3)
    driver.wait_for_turn()
    repl = Repl(driver, color=False, input=pipe, output=DummyOutput())
    event = Happened(CHANCE, ChanceReveal(((0, "gal-two-corners"), (1, "gal-two-caps-corner"))))
    text = "".join(render.plain(line) for line in repl.describe(event))
    width = repl.width()
    assert all(len(line) < width for line in text.splitlines()), text
    assert "south-west" in text and "gal-two-caps-corner" in text


def test_ctrl_c_says_how_to_leave():
    """A new player's Ctrl-C gave a fresh prompt and nothing else; it says how to leave."""
    driver = LocalGame(1, 0, seed=1)
    with repl_with_lines(driver, "\x03quit\r") as repl:
        assert repl.run() == 0
    assert "quit or Ctrl-D leaves the game" in said(repl) and "left the game" in said(repl)
