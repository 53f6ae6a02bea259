"""The address book kept beside a log for `asv join --resume LOG` (SPEC §29.12): it follows
the mesh when a peer comes back on a new port, and a resume that reaches nobody says how to
go on."""
from __future__ import annotations

import socket
from types import SimpleNamespace

import pytest
import trio

from cli.main import build_parser
from cli.netplay.net_args import DEFAULT_LISTEN, listen_host
from cli.netplay.join import _reach
from cli.netplay.printer import Printer
from cli.netplay.wiring import noting_book
from cli.netplay.peer_book import (PeerBook, kept_entries, load_peer_keys, load_peers, own_listen, own_port,
                           save_peers)
from cli.netplay.regather import SPARE_RANGE, resume_port, spare_ports
from protocol.net import NotConnected
from protocol.node import Note, NoteKind
from protocol.net.mesh.peers import PeerAddress


def test_a_peer_back_on_a_new_port_is_kept_for_a_later_resume(tmp_path):
    """Issue 8 item 3: bob quits and comes back on a new port; alice quits before another
    event is applied; her `--resume LOG` must know bob's new address."""
    known = [PeerAddress(b"b" * 32, "127.0.0.1", 33473)]
    node = SimpleNamespace(log_path=tmp_path / "game.asvlog",
                           mesh=SimpleNamespace(known_peers=lambda: list(known)), who=lambda key: "bob (ABCD)")
    book, said = PeerBook(), []
    book.update(node)
    note = noting_book(book, node, said.append)
    known[0] = PeerAddress(b"b" * 32, "127.0.0.1", 33677)   # bob resumed: the mesh learnt it
    note(Note(NoteKind.BACK, who=b"b" * 32, seconds=12.0))
    assert said == ["bob (ABCD) is back (gone 12 s)"]
    assert load_peers(node.log_path) == [("127.0.0.1", 33677)]


def test_a_resume_that_reaches_nobody_says_how_to_go_on():
    async def refuse(host, port):
        raise NotConnected(f"cannot connect to {host}:{port}: refused", side="remote")

    node = SimpleNamespace(connect=refuse, me=b"a" * 32, over=False, session=SimpleNamespace(roster=[b"a" * 32, b"b" * 32]),
                           mesh=SimpleNamespace(peer_keys=lambda: []))
    lines: list[str] = []
    printer = Printer(None)
    printer.say = lines.append
    with pytest.raises(NotConnected, match=r"no peer of the game answered at 127\.0\.0\.1:9; ask a player "
                                           r"for a live address: asv join HOST:PORT --resume LOG"):
        trio.run(lambda: _reach(node, [("127.0.0.1", 9)], printer, resuming=True))
    assert lines == []                          # no 'trying the next peer' with none left
    with pytest.raises(NotConnected):
        trio.run(lambda: _reach(node, [("127.0.0.1", 9), ("127.0.0.1", 10)], printer, resuming=True))
    assert lines == ["no answer at 127.0.0.1:9 (cannot connect to 127.0.0.1:9: refused); trying the next peer"]
    lines.clear()                               # plain words: no class name, no [broken by ...] (SPEC §30)
    with pytest.raises(NotConnected, match="cannot connect to 127.0.0.1:9"):
        trio.run(lambda: _reach(node, [("127.0.0.1", 9)], printer))   # a join: the error itself


def test_a_resume_keeps_the_addresses_of_peers_it_has_not_met_again(tmp_path):
    """A resume rewrites the book with its own new port at once; the peers it has not met
    again keep their entries, fingerprints included: their spare ports are worked out from
    them (SPEC §29.15). The book used to keep only the first address, without its key."""
    log = tmp_path / "game.asvlog"
    carol = PeerAddress(b"c" * 32, "127.0.0.1", 40002)
    node = SimpleNamespace(log_path=log, me=b"a" * 32, mesh=SimpleNamespace(
        known_peers=lambda: [PeerAddress(b"b" * 32, "127.0.0.1", 40001), carol], listen_port=40000,
        address=("127.0.0.1", 40000)))
    PeerBook().update(node)
    node.mesh = SimpleNamespace(known_peers=lambda: [], listen_port=41000, address=("127.0.0.1", 41000))   # resumed; nobody met yet
    PeerBook(("127.0.0.1", 40001), kept_entries(log)).update(node)
    assert load_peers(log) == [("127.0.0.1", 40001), ("127.0.0.1", 40002)]
    assert [host for _, host in load_peer_keys(log)] == ["127.0.0.1", "127.0.0.1"]
    assert own_port(log) == 41000
    node.mesh = SimpleNamespace(known_peers=lambda: [PeerAddress(b"c" * 32, "127.0.0.1", 40009)], listen_port=41000,
                                address=("127.0.0.1", 41000))
    PeerBook(("127.0.0.1", 40001), kept_entries(log)).update(node)   # carol met again, on a new port
    assert load_peers(log) == [("127.0.0.1", 40009), ("127.0.0.1", 40001)]


def test_a_resume_listens_on_its_old_port_else_its_first_free_spare_port(tmp_path):
    """SPEC §29.15: the old port when free; else (taken, or never kept) the first free of
    the seat's spare ports, the same list on every machine; --port P wins over both."""
    game, me = bytes(range(16)), "ABCD-EFGH-IJKL-MNOP"
    spares = spare_ports(game, me)
    assert spares == spare_ports(game, me) and len(spares) == 4
    assert all(SPARE_RANGE[0] <= p < SPARE_RANGE[1] for p in spares) and spares != spare_ports(game, "ABCD-EFGH-IJKL-MNOQ")
    log = tmp_path / "game.asvlog"
    assert resume_port(log, "127.0.0.1", 0, game, me) == spares[0]          # no book: a spare port
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    old = taken.getsockname()[1]
    save_peers(log, [{"fingerprint": me, "host": "", "port": old, "self": True}])
    try:
        assert resume_port(log, "127.0.0.1", 0, game, me) == spares[0]      # the old port is taken
        assert resume_port(log, "127.0.0.1", 4321, game, me) == 4321
    finally:
        taken.close()
    assert resume_port(log, "127.0.0.1", 0, game, me) == old                # free again: the old one


def test_the_book_keeps_where_this_seat_listened_and_a_resume_listens_there_again(tmp_path):
    """SPEC §29.15: a seat that listened on 127.0.0.1 resumes on 127.0.0.1 unless --listen
    says otherwise; a book without the address (older) leaves the default, every interface."""
    log = tmp_path / "game.asvlog"
    node = SimpleNamespace(log_path=log, me=b"a" * 32,
                           mesh=SimpleNamespace(known_peers=lambda: [], listen_port=41000,
                                                address=("127.0.0.1", 41000)))
    PeerBook().update(node)
    assert own_port(log) == 41000 and own_listen(log) == "127.0.0.1"
    resume = build_parser().parse_args(["join", "--resume", str(log)])
    assert resume.listen is None and listen_host(resume) == DEFAULT_LISTEN   # until the log is read
    resume.listen = own_listen(log)
    assert listen_host(resume) == "127.0.0.1"
    given = build_parser().parse_args(["join", "--resume", str(log), "--listen", "0.0.0.0"])
    assert listen_host(given) == "0.0.0.0"
    from cli.netplay.peer_book import save_peers
    save_peers(log, [{"fingerprint": "", "host": "", "port": 41000, "self": True}])   # an older book
    assert own_listen(log) is None
