"""A full mesh of authenticated peers over TCP (SPEC §28.5-§28.8).

The mesh moves opaque signed-event wires and a few control messages; it knows nothing
of the game. This module runs the connections (listen, dial, one reader and one writer
task per connection, keepalives, peer timeouts) and dispatches what arrives to its
parts, each in its own module:

    conn          the connection table and the tie-break (§28.6)
    gossip        the seen set and the wire checks before forwarding (§28.7)
    relay         relays owed, delayed until a `have` makes them needless (§28.13)
    catchup       catch-up requests and batched answers (§28.8)
    peers         the address book and `peers` messages (§28.5)

Spectators (SPEC §29.16): a mesh built with `spectators=N` also accepts up to N
read-only connections that present the game's watch id; they are kept apart from the
connection table (never a peer, never announced), get catch-up answers and every new
event, and are dropped the moment they send an event, a batch or addresses. A mesh
built with `watching=True` is such a spectator: its game id is the watch id, and it
learns the real game id from the first event (`learn_game`).
"""
from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from typing import Any

import trio

from protocol import codec

from protocol.net import messages
from protocol.net.framing import DEFAULT_MAX_FRAME, FramedStream
from protocol.net.handshake import (
    DEFAULT_HANDSHAKE_TIMEOUT, DIALER, LISTENER, AllowedKeys, Authenticated, NonceCache, handshake, watch_id,
)
from protocol.crypto import Identity, fingerprint
from protocol.log import SignedEvent
from protocol.net.mesh.catchup import MAX_ANSWER_BYTES, Requests, answer_payloads
from protocol.net.mesh.conn import Conn, ConnTable, EventFrame, Retire, maybe_await, peer_host
from protocol.net.mesh.gossip import Gossip, event_payload
from protocol.net.mesh.peers import AddressBook, PeerAddress
from protocol.net.mesh.relay import Relays, have_payloads
from protocol.net.errors import (
    LOCAL, REMOTE, CannotListen, CatchupTimeout, ConnectionClosed, DuplicateConnection, Flooding,
    MalformedFrame, NotConnected, PeerRefused, PeerTimeout, SendQueueFull, SpectatorSent, SpectatorsFull,
    TransportError,
)

__all__ = ["Mesh", "open_mesh", "PeerAddress", "DEFAULT_KEEPALIVE", "DEFAULT_PEER_TIMEOUT",
           "DEFAULT_SEND_QUEUE", "DEFAULT_RELAY_DELAY", "HAVE_INTERVAL", "MAX_ANSWERS_IN_FLIGHT",
           "MAX_ANSWER_BYTES", "OnEvent", "OnCatchup"]

DEFAULT_KEEPALIVE = 2.0          # seconds without sending before a ping
DEFAULT_PEER_TIMEOUT = 10.0      # seconds without receiving before a peer is dropped
DEFAULT_SEND_QUEUE = 1024        # frames queued for one peer before it counts as too slow
# SPEC §28.13: a relay waits this long for the peer's `have` before it is sent; `have`
# notices go out in batches this often. The delay is what a peer whose direct link to an
# author is down waits for that author's events, on top of the network's own latency.
DEFAULT_RELAY_DELAY = 0.5
HAVE_INTERVAL = 0.1
_DELIVERY_QUEUE = 65536          # received events waiting for on_event
_DUPLICATE_RETRIES = 3           # auto-dial retries after losing a tie-break to a stale link
# Catch-up answers of one connection queued but not yet written. An honest peer has at
# most two requests out at once; each answer may be the whole chain, so a peer flooding
# requests would otherwise make us queue up to send_queue frames of it.
MAX_ANSWERS_IN_FLIGHT = 4
# What a spectator may send (SPEC §29.16): keepalives, catch-up requests, a refusal.
_SPECTATOR_SENDS = frozenset({"ping", "since", "error"})
_PING = codec.encode({"t": "ping"})

OnEvent = Callable[[bytes, SignedEvent], "Awaitable[None] | None"]
OnCatchup = Callable[[bytes, int], "list[bytes] | Awaitable[list[bytes]]"]


class Mesh:
    """One peer's view of the mesh. Start it with `open_mesh(...)` or
    `await nursery.start(mesh.run)`; stop it with `close()`.

    Callbacks: `on_event(peer_key, event)` (may be async) gets each new event once, in
    arrival order, from the peer it first came from, as the SignedEvent the mesh parsed
    and checked (SPEC §28.7: the receiver need not parse or check it again); `on_catchup_request(peer_key,
    from_seq)` (may be async) returns the wires to answer a catch-up request with;
    `on_peer_up(peer_key)`, `on_peer_down(peer_key, error)` and `on_refused(error)` are
    plain functions. `allowed_keys(key)` (may be async) admits keys at the handshake.

    `deliver_to` (a trio memory channel, instead of on_event): each new event is put
    straight into it by the reader that got it, in arrival order, waiting only while it is
    full; without the mesh's own delivery task the event reaches its consumer one turn of
    trio's loop sooner (a turn is a scheduler pass and an epoll call, SPEC §28.13)."""

    def __init__(self, identity: Identity, game_id: bytes, allowed_keys: AllowedKeys,
                 on_event: OnEvent | None, *, host: str = "127.0.0.1", port: int = 0, listen: bool = True,
                 on_catchup_request: OnCatchup | None = None,
                 on_peer_up: Callable[[bytes], None] | None = None,
                 on_peer_down: Callable[[bytes, TransportError], None] | None = None,
                 on_refused: Callable[[TransportError], None] | None = None,
                 on_join: Callable[[bytes, str], None] | None = None,
                 max_frame: int = DEFAULT_MAX_FRAME, keepalive_interval: float = DEFAULT_KEEPALIVE,
                 peer_timeout: float = DEFAULT_PEER_TIMEOUT,
                 handshake_timeout: float = DEFAULT_HANDSHAKE_TIMEOUT,
                 send_queue: int = DEFAULT_SEND_QUEUE, auto_connect: bool = True,
                 spectators: int = 0, watching: bool = False,
                 relay_delay: float = DEFAULT_RELAY_DELAY,
                 deliver_to: trio.MemorySendChannel[SignedEvent] | None = None) -> None:
        if (on_event is None) == (deliver_to is None):
            raise ValueError("give on_event or deliver_to, one of them")
        if len(game_id) not in (16, 32):
            raise ValueError("game id must be 16 or 32 bytes")
        if not 0 < keepalive_interval < peer_timeout:
            raise ValueError("need 0 < keepalive_interval < peer_timeout")
        if not relay_delay >= 0:
            raise ValueError("need relay_delay >= 0")
        self.identity = identity
        self.game_id = bytes(game_id)
        self.allowed_keys = allowed_keys
        self.on_event = on_event
        self._deliver_to = deliver_to
        self.on_catchup_request = on_catchup_request
        self.on_peer_up = on_peer_up
        self.on_peer_down = on_peer_down
        self.on_refused = on_refused
        self.on_join = on_join
        self.max_frame = max_frame
        self.keepalive_interval = keepalive_interval
        self.peer_timeout = peer_timeout
        self.handshake_timeout = handshake_timeout
        self.send_queue = send_queue
        self.auto_connect = auto_connect
        self.spectators = spectators          # bound on read-only connections served (§29.16)
        self.watching = watching
        self._watchers: list[Conn] = []       # the spectators served now
        self._host, self._port, self._listen = host, port, listen
        self._address: tuple[str, int] | None = None
        self._nursery: trio.Nursery | None = None
        self._closing = False
        self._nonces = NonceCache()
        self._table = ConnTable()
        self._dialing: set[bytes] = set()
        self._held: dict[bytes, list[EventFrame]] = {}   # events waiting for a peer's next connection
        self._book = AddressBook(self.public_key)
        # a spectator knows only the watch id until the first event names the game
        self._gossip = Gossip(None if watching else self.game_id, max_frame)
        self._requests = Requests(self._gossip)
        self._relays = Relays(relay_delay)
        self._relay_wake = trio.Event()
        self._deliver_send, self._deliver_receive = trio.open_memory_channel[tuple[bytes, SignedEvent]](
            _DELIVERY_QUEUE)

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

    @property
    def _current(self) -> dict[bytes, Conn]:
        return self._table.current

    @property
    def _conns(self) -> list[Conn]:
        return self._table.all

    async def run(self, *, task_status: trio.TaskStatus = trio.TASK_STATUS_IGNORED) -> None:
        """Listen (unless listen=False) and serve until `close()` or cancellation."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            if self._listen:
                try:
                    listeners = await trio.open_tcp_listeners(self._port, host=self._host)
                except OSError as exc:
                    raise CannotListen(self._host, self._port, exc.strerror or str(exc), exc.errno) from None
                self._address = tuple(listeners[0].socket.getsockname()[:2])
                nursery.start_soon(self._serve, listeners)
            if self._deliver_to is None:
                nursery.start_soon(self._deliver_loop)
            if not self.watching:
                nursery.start_soon(self._relay_loop)
            task_status.started(self)

    def close(self) -> None:
        """Stop listening and drop every connection (no peer-down reports)."""
        self._closing = True
        if self._nursery is not None:
            self._nursery.cancel_scope.cancel()

    def peer_keys(self) -> list[bytes]:
        """Keys of the peers with a live authenticated connection, sorted."""
        return sorted(self._current)

    def spectator_count(self) -> int:
        """How many spectators this mesh serves now (SPEC §29.16)."""
        return len(self._watchers)

    def learn_game(self, game: bytes) -> None:
        """A watching mesh: adopt the game id its first event carries, once it is checked to
        be the one the watch id names (SPEC §29.16); later events must be of that game."""
        if watch_id(game) != self.game_id:
            raise ValueError("the events are of a game the watch id does not name")
        self._gossip.game_id = bytes(game)

    def known_peers(self) -> list[PeerAddress]:
        """Every peer address learnt so far (own connections and "peers" messages)."""
        return self._book.known()

    # --------------------------------------------------------------- connecting

    async def _serve(self, listeners: list[trio.SocketListener]) -> None:
        await trio.serve_listeners(self._accept, listeners, handler_nursery=self._nursery)

    async def _accept(self, stream: trio.SocketStream) -> None:
        host = peer_host(stream)
        fs = FramedStream(stream, max_frame=self.max_frame, peer=f"{host}" if host else None)
        try:
            auth = await handshake(fs, self.identity, self.game_id, role=LISTENER,
                                   allowed_keys=self.allowed_keys, nonces=self._nonces,
                                   listen_port=self.listen_port, admit=self._admit,
                                   admit_spectator=self._admit_spectator if self.spectators > 0 else None,
                                   timeout=self.handshake_timeout)
        except TransportError as err:
            self._refused(err)
            return
        if auth.spectator:   # again, with no wait before it is counted: handshakes overlap
            refusal = self._admit_spectator(auth.peer_key)
            if refusal is not None:
                await fs.send_error_and_close(refusal)
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
        await self._nursery.start(self._run_conn, auth, peer_host(stream) or host)
        return auth.peer_key

    def _admit(self, peer_key: bytes, conn_id: bytes) -> TransportError | None:
        if not self._table.admits(peer_key):
            return DuplicateConnection(
                f"already connected with {fingerprint(self.public_key)} through a connection "
                "that wins the tie-break", side=REMOTE)
        return None

    def _admit_spectator(self, key: bytes) -> TransportError | None:
        if len(self._watchers) >= self.spectators:
            return SpectatorsFull(f"this peer already serves {self.spectators} spectator(s)", side=REMOTE)
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
                verdict = await maybe_await(self.allowed_keys(addr.key))
                if not verdict or isinstance(verdict, TransportError):
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

    def _register(self, conn: Conn) -> bool:
        """Make `conn` the peer's current connection unless one that wins the tie-break
        is already current (SPEC §28.6), and tell peers about each other (§28.5).
        Returns True when `conn` is current."""
        current, loser = self._table.choose(conn)
        if current:
            for frame in self._held.pop(conn.key, []):
                self._enqueue(conn, frame)
        if loser is not None:
            self._retire(loser)
        if not current:
            return False
        mine = self._book.connected(conn.key, conn.host, conn.auth.peer_port)
        if loser is None and self.on_peer_up is not None:
            self.on_peer_up(conn.key)
        if self.watching:      # a spectator sends no addresses: the players would drop it
            return True
        self._enqueue(conn, self._book.list_payload(self._current, exclude=conn.key))
        if mine is not None:
            entry = self._book.announce_payload(mine)
            for other in self._current.values():
                if other is not conn:
                    self._enqueue(other, entry)
        return True

    def _retire(self, conn: Conn) -> None:
        """Stop sending on a tie-break loser; keep reading it until the peer closes it, so
        no frame already in flight on it is lost, but for one peer timeout at most: a peer
        that keeps a retired connection alive (pinging it) cannot pile them up."""
        conn.retired = True
        conn.scope.deadline = min(conn.scope.deadline, trio.current_time() + self.peer_timeout)
        self._hand_over(conn)
        try:
            conn.send.send_nowait(Retire(DuplicateConnection(
                "a connection between these two peers that wins the tie-break exists", side=LOCAL)))
        except trio.WouldBlock:
            conn.fail(SendQueueFull("send queue full while closing a duplicate connection", peer=conn.label))

    def _hand_over(self, conn: Conn) -> None:
        """Move the events not yet written on a tie-break loser to the connection that
        replaces it, or hold them for the peer's next connection if none is current yet
        (the peer refused this one first), so that no queued event is lost with it: gossip
        marked them seen when they were queued and never sends them again (SPEC §28.6)."""
        unsent = conn.take_unsent()
        if not unsent:
            return
        target = self._current.get(conn.key)
        if target is not None and target is not conn:
            for frame in unsent:
                self._enqueue(target, frame)
        else:
            held = self._held.setdefault(conn.key, [])
            held.extend(unsent)
            del held[self.send_queue:]       # bounded like a send queue

    async def _run_conn(self, auth: Authenticated, host: str | None,
                        *, task_status: trio.TaskStatus = trio.TASK_STATUS_IGNORED) -> None:
        send, receive = trio.open_memory_channel[Any](self.send_queue)
        conn = Conn(auth, host, send, receive)
        if auth.spectator:
            self._watchers.append(conn)
        else:
            self._table.add(conn)
        try:
            with conn.scope:
                async with trio.open_nursery() as nursery:
                    conn.nursery = nursery
                    if auth.spectator:   # where the players are, so it can catch up from any
                        self._enqueue(conn, self._book.list_payload(self._current, exclude=conn.key))
                    else:
                        self._register(conn)
                    task_status.started()
                    conn.heard = conn.sent = trio.current_time()
                    nursery.start_soon(self._guard, conn, self._writer, False)
                    nursery.start_soon(self._guard, conn, self._keepalive, False)
                    nursery.start_soon(self._guard, conn, self._watchdog, True)
                    await self._guard(conn, self._reader, True)
        finally:
            await self._finish(conn)

    async def _guard(self, conn: Conn, loop: Callable[[Conn], Awaitable[None]], last: bool) -> None:
        try:
            await loop(conn)
        except TransportError as err:
            conn.fail(err)
        if last:
            conn.scope.cancel()

    async def _finish(self, conn: Conn) -> None:
        if conn.auth.spectator:
            self._watchers.remove(conn)
            was_current = False
        else:
            was_current = self._table.remove(conn)
        if conn.lost_tie_break and not self._closing:
            self._hand_over(conn)
        error = conn.error or ConnectionClosed("connection ended", peer=conn.label)
        self._requests.connection_ended(conn, error)
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

    # The timers are two tasks a connection, not a cancel scope around every frame read
    # and written: entering and leaving one cost about as much as the rest of a small
    # frame's handling (SPEC §28.13).

    async def _keepalive(self, conn: Conn) -> None:
        """A ping once nothing was written for keepalive_interval (SPEC §28.9)."""
        while True:
            await trio.sleep_until(conn.sent + self.keepalive_interval)
            now = trio.current_time()
            if now >= conn.sent + self.keepalive_interval:
                if conn.send.statistics().current_buffer_used == 0:   # else what waits goes first
                    self._enqueue(conn, _PING)
                conn.sent = now   # look again one interval on (a writer stuck in a send: no spin)

    async def _watchdog(self, conn: Conn) -> None:
        """PeerTimeout once nothing was read for peer_timeout (SPEC §28.9)."""
        while True:
            await trio.sleep_until(conn.heard + self.peer_timeout)
            if conn.handling:     # the clock restarts when the reader reads again
                await trio.sleep(self.peer_timeout / 8)
            elif trio.current_time() >= conn.heard + self.peer_timeout:
                raise PeerTimeout(self.peer_timeout, peer_key=conn.key, peer=conn.label)

    async def _writer(self, conn: Conn) -> None:
        while True:
            item = await conn.receive.receive()
            conn.sent = trio.current_time()
            if isinstance(item, trio.Event):
                item.set()                   # everything queued before it is written
            elif isinstance(item, Retire):
                await conn.fs.send_message({"t": "error", "code": item.error.code, "msg": item.error.reason})
                await conn.fs.send_eof()
                return
            elif isinstance(item, EventFrame):
                conn.in_flight = item            # carried over if the tie-break cuts it off
                await conn.fs.send_frame(item.payload)
                conn.in_flight = None
            else:
                await conn.fs.send_frame(item)
            conn.sent = trio.current_time()

    async def _reader(self, conn: Conn) -> None:
        while True:
            conn.heard, conn.handling = trio.current_time(), False
            msg = await conn.fs.receive_message()
            conn.handling = True        # handling a frame is not the peer's silence
            messages.check(msg, peer=conn.label)
            kind = msg["t"]
            if conn.auth.spectator and kind not in _SPECTATOR_SENDS:
                raise SpectatorSent(f'a spectator sent "{kind}"; spectators are read-only', peer=conn.label)
            if kind == "ping":
                continue
            if kind == "event":
                await self._received_event(conn, msg["wire"])
            elif kind == "peers":
                self._received_peers(conn, msg["peers"])
            elif kind == "since":
                # a spectator asks one at a time: each answer may be the whole chain (§29.16)
                limit = 1 if conn.auth.spectator else MAX_ANSWERS_IN_FLIGHT
                if conn.answering >= limit:
                    raise Flooding(f"more than {limit} catch-up request(s) in flight", peer=conn.label)
                conn.answering += 1
                conn.nursery.start_soon(self._guard, conn, _bind(self._answer_since, msg["id"], msg["from"]), False)
            elif kind == "batch":
                self._requests.received_batch(conn, msg)
            elif kind == "have":
                self._relays.has(conn.key, msg["hashes"])
            elif kind == "join":
                if self.on_join is not None:
                    self.on_join(conn.key, msg["creator"])
            elif kind == "error":
                raise PeerRefused(msg["code"], msg["msg"], peer=conn.label)
            else:
                raise MalformedFrame(f'"{kind}" is only valid during the handshake', peer=conn.label)

    # ------------------------------------------------------------------- sending

    def send_join(self, peer_key: bytes, creator: str) -> bool:
        """Ask `peer_key` for a lobby seat, naming the creator as this peer's invite does
        (SPEC §29.2); False when no connection with it is current."""
        conn = self._current.get(peer_key)
        return conn is not None and self._enqueue(conn, codec.encode({"t": "join", "creator": creator}))

    def disconnect(self, peer_key: bytes, error: TransportError) -> None:
        """End every connection with `peer_key` because of `error` (sent to it in an error
        frame when the error blames the peer); reported to on_peer_down as usual."""
        for conn in list(self._conns):
            if conn.key == peer_key:
                conn.fail(error)

    def _enqueue(self, conn: Conn, payload: bytes | EventFrame | trio.Event) -> bool:
        if conn.retired or conn.error is not None:
            if isinstance(payload, EventFrame) and conn.lost_tie_break:
                conn.late.append(payload)    # still current until it ends: hand it over then
            return False
        try:
            conn.send.send_nowait(payload)
            return True
        except trio.WouldBlock:
            conn.fail(SendQueueFull(f"{self.send_queue} frames waiting: the peer reads too slowly",
                                    peer=conn.label))
            return False

    async def broadcast(self, event: SignedEvent | bytes, *, first: bytes | None = None) -> int:
        """Send one of our own events to every connected peer (SPEC §28.7): a SignedEvent
        (as sign_event made it) or its wire bytes, which must be a valid signed event of
        this game (else MalformedEvent etc.). It is marked seen, so an echo is not
        delivered back. Returns the number of peers queued to.

        `first`: the peer that writes the next event (SPEC §28.13). Its writer is let run
        before the others are queued, so the frame the game waits on is written first
        rather than in the scheduler's random order among the writers."""
        payload = EventFrame(self._gossip.outgoing(event))
        self._gossip.mark([event])
        self._implied(event, self._current)
        sent = 0
        lead = self._current.get(first) if first is not None else None
        if lead is not None and self._enqueue(lead, payload):
            sent = 1
            await trio.lowlevel.checkpoint()
        sent += sum(self._enqueue(conn, payload) for key, conn in list(self._current.items())
                    if not (sent and key == first))
        self._to_watchers(payload)
        await trio.lowlevel.checkpoint()
        return sent

    def _implied(self, event: SignedEvent | bytes, keys: Iterable[bytes]) -> None:
        """Our event tells its receivers we have the event its prev names (SPEC §28.13)."""
        if isinstance(event, SignedEvent):
            for key in keys:
                self._relays.implied(key, event.prev)

    def _to_watchers(self, payload: EventFrame) -> None:
        """Queue an event for every spectator; one that reads too slowly is dropped by its
        full queue, never waited for (SPEC §29.16)."""
        for conn in list(self._watchers):
            self._enqueue(conn, payload)

    async def send_event(self, peer_key: bytes, event: SignedEvent | bytes) -> None:
        """Send an event to one peer only (the peers gossip it on)."""
        payload = EventFrame(self._gossip.outgoing(event))
        conn = self._current.get(peer_key)
        if conn is None:
            raise NotConnected(f"no connection with {fingerprint(peer_key)}", side=LOCAL)
        self._gossip.mark([event])
        self._implied(event, [peer_key])
        self._enqueue(conn, payload)
        self._to_watchers(payload)
        await trio.lowlevel.checkpoint()

    # ----------------------------------------------------------------- receiving

    async def _received_event(self, conn: Conn, wire: bytes) -> None:
        ev = self._gossip.incoming(wire, peer=conn.label)
        if ev is None:
            return
        if self.watching:      # a spectator forwards nothing (SPEC §29.16)
            await self._deliver((conn.key, ev))
            return
        payload = EventFrame(event_payload(ev.wire))
        # owed, after the relay delay, to every other peer not known to have it: the
        # sender and the author have it; the others say so with `have` (SPEC §28.13)
        self._relays.has(ev.author, [ev.prev])   # its author built it on that one
        others = [key for key in self._current if key != conn.key and key != ev.author]
        early = self._relays.received(ev.hash, payload, now=trio.current_time(), owe=others, tell=others)
        self._send_relays(early)
        if others:
            self._relay_wake.set()
        self._to_watchers(payload)
        await self._deliver((conn.key, ev))

    async def _deliver(self, item: tuple[bytes, SignedEvent]) -> None:
        """Queue a received event for on_event, or put it into deliver_to. Without a schedule
        point while the queue has room (a frame's read is one already): each hop between
        tasks costs a turn of the loop."""
        channel: trio.MemorySendChannel[Any] = self._deliver_send
        value: Any = item
        if self._deliver_to is not None:
            channel, value = self._deliver_to, item[1]
        try:
            channel.send_nowait(value)
        except trio.WouldBlock:   # full: this reader waits, the others go on
            await channel.send(value)

    def _send_relays(self, relays: list[tuple[bytes, object]]) -> None:
        for key, frame in relays:
            conn = self._current.get(key)
            if conn is not None:      # gone: it catches up when it is back (SPEC §29.7)
                self._enqueue(conn, frame)   # type: ignore[arg-type]

    async def _relay_loop(self) -> None:
        """Every HAVE_INTERVAL while anything is owed or to tell: send the `have`
        notices, then the relays whose delay passed with no `have` (SPEC §28.13)."""
        while True:
            await self._relay_wake.wait()
            await trio.sleep(HAVE_INTERVAL)
            self._relay_wake = trio.Event()
            for key, hashes in self._relays.notices():
                conn = self._current.get(key)
                if conn is not None:
                    for payload in have_payloads(hashes):
                        self._enqueue(conn, payload)
            self._send_relays(self._relays.due(trio.current_time()))
            if self._relays:
                self._relay_wake.set()

    def relay_counts(self) -> dict[str, int]:
        """Relays sent, relays a `have` made needless, and event wires received again
        (dropped by their hash) so far (SPEC §28.13)."""
        return {"relayed": self._relays.relayed, "cancelled": self._relays.cancelled,
                "duplicates": self._gossip.duplicates, "told": self._relays.told}

    async def _deliver_loop(self) -> None:
        assert self.on_event is not None
        async for peer_key, ev in self._deliver_receive:
            await maybe_await(self.on_event(peer_key, ev))

    def _received_peers(self, conn: Conn, entries: list[dict[str, Any]]) -> None:
        for addr in self._book.received(entries, advertised=conn.advertised, peer=conn.label):
            if (self.auto_connect and addr.key not in self._current and addr.key not in self._dialing
                    and self._nursery is not None):
                self._nursery.start_soon(self._auto_dial, addr)

    # ------------------------------------------------------------------ catch-up

    async def request_since(self, peer_key: bytes, from_seq: int, *,
                            timeout: float | None = None) -> list[SignedEvent]:
        """Ask one peer for the events from height `from_seq` on (SPEC §28.8) and return
        them in the order sent, each the SignedEvent of its check on arrival (a signed
        event of this game), marked seen (so later gossip of them is not delivered again);
        they are not passed to on_event. Raises NotConnected, CatchupTimeout, or the
        connection's error."""
        conn = self._current.get(peer_key)
        if conn is None:
            raise NotConnected(f"no connection with {fingerprint(peer_key)}", side=LOCAL)
        rid, pending = self._requests.open(conn)
        try:
            self._enqueue(conn, codec.encode({"t": "since", "id": rid, "from": from_seq}))
            limit = self.peer_timeout if timeout is None else timeout
            with trio.move_on_after(limit) as late:
                await pending.done.wait()
            if late.cancelled_caught:
                raise CatchupTimeout(f"catch-up from seq {from_seq} not answered within {limit:g} s",
                                     peer=conn.label)
        finally:
            self._requests.close(rid)
        if pending.error is not None:
            raise pending.error
        self._gossip.mark(pending.events)
        return pending.events

    async def _answer_since(self, conn: Conn, rid: int, from_seq: int) -> None:
        """Answer one `since`; it counts as in flight until its last batch is written."""
        try:
            wires: list[bytes] = []
            if self.on_catchup_request is not None:
                wires = [bytes(w) for w in await maybe_await(self.on_catchup_request(conn.key, from_seq))]
            for payload in answer_payloads(rid, wires, self.max_frame, peer=conn.label):
                self._enqueue(conn, payload)
            written = trio.Event()
            if self._enqueue(conn, written):
                await written.wait()
        finally:
            conn.answering -= 1


def _bind(fn: Callable[..., Awaitable[None]], *args: Any) -> Callable[[Conn], Awaitable[None]]:
    return lambda conn: fn(conn, *args)


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
