"""The REPL's table talk (SPEC §29.17, §29.18): `say`, `undo`, `yes` and `no` reach the node
through the driver, a refusal is said in words, and a game without a network says they are
for one. The same commands for every game and both screens (they live in Repl.handle)."""
from __future__ import annotations

import pytest

from cli.netplay.table_talk import TableTalk
from cli.repl.table_talk import table_command
from protocol.crypto import Identity
from protocol.session.chat import make_line
from protocol.session.takeback import CannotTakeBack
from tests.test_net_driver import with_trio


class Said:
    def __init__(self, driver) -> None:
        self.driver, self.lines = driver, []

    def say(self, text, style="") -> None:
        self.lines.append(text)


class StubNode:
    """The node calls TableTalk makes, refusing as the real node does."""

    def __init__(self) -> None:
        self.calls: list = []
        self.takeback_asked = None

    async def say(self, text: str):
        self.calls.append(("say", text))
        if "\x07" in text:
            make_line(Identity.generate("x"), bytes(16), 0, text)   # raises ChatRefused

    async def ask_takeback(self):
        self.calls.append(("undo",))
        raise CannotTakeBack("no action has been played yet")

    async def answer_takeback(self, yes: bool):
        self.calls.append(("answer", yes))


class Driver(TableTalk):
    def __init__(self, node, token) -> None:
        self.node, self.token = node, token


def test_say_undo_yes_and_no_reach_the_node_and_refusals_are_words():
    def test(token) -> None:
        node = StubNode()
        repl = Said(Driver(node, token))
        assert table_command(repl, "say", "good luck, all")
        assert node.calls[-1] == ("say", "good luck, all") and repl.lines == []
        assert table_command(repl, "say", "ring\x07")
        assert repl.lines[-1] == "not sent: a chat line holds no control characters (U+0007 is one)"
        assert table_command(repl, "undo", "")
        assert repl.lines[-1] == "not sent: no action has been played yet"
        assert not table_command(repl, "yes", "")        # nothing asked: yes is not table talk
        class Ask:
            body = {"a": "move 3"}
        node.takeback_asked = Ask()
        assert table_command(repl, "no", "")
        assert node.calls[-1] == ("answer", False)
        assert table_command(repl, "say", "")
        assert repl.lines[-1].startswith("say what?")
    with_trio(test)


@pytest.mark.parametrize("word", ["say", "undo"])
def test_a_game_without_a_network_says_table_talk_is_for_one(word):
    repl = Said(driver=object())
    assert table_command(repl, word, "hi" if word == "say" else "")
    assert "over the network" in repl.lines[-1]
    assert not table_command(repl, "yes", "")
