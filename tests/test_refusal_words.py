"""Every refusal a player can read is said in plain words from one table (SPEC §31.11,
issue 22 item 8): each error class of protocol/ and of the engines has its own entry in
cli/games/refusal_words.py, and no line the REPL, the network notes, a networked seat or
`asv watch` prints for one of them shows a class name. A new error class without words
fails here."""
from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import pytest

import p2p_asv.errors
import protocol
import space_trading_race.errors
import space_walk.errors
from cli.errors import NotSent
from cli.games.refusal_words import PHRASES, describe, full_name, phrase, refused_line
from cli.netplay.driver import PeerStopped
from cli.netplay.error_lines import error_line
from cli.netplay.node_notes import words
from cli.netplay.watch import refused_event_line
from protocol.crypto import Identity, fingerprint
from protocol.errors import ProtocolError
from protocol.net import TransportError
from protocol.node import Note, NoteKind
from protocol.session import GameRuleError

OURS = ("protocol", "p2p_asv", "space_walk", "space_trading_race", "cli")
BASES = (ProtocolError, p2p_asv.errors.EngineError, space_walk.errors.SpaceWalkError,
         space_trading_race.errors.TradingRaceError, GameRuleError, NotSent)
BOB = Identity.generate("bob").public_key_bytes
NAMES = {BOB: "green bob"}.__getitem__


def _import_all() -> None:
    """Subclasses exist only once their module is imported: import every module of protocol/."""
    for info in pkgutil.walk_packages(protocol.__path__, "protocol."):
        importlib.import_module(info.name)


def _walk(cls: type):
    for sub in cls.__subclasses__():
        yield sub
        yield from _walk(sub)


def error_classes() -> list[type]:
    _import_all()
    found: dict[str, type] = {}
    for base in BASES:
        for cls in (base, *_walk(base)):
            if cls.__module__.split(".")[0] in OURS:   # not a test's own subclass
                found.setdefault(full_name(cls), cls)
    return sorted(found.values(), key=full_name)


CLASSES = error_classes()
CLASS_NAME = re.compile(r"\b(" + "|".join(sorted({c.__name__ for c in CLASSES}, key=len, reverse=True)) + r")\b")

# a value for each constructor parameter the error classes take
FILL = {"reason": "the reason", "message": "the reason", "seq": 5, "author": BOB, "proof": None,
        "path": "g.log", "offset": 3, "seat": 1, "roll": 0, "position": 0, "seconds": 2.0, "side": "remote",
        "peer": None, "kind": "schnorr", "code": "x", "participant": None, "mid_frame": False,
        "host": "127.0.0.1", "port": 1, "point": bytes(32)}


def make(cls: type) -> BaseException:
    """An instance built by the class's own constructor, so its message is the real one
    (an EventError's and a LogError's start with their class name)."""
    params = [p for p in list(inspect.signature(cls.__init__).parameters.values())[1:]
              if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and (p.default is p.empty or p.name in FILL)]
    if not params:
        return cls("the reason")
    args = [FILL.get(p.name, "x") for p in params if p.kind is not p.KEYWORD_ONLY]
    kw = {p.name: FILL.get(p.name, "x") for p in params if p.kind is p.KEYWORD_ONLY}
    return cls(*args, **kw)


def test_the_walk_finds_the_classes_the_issue_names():
    names = {c.__name__ for c in CLASSES}
    assert len(CLASSES) > 100
    assert {"IllegalMove", "NotTheCreator", "KeyNotAllowed", "GameFull", "GameStarted",
            "IllegalAction", "OutOfTurn", "MalformedAction", "PeerStopped"} <= names


@pytest.mark.parametrize("cls", CLASSES, ids=full_name)
def test_every_error_class_has_words_of_its_own(cls):
    words_ = PHRASES.get(full_name(cls))
    assert words_, f"{full_name(cls)} has no entry in cli/games/refusal_words.py PHRASES"
    assert not CLASS_NAME.search(words_)


def test_the_table_names_no_class_that_is_gone():
    assert sorted(set(PHRASES) - {full_name(c) for c in CLASSES}) == []


def lines_for(exc: BaseException) -> list[str]:
    """Every line a refusal can reach the screen by."""
    said = [words(Note(NoteKind.REFUSED, who=BOB, seq=5, error=exc), NAMES),
            words(Note(NoteKind.HALTED, who=BOB, seq=5, error=exc), NAMES),
            refused_event_line(5, fingerprint(BOB), exc),          # asv watch
            refused_line(exc),                                     # the REPL
            refused_line(PeerStopped(describe(exc))),              # a networked seat's unsent action
            error_line(exc)]                                       # asv host / asv join
    if isinstance(exc, TransportError):
        said.append(words(Note(NoteKind.REFUSED_CONNECTION, error=exc), NAMES))
    return said


@pytest.mark.parametrize("cls", CLASSES, ids=full_name)
def test_no_line_for_a_refusal_shows_a_class_name(cls):
    exc = make(cls)
    for line in lines_for(exc):
        assert not CLASS_NAME.search(line), line
        assert "[broken by" not in line, line
    assert phrase(exc) in refused_line(exc)


def test_a_refused_move_reads_as_words_with_its_author_and_reason():
    from protocol.session import IllegalMove
    exc = IllegalMove("s1 cannot move there", seq=52, author=BOB)
    assert words(Note(NoteKind.REFUSED, who=BOB, seq=52, error=exc), NAMES) == (
        "refused green bob's event at seq 52: a move the rules refuse: s1 cannot move there")
    assert refused_event_line(52, "ABCD", exc) == "REFUSED at seq 52 by ABCD: a move the rules refuse: s1 cannot move there"
