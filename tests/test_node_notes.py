"""A node's notes are data (SPEC §29.13): protocol/node says what happened as a Note (a kind
and its facts) and writes no words and no command lines; cli/netplay/node_notes.py words each kind."""
from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

from cli.netplay.node_notes import RESUME_COMMAND, words
from protocol.crypto import Identity, fingerprint
from protocol.net import ConnectionClosed
from protocol.node import Node, NodeOptions, Note, NoteKind
from protocol.session import IllegalMove
from tests.toy_game import ToyRules

ROOT = Path(__file__).resolve().parent.parent
BOB = Identity.generate("bob").public_key_bytes
NAMES = {BOB: "green bob"}.__getitem__

EXAMPLES = {
    NoteKind.JOINED: (Note(NoteKind.JOINED, who=BOB, count=2, seats=3), r"green bob joined \(2/3 seats\)"),
    NoteKind.HERE: (Note(NoteKind.HERE, who=BOB), "green bob is here"),
    NoteKind.BACK: (Note(NoteKind.BACK, who=BOB, seconds=7.9), r"green bob is back \(gone 7 s\)"),
    NoteKind.LOST: (Note(NoteKind.LOST, who=BOB, reason="connection closed", at=0.0),
                    r"lost green bob \(connection closed\) at \d\d:\d\d:\d\d"),
    NoteKind.REFUSED_CONNECTION: (Note(NoteKind.REFUSED_CONNECTION, error=ConnectionClosed("eof")),
                                  r"^refused a connection: connection closed$"),
    NoteKind.REFUSED: (Note(NoteKind.REFUSED, who=BOB, seq=52, error=IllegalMove("no", seq=52, author=BOB)),
                       r"^refused green bob's event at seq 52: a move the rules refuse: no$"),
    NoteKind.HALTED: (Note(NoteKind.HALTED, error=IllegalMove("no")),
                      r"^session halted: a move the rules refuse: no$"),
    NoteKind.BARRED: (Note(NoteKind.BARRED, who=BOB, seq=9),
                      "late event of green bob at seq 9 not applied: this peer voted it silent"),
    NoteKind.VOTED: (Note(NoteKind.VOTED, who=BOB, seq=9), "voted green bob silent at seq 9"),
    NoteKind.VOTE_WITHDRAWN: (Note(NoteKind.VOTE_WITHDRAWN, who=BOB, seq=9),
                              "green bob applied the event this peer voted silent at seq 9; vote withdrawn"),
    NoteKind.WRITTEN: (Note(NoteKind.WRITTEN, seq=9, text="abort: x silent"), r"abort: x silent"),
    NoteKind.TAKEN_BACK: (Note(NoteKind.TAKEN_BACK, seq=9, count=2, text="abort: x"),
                          r"abort: x; this peer's 2 event\(s\) from seq 9 reached nobody and are dropped"),
    NoteKind.TAKEBACK_ASKED: (Note(NoteKind.TAKEBACK_ASKED, who=BOB, seq=9, text="move 3", seconds=30.0),
                              r"green bob asks to take back `move 3`: it happens if every other seat says yes "
                              r"\(type yes or no\) within 30 s"),
    NoteKind.TAKEBACK_ANSWERED: (Note(NoteKind.TAKEBACK_ANSWERED, who=BOB, seq=9),
                                 "green bob agrees to take back the last action"),
    NoteKind.TAKEBACK_REFUSED: (Note(NoteKind.TAKEBACK_REFUSED, who=BOB, seq=9, reason="no"),
                                "green bob said no: the last action stands"),
    NoteKind.TAKEBACK_DONE: (Note(NoteKind.TAKEBACK_DONE, who=BOB, seq=9, text="takeback of 'move 3'"),
                             "taken back, every seat agreeing: takeback of 'move 3'"),
    NoteKind.CHAT: (Note(NoteKind.CHAT, who=BOB, seq=0, text="good luck"), "green bob says: good luck"),
    NoteKind.CHAT_REFUSED: (Note(NoteKind.CHAT_REFUSED, who=BOB, reason="too long"),
                            "a chat line of green bob was not taken: too long"),
    NoteKind.SETTLED: (Note(NoteKind.SETTLED, who=BOB, seq=9, text="halt: x"),
                       r"halt: x \(written by green bob\); it wins over this peer's own end and replaces it"),
}


@pytest.mark.parametrize("reason, line", [
    ("withdrawn", "green bob withdrew the takeback: the last action stands"),
    ("timeout", "no answer from green bob within 30 s: the takeback lapsed; the last action stands"),
    ("moved on", "green bob played on before every seat agreed: the last action stands")])
def test_every_end_of_a_takeback_that_changed_nothing_is_said(reason, line):
    assert words(Note(NoteKind.TAKEBACK_REFUSED, who=BOB, reason=reason, seconds=30.0), NAMES) == line


@pytest.mark.parametrize("kind", list(NoteKind))
def test_every_kind_of_note_has_its_words(kind):
    note, line = EXAMPLES[kind]
    assert re.fullmatch(line, words(note, NAMES)), words(note, NAMES)


def test_a_lost_seat_in_a_started_game_gets_the_command_to_come_back_from_the_cli():
    note = Note(NoteKind.LOST, who=BOB, reason="connection closed", at=0.0, seconds=30.0)
    assert words(note, NAMES).endswith(f"the game waits: they come back with `{RESUME_COMMAND}` (their log); "
                                       "aborted if gone 30 s")


def test_the_node_hands_on_a_note_with_the_facts_not_a_line():
    node = Node(Identity.generate("me"), ToyRules(), os.urandom(16), None, options=NodeOptions(seats=2, timeout=30.0))
    got: list[Note] = []
    node.on_note = got.append
    node._on_peer_up(BOB)
    node._on_join(BOB, node.identity.fingerprint)   # a seat is taken by a join request (SPEC §29.2)
    node._on_peer_down(BOB, ConnectionClosed("closed"))
    assert [n.kind for n in got] == [NoteKind.JOINED, NoteKind.LOST]
    assert got[0] == Note(NoteKind.JOINED, who=BOB, count=2, seats=2)
    lost = got[1]
    assert lost.who == BOB and lost.reason == "connection closed" and lost.seconds is None  # not started yet
    assert fingerprint(BOB) not in repr(lost.reason)


def test_protocol_writes_no_command_line():
    """No string of protocol/ (docstrings aside) names a command or an option of the `asv`
    program: the command adds its own hints (cli/netplay/node_notes.py, cli/netplay/error_lines.py)."""
    for path in sorted((ROOT / "protocol").rglob("*.py")):
        tree = ast.parse(path.read_text())
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and n.body and isinstance(n.body[0], ast.Expr)}
        said = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                and id(n) not in docstrings]
        assert not [s for s in said if re.search(r"\basv [a-z]|--[a-z]", s)], path.name
