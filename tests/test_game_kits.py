"""The game kits (SPEC §34): every registered game offers the kit interface, and a whole game
can be played through it alone (its bots, its dealer, its parser and its hash)."""
from __future__ import annotations

import re

import pytest

from cli.games import DEFAULT_KEY, GameKit, all_kits, kit_for, kit_for_rules
from protocol.session import CHANCE

KITS = all_kits()
NAMES = ("key", "title", "min_players", "max_players", "rules_name", "bot_kinds", "engine_errors",
         "variant_configs", "new_state", "to_move", "is_over", "new_view", "legal_actions", "apply",
         "parse_action", "state_hash", "result", "dealer", "bot", "session_rules",
         # the command line's and the screen's part (SPEC §34)
         "variants", "options", "default_think", "default_iterations", "add_options", "config_from",
         "seat_colours", "agent", "check_players", "selfplay", "catalog_json", "catalog_lines",
         "turn_line", "render_board", "picture", "copy_state", "before", "happened", "screen", "tutorial")


def test_the_registry_finds_every_game_by_key_and_by_rules():
    assert [k.key for k in KITS] == ["asv", "space-walk", "space-trading-race"] and DEFAULT_KEY == "asv"
    for kit in KITS:
        assert kit_for(kit.key) is kit and kit_for_rules(kit.rules_name) is kit
        assert kit.session_rules().name == kit.rules_name
    assert kit_for_rules("chess/1") is None
    with pytest.raises(KeyError):
        kit_for("chess")


@pytest.mark.parametrize("kit", KITS, ids=lambda k: k.key)
def test_a_kit_has_every_name_of_the_interface(kit):
    assert isinstance(kit, GameKit)
    for name in NAMES:
        assert hasattr(kit, name), name
    assert set(NAMES) >= {n for n in dir(GameKit) if not n.startswith("_")}   # the list is the interface
    assert {"random", "greedy"} <= set(kit.bot_kinds)
    assert all(issubclass(e, Exception) for e in kit.engine_errors) and kit.engine_errors
    assert 1 <= kit.min_players <= kit.max_players
    for players in range(kit.min_players, kit.max_players + 1):
        configs = kit.variant_configs(players)
        assert configs[0] == ("basic", {}) and len({n for n, _ in configs}) == len(configs)
        for _, config in configs:
            kit.new_state(players, config)   # every variant offered is one the engine plays


@pytest.mark.parametrize("kit", KITS, ids=lambda k: k.key)
def test_a_whole_game_through_the_kit_alone(kit):
    players = max(2, kit.min_players)
    state = kit.new_state(players, {})
    views = [kit.new_view(s) for s in range(players)]
    bots = [kit.bot("random", f"kit/{s}") for s in range(players)]
    dealer = kit.dealer(7)
    hashes = {kit.state_hash(state)}
    steps = 0
    while not kit.is_over(state):
        seat = kit.to_move(state)
        if seat == CHANCE:
            action = dealer.outcome(state, views)
        else:
            legal = kit.legal_actions(state, views[seat])
            action = bots[seat].choose(state, views[seat])
            assert action in legal and kit.parse_action(action.text()) == action
        kit.apply(state, seat, action)
        hashes.add(kit.state_hash(state))
        steps += 1
        assert steps < 20_000
    assert len(kit.result(state)["scores"]) == players
    assert len(hashes) > 1 and all(int(h, 16) >= 0 for h in hashes)
    with pytest.raises(kit.engine_errors):
        kit.parse_action("no such action 42")


@pytest.mark.parametrize("kit", KITS, ids=lambda k: k.key)
def test_the_command_line_part_works_for_every_kit(kit):
    """What the commands ask a kit: a bot game's summary, the catalogue, the board text and
    picture, seat colours, and a screen with every member the one REPL calls."""
    from cli.repl.local import LocalGame
    players = max(2, kit.min_players)
    summary = kit.selfplay(players, 1, ["random"] * players, {}, {})
    assert len(summary["scores"]) == players and summary["bots"] == ["random"] * players
    assert kit.catalog_json().startswith("{") and kit.catalog_lines()
    assert len(kit.seat_colours(kit.max_players)) == kit.max_players
    driver = LocalGame(players, 0, seed=2, bots="random", kit=kit)
    driver.wait_for_turn()
    state = driver.state()
    assert kit.render_board(state) and "<svg" in kit.picture(state, caption="x")
    screen = kit.screen(driver)
    for member in ("welcome", "board_text", "board_sizes", "board_usage", "toolbar", "prompt", "describe",
                   "final", "commands", "command", "help", "help_completions", "list_legal", "note", "read",
                   "guard", "stage", "announce", "explain", "suggest", "whose_move",
                   "picture_caption", "question", "turn_start", "only_pass"):
        assert hasattr(screen, member), member
    assert screen.prompt() and screen.welcome() and screen.whose_move()


class _Said:
    """A stand-in REPL that keeps what a screen says."""

    color = False

    def __init__(self) -> None:
        self.lines: list[str] = []

    def say(self, text, style: str = "") -> None:
        self.lines.append(str(text))

    def width(self) -> int:
        return 80

    def height(self) -> int:
        return 24


@pytest.mark.parametrize("kit", KITS, ids=lambda k: k.key)
def test_help_and_legal_speak_for_every_kit(kit):
    """The shared help and legal of cli/games/screen.py (SPEC §34): commands, rules and notation
    for every game, a miss named with what may be asked, and legal numbered from 1."""
    from cli.repl.local import LocalGame
    players = max(2, kit.min_players)
    driver = LocalGame(players, 0, seed=2, bots="random", kit=kit)
    driver.wait_for_turn()
    said = _Said()
    screen = kit.screen(driver, said)
    screen.help("")
    assert said.lines[0] == "Commands:" and any("help" in line for line in said.lines[1:])
    said.lines.clear()
    screen.help("rules")
    assert said.lines and len(said.lines[0]) > 200
    said.lines.clear()
    screen.help("no-such-topic")
    assert len(said.lines) == 1 and said.lines[0].startswith("no help on 'no-such-topic'") and "help rules" in said.lines[0]
    said.lines.clear()
    screen.list_legal()
    assert said.lines and all(line.strip() for line in said.lines)   # no blank lines (issue 22)
    said.lines.clear()
    first = screen.legal_sorted()[0].text()
    screen.list_legal(first)
    assert said.lines and all(re.fullmatch(r" *\d+\. " + re.escape(first) + ".*", line) for line in said.lines)
    said.lines.clear()
    screen.list_legal("zzz-no-such-prefix")
    assert len(said.lines) == 1 and said.lines[0].startswith("no legal action starts with 'zzz-no-such-prefix'")
