"""The lobby forgives mistakes (issue 22 item 8, SPEC §29.2-§29.3): each trap a user fell
into, through the cli's own host/join flows on loopback, every peer stopped by the test."""
from __future__ import annotations

import socket

import trio

from cli.main import build_parser
from cli.netplay.host import host_game
from cli.netplay.outcome import user_error
from cli.netplay.printer import Printer
from tests.net_helpers import wait_until

LIMIT = 60   # the whole test, on a loaded machine


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def host_args(tmp_path, *extra: str):
    return build_parser().parse_args(
        ["host", "--game", "space-walk", "--bot", "random", "--new-key", "--quiet", "--listen", "127.0.0.1",
         "--log-dir", str(tmp_path / "host"), "--seed", "s0", *extra])


async def test_bots_with_a_fixed_port_listen_elsewhere_and_take_their_seats(tmp_path):
    """`asv host --seats 3 --bots 1 --port P` used to die with "port P is already in use":
    the bot's node listened on the host's --port."""
    port = free_port()
    args = host_args(tmp_path, "--seats", "3", "--bots", "1", "--port", str(port))
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as nursery:
            nodes = []
            nursery.start_soon(lambda: host_game(args, printer=Printer(None), ready=nodes.append))
            await wait_until(lambda: nodes and len(nodes[0].lobby) == 2)
            assert nodes[0].mesh.address[1] == port
            nursery.cancel_scope.cancel()


def test_a_game_aborted_before_the_seat_draw_ends_in_a_line_not_a_board():
    """Aborted before the seats were drawn, the peer holds no board: the REPL seat used to
    build its driver anyway and died in `_take` (`'NoneType' object has no attribute
    'clone'`). It now ends with a line saying why; a game with a board goes to the REPL."""
    from types import SimpleNamespace

    from cli.netplay.seat import ended_before_seats

    aborted = SimpleNamespace(state=None, phase="aborted", chain=SimpleNamespace(events=[]),
                              notes=["abort: ABCD stayed silent at seq 5"])
    line = ended_before_seats(SimpleNamespace(session=aborted))
    assert line.startswith("abort: ABCD stayed silent at seq 5") and "before the seats were drawn" in line
    playing = SimpleNamespace(state=object(), phase="play", chain=SimpleNamespace(events=[]), notes=[])
    assert ended_before_seats(SimpleNamespace(session=playing)) is None
    assert ended_before_seats(SimpleNamespace(session=None)) is None


def join_args(tmp_path, invite: str, name: str):
    return build_parser().parse_args(
        ["join", invite, "--bot", "random", "--new-key", "--quiet", "--listen", "127.0.0.1",
         "--log-dir", str(tmp_path / name), "--seed", name])


async def two_seat_host(nursery, tmp_path, notes: list[str]):
    """`asv host --seats 2` in `nursery`, its lines kept in `notes`; its node once it listens."""
    printer, nodes = Printer(None), []
    printer.say = notes.append
    nursery.start_soon(lambda: host_game(host_args(tmp_path, "--seats", "2"), printer=printer, ready=nodes.append))
    await wait_until(lambda: nodes)
    return nodes[0]


async def test_an_invite_with_a_wrong_fingerprint_is_refused_before_it_takes_a_seat(tmp_path):
    """One mistyped fingerprint letter used to take a lobby seat, start the game and leave
    the joiner refusing the creator's hello (NotTheCreator) forever. The creator now seats
    only a join request naming its own fingerprint; the joiner ends with a line that says
    the fingerprint does not match and where to get the right invite."""
    from cli.netplay.error_lines import error_line
    from cli.netplay.invite import Invite
    from cli.netplay.join import join_game
    from protocol.crypto import Identity
    from protocol.node import NotInRoster

    notes: list[str] = []
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as nursery:
            host = await two_seat_host(nursery, tmp_path, notes)
            wrong = Invite("127.0.0.1", host.mesh.address[1], host.game, Identity.generate("x").fingerprint).text()
            try:
                await join_game(join_args(tmp_path, wrong, "j1"), printer=Printer(None))
            except BaseExceptionGroup as exc:   # from the node's nursery
                refusal = user_error(exc, (NotInRoster,))
            else:
                raise AssertionError("a wrong fingerprint was not refused")
            assert refusal is not None
            assert len(host.lobby) == 1 and host.session is None   # no seat was taken
            nursery.cancel_scope.cancel()
    line = error_line(refusal)
    assert "does not match this game's creator" in line and "asv host" in line and "Copy it again" in line
    assert not any("Error" in n or "[broken by" in n or n.startswith("lost ") for n in notes), notes
    assert any(n.startswith("refused a connection from ") and "does not match" in n for n in notes), notes


async def test_joining_a_started_game_says_it_has_started_in_words(tmp_path):
    """Joining a started game used to say "key … is not allowed in this game", and the host
    printed a raw `KeyNotAllowed … [broken by peer …]` line."""
    from cli.netplay.error_lines import error_line
    from cli.netplay.invite import Invite
    from cli.netplay.join import join_game
    from protocol.net import PeerRefused

    notes: list[str] = []
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as nursery:
            host = await two_seat_host(nursery, tmp_path, notes)
            invite = Invite("127.0.0.1", host.mesh.address[1], host.game, host.identity.fingerprint).text()
            nursery.start_soon(lambda: join_game(join_args(tmp_path, invite, "j1"), printer=Printer(None)))
            await wait_until(lambda: host.session is not None)
            try:
                await join_game(join_args(tmp_path, invite, "j2"), printer=Printer(None))
            except (PeerRefused, BaseExceptionGroup) as exc:
                refusal = user_error(exc, (PeerRefused,))
            else:
                raise AssertionError("a third peer joined a two-seat game")
            await wait_until(lambda: any("refused a connection" in n for n in notes))
            nursery.cancel_scope.cancel()
    assert "has started" in error_line(refusal)
    shown = [n for n in notes if "refused a connection" in n]
    assert "has started" in shown[0] and "KeyNotAllowed" not in shown[0] and "[broken by" not in shown[0], shown
