"""One peer of a game on the network (SPEC §29): a SessionPeer driven over a Mesh.

Game-agnostic. Every event wire that arrives is checked by the session before it is
applied (a rejected one is never logged); events that arrive early wait in a buffer
until their height; whenever this peer owes the next event it writes it and broadcasts
it. A peer that falls behind (a gap, a reconnect, a resume) asks the others for the
events since its height. If the peer due to write stays silent past the timeout, the
other peers each sign a vote naming it, and the abort carrying every vote ends the game
(SPEC §29.6); a peer that voted never applies the silent peer's late event.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import trio

from protocol.session import (
    Agent, DeckCorrupted, GameRules, NotYourTurn, SessionHalted, SessionPeer, StateHashMismatch,
    creator_key_matches, first_hello_problem,
)
from protocol.session.abort import (ABORT_KIND, REFUSE_KIND, VOTE_BASE, VOTE_KIND, Ballot, abort_writers,
                                    check_abort, is_vote, make_abort, make_refusal, votes_problem)
from protocol.errors import EventError, ReplayedEvent
from protocol.log import LogWriter, SecretsFile, SignedEvent, parse_event, secrets_path
from protocol.crypto import Identity, fingerprint
from protocol.net import KeyNotAllowed, Mesh, PeerRefused, TransportError, plain_reason
from protocol.session.halt import HALT_KIND

__all__ = ["Node", "NodeOptions", "NotInRoster", "ResumeError", "restore_peer", "DEFAULT_TIMEOUT"]

DEFAULT_TIMEOUT = 120.0    # seconds the due peer may stay silent before it is named in an abort
DEFAULT_RESYNC = 2.0       # seconds without progress before asking peers for missed events
DEFAULT_LINGER = 1.0       # seconds to keep serving after the game ends (last wires flush)


_THOUGHT = object()   # put in the inbox when the agent's answer is ready: wakes the loop


class NotInRoster(RuntimeError):
    """The game started with a roster that does not hold this peer's key."""


class ResumeError(RuntimeError):
    """A log or its secrets cannot be used to rejoin the game (the reason says why)."""


# Bounds on events held for a later height (SPEC §29.4): far enough ahead for any honest
# burst, few enough candidates and bytes that a roster peer cannot exhaust memory.
MAX_AHEAD = 4096
MAX_PER_HEIGHT = 4
MAX_BUFFERED_BYTES = 64 << 20


@dataclass
class NodeOptions:
    host: str = "127.0.0.1"
    port: int = 0
    timeout: float = DEFAULT_TIMEOUT
    resync: float = DEFAULT_RESYNC
    linger: float = DEFAULT_LINGER
    keepalive: float = 2.0
    peer_timeout: float = 10.0
    seats: int | None = None          # lobby size; None: fixed by a roster already known


@dataclass
class Timing:
    """When this peer signed or applied each event (time.monotonic(); one clock per host)."""
    signed: dict[int, float] = field(default_factory=dict)
    applied: dict[int, float] = field(default_factory=dict)


def restore_peer(identity: Identity, rules: GameRules, log_path: str | Path,
                 agent: Agent | None = None) -> SessionPeer:
    """Rebuild a peer from its own log and SecretsFile (SPEC §29.7): the secrets it drew
    (seat value, key share, shuffle witnesses) are put back first, then every logged event
    is replayed through the session's ordinary checks; the writers are attached after."""
    if not secrets_path(log_path).exists():
        raise ResumeError(f"{secrets_path(log_path)} is missing: this peer's key share and shuffle "
                          "witnesses are needed to go on")
    log = LogWriter(log_path)
    try:
        secrets = SecretsFile(log_path, log.game)
    except Exception:
        log.close()
        raise
    records, kept = log.records, secrets.merged()
    if not records:
        raise ResumeError(f"{log_path} holds no event yet: join the game afresh")
    first = parse_event(records[0], expected_game=log.game)
    if first.kind != "hello" or "roster" not in first.body:
        raise ResumeError(f"{log_path} does not start with the game's first hello")
    if "seat_value" not in kept or "key" not in kept:
        raise ResumeError(f"{secrets.path} lacks the seat value or key share of this peer")
    peer = SessionPeer(identity, rules, log.game, list(first.body["roster"]), dict(first.body["config"]),
                       agent=agent)
    peer.adopt_secrets(kept)  # the game's secrets are the ones kept on disk
    for wire in records:
        peer.receive(wire)
    peer.log, peer.secret_store = log, secrets
    return peer


class Node:
    """Run with `await node.run(task_status=...)` inside a nursery; see cli/net_peer.py.

    Roles: the creator calls `start(roster)` once the lobby is full; a joiner's session
    is made when the first hello arrives; a resumed peer passes `peer=restore_peer(...)`.
    Callbacks: `on_applied(node, ev, note)` after every accepted event (own ones too;
    `node.catching_up` is true while a catch-up answer is applied); `on_caught_up(node,
    before)` once a catch-up answer moved this peer on from height `before`; `on_note(text)`
    for lobby and fault messages."""

    def __init__(self, identity: Identity, rules: GameRules, game: bytes, log_dir: str | Path | None,
                 *, agent: Agent | None = None, options: NodeOptions | None = None,
                 peer: SessionPeer | None = None, config: dict | None = None,
                 on_applied: Callable[["Node", SignedEvent, str], None] | None = None,
                 on_note: Callable[[str], None] | None = None,
                 make_session: Callable[..., SessionPeer] | None = None,
                 creator: bytes | str | None = None,
                 choose_game: Callable[[str], tuple[GameRules, Agent | None] | None] | None = None) -> None:
        self.identity = identity
        self.me = identity.public_key_bytes
        # Whose first hello fixes the roster (SPEC §29.2): a joiner knows the creator's key
        # or fingerprint from the invite; None means this node is the creator and adopts
        # no roster from anyone.
        self.creator = self.me if creator is None else creator
        self.rules = rules
        self.game = bytes(game)
        self.log_dir = Path(log_dir) if log_dir is not None else None
        self.agent = agent
        self.options = options or NodeOptions()
        self.config = dict(config or {})
        self.on_applied = on_applied
        self.on_note = on_note
        self.on_caught_up: Callable[["Node", int], None] | None = None
        self.catching_up = False   # applying a catch-up answer: events the others wrote earlier
        self.make_session = make_session or SessionPeer
        self.choose_game = choose_game
        self.session: SessionPeer | None = peer
        self.lobby: list[bytes] = [self.me]     # keys in order of arrival (creator's view)
        self.rejected: list[EventError] = []    # events refused (never logged)
        self.timing = Timing()
        self.log_path: Path | None = None if peer is None or peer.log is None else Path(peer.log.path)
        self.mesh = Mesh(identity, self.game, self._allowed, self._on_event, host=self.options.host,
                         port=self.options.port, on_catchup_request=self._on_catchup,
                         on_peer_up=self._on_peer_up, on_peer_down=self._on_peer_down,
                         on_refused=self._on_refused, keepalive_interval=self.options.keepalive,
                         peer_timeout=self.options.peer_timeout)
        self._inbox_send, self._inbox = trio.open_memory_channel[SignedEvent | bytes](65536)
        self._buffer: dict[int, list[SignedEvent]] = {}   # events that arrived early, by seq
        self._buffered_bytes = 0
        self.dropped_early = 0
        self._progress_at = time.monotonic()
        self._changed = trio.Event()
        self._lobby_full = trio.Event()
        self._nursery: trio.Nursery | None = None
        self._resync_at = 0.0
        self._left_out: TransportError | None = None   # refused [key] before we saw the roster
        self.ballot = Ballot()                          # abort votes at this height (SPEC §29.6)
        self.barred: list[SignedEvent] = []             # late events of a peer this one voted silent
        self._outbox: list[bytes] = []                  # refusals (and the events they answer) to send
        self._refused_at: set = set()    # heights whose votes this peer answered; aborts it looked at
        self._down_since: dict[bytes, float] = {}       # peers without a connection, since when
        # a resumed peer waiting for the others to come back casts no vote and says no "back"
        # line meanwhile: nobody is late while everyone has left (SPEC §29.15)
        self.votes_held = False
        # whom this node said it lost (only they are "back") and whom it has met since it started:
        # a resumed peer's first meeting with a seat says "is here" (SPEC §29.13, §29.15)
        self._lost: set[bytes] = set()
        self._met: set[bytes] = set()
        self._resumed = peer is not None
        # seconds a peer is past a clock its caller keeps (cli: the host's turn clock); such a
        # peer counts as gone for the silent-peer rule (SPEC §29.13-§29.14)
        self.overtime: Callable[[bytes], float] | None = None
        # how the caller names a peer in notes (cli: "green bob"); None or "" falls back to who()
        self.namer: Callable[[bytes], str | None] | None = None
        self._thinking: tuple[SessionPeer, int] | None = None      # the agent asked at (session, height)
        self._thought: tuple[SessionPeer, int, str] | None = None  # its answer, not yet written
        self._think_scope = trio.CancelScope()                     # the latest think's, cancelled on stop

    # ------------------------------------------------------------------ state
    @property
    def height(self) -> int:
        return 0 if self.session is None else self.session.chain.height

    @property
    def over(self) -> bool:
        s = self.session
        # a peer that holds a refused event stays until the halt naming its author is written
        return s is not None and (s.finished or s.phase in ("aborted", "halted")
                                  or (s.halted is not None and s.evidence is None))

    @property
    def roster(self) -> list[bytes] | None:
        return None if self.session is None else self.session.roster

    def note(self, text: str) -> None:
        if self.on_note is not None:
            self.on_note(text)

    async def wait_changed(self) -> None:
        """Return after the next accepted event (or the end of the game)."""
        await self._changed.wait()

    def _bump(self) -> None:
        self._progress_at = time.monotonic()
        self._changed.set()
        self._changed = trio.Event()

    # ------------------------------------------------------------------ mesh callbacks
    def _allowed(self, key: bytes) -> bool:
        roster = self.roster
        if roster is not None:
            return key in roster
        seats = self.options.seats
        return seats is None or key in self.lobby or len(self.lobby) < seats

    async def _on_event(self, peer_key: bytes, wire: bytes) -> None:
        await self._inbox_send.send(wire)

    def _on_catchup(self, peer_key: bytes, from_seq: int) -> list[bytes]:
        s = self.session
        if s is None:
            return []
        if s.phase == "aborted" and from_seq >= s.chain.height:
            # the asker may be the peer named silent, holding its own event at that height
            # (SPEC §29.6): it must learn of the abort to drop it
            return [s.chain.events[-1].wire]
        return [ev.wire for ev in s.chain.events[from_seq:]]

    def _on_peer_up(self, key: bytes) -> None:
        if self.roster is None and key not in self.lobby and self.options.seats is not None:
            self.lobby.append(key)
            self.note(f"{self.who(key)} joined ({len(self.lobby)}/{self.options.seats} seats)")
            if len(self.lobby) >= self.options.seats:
                self._lobby_full.set()
        gone = self._down_since.pop(key, None)
        if self.session is not None and self._nursery is not None:
            self._nursery.start_soon(self._catch_up_from, key)
            own = self.ballot.own
            if own is not None and self.ballot.cast[0] == self.height:  # it may have missed our vote
                self._nursery.start_soon(self._send_quietly, key, own.wire)
            if not self.over and not self.votes_held:
                if key in self._lost and gone is not None:
                    self.note(f"{self.who(key)} is back (gone {int(time.monotonic() - gone)} s)")
                elif self._resumed and key not in self._met:   # never lost here: no "back", no "gone 0 s"
                    self.note(f"{self.who(key)} is here")
        self._lost.discard(key)
        self._met.add(key)

    def _on_peer_down(self, key: bytes, error: TransportError) -> None:
        if self.session is None and isinstance(error, PeerRefused) and error.code == "key":
            self._left_out = error
        if self.roster is None and key in self.lobby and self.session is None and self.options.seats:
            self.lobby.remove(key)   # left before the start: the seat is free again
        self._down_since.setdefault(key, time.monotonic())
        if not self.over:
            waits = "" if self.session is None else (
                f" — the game waits: they come back with `asv join --resume LOG` (their log); "
                f"aborted if gone {self.options.timeout:g} s")
            self.note(f"lost {self.who(key)} ({plain_reason(error)}) at {time.strftime('%H:%M:%S')}{waits}")
            self._lost.add(key)

    def who(self, key: bytes) -> str:
        """A peer's display name and fingerprint, as far as this peer knows them; the
        caller's `namer` (cli: seat colour and name) when it knows the peer."""
        named = self.namer(key) if self.namer is not None else None
        if named:
            return named
        s = self.session
        if s is not None and s.roster is not None and key in s.roster and s.roster.index(key) < len(s.names):
            return f"{s.names[s.roster.index(key)]} ({fingerprint(key)})"
        return fingerprint(key)

    def refused_line(self, exc: EventError, what: str = "refused", plain: str = "refused event") -> str:
        """A refused event's note, naming its author as `who` does (SPEC §29.13):
        'refused green bob's event at seq 52: REASON (IllegalMove)'."""
        if getattr(exc, "author", None) is None:
            return f"{plain}: {exc}"
        return f"{what} {self.who(exc.author)}'s event at seq {exc.seq}: {exc.reason} ({type(exc).__name__})"

    def absent_for(self, key: bytes) -> float:
        """Seconds `key` has been gone: no live connection with this peer, so no keepalive
        either; 0 while it is connected, however long it thinks (SPEC §29.13)."""
        if key in self.mesh.peer_keys():
            return 0.0
        return time.monotonic() - self._down_since.setdefault(key, time.monotonic())

    def restart_absence(self) -> None:
        """Count every roster peer not connected now as gone from now: the end of a wait in
        which nobody could be late (SPEC §29.15) gives each the whole timeout afresh."""
        now, here = time.monotonic(), set(self.mesh.peer_keys())
        for key in self.roster or []:
            if key != self.me and key not in here:
                self._down_since[key] = now

    def _on_refused(self, error: TransportError) -> None:
        self.note(f"refused a connection: {error}")

    # ------------------------------------------------------------------ lifecycle
    async def run(self, *, task_status: trio.TaskStatus = trio.TASK_STATUS_IGNORED) -> None:
        """Serve the mesh and play until the game ends (finished, aborted or halted);
        then linger briefly so the last wires reach everyone, and close."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            await nursery.start(self.mesh.run)
            task_status.started(self)
            try:
                await self._play()
                with trio.move_on_after(self.options.linger):
                    await self._linger()
            finally:
                self._think_scope.cancel()   # the worker thread finishes alone; its answer is dropped
                self.mesh.close()
                self._close_files()

    async def connect(self, host: str, port: int) -> bytes:
        return await self.mesh.connect(host, port)

    async def wait_lobby_full(self) -> list[bytes]:
        await self._lobby_full.wait()
        return list(self.lobby)

    def start(self, roster: list[bytes] | None = None) -> None:
        """Creator: fix the roster (lobby order, own key first) and write the first hello
        on the next turn of the loop; after that the creator is one peer among equals."""
        if self.session is not None:
            raise RuntimeError("the game has started")
        roster = list(roster or self.lobby)
        if not creator_key_matches(self.creator, self.me):
            raise RuntimeError("only the creator named in the invite writes the first hello")
        if roster[0] != self.me:
            raise ValueError("the creator's key comes first in the roster")
        self._open_session(roster, self.config)
        self._changed.set()

    def _adopt_game(self, name) -> None:
        """A joiner need not know the game in advance (SPEC §47.7): `choose_game(name)` gives
        the rules and agent for the first hello's rules name, or None to keep this node's own
        (the session then refuses a game other than its own, as without the hook)."""
        if self.choose_game is None or not isinstance(name, str) or name == self.rules.name:
            return
        chosen = self.choose_game(name)
        if chosen is not None:
            self.rules, self.agent = chosen

    def _open_session(self, roster: list[bytes], config: dict) -> None:
        if self.me not in roster:
            raise NotInRoster("the game started with a roster that does not hold this peer's key "
                              f"({fingerprint(self.me)})")
        log = secrets = None
        if self.log_dir is not None:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            self.log_path = self.log_dir / f"{self.game.hex()[:12]}-{fingerprint(self.me)}.asvlog"
            log, secrets = LogWriter(self.log_path, self.game), SecretsFile(self.log_path, self.game)
        self.session = self.make_session(self.identity, self.rules, self.game, roster, config,
                                         log=log, secrets=secrets, agent=self.agent)
        for key in self.mesh.peer_keys():     # admitted in the lobby, but not in the game
            if key not in roster:
                self.mesh.disconnect(key, KeyNotAllowed(f"key {fingerprint(key)} is not in the game's roster",
                                                        peer=fingerprint(key)))

    def _close_files(self) -> None:
        s = self.session
        if s is not None:
            for f in (s.log, s.secret_store):
                if f is not None:
                    f.close()

    async def _linger(self) -> None:
        while self.mesh.peer_keys():
            await trio.sleep(0.05)

    # ------------------------------------------------------------------ the loop
    async def _play(self) -> None:
        tick = min(0.25, self.options.resync / 2)
        while not self.over:
            if self.session is None and self._left_out is not None and not self.mesh.peer_keys():
                raise NotInRoster(f"every peer refused this one ({fingerprint(self.me)}): "
                                  f"{self._left_out.reason}")
            await self._act_while_due()
            if self.over:
                break
            with trio.move_on_after(tick):
                item = await self._inbox.receive()
                if item is not _THOUGHT:
                    self._feed(item)
                continue
            await self._idle()

    async def _act_while_due(self) -> None:
        s = self.session
        while self._outbox:
            await self.mesh.broadcast(self._outbox.pop(0))
        if s is not None and not self.over:
            await self._halt_if_due()
        if s is not None and not self.over:
            await self._abort_if_complete()
        while s is not None and not self.over:
            kind = s.pending_obligation()
            if kind is None or (kind == "action" and self.agent is None):
                return   # a human seat: submit() writes the action
            text = None   # the session asks an agent that answers at once (thinks = False) itself
            if kind == "action" and getattr(self.agent, "thinks", True):
                text = self._thought_for(s)
                if text is None:
                    self._start_thinking(s)
                    return   # the agent's answer wakes the loop; the mesh is served meanwhile
            self.timing.signed[s.chain.height] = time.monotonic()
            wire = s.act(text)
            self._applied(s.chain.events[-1])
            await self.mesh.broadcast(wire)

    # ------------------------------------------------------------------ the agent thinks
    # An agent may think for seconds (the search bot: 1 s a decision, SPEC §12.3). Unless it
    # says it answers at once (`thinks = False`: greedy, random), it runs in a worker thread so
    # that this peer, and every other task of the process (keepalives, other peers' events and
    # votes, catch-up answers, the REPL, in-process bot peers), goes on.
    # What it reads cannot change meanwhile: while this peer owes the action, the only events
    # another peer can have accepted at this height are an abort or a halt, which touch neither
    # the game state nor the view (and end the game); submit() refuses while it thinks. Its
    # answer is used only for the session and height it was asked about.
    def _start_thinking(self, s: SessionPeer) -> None:
        if self._thinking is None:   # one at a time; a stale answer is dropped when it comes
            self._thinking = (s, s.chain.height)
            self._think_scope = trio.CancelScope()
            self._nursery.start_soon(self._think, s, s.chain.height, self._think_scope)

    async def _think(self, s: SessionPeer, height: int, scope: trio.CancelScope) -> None:
        with scope:
            try:
                text = await trio.to_thread.run_sync(self.agent, s.state, s.view, abandon_on_cancel=True)
            finally:
                self._thinking = None
            self._thought = (s, height, text)
            await self._inbox_send.send(_THOUGHT)

    def _thought_for(self, s: SessionPeer) -> str | None:
        thought, self._thought = self._thought, None
        if thought is not None and thought[0] is s and thought[1] == s.chain.height:
            return thought[2]
        return None

    @property
    def thinking(self) -> bool:
        """True while this peer's agent is choosing its action in a worker thread."""
        return self._thinking is not None

    async def submit(self, action: str) -> None:
        """A human's action for this peer's seat: written now if it is due (raises the
        session's typed error, e.g. IllegalMove, and changes nothing if refused)."""
        s = self.session
        if s is None or s.pending_obligation() != "action":
            raise NotYourTurn("no action of this seat is due", seq=self.height, author=self.me)
        if self._thinking is not None:
            raise NotYourTurn("this seat's agent is choosing its action", seq=self.height, author=self.me)
        self.timing.signed[s.chain.height] = time.monotonic()
        wire = s.act(action)
        self._applied(s.chain.events[-1])
        await self.mesh.broadcast(wire)
        await self._act_while_due()

    def _applied(self, ev: SignedEvent) -> None:
        if any(k != self.me and v.body.get("silent") == ev.author for k, v in self.ballot.votes.get(ev.seq, {}).items()):
            self._answer_vote(ev.seq)   # a vote against this event's author arrived before it
        self.ballot.moved_to(self.height)
        self.timing.applied[ev.seq] = time.monotonic()
        self._bump()
        if self.on_applied is not None:
            self.on_applied(self, ev, self.session.notes[-1])

    def _hold(self, ev: SignedEvent) -> None:
        """Keep an event that arrived early, within bounds: a roster peer could otherwise sign
        endless future events and fill this peer's memory (SPEC §29.4)."""
        held = self._buffer.get(ev.seq, [])
        if ev in held:
            return
        if (ev.seq > self.height + MAX_AHEAD or len(held) >= MAX_PER_HEIGHT
                or self._buffered_bytes + len(ev.wire) > MAX_BUFFERED_BYTES):
            self.dropped_early += 1  # a later catch-up fetches it again if it was honest
            return
        self._buffer[ev.seq] = held + [ev]
        self._buffered_bytes += len(ev.wire)

    def _feed(self, item: SignedEvent | bytes) -> None:
        try:
            ev = item if isinstance(item, SignedEvent) else parse_event(item, expected_game=self.game)
        except EventError as exc:
            self.rejected.append(exc)
            return
        if is_vote(ev):   # a statement about a height, never a chain event (SPEC §29.6)
            self._on_statement(ev)
            return
        if self.session is None:
            if ev.seq != 0:
                self._hold(ev)
                return
            refusal = first_hello_problem(ev, self.creator)
            if refusal is not None:   # a forged lobby: refused, nothing adopted (SPEC §29.2)
                self.rejected.append(refusal)
                self.note(self.refused_line(refusal))
                return
            self._adopt_game(ev.body.get("rules"))
            self._open_session(list(ev.body["roster"]), dict(ev.body["config"]))
        if ev.kind == ABORT_KIND and ev.seq < self.height and ev.body.get("silent") == self.me:
            self._abort_against_me(ev)
            return
        if ev.seq > self.height:
            self._hold(ev)
            return
        self._receive(ev)
        while self._buffer and not self.over:
            waiting = self._buffer.pop(self.height, None)
            if waiting is None:
                break
            self._buffered_bytes -= sum(len(c.wire) for c in waiting)
            for candidate in waiting:
                if self._receive(candidate):
                    break
        for seq in [q for q in self._buffer if q < self.height]:
            self._buffered_bytes -= sum(len(c.wire) for c in self._buffer.pop(seq))

    def _receive(self, ev: SignedEvent) -> bool:
        s = self.session
        if s.evidence is not None and s.evidence[0].seq == ev.seq and ev.kind != HALT_KIND:
            return False   # the due author's refused event convicts it: only a halt may follow (§29.10)
        if self.ballot.bars(ev):   # we voted its author silent here: never apply both (SPEC §29.6)
            if ev not in self.barred:
                self.barred.append(ev)
                self.note(f"late event of {self.who(ev.author)} at seq {ev.seq} not applied: "
                          "this peer voted it silent")
            return False
        try:
            s.receive(ev)
        except ReplayedEvent:
            return False
        except DeckCorrupted as exc:  # accepted and logged, then the session halted (SPEC §26.4)
            self.rejected.append(exc)
            self.note(self.refused_line(exc, "session halted at", "session halted"))
            self._applied(ev)
            return True
        except (StateHashMismatch, SessionHalted) as exc:
            self.rejected.append(exc)
            self.note(self.refused_line(exc, "session halted at", "session halted"))
            self._bump()
            return False
        except EventError as exc:
            self.rejected.append(exc)
            if ev.seq >= self.height - 1:
                self.note(self.refused_line(exc))
            return False
        self._applied(ev)
        return True

    # ------------------------------------------------------------------ faults
    async def _idle(self) -> None:
        s = self.session
        now = time.monotonic()
        quiet = now - self._progress_at
        if s is not None and s.next_author() == self.me:
            return
        if (quiet >= self.options.resync and now - self._resync_at >= self.options.resync
                and self.mesh.peer_keys()):
            self._resync_at = now
            await self._catch_up()
        s = self.session
        if s is not None and not self.over:
            await self._halt_if_due()
        if s is None or s.next_author() in (None, self.me) or self.over or s.halted is not None:
            return
        due = s.next_author()
        # thinking is not leaving (SPEC §29.13): vote only against a peer both silent and gone
        # (no connection, so no keepalive; or past the turn clock, §29.14) for the timeout
        gone = max(self.absent_for(due), self.overtime(due) if self.overtime is not None else 0.0)
        if (min(quiet, gone) >= self.options.timeout and self.ballot.cast != (self.height, due)
                and not self.votes_held):
            await self.vote_silent()
        await self._abort_if_complete()

    # ------------------------------------------------------------------ co-signed aborts
    async def vote_silent(self) -> bool:
        """Sign and send this peer's vote that the peer due at this height is silent (SPEC
        §29.6). Only while another peer is due and this one has applied nothing of it at
        this height; from then on this peer never applies that peer's event at this height.
        The abort takes effect once every seat but the silent one has voted. Returns True
        if a vote was sent (the node's own timeout calls this; so may a keepalive policy)."""
        s = self.session
        if s is None or self.over or s.roster is None or s.next_author() in (None, self.me):
            return False
        if self.ballot.cast == (self.height, s.next_author()):
            return False
        vote = self.ballot.vote(self.identity, s)
        self.note(f"voted {self.who(s.next_author())} silent at seq {self.height}")
        await self.mesh.broadcast(vote.wire)
        return True

    async def _halt_if_due(self) -> None:
        """The due author signed an event this peer had to refuse for what it says: write the
        halt carrying it (SPEC §29.10). The first peer after the culprit in lobby order writes
        at once, the k-th after (k + 1) timeouts without a halt arriving."""
        s = self.session
        if s.evidence is None or s.phase == "halted" or s.evidence[0].seq != s.chain.height:
            return
        culprit = s.evidence[0].author
        k = abort_writers(s.roster, culprit).index(self.me)
        if k > 0 and time.monotonic() - self._progress_at < self.options.timeout * (k + 1):
            return
        wire = s.write_halt()
        self.note(s.notes[-1])
        self._applied(s.chain.events[-1])
        await self.mesh.broadcast(wire)

    async def _abort_if_complete(self) -> None:
        """Write the abort once every other seat's vote is in: the first writer after the
        silent peer at once, the k-th after (k + 1) timeouts of silence (SPEC §29.6)."""
        s = self.session
        votes = self.ballot.complete(s) if s.roster is not None and s.next_author() not in (None, self.me) else None
        if votes is None:
            return
        k = abort_writers(s.roster, s.next_author()).index(self.me)
        if k > 0 and time.monotonic() - self._progress_at < self.options.timeout * (k + 1):
            return
        ev = make_abort(self.identity, s, votes)
        s.receive(ev)
        self.note(s.notes[-1])
        self._applied(ev)
        await self.mesh.broadcast(ev.wire)

    def _on_statement(self, ev: SignedEvent) -> None:
        """A vote or a refusal about some height (SPEC §29.6)."""
        s = self.session
        if s is None or s.roster is None or ev.author not in s.roster:
            return
        h = ev.seq - VOTE_BASE
        if ev.kind == REFUSE_KIND:
            if self.ballot.released_by(ev, self.me):
                self.note(f"{self.who(ev.author)} applied the event this peer voted silent at seq {h}; "
                          "vote withdrawn")
                for late in [e for e in self.barred if e.seq == h]:
                    self.barred.remove(late)
                    self._feed(late)
            return
        if ev.kind != VOTE_KIND:
            return
        if h < self.height:
            if ev.body.get("silent") == s.chain.events[h].author and ev.author != self.me:
                self._answer_vote(h)
            return
        self.ballot.add(ev, s.roster, self.height)

    def _answer_vote(self, h: int) -> None:
        """Someone voted silent the author of the event we applied at height h: tell it the
        abort cannot complete (we never vote there), and hand it the event (SPEC §29.6)."""
        late = self.session.chain.events[h]
        if late.author != self.me and late.kind != ABORT_KIND and h not in self._refused_at:
            self._refused_at.add(h)
            self._outbox += [make_refusal(self.identity, self.session, h).wire, late.wire]

    def _abort_against_me(self, ev: SignedEvent) -> None:
        """An abort naming this peer silent at a height where it holds its own event: if every
        other seat co-signed it, none of them applied that event (nor any later one of ours,
        which builds on it), so this peer drops its events from that height and takes the
        abort, and all logs end at one head (SPEC §29.6)."""
        s, h = self.session, ev.seq
        if s.chain.events[h].author != self.me or s.chain.events[h] == ev or ev.hash in self._refused_at:
            return
        self._refused_at.add(ev.hash)   # looked at once: replaying the game is not cheap
        votes = ev.body.get("votes")
        if (ev.prev != s.chain.events[h].prev or not isinstance(votes, list)
                or votes_problem(s.roster, self.game, h, ev.prev, self.me, votes) is not None):
            return
        earlier = s.rewound(h)
        try:
            check_abort(earlier, ev)
        except EventError as exc:
            self.rejected.append(exc)
            return
        if s.log is not None:
            s.log.truncate(h)
        earlier.log, earlier.secret_store = s.log, s.secret_store
        earlier.receive(ev)
        self.session = earlier
        self.note(f"{earlier.notes[-1]}; this peer's {s.chain.height - h} event(s) from seq {h} reached nobody "
                  "and are dropped")
        self._applied(ev)

    async def _send_quietly(self, key: bytes, wire: bytes) -> None:
        try:
            await self.mesh.send_event(key, wire)
        except TransportError:
            pass

    async def _catch_up(self) -> None:
        for key in self.mesh.peer_keys():
            before = self.height
            await self._catch_up_from(key)
            if self.height > before or self.over:
                return

    async def _catch_up_from(self, key: bytes) -> None:
        try:
            wires = await self.mesh.request_since(key, self.height, timeout=self.options.resync * 2)
        except TransportError:
            return
        before = self.height
        self.catching_up = True
        try:
            for wire in wires:
                self._feed(wire)
        finally:
            self.catching_up = False
        if self.height > before and self.on_caught_up is not None:
            self.on_caught_up(self, before)
