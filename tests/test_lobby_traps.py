"""The lobby forgives mistakes (issue 22 item 8, SPEC §29.2-§29.3): each trap a user fell
into, through the cli's own host/join flows on loopback, every peer stopped by the test."""
from __future__ import annotations

import socket

import trio

from cli.main import build_parser
from cli.netplay.host import host_game
from cli.netplay.printer import Printer
from net_helpers import wait_until

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
