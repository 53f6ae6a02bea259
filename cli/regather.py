"""Coming back to a game everyone has left (SPEC §29.15).

`asv join --resume LOG` normally reaches a live peer and catches up (SPEC §29.12). When
nobody answers, the players all left: the first to come back listens where it listened
before (the port kept beside its log), says whom it waits for and for how long, and dials
the addresses kept beside its log every few seconds while the others' resumes dial it.
As soon as another seat is back the game goes on from the longest chain the two hold
(catch-up, SPEC §28.8); seats still missing then count as gone from that moment.
"""
from __future__ import annotations

import socket
import time

import trio

from cli.peer_book import load_peers, own_port
from protocol.net import TransportError

__all__ = ["DEFAULT_RESUME_WAIT", "REDIAL", "NobodyBack", "resume_port", "gather", "clock"]

DEFAULT_RESUME_WAIT = 600.0   # seconds the first one back waits for another player
REDIAL = 2.0                  # seconds between dialling the kept addresses again
DIAL_LIMIT = 3.0              # a dial that takes longer is tried again next round
PROGRESS_EVERY = 60           # seconds between progress lines when not on a terminal


class NobodyBack(RuntimeError):
    """No other player came back within the wait; the log keeps every event written."""


def clock(seconds: float) -> str:
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def resume_port(log, host: str, asked: int) -> int:
    """The port to listen on when resuming LOG: the one asked for, else the one this peer
    used before if it is free here (the others kept it), else any (0)."""
    if asked:
        return asked
    port = own_port(log)
    if not port:
        return 0
    probe = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    try:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)   # as trio's listeners do
        probe.bind((host, port))
        return port
    except OSError:
        return 0
    finally:
        probe.close()


def _others(node) -> list[bytes]:
    return [k for k in node.session.roster if k != node.me]


def _back(node) -> list[bytes]:
    here = set(node.mesh.peer_keys())
    return [k for k in _others(node) if k in here]


async def _dial_all(node, log) -> None:
    for host, port in load_peers(log):
        if _back(node):
            return
        with trio.move_on_after(DIAL_LIMIT):
            try:
                await node.connect(host, port)
            except (TransportError, OSError):
                pass


async def gather(node, log, say, *, wait: float = DEFAULT_RESUME_WAIT, redial: float = REDIAL,
                 command: str = "asv join --resume LOG", live=None) -> bytes:
    """Wait (at most `wait` seconds) until another roster peer is connected, dialling the
    addresses kept beside LOG meanwhile; returns its key. `say(text)` prints a line;
    `live(text)` (a terminal) rewrites one countdown line in place. Raises NobodyBack."""
    name = lambda key: node.who(key)   # noqa: E731 - "green bob" once the seats are known
    missing = " and ".join(name(k) for k in _others(node))
    port = node.mesh.listen_port
    say(f"nobody of this game is here yet: waiting up to {clock(wait)} for {missing} "
        f"(they come back with `{command}`, their own log); listening on port {port}. "
        "Ctrl-C leaves; your log keeps every event.")
    node.votes_held = True
    deadline = time.monotonic() + wait
    said_at = wait
    try:
        while not _back(node):
            left = deadline - time.monotonic()
            if left <= 0:
                raise NobodyBack(f"nobody came back within {clock(wait)}; your log keeps every event: "
                                 f"try again later with {command}")
            if live is not None:
                live(f"waiting for {missing}: {clock(left)} left (Ctrl-C leaves)")
            elif said_at - left >= PROGRESS_EVERY:
                said_at = left
                say(f"still waiting for {missing}: {clock(left)} left")
            await _dial_all(node, log)
            with trio.move_on_after(min(redial, max(left, 0.01))):
                while not _back(node):
                    await trio.sleep(0.05)
        back = _back(node)
        still = [k for k in _others(node) if k not in back]
        gone = ("" if not still else "; " + " and ".join(name(k) for k in still) +
                f" not back yet: the game waits for them as for a peer that left "
                f"(aborted if gone {node.options.timeout:g} s)")
        say(f"{' and '.join(name(k) for k in back)} is back: the game goes on where the logs agree "
            f"(this log holds {node.height} events){gone}")
        return back[0]
    finally:
        if live is not None:
            live("")   # ends the countdown line
        node.restart_absence()
        node.votes_held = False
