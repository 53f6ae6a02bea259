"""The node: its state, its lifecycle and its loop (SPEC §29). Every event that arrives is
checked by the session before it is applied (a rejected one is never logged); events
that arrive early wait in a buffer until their height; whenever this peer owes the next
event it writes it and broadcasts it. The other jobs are mixins, one module each:
presence, the abort and halt duty, catch-up, and the agent's thinking."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

import trio

from protocol.crypto import Identity, fingerprint
from protocol.errors import EventError, ReplayedEvent
from protocol.log import LogWriter, SecretsFile, SignedEvent, parse_event
from protocol.net import Mesh
from protocol.node._catchup import CatchUp
from protocol.node._chat import Chat
from protocol.node._clock_pass import ClockPass
from protocol.node._duty import AbortDuty
from protocol.node._early import EarlyEvents
from protocol.node._lobby import LobbyDoor, LobbyRefused
from protocol.node._notes import Note, NoteKind
from protocol.node._options import NodeOptions, NotInRoster, Timing
from protocol.node._presence import Presence
from protocol.node._takeback import Takebacks
from protocol.node._settle import TAKEN_OVER_KINDS, Settling
from protocol.node._thinking import THOUGHT, Thinking
from protocol.session import (
    Agent, DeckCorrupted, GameRules, NotYourTurn, SessionHalted, SessionPeer, StateHashMismatch,
    creator_key_matches, first_hello_problem,
)
from protocol.session.abort import REFUSE_KIND, is_vote
from protocol.session.chat import is_chat
from protocol.session.takeback import is_takeback_statement
from protocol.session.clock_pass import PASS_KIND, is_pass_vote
from protocol.session.halt import HALT_KIND
from protocol.session import EventKind, Phase

TICK = object()   # put in the inbox once the loop took nothing for a tick: its idle duties are due

__all__ = ["Node", "MAX_BARRED"]

MAX_BARRED = 4   # late events of a seat voted silent, kept in case a refusal releases the vote


class Node(Presence, LobbyDoor, AbortDuty, CatchUp, Thinking, Takebacks, Chat, Settling, ClockPass):
    """Run with `await node.run(task_status=...)` inside a nursery; see cli/netplay/ (host.py, join.py).

    Roles: the creator calls `start(roster)` once the lobby is full; a joiner's session
    is made when the first hello arrives; a resumed peer passes `peer=restore_peer(...)`.
    Callbacks: `on_applied(node, ev, note)` after every accepted event (own ones too;
    `node.catching_up` is true while a catch-up answer is applied); `on_caught_up(node,
    before)` once a catch-up answer moved this peer on from height `before`; `on_note(note)`
    for lobby and fault news, a Note (the command words it: cli/netplay/node_notes.py)."""

    def __init__(self, identity: Identity, rules: GameRules, game: bytes, log_dir: str | Path | None,
                 *, agent: Agent | None = None, options: NodeOptions | None = None,
                 peer: SessionPeer | None = None, config: dict | None = None,
                 on_applied: Callable[["Node", SignedEvent, str], None] | None = None,
                 on_note: Callable[[Note], None] | None = None,
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
        self._inbox_send, self._inbox = trio.open_memory_channel[SignedEvent | bytes](65536)
        # the mesh's readers put each event into the inbox themselves: parsed and checked by
        # the mesh, once (SPEC §28.7), and with no task between them and this node's loop
        self.mesh = Mesh(identity, self.game, self._allowed, None, deliver_to=self._inbox_send, host=self.options.host,
                         port=self.options.port, on_catchup_request=self._on_catchup,
                         on_peer_up=self._on_peer_up, on_peer_down=self._on_peer_down,
                         on_refused=self._on_refused, on_join=self._on_join, keepalive_interval=self.options.keepalive,
                         peer_timeout=self.options.peer_timeout, spectators=self.options.spectators)
        self._early = EarlyEvents()                     # events that arrived before their height
        self._taken_at = 0.0      # trio time the loop last took an item from its inbox (or ticked)
        self._tick_due = False    # a TICK waits in the inbox
        self._progress_at = time.monotonic()
        self._changed = trio.Event()
        self._lobby_full = trio.Event()
        self._nursery: trio.Nursery | None = None
        self._resync_at = 0.0
        # seconds a peer is past a clock its caller keeps (cli: the host's turn clock); such a
        # peer counts as gone for the silent-peer rule (SPEC §29.13-§29.14)
        self.overtime: Callable[[bytes], float] | None = None
        # how the caller names a peer in notes (cli: "green bob"); None or "" falls back to who()
        self.namer: Callable[[bytes], str | None] | None = None
        self._init_presence(resumed=peer is not None)
        self._init_catchup(resumed=peer is not None)
        self._init_lobby()
        self._init_duty()
        self._init_thinking()
        self._init_takebacks()
        self._init_chat()
        self._init_settling()
        self._init_clock_pass()

    # ------------------------------------------------------------------ state
    @property
    def height(self) -> int:
        return 0 if self.session is None else self.session.chain.height

    @property
    def over(self) -> bool:
        s = self.session
        # a peer that holds a refused event stays until the halt naming its author is written
        return s is not None and (s.finished or s.phase in (Phase.ABORTED, Phase.HALTED)
                                  or (s.halted is not None and s.evidence is None))

    @property
    def roster(self) -> list[bytes] | None:
        return None if self.session is None else self.session.roster

    @property
    def dropped_early(self) -> int:
        """Early events the buffer's bounds refused (SPEC §29.4)."""
        return self._early.dropped

    def note(self, note: Note) -> None:
        if self.on_note is not None:
            self.on_note(note)

    async def wait_changed(self) -> None:
        """Return after the next accepted event (or the end of the game)."""
        await self._changed.wait()

    def _bump(self) -> None:
        self._progress_at = time.monotonic()
        self._changed.set()
        self._changed = trio.Event()

    # ------------------------------------------------------------------ lifecycle
    async def run(self, *, task_status: trio.TaskStatus = trio.TASK_STATUS_IGNORED) -> None:
        """Serve the mesh and play until the game ends (finished, aborted or halted);
        then linger briefly so the last wires reach everyone, and close."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            await nursery.start(self.mesh.run)
            task_status.started(self)
            try:
                ticking = trio.CancelScope()
                nursery.start_soon(self._ticker, ticking)
                await self._play()
                ticking.cancel()
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
        self._early.keep_roster(roster, self.height)
        for key in self.mesh.peer_keys():     # admitted in the lobby, but not in the game
            if key not in roster:
                self.mesh.disconnect(key, self._allowed(key))   # GameStarted: in words

    def _close_files(self) -> None:
        s = self.session
        if s is not None:
            for f in (s.log, s.secret_store):
                if f is not None:
                    f.close()

    async def _linger(self) -> None:
        # spectators too (SPEC §29.16): the last events queued for them get written. Events
        # still arriving are taken: a competing end settles (SPEC §29.19); a resumed peer
        # whose log had already ended waits for its first peer, to settle with it.
        while (self.mesh.peer_keys() or self.mesh.spectator_count()
               or (self._resumed and not self._met)):
            self._convict_if_proven()
            while self._outbox:
                await self.mesh.broadcast(self._outbox.pop(0))
            with trio.move_on_after(0.05):
                item = await self._inbox.receive()
                if item is not THOUGHT and item is not TICK:
                    self._feed(item)

    # ------------------------------------------------------------------ the loop
    async def _play(self) -> None:
        while not self.over:
            if self.session is None and self._lobby_refusal is not None:   # the creator said no (§29.2)
                raise LobbyRefused(self._lobby_refusal.reason, self._lobby_refusal.code)
            if self.session is None and self._left_out is not None and not self.mesh.peer_keys():
                raise NotInRoster(f"every peer refused this one ({fingerprint(self.me)}): "
                                  f"{self._left_out.reason}")
            await self._act_while_due()
            if self.over:
                break
            # the next event, or TICK once nothing came for a tick: no timer a wait (SPEC §28.13)
            item = await self._inbox.receive()
            if item is TICK:
                self._tick_due = False
                await self._idle()
                continue
            self._taken_at = trio.current_time()
            if item is not THOUGHT:
                self._feed(item)

    async def _ticker(self, scope: trio.CancelScope) -> None:
        """Put TICK in the inbox each time the loop has taken nothing for a tick (the loop
        then does its idle duties: catch-up, votes, SPEC §29.6-§29.7), until `scope` ends."""
        tick = min(0.25, self.options.resync / 2)
        with scope:
            self._taken_at = trio.current_time()
            while True:
                await trio.sleep_until(self._taken_at + tick)
                now = trio.current_time()
                if now >= self._taken_at + tick:
                    self._taken_at = now   # the next one a tick later, taken or not
                    if not self._tick_due:
                        self._tick_due = True
                        try:
                            self._inbox_send.send_nowait(TICK)
                        except trio.WouldBlock:   # a full inbox: the loop has plenty to take
                            self._tick_due = False

    async def _act_while_due(self) -> None:
        self._convict_if_proven()
        s = self.session
        if s is not None and not self.over:
            self._expire_takeback()
            self._takeback_if_complete()
        while self._outbox:
            await self.mesh.broadcast(self._outbox.pop(0))
        if s is not None and not self.over:
            await self._halt_if_due()
        if s is not None and not self.over:
            await self._abort_if_complete()
        if s is not None and not self.over:
            await self._pass_if_due()   # the seat due is past its turn clock (SPEC §29.20)
        s = self.session
        while s is not None and not self.over:
            kind = s.pending_obligation()
            if kind is None or (kind == EventKind.ACTION and self.agent is None):
                return   # a human seat: submit() writes the action
            if self._asking_first():
                return   # resumed: the others may hold an event of ours the log lost (SPEC §29.21)
            if kind == EventKind.ACTION and self._holding_for_takeback():
                return   # a bot seat that agreed to a takeback waits for it (SPEC §29.17)
            if kind == EventKind.ACTION and self.passing() is not None:
                return   # out of time: the others pass this seat's turn (SPEC §29.20)
            text = None   # the session asks an agent that answers at once (thinks = False) itself
            if kind == EventKind.ACTION and getattr(self.agent, "thinks", True):
                text = self._thought_for(s)
                if text is None:
                    self._start_thinking(s)
                    return   # the agent's answer wakes the loop; the mesh is served meanwhile
            self.timing.signed[s.chain.height] = time.monotonic()
            s.act(text)
            await self._send_own(s)

    async def submit(self, action: str) -> None:
        """A human's action for this peer's seat: written now if it is due (raises the
        session's typed error, e.g. IllegalMove, and changes nothing if refused)."""
        s = self.session
        if s is None or s.pending_obligation() != EventKind.ACTION:
            raise NotYourTurn("no action of this seat is due", seq=self.height, author=self.me)
        if self._thinking is not None:
            raise NotYourTurn("this seat's agent is choosing its action", seq=self.height, author=self.me)
        if self.passing() is not None:
            raise NotYourTurn("your turn clock ran out: the others pass your turn", seq=self.height, author=self.me)
        if self._asking_first():
            raise NotYourTurn("back in the game: first catching up with the others", seq=self.height, author=self.me)
        self.timing.signed[s.chain.height] = time.monotonic()
        s.act(action)
        await self._send_own(s)
        await self._act_while_due()

    async def _send_own(self, s) -> None:
        """Send the event `s` just wrote, to its next author first (SPEC §28.13), then run
        the hooks of an applied event (ballots, the REPL's notes), which nobody waits on."""
        try:
            await self.mesh.broadcast(s.chain.events[-1], first=s.next_author())
        finally:
            self._applied(s.chain.events[-1])

    def _applied(self, ev: SignedEvent) -> None:
        if any(k != self.me and v.body.get("silent") == ev.author for k, v in self.ballot.votes.get(ev.seq, {}).items()):
            self._answer_vote(ev.seq)   # a vote against this event's author arrived before it
        elif self._votes_pass_against(ev):
            self._answer_vote(ev.seq)   # so did a pass vote (SPEC §29.20)
        self.ballot.moved_to(self.height)
        self.pass_ballot.moved_to(self.height)
        self.timing.applied[ev.seq] = time.monotonic()
        self._bump()
        if self.on_applied is not None:
            self.on_applied(self, ev, self.session.notes[-1])
        self._takeback_moved(ev)

    def _feed(self, item: SignedEvent | bytes) -> None:
        """Take one event: a SignedEvent (the mesh's, checked on arrival) is not parsed
        again; wire bytes (tests, a caller's own) are parsed here."""
        try:
            ev = item if isinstance(item, SignedEvent) else parse_event(item, expected_game=self.game)
        except EventError as exc:
            self.rejected.append(exc)
            return
        if is_chat(ev):   # table talk, never a chain event (SPEC §29.18)
            self._on_chat(ev)
            return
        if is_takeback_statement(ev):   # asks and answers about a takeback (SPEC §29.17)
            if self.session is not None:
                self._on_takeback_statement(ev)
            return
        if is_vote(ev):   # a statement about a height, never a chain event (SPEC §29.6)
            if not is_pass_vote(ev):
                self._on_statement(ev)
            if is_pass_vote(ev) or ev.kind == REFUSE_KIND:
                self._on_pass_statement(ev)   # pass votes, and refusals that release them (§29.20)
            return
        if self.session is None:
            if ev.seq != 0:
                self._early.hold(ev, self.height)
                return
            refusal = first_hello_problem(ev, self.creator)
            if refusal is not None:   # a forged lobby: refused, nothing adopted (SPEC §29.2)
                self.rejected.append(refusal)
                self.note(Note(NoteKind.REFUSED, who=refusal.author, seq=refusal.seq, error=refusal))
                return
            self._adopt_game(ev.body.get("rules"))
            self._open_session(list(ev.body["roster"]), dict(ev.body["config"]))
        if ev.kind in TAKEN_OVER_KINDS and ev.seq < self.height:   # an end or forfeit below ours (§29.19, §29.22)
            self._settle(ev)
            return
        if ev.kind == PASS_KIND and ev.seq < self.height and ev.body.get("seat") == self.me:
            self._pass_against_me(ev)
            return
        if ev.seq > self.height:
            self._early.hold(ev, self.height, self.session.roster)
            return
        self._receive(ev)
        while self._early and not self.over:
            waiting = self._early.take(self.height)
            if waiting is None:
                break
            for candidate in waiting:
                if self._receive(candidate):
                    break
        self._early.drop_below(self.height)

    def _receive(self, ev: SignedEvent) -> bool:
        s = self.session
        if s.evidence is not None and s.evidence[0].seq == ev.seq and ev.kind != HALT_KIND:
            return False   # the due author's refused event convicts it: only a halt may follow (§29.10)
        if self.ballot.bars(ev) or self.pass_ballot.bars(ev):   # we voted against its author here (§29.6, §29.20)
            # kept for a release (a refusal, §29.6), within bounds: every such event is the one
            # barred author's at this height, and it could sign endless different ones (§28.12)
            self.barred = [e for e in self.barred if e.seq >= self.height]
            if ev not in self.barred and len(self.barred) < MAX_BARRED:
                self.barred.append(ev)
                self.note(Note(NoteKind.BARRED, who=ev.author, seq=ev.seq))
            return False
        try:
            s.receive(ev)
        except ReplayedEvent:
            return False
        except DeckCorrupted as exc:  # accepted and logged, then the session halted (SPEC §26.4)
            self.rejected.append(exc)
            self.note(Note(NoteKind.HALTED, who=exc.author, seq=exc.seq, error=exc))
            self._applied(ev)
            return True
        except (StateHashMismatch, SessionHalted) as exc:
            self.rejected.append(exc)
            self.note(Note(NoteKind.HALTED, who=exc.author, seq=exc.seq, error=exc))
            self._bump()
            return False
        except EventError as exc:
            self.rejected.append(exc)
            if ev.seq >= self.height - 1:
                self.note(Note(NoteKind.REFUSED, who=exc.author, seq=exc.seq, error=exc))
            return False
        self._applied(ev)
        return True

    async def _idle(self) -> None:
        s = self.session
        now = time.monotonic()
        quiet = now - self._progress_at
        if s is not None and s.next_author() == self.me and not self._asking_first():
            return
        if (quiet >= self.options.resync and now - self._resync_at >= self.options.resync
                and self.mesh.peer_keys()):
            self._resync_at = now
            await self._catch_up()
        await self._duty_when_idle(quiet)
