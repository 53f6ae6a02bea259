"""Fewer keystrokes, no less fairness (SPEC §31.8): auto-pass is the default and answers what
has one answer (a pass when no card fits, in a window or in one's own discovery; a `next`
when nothing else is allowed); a line may stand for several draws. The figures come from a
scripted two-player game typed through the real REPL (tests/keystroke_helpers.py)."""
from __future__ import annotations

from cli.main import build_parser
from tests.keystroke_helpers import typed_game


def test_with_auto_pass_nothing_with_one_answer_is_typed_and_a_game_costs_far_fewer_lines():
    before = typed_game(1, after=False)
    after = typed_game(1, after=True)
    assert before.one_answer.count("pass") > 20 and before.one_answer.count("next") > 10
    assert not {"pass", "next"} & set(after.one_answer)   # every forced pass and next was answered for us
    assert after.automatic > 50
    assert after.in_others_discovery * 2 < before.in_others_discovery
    assert after.lines * 100 <= before.lines * 60, (before.lines, after.lines)


def test_auto_pass_is_the_default_and_no_auto_pass_turns_it_off():
    parser = build_parser()
    for command in (["play"], ["host"], ["join", "127.0.0.1:1"]):
        assert parser.parse_args(command).auto_pass is True
        assert parser.parse_args([*command, "--no-auto-pass"]).auto_pass is False
        assert parser.parse_args([*command, "--auto-pass"]).auto_pass is True
