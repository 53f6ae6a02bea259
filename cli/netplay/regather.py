"""Coming back to a game everyone has left (SPEC §29.15).

`asv join --resume LOG` normally reaches a live peer and catches up (SPEC §29.12). When
nobody answers, the players all left: the first to come back listens where it listened
before (the port kept beside its log), else on the first free of a few spare ports that
every peer can work out from the game id and its key (so two returners that both lost
their old ports still meet), says whom it waits for and for how long, and dials the
addresses kept beside its log (and the others' spare ports) every few seconds while the
others' resumes dial it.
As soon as another seat is back the game goes on from the longest chain the two hold
(catch-up, SPEC §28.8); seats still missing then count as gone from that moment.
"""
from __future__ import annotations

import hashlib
import socket
import time

import trio

from cli.netplay.peer_book import load_peer_keys, load_peers, own_port
from protocol.net import TransportError

__all__ = ["DEFAULT_RESUME_WAIT", "REDIAL", "NobodyBack", "met", "resume_port", "spare_ports", "spare_addresses",
           "gather", "clock"]

DEFAULT_RESUME_WAIT = 600.0   # seconds the first one back waits for another player
REDIAL = 2.0                  # seconds between dialling the kept addresses again
DIAL_LIMIT = 3.0              # a dial that takes longer is tried again next round
PROGRESS_EVERY = 60           # seconds between progress lines when not on a terminal
SPARE_PORTS = 4               # spare ports a returner tries when its old one is taken
# Below Linux's ephemeral range (32768-60999), so an outgoing connection never holds one,
# and unlike the old port (picked by the kernel from that range) never the same as one.
SPARE_RANGE = (20000, 32768)


class NobodyBack(RuntimeError):
    """No other player came back within the wait; the log keeps every event written."""


def clock(seconds: float) -> str:
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def spare_ports(game: bytes, key_fingerprint: str) -> list[int]:
    """The spare ports of one seat in one game (SPEC §29.15): the same list on every
    machine, worked out from the game id and the seat's key fingerprint."""
    digest = hashlib.sha256(b"asv spare ports/" + game + b"/" + key_fingerprint.encode()).digest()
    low, high = SPARE_RANGE
    ports: list[int] = []
    for i in range(SPARE_PORTS):
        port = low + int.from_bytes(digest[4 * i:4 * i + 4], "big") % (high - low)
        if port not in ports:
            ports.append(port)
    return ports


def spare_addresses(log, game: bytes) -> list[tuple[str, int]]:
    """Where the other peers kept beside LOG listen if their old ports were taken."""
    return [(host, port) for fp, host in load_peer_keys(log) for port in spare_ports(game, fp)]


def _free(host: str, port: int) -> bool:
    probe = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    try:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)   # as trio's listeners do
        probe.bind((host, port))
        return True
    except OSError:
        return False
    finally:
        probe.close()


def resume_port(log, host: str, asked: int, game: bytes | None = None, key_fingerprint: str = "") -> int:
    """The port to listen on when resuming LOG: the one asked for, else the one this peer
    used before if it is free here (the others kept it), else the first free spare port
    of this seat (the others' resumes try those too), else any (0)."""
    if asked:
        return asked
    old = own_port(log)   # 0 when the book kept none: the spare ports still work
    spares = spare_ports(game, key_fingerprint) if game is not None and key_fingerprint else []
    return next((p for p in ([old] if old else []) + spares if _free(host, p)), 0)


def _others(node) -> list[bytes]:
    return [k for k in node.session.roster if k != node.me]


def _back(node) -> list[bytes]:
    here = set(node.mesh.peer_keys())
    return [k for k in _others(node) if k in here]


def met(node) -> bytes | None:
    """Another roster peer this one is connected with (or played with until the game
    ended: a returner may be reached, and play on, while it is still dialling); else None."""
    back = _back(node)
    if back:
        return back[0]
    return _others(node)[0] if node.over and _others(node) else None


def dial_list(log, game: bytes) -> list[tuple[str, int]]:
    """The kept addresses, then the others' spare ports, each once."""
    addresses: list[tuple[str, int]] = []
    for address in load_peers(log) + spare_addresses(log, game):
        if address not in addresses:
            addresses.append(address)
    return addresses


async def dial_all(node, addresses: list[tuple[str, int]], limit: float = DIAL_LIMIT) -> None:
    """Dial every address at once, each bounded to `limit`; stop as soon as another
    roster peer is connected (a host that is off would otherwise cost `limit` per port)."""
    async def dial(host: str, port: int, done: trio.CancelScope) -> None:
        with trio.move_on_after(limit):
            try:
                await node.connect(host, port)
            except (TransportError, OSError):
                return
        if met(node) is not None:
            done.cancel()

    if met(node) is not None:
        return
    async with trio.open_nursery() as nursery:
        for host, port in addresses:
            nursery.start_soon(dial, host, port, nursery.cancel_scope)


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
        while met(node) is None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise NobodyBack(f"nobody came back within {clock(wait)}; your log keeps every event: "
                                 f"try again later with {command}")
            if live is not None:
                live(f"waiting for {missing}: {clock(left)} left (Ctrl-C leaves)")
            elif said_at - left >= PROGRESS_EVERY:
                said_at = left
                say(f"still waiting for {missing}: {clock(left)} left")
            await dial_all(node, dial_list(log, node.game))
            with trio.move_on_after(min(redial, max(left, 0.01))):
                while met(node) is None:
                    await trio.sleep(0.05)
        back = _back(node) or [met(node)]
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
