"""Issue 8 item 3 (SPEC §29.13): the lines about a peer that drops, comes back, or is aborted
name it by seat colour and name, give a plain reason, and the abort is said once."""
from __future__ import annotations

import os
import re
from types import SimpleNamespace

from cli.games.asv.adapter import AsvRules
from cli.netplay.node_notes import speaker
from cli.netplay.peer_names import abort_line, seat_name
from cli.repl.live import NoteWriter
from tests.net_helpers import bot_node
from protocol.crypto import Identity, fingerprint
from protocol.net import ConnectionClosed, PeerRefused, PeerTimeout, SendQueueFull, plain_reason

ALICE, BOB = (Identity.generate(n).public_key_bytes for n in ("alice", "bob"))


def session(phase: str = "play", events=()):
    """The parts of a Session the namer reads: roster, names, seats, chain and notes."""
    return SimpleNamespace(rules=AsvRules(), players=2, roster=[ALICE, BOB], names=["alice", "bob"],
                           seat_of={BOB: 0, ALICE: 1}, phase=phase, finished=False, halted=None,
                           evidence=None, chain=SimpleNamespace(events=list(events), height=len(events)),
                           notes=["abort: raw"] if events else [])


def test_a_seated_peer_is_named_by_colour_and_name_a_stranger_not_at_all():
    s = session()
    names = {seat_name(s, BOB), seat_name(s, ALICE)}
    assert all(re.fullmatch(r"[a-z]+ (alice|bob)", n) for n in names), names
    assert seat_name(s, BOB).endswith(" bob") and seat_name(s, BOB).split()[0] != seat_name(s, ALICE).split()[0]
    assert seat_name(s, os.urandom(32)) is None and seat_name(None, BOB) is None


def test_a_lost_connection_has_a_plain_reason_without_class_names_or_blame_brackets():
    cases = {ConnectionClosed("closed the connection", peer="AB12"): "connection closed",
             ConnectionClosed("eof", mid_frame=True): "connection cut off mid-message",
             PeerTimeout(30, peer="AB12"): "no sign of life for 30 s",
             PeerRefused("key", "not in the roster"): "it refused the connection: not in the roster"}
    for error, said in cases.items():
        assert plain_reason(error) == said
        assert "broken by" in str(error)          # the raw text that the player no longer sees
    assert plain_reason(SendQueueFull("it reads too slowly", side="local")) == "this side: it reads too slowly"


def test_the_lost_and_back_lines_name_the_seat_and_say_what_now(tmp_path):
    node = bot_node(0, os.urandom(16), tmp_path, seats=2, timeout=30.0)
    node.session = session()
    node.namer = lambda key: seat_name(node.session, key)
    notes: list[str] = []
    node.on_note = speaker(node, notes.append)
    node._on_peer_down(BOB, ConnectionClosed("closed the connection", peer=fingerprint(BOB)))
    (line,) = notes
    assert re.fullmatch(rf"lost {seat_name(node.session, BOB)} \(connection closed\) at \d\d:\d\d:\d\d — the game "
                        r"waits: they come back with `asv join --resume LOG` \(their log\); aborted if gone 30 s", line)
    assert fingerprint(BOB) not in line and "ConnectionClosed" not in line


def test_the_abort_is_named_and_said_once(tmp_path):
    abort = SimpleNamespace(kind="abort", seq=41, author=ALICE, body={"silent": BOB, "votes": [b"v"]})
    s = session("aborted", [abort])
    line = abort_line(s)
    assert line == (f"game aborted: {seat_name(s, BOB)} stayed gone past the timeout (at event 41); "
                    f"written by {seat_name(s, ALICE)}, co-signed by 1 peer(s)")
    shown: list[str] = []
    writer = NoteWriter(SimpleNamespace(note=shown.append), hold=("abort: ",))
    writer.write(f"abort: {fingerprint(BOB)} silent at seq 41; co-signed by 1 peer(s)\nlost green bob (x)\n")
    assert shown == ["lost green bob (x)"]         # the raw abort note waits for the REPL's one line
