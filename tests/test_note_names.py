"""The lobby's "joined" line and the refused/late event notes name the peer as the other
lines do (SPEC §29.13, §32.4): seat colour and name in a game, the name a key used in an
earlier game seen here (with its fingerprint) in the lobby, the fingerprint only when
nothing better is known."""
from __future__ import annotations

import os
from types import SimpleNamespace

import trio

from cli.netplay.names_seen import MAX_KEPT, name_seen, remember
from cli.netplay.node_notes import speaker
from cli.netplay.peer_names import namer, remembering, seat_name
from tests.net_helpers import Runner, wait_until
from protocol.crypto import Identity, fingerprint
from protocol.node import Node, NodeOptions
from tests.session_helpers import craft, make_peers, run_until, writer
from tests.toy_game import ToyRules, play_own_card

RULES = ToyRules()


def toy_node(name: str, game: bytes, *, seats=None, creator=None) -> Node:
    return Node(Identity.generate(name), RULES, game, None, agent=play_own_card,
                options=NodeOptions(seats=seats, keepalive=0.5, peer_timeout=5.0),
                creator=None if creator is None else creator.identity.fingerprint)


async def test_the_lobby_names_a_key_met_before_and_falls_back_to_the_fingerprint():
    game = os.urandom(16)
    host = toy_node("alice", game, seats=3)
    notes: list[str] = []
    host.on_note, host.namer = speaker(host, notes.append), namer(host)
    bob, stranger = toy_node("bob", game, creator=host), toy_node("x", game, creator=host)
    remember(bob.me, "bob")                      # bob played a game with this user before
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            runner = Runner(nursery)
            await runner.start(host)
            for node in (bob, stranger):
                await runner.start(node)
                await node.connect(*host.mesh.address)
                await wait_until(lambda: node.me in host.lobby)
            nursery.cancel_scope.cancel()
    joined = [n for n in notes if " joined (" in n]
    assert joined == [f"bob ({fingerprint(bob.me)}) joined (2/3 seats)",
                      f"{fingerprint(stranger.me)} joined (3/3 seats)"], notes


def named_node(peer) -> tuple[Node, list[str]]:
    node = Node(peer.identity, RULES, peer.game, None, peer=peer)
    notes: list[str] = []
    node.on_note, node.namer = speaker(node, notes.append), namer(node)
    return node, notes


def test_refused_and_halting_events_name_the_seat_not_the_key(tmp_path):
    peers = make_peers(RULES, 3, agent_for=lambda k: play_own_card, log_dir=str(tmp_path))
    run_until(peers, lambda: writer(peers).pending_obligation() == "action")
    cheater = writer(peers)
    one, two = [p for p in peers if p is not cheater]
    who = seat_name(one, cheater.me)
    assert who and who.split()[0] in ("blue", "yellow", "green")
    seq = one.chain.height
    node, notes = named_node(one)
    node._feed(craft(cheater, lambda body: body.update(a="play #99:card:z")))   # an illegal move
    assert notes == [f"refused {who}'s event at seq {seq}: " + notes[0].split(": ", 1)[1]], notes
    assert ": a move the rules refuse: " in notes[0] and "IllegalMove" not in notes[0]   # words (§31.11)
    node, notes = named_node(two)
    node._feed(craft(cheater, h=bytes(32)))      # a wrong state hash halts this replica
    assert notes and notes[0].startswith(f"session halted at {who}'s event at seq {seq}: ")
    assert ": the seats no longer agree on the game: " in notes[0] and "StateHashMismatch" not in notes[0]
    assert not any(fingerprint(cheater.me) in n for n in notes), notes


def test_hellos_seen_are_remembered_and_the_book_stays_small():
    me, bob = Identity.generate("me"), Identity.generate("bob")
    seen = []
    on_applied = remembering(lambda node, ev, note: seen.append(ev.kind))
    node = SimpleNamespace(me=me.public_key_bytes)
    on_applied(node, SimpleNamespace(kind="hello", author=bob.public_key_bytes, body={"name": "bob"}), "")
    on_applied(node, SimpleNamespace(kind="hello", author=me.public_key_bytes, body={"name": "me"}), "")
    assert seen == ["hello", "hello"]
    assert name_seen(bob.public_key_bytes) == "bob" and name_seen(me.public_key_bytes) is None
    for i in range(MAX_KEPT):
        remember(bytes([i % 256, i // 256]) * 16, f"p{i}")
    assert name_seen(bob.public_key_bytes) is None          # the oldest is forgotten first
    assert name_seen(bytes([MAX_KEPT - 1, 0]) * 16) == f"p{MAX_KEPT - 1}"


def test_a_resumed_peer_says_a_seat_is_here_and_only_a_seat_it_lost_is_back(tmp_path):
    """A resumed peer never saw the others leave: its first meeting with a seat says "is
    here", not "is back (gone 0 s)"; a seat it did lose is "back" with how long (SPEC §29.13)."""
    from protocol.net import ConnectionClosed
    peers = make_peers(RULES, 2, agent_for=lambda k: play_own_card, log_dir=str(tmp_path))
    run_until(peers, lambda: writer(peers).pending_obligation() == "action")
    me, other = peers
    node, notes = named_node(me)                  # built from a session, as a resume is
    node._nursery = SimpleNamespace(start_soon=lambda *args: None)   # no catch-up in this test
    who = seat_name(me, other.me)
    node.absent_for(other.me)                     # the toolbar asked before the seat came
    node._on_peer_up(other.me)
    node._on_peer_down(other.me, ConnectionClosed("closed"))
    node._on_peer_up(other.me)
    assert notes[0] == f"{who} is here" and notes[1].startswith(f"lost {who} (")
    assert notes[2] == f"{who} is back (gone 0 s)" and len(notes) == 3, notes
