"""A full mesh of authenticated peers over TCP (SPEC §28.5-§28.8).

The mesh moves opaque signed-event wires and a few control messages; it knows nothing
of the game. It keeps one connection per pair of peers, gossips every new event wire to
everyone else once (so an author cannot show different events to different peers
without the chain noticing), sends keepalives and drops a peer silent for too long,
tells joining peers where the others listen, and carries catch-up requests.
"""
from __future__ import annotations

import inspect
import itertools
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import trio

from protocol import codec, messages
from protocol.errors import EventError
from protocol.events import event_hash, parse_event
from protocol.framing import DEFAULT_MAX_FRAME, FramedStream
from protocol.handshake import (
    DEFAULT_HANDSHAKE_TIMEOUT, DIALER, LISTENER, AllowedKeys, Authenticated, NonceCache, handshake,
)
from protocol.identity import Identity, fingerprint
from protocol.transport_errors import (
    LOCAL, REMOTE, BadEventWire, CatchupTimeout, ConnectionClosed, DuplicateConnection,
    FrameTooLarge, MalformedFrame, NotConnected, PeerRefused, PeerTimeout, SendQueueFull,
    TransportError,
)

__all__ = ["Mesh", "open_mesh", "PeerAddress", "DEFAULT_KEEPALIVE", "DEFAULT_PEER_TIMEOUT",
           "DEFAULT_SEND_QUEUE", "OnEvent", "OnCatchup"]

DEFAULT_KEEPALIVE = 2.0          # seconds without sending before a ping
DEFAULT_PEER_TIMEOUT = 10.0      # seconds without receiving before a peer is dropped
DEFAULT_SEND_QUEUE = 1024        # frames queued for one peer before it counts as too slow
_DELIVERY_QUEUE = 65536          # received wires waiting for on_event
_DUPLICATE_RETRIES = 3           # auto-dial retries after losing a tie-break to a stale link

OnEvent = Callable[[bytes, bytes], "Awaitable[None] | None"]
OnCatchup = Callable[[bytes, int], "list[bytes] | Awaitable[list[bytes]]"]


@dataclass(frozen=True, order=True)
class PeerAddress:
    key: bytes
    host: str
    port: int


async def _maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


def _wins(new_dialer: bytes, old_dialer: bytes) -> bool:
    """Tie-break between two connections of one pair (SPEC §28.6): dialed by different
    peers, the one dialed by the lower key wins; dialed by the same peer, the newer wins."""
    return new_dialer < old_dialer if new_dialer != old_dialer else True


@dataclass(eq=False)
class _Conn:
    auth: Authenticated
    host: str | None
    send: trio.MemorySendChannel
    receive: trio.MemoryReceiveChannel
    scope: trio.CancelScope = field(default_factory=trio.CancelScope)
    nursery: trio.Nursery | None = None
    retired: bool = False
    error: TransportError | None = None

    @property
    def key(self) -> bytes:
        return self.auth.peer_key

    @property
    def fs(self) -> FramedStream:
        return self.auth.stream

    @property
    def label(self) -> str | None:
        return self.fs.peer

    def fail(self, error: TransportError) -> None:
        """End this connection because of `error` (first error wins)."""
        if self.error is None:
            self.error = error
        self.scope.cancel()


@dataclass(eq=False)
class _Pending:
    conn: _Conn
    wires: list[bytes] = field(default_factory=list)
    done: trio.Event = field(default_factory=trio.Event)
    error: TransportError | None = None


@dataclass(frozen=True)
class _Retire:
    error: TransportError


class Mesh:
    """One peer's view of the mesh. Start it with `open_mesh(...)` or
    `await nursery.start(mesh.run)`; stop it with `close()`.

    Callbacks: `on_event(peer_key, wire)` (may be async) gets each new event wire once,
    in arrival order, from the peer it first came from; `on_catchup_request(peer_key,
    from_seq)` (may be async) returns the wires to answer a catch-up request with;
    `on_peer_up(peer_key)`, `on_peer_down(peer_key, error)` and `on_refused(error)` are
    plain functions. `allowed_keys(key)` (may be async) admits keys at the handshake."""

    def __init__(self, identity: Identity, game_id: bytes, allowed_keys: AllowedKeys,
                 on_event: OnEvent, *, host: str = "127.0.0.1", port: int = 0, listen: bool = True,
                 on_catchup_request: OnCatchup | None = None,
                 on_peer_up: Callable[[bytes], None] | None = None,
                 on_peer_down: Callable[[bytes, TransportError], None] | None = None,
                 on_refused: Callable[[TransportError], None] | None = None,
                 max_frame: int = DEFAULT_MAX_FRAME, keepalive_interval: float = DEFAULT_KEEPALIVE,
                 peer_timeout: float = DEFAULT_PEER_TIMEOUT,
                 handshake_timeout: float = DEFAULT_HANDSHAKE_TIMEOUT,
                 send_queue: int = DEFAULT_SEND_QUEUE, auto_connect: bool = True) -> None:
        if len(game_id) not in (16, 32):
            raise ValueError("game id must be 16 or 32 bytes")
        if not 0 < keepalive_interval < peer_timeout:
            raise ValueError("need 0 < keepalive_interval < peer_timeout")
        self.identity = identity
        self.game_id = bytes(game_id)
        self.allowed_keys = allowed_keys
        self.on_event = on_event
        self.on_catchup_request = on_catchup_request
        self.on_peer_up = on_peer_up
        self.on_peer_down = on_peer_down
        self.on_refused = on_refused
        self.max_frame = max_frame
        self.keepalive_interval = keepalive_interval
        self.peer_timeout = peer_timeout
        self.handshake_timeout = handshake_timeout
        self.send_queue = send_queue
        self.auto_connect = auto_connect
        self._host, self._port, self._listen = host, port, listen
        self._address: tuple[str, int] | None = None
        self._nursery: trio.Nursery | None = None
        self._closing = False
        self._nonces = NonceCache()
        self._current: dict[bytes, _Conn] = {}
        self._conns: list[_Conn] = []
        self._dialing: set[bytes] = set()
        self._addresses: dict[bytes, PeerAddress] = {}
        self._seen: set[bytes] = set()
        self._pending: dict[int, _Pending] = {}
        self._ids = itertools.count(1)
        self._deliver_send, self._deliver_receive = trio.open_memory_channel[tuple[bytes, bytes]](_DELIVERY_QUEUE)

    # ------------------------------------------------------------------ lifecycle

    @property
    def public_key(self) -> bytes:
        return self.identity.public_key_bytes

    @property
    def address(self) -> tuple[str, int]:
        """(host, port) this mesh listens on; the port is known once running."""
        if self._address is None:
            raise RuntimeError("the mesh is not listening (not started, or listen=False)")
        return self._address

    @property
    def listen_port(self) -> int:
        return self._address[1] if self._address else 0

    async def run(self, *, task_status: trio.TaskStatus = trio.TASK_STATUS_IGNORED) -> None:
        """Listen (unless listen=False) and serve until `close()` or cancellation."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            if self._listen:
                listeners = await trio.open_tcp_listeners(self._port, host=self._host)
                self._address = tuple(listeners[0].socket.getsockname()[:2])
                nursery.start_soon(self._serve, listeners)
            nursery.start_soon(self._deliver_loop)
            task_status.started(self)

    def close(self) -> None:
        """Stop listening and drop every connection (no peer-down reports)."""
        self._closing = True
        if self._nursery is not None:
            self._nursery.cancel_scope.cancel()

    def peer_keys(self) -> list[bytes]:
        """Keys of the peers with a live authenticated connection, sorted."""
        return sorted(self._current)

    def known_peers(self) -> list[PeerAddress]:
        """Every peer address learnt so far (own connections and "peers" messages)."""
        return sorted(self._addresses.values())

    # --------------------------------------------------------------- connecting

    async def _serve(self, listeners: list[trio.SocketListener]) -> None:
        await trio.serve_listeners(self._accept, listeners, handler_nursery=self._nursery)

    async def _accept(self, stream: trio.SocketStream) -> None:
        host = _peer_host(stream)
        fs = FramedStream(stream, max_frame=self.max_frame, peer=f"{host}" if host else None)
        try:
            auth = await handshake(fs, self.identity, self.game_id, role=LISTENER,
                                   allowed_keys=self.allowed_keys, nonces=self._nonces,
                                   listen_port=self.listen_port, admit=self._admit,
                                   timeout=self.handshake_timeout)
        except TransportError as err:
            self._refused(err)
            return
        await self._run_conn(auth, host)

    async def connect(self, host: str, port: int, *, expect_key: bytes | None = None) -> bytes:
        """Dial a peer, authenticate it and add it to the mesh; return its key. Raises
        NotConnected when the address cannot be reached, or the handshake's error
        (PeerRefused when the other side refused; code "duplicate" means it already
        holds a connection with this peer that wins the tie-break)."""
        if self._nursery is None:
            raise RuntimeError("start the mesh before connecting")
        try:
            stream = await trio.open_tcp_stream(host, port)
        except OSError as exc:
            raise NotConnected(f"cannot connect to {host}:{port}: {exc.strerror or exc}",
                               side=REMOTE, peer=f"{host}:{port}") from None
        fs = FramedStream(stream, max_frame=self.max_frame, peer=f"{host}:{port}")
        auth = await handshake(fs, self.identity, self.game_id, role=DIALER,
                               allowed_keys=self.allowed_keys, nonces=self._nonces,
                               listen_port=self.listen_port, expect_key=expect_key,
                               timeout=self.handshake_timeout)
        await self._nursery.start(self._run_conn, auth, _peer_host(stream) or host)
        return auth.peer_key

    def _admit(self, peer_key: bytes, conn_id: bytes) -> TransportError | None:
        old = self._current.get(peer_key)
        if old is not None and not _wins(peer_key, old.auth.dialer_key):
            return DuplicateConnection(
                f"already connected with {fingerprint(self.public_key)} through a connection "
                "that wins the tie-break", side=REMOTE)
        return None

    def _refused(self, err: TransportError) -> None:
        if self.on_refused is not None and not self._closing:
            self.on_refused(err)

    async def _auto_dial(self, addr: PeerAddress) -> None:
        self._dialing.add(addr.key)
        try:
            for _ in range(_DUPLICATE_RETRIES + 1):
                if addr.key in self._current or self._closing:
                    return
                if not await _maybe_await(self.allowed_keys(addr.key)):
                    return
                try:
                    await self.connect(addr.host, addr.port, expect_key=addr.key)
                    return
                except PeerRefused as err:
                    if err.code != "duplicate":
                        self._refused(err)
                        return
                    # the other side still holds a stale connection: wait for it to notice
                    await trio.sleep(self.keepalive_interval)
                except TransportError as err:
                    self._refused(err)
                    return
        finally:
            self._dialing.discard(addr.key)

    # -------------------------------------------------------------- connections

    def _register(self, conn: _Conn) -> bool:
        """Make `conn` the peer's current connection unless one that wins the tie-break
        is already current (SPEC §28.6). Returns True when `conn` is current."""
        old = self._current.get(conn.key)
        if old is not None:
            if not _wins(conn.auth.dialer_key, old.auth.dialer_key):
                self._retire(conn)
                return False
            self._retire(old)
        self._current[conn.key] = conn
        if conn.host and conn.auth.peer_port:
            self._addresses[conn.key] = PeerAddress(conn.key, conn.host, conn.auth.peer_port)
        if old is None and self.on_peer_up is not None:
            self.on_peer_up(conn.key)
        self._enqueue(conn, codec.encode({"t": "peers", "peers": self._peer_list(exclude=conn.key)}))
        mine = self._addresses.get(conn.key)
        if mine is not None:
            entry = codec.encode({"t": "peers", "peers": [_entry(mine)]})
            for other in self._current.values():
                if other is not conn:
                    self._enqueue(other, entry)
        return True

    def _retire(self, conn: _Conn) -> None:
        """Stop sending on a tie-break loser; keep reading it until the peer closes it, so
        no frame already in flight on it is lost."""
        conn.retired = True
        try:
            conn.send.send_nowait(_Retire(DuplicateConnection(
                "a connection between these two peers that wins the tie-break exists", side=LOCAL)))
        except trio.WouldBlock:
            conn.fail(SendQueueFull("send queue full while closing a duplicate connection", peer=conn.label))

    def _peer_list(self, exclude: bytes) -> list[dict[str, Any]]:
        entries = [_entry(self._addresses[k]) for k in sorted(self._current)
                   if k != exclude and k in self._addresses]
        return entries[:messages.MAX_PEERS_LISTED]

    async def _run_conn(self, auth: Authenticated, host: str | None,
                        *, task_status: trio.TaskStatus = trio.TASK_STATUS_IGNORED) -> None:
        send, receive = trio.open_memory_channel[Any](self.send_queue)
        conn = _Conn(auth, host, send, receive)
        self._conns.append(conn)
        try:
            with conn.scope:
                async with trio.open_nursery() as nursery:
                    conn.nursery = nursery
                    self._register(conn)
                    task_status.started()
                    nursery.start_soon(self._guard, conn, self._writer, False)
                    await self._guard(conn, self._reader, True)
        finally:
            await self._finish(conn)

    async def _guard(self, conn: _Conn, loop: Callable[[_Conn], Awaitable[None]], last: bool) -> None:
        try:
            await loop(conn)
        except TransportError as err:
            conn.fail(err)
        if last:
            conn.scope.cancel()

    async def _finish(self, conn: _Conn) -> None:
        self._conns.remove(conn)
        error = conn.error or ConnectionClosed("connection ended", peer=conn.label)
        was_current = self._current.get(conn.key) is conn
        if was_current:
            del self._current[conn.key]
        for rid, pending in list(self._pending.items()):
            if pending.conn is conn and not pending.done.is_set():
                pending.error = error
                pending.done.set()
        if self._closing:
            await conn.fs.aclose()
            return
        if was_current and self.on_peer_down is not None:
            self.on_peer_down(conn.key, error)
        if error.side == REMOTE and not isinstance(error, (ConnectionClosed, PeerRefused)):
            with trio.CancelScope(shield=True):
                await conn.fs.send_error_and_close(error)
        else:
            await conn.fs.aclose()

    async def _writer(self, conn: _Conn) -> None:
        while True:
            with trio.move_on_after(self.keepalive_interval) as idle:
                item = await conn.receive.receive()
            if idle.cancelled_caught:
                await conn.fs.send_message({"t": "ping"})
            elif isinstance(item, _Retire):
                await conn.fs.send_message({"t": "error", "code": item.error.code, "msg": item.error.reason})
                await conn.fs.send_eof()
                return
            else:
                await conn.fs.send_frame(item)

    async def _reader(self, conn: _Conn) -> None:
        while True:
            with trio.move_on_after(self.peer_timeout) as silent:
                msg = await conn.fs.receive_message()
            if silent.cancelled_caught:
                raise PeerTimeout(self.peer_timeout, peer_key=conn.key, peer=conn.label)
            messages.check(msg, peer=conn.label)
            kind = msg["t"]
            if kind == "ping":
                continue
            if kind == "event":
                await self._received_event(conn, msg["wire"])
            elif kind == "peers":
                self._received_peers(msg["peers"])
            elif kind == "since":
                conn.nursery.start_soon(self._guard, conn, _bind(self._answer_since, msg["id"], msg["from"]), False)
            elif kind == "batch":
                self._received_batch(conn, msg)
            elif kind == "error":
                raise PeerRefused(msg["code"], msg["msg"], peer=conn.label)
            else:
                raise MalformedFrame(f'"{kind}" is only valid during the handshake', peer=conn.label)

    # ------------------------------------------------------------------- sending

    def _enqueue(self, conn: _Conn, payload: bytes) -> bool:
        if conn.retired or conn.error is not None:
            return False
        try:
            conn.send.send_nowait(payload)
            return True
        except trio.WouldBlock:
            conn.fail(SendQueueFull(f"{self.send_queue} frames waiting: the peer reads too slowly",
                                    peer=conn.label))
            return False

    def _event_payload(self, wire: bytes) -> bytes:
        wire = bytes(wire)
        parse_event(wire, expected_game=self.game_id)   # never gossip what peers would refuse
        payload = codec.encode({"t": "event", "wire": wire})
        if len(payload) > self.max_frame:
            raise FrameTooLarge(len(payload), self.max_frame, side=LOCAL)
        return payload

    async def broadcast(self, wire: bytes) -> int:
        """Send one of our own event wires to every connected peer (SPEC §28.7). The wire
        must be a valid signed event of this game (else MalformedEvent etc.). It is marked
        seen, so an echo is not delivered back. Returns the number of peers queued to."""
        payload = self._event_payload(wire)
        self._seen.add(event_hash(bytes(wire)))
        sent = sum(self._enqueue(conn, payload) for conn in list(self._current.values()))
        await trio.lowlevel.checkpoint()
        return sent

    async def send_event(self, peer_key: bytes, wire: bytes) -> None:
        """Send an event wire to one peer only (the peers gossip it on)."""
        payload = self._event_payload(wire)
        conn = self._current.get(peer_key)
        if conn is None:
            raise NotConnected(f"no connection with {fingerprint(peer_key)}", side=LOCAL)
        self._seen.add(event_hash(bytes(wire)))
        self._enqueue(conn, payload)
        await trio.lowlevel.checkpoint()

    # ----------------------------------------------------------------- receiving

    async def _received_event(self, conn: _Conn, wire: bytes) -> None:
        digest = event_hash(wire)
        if digest in self._seen:
            return
        try:
            parse_event(wire, expected_game=self.game_id)
        except EventError as exc:
            raise BadEventWire(f"not a valid event of this game: {exc}", peer=conn.label) from None
        self._seen.add(digest)
        payload = codec.encode({"t": "event", "wire": wire})
        for key, other in list(self._current.items()):
            if key != conn.key:
                self._enqueue(other, payload)
        await self._deliver_send.send((conn.key, wire))

    async def _deliver_loop(self) -> None:
        async for peer_key, wire in self._deliver_receive:
            await _maybe_await(self.on_event(peer_key, wire))

    def _received_peers(self, entries: list[dict[str, Any]]) -> None:
        for e in entries:
            addr = PeerAddress(e["key"], e["host"], e["port"])
            if addr.key == self.public_key:
                continue
            self._addresses.setdefault(addr.key, addr)
            if (self.auto_connect and addr.key not in self._current and addr.key not in self._dialing
                    and self._nursery is not None):
                self._nursery.start_soon(self._auto_dial, addr)

    # ------------------------------------------------------------------ catch-up

    async def request_since(self, peer_key: bytes, from_seq: int, *,
                            timeout: float | None = None) -> list[bytes]:
        """Ask one peer for the event wires from height `from_seq` on (SPEC §28.8) and
        return them in the order sent. They are checked as signed events of this game and
        marked seen (so later gossip of them is not delivered again); they are not passed
        to on_event. Raises NotConnected, CatchupTimeout, or the connection's error."""
        conn = self._current.get(peer_key)
        if conn is None:
            raise NotConnected(f"no connection with {fingerprint(peer_key)}", side=LOCAL)
        rid = next(self._ids)
        pending = self._pending[rid] = _Pending(conn)
        try:
            self._enqueue(conn, codec.encode({"t": "since", "id": rid, "from": from_seq}))
            limit = self.peer_timeout if timeout is None else timeout
            with trio.move_on_after(limit) as late:
                await pending.done.wait()
            if late.cancelled_caught:
                raise CatchupTimeout(f"catch-up from seq {from_seq} not answered within {limit:g} s",
                                     peer=conn.label)
        finally:
            del self._pending[rid]
        if pending.error is not None:
            raise pending.error
        self._seen.update(event_hash(w) for w in pending.wires)
        return pending.wires

    def _received_batch(self, conn: _Conn, msg: dict[str, Any]) -> None:
        pending = self._pending.get(msg["id"])
        if pending is None or pending.conn.key != conn.key or pending.done.is_set():
            return  # a late answer to a request that timed out
        for wire in msg["wires"]:
            try:
                parse_event(wire, expected_game=self.game_id)
            except EventError as exc:
                pending.error = BadEventWire(f"catch-up answer holds a bad event: {exc}", peer=conn.label)
                pending.done.set()
                raise pending.error from None
            pending.wires.append(wire)
        if not msg["more"]:
            pending.done.set()

    async def _answer_since(self, conn: _Conn, rid: int, from_seq: int) -> None:
        wires: list[bytes] = []
        if self.on_catchup_request is not None:
            wires = [bytes(w) for w in await _maybe_await(self.on_catchup_request(conn.key, from_seq))]
        batch: list[bytes] = []
        size = 64                                      # map, "t", "id", "more", list header
        for wire in wires:
            cost = len(wire) + 5                       # bin32 header at most
            if batch and size + cost > self.max_frame:
                self._enqueue(conn, codec.encode({"t": "batch", "id": rid, "wires": batch, "more": True}))
                batch, size = [], 64
            if size + cost > self.max_frame:
                raise FrameTooLarge(size + cost, self.max_frame, side=LOCAL, peer=conn.label)
            batch.append(wire)
            size += cost
        self._enqueue(conn, codec.encode({"t": "batch", "id": rid, "wires": batch, "more": False}))


def _bind(fn: Callable[..., Awaitable[None]], *args: Any) -> Callable[[_Conn], Awaitable[None]]:
    return lambda conn: fn(conn, *args)


def _entry(addr: PeerAddress) -> dict[str, Any]:
    return {"key": addr.key, "host": addr.host, "port": addr.port}


def _peer_host(stream: Any) -> str | None:
    try:
        return str(stream.socket.getpeername()[0])
    except (AttributeError, OSError):
        return None


@asynccontextmanager
async def open_mesh(identity: Identity, game_id: bytes, allowed_keys: AllowedKeys,
                    on_event: OnEvent, **options: Any) -> AsyncIterator[Mesh]:
    """`async with open_mesh(...) as mesh:` runs a Mesh for the block's duration."""
    mesh = Mesh(identity, game_id, allowed_keys, on_event, **options)
    async with trio.open_nursery() as nursery:
        await nursery.start(mesh.run)
        try:
            yield mesh
        finally:
            mesh.close()
