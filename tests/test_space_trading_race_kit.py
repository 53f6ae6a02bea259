"""Space Trading Race on the game kit (SPEC §34.4, §59): a whole game through the kit alone,
`asv selfplay|catalog --game space-trading-race` through cli.main, and the presentation:
the text board fits 80 columns, the help, the narration and the picture."""
from __future__ import annotations

import json

import pytest

from cli.errors import UserError
from cli.games import kit_for, kit_for_rules
from cli.games.space_trading_race import render
from cli.games.space_trading_race.narrate import notes
from cli.main import main
from protocol.session import CHANCE
from space_trading_race.actions import ChanceDice, Word
from space_trading_race.missions import MISSION_SLUGS

KIT = kit_for("space-trading-race")


def lines(capsys) -> list[dict]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def play_through_kit(players: int, seed: int, kinds: list[str], on_event=None):
    state = KIT.new_state(players, {})
    views = [KIT.new_view(s) for s in range(players)]
    bots = [KIT.bot(k, f"{seed}/{s}") for s, k in enumerate(kinds)]
    dealer = KIT.dealer(seed)
    while not KIT.is_over(state):
        seat = KIT.to_move(state)
        if seat == CHANCE:
            action = dealer.outcome(state, views)
        else:
            action = bots[seat].choose(state, views[seat])
            assert action in KIT.legal_actions(state, views[seat])
        was = KIT.before(state)
        KIT.apply(state, seat, action)
        if on_event:
            on_event(was, state, seat, action)
    return state, views


def test_a_whole_game_through_the_kit_ends_with_a_result_and_scores_as_assets():
    told: list[str] = []
    state, views = play_through_kit(3, 5, ["greedy", "random", "greedy"],
                                    lambda was, st, seat, a: told.extend(KIT.happened(was, st, seat, a).notes))
    result = KIT.result(state)
    assert result["winners"] and set(result["winners"]) <= {0, 1, 2}
    assert result["scores"] == [state.assets(s) for s in range(3)]
    assert any("moves to" in line for line in told) and told[-1].startswith("game over:")
    # every seat learned its own mission and nobody else's (the dealer teaches the receiver)
    for view in views:
        assert all(state.hand[view.seat] == h or h not in state.hand for h in view.known)
    assert kit_for_rules(KIT.rules_name) is KIT and KIT.session_rules().name == "space-trading-race/5"


def test_selfplay_through_the_command_is_repeatable_json(capsys):
    args = ["selfplay", "--game", "space-trading-race", "--players", "4", "--games", "2", "--seed", "3",
            "--bots", "random", "--json"]
    assert main(args) == 0
    first = lines(capsys)
    assert main(args) == 0
    assert lines(capsys) == first
    assert [g["seed"] for g in first] == [3, 4]
    for game in first:
        assert len(game["scores"]) == 4 and game["winners"] and game["end"] and game["bots"] == ["random"] * 4


def test_selfplay_time_limit_option_ends_by_assets(capsys):
    assert main(["selfplay", "--game", "space-trading-race", "--players", "2", "--seed", "0",
                 "--time-limit", "1", "--json"]) == 0
    game, = lines(capsys)
    assert game["rounds"] <= 2 and game["end"].startswith("most assets")
    with pytest.raises(UserError):
        KIT.config_from([], type("A", (), {"time_limit": 0})(), 2)


def test_catalog_text_and_json(capsys):
    assert main(["catalog", "--game", "space-trading-race", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["deeds"]) == 36 and len(data["missions"]) == 20 and len(data["spaces"]) == 85
    assert main(["catalog", "--game", "space-trading-race"]) == 0
    text = capsys.readouterr().out
    assert "Ganymede" in text and "$560" in text and "force-field" in text


def test_the_text_board_fits_80_columns_and_shows_owners_and_ships():
    state, _ = play_through_kit(4, 3, ["greedy"] * 4)
    text = KIT.render_board(state)
    assert max(len(line) for line in text.splitlines()) <= 80
    owned = [d for d in range(36) if state.owner[d] >= 0]
    assert owned and text.count("[") >= 1
    for seat in range(4):
        assert render.COLOURS[seat] in text


def test_narration_tells_a_roll_and_its_money():
    state = KIT.new_state(2, {})
    dealer, views = KIT.dealer(1), [KIT.new_view(0), KIT.new_view(1)]
    while KIT.to_move(state) == CHANCE:
        KIT.apply(state, CHANCE, dealer.outcome(state, views))
    KIT.apply(state, 0, Word("roll"))
    was = KIT.before(state)
    KIT.apply(state, CHANCE, ChanceDice(2, 1))          # three steps: the Sunward Dock (unowned)
    assert notes(was, state)[0] == "blue moves to 3 blue dot"


def test_picture_is_svg_with_every_space_and_seat():
    state, _ = play_through_kit(2, 2, ["greedy"] * 2)
    svg = KIT.picture(state, caption="after the game", labels=["ann", "bob"])
    assert svg.startswith("<?xml") and svg.count('class="space"') == 85
    assert 'data-seat="blue"' in svg and "after the game" in svg


def test_help_rules_and_cards_on_the_screen():
    from cli.repl.local import LocalGame
    driver = LocalGame(2, 0, seed=2, bots="random", kit=KIT)
    driver.wait_for_turn()
    said: list[str] = []

    class Repl:
        color = False

        def say(self, text, style=""):
            said.append(str(text))

        def width(self):
            return 80

        def height(self):
            return 24

    screen = KIT.screen(driver, Repl())
    screen.help("rules")
    assert "Space Trading Race" in said[-1] and "$1660" in said[-1]
    screen.help("ganymede")
    assert "Ganymede" in said[-1]
    screen.help(MISSION_SLUGS[1])
    assert "Mars" in said[-1]
    assert [c.text for c in screen.help_completions("mi", 0)] == ["help missions", "help miranda"]
    screen.look("31")
    assert said[-1].startswith("31 Ganymede")
    screen.list_legal()
    assert said[-1].strip().endswith("roll") or "trade offers" in said[-1]


def test_the_screen_asks_an_offer_out_of_turn_and_passes_a_shield_poll_alone():
    from cli.repl.local import LocalGame
    from space_trading_race.actions import Offer
    driver = LocalGame(2, 1, seed=4, bots="greedy", kit=KIT)
    state = driver.state()
    dealer, views = KIT.dealer(9), [KIT.new_view(0), KIT.new_view(1)]
    while KIT.to_move(state) == CHANCE:
        KIT.apply(state, CHANCE, dealer.outcome(state, views))
    state.owner[0] = 0                                   # seat 0 holds Mercury and offers it
    screen = KIT.screen(driver)
    assert screen.question() is None                     # seat 0 is to roll: nothing to answer
    KIT.apply(state, 0, Offer(1, (0,), 0, (), 100))
    driver._applied += 1
    assert screen.question() == "blue offers you: offer 1 mercury for $100 (accept or reject)"
    assert not screen.only_pass()
