"""`asv watch`'s spectator (SPEC §29.16): a read-only peer that joins a running game,
catches up from its first event through a peer, checks every event as it arrives with the
verifier's own replay (protocol.session.LogChecker), and prints the public feed and, at
each new turn, the board as the game's kit draws it. It holds no seat and no key share, so
it sees only what the log shows everyone; it sends nothing but catch-up requests.

It stops when the game ends (finished, aborted, halted), when an event is refused and no
other event takes its height within `grace` seconds (the players' halt would), or when no
peer is left and none answers a catch-up. Its verdict is the one `asv verify` gives on the
events it accepted (with the refused one appended, if that is how it stopped)."""
from __future__ import annotations

from dataclasses import dataclass

import trio

from cli.games import DEFAULT_KEY, kit_for, kit_for_rules
from cli.games.refusal_words import describe
from cli.netplay.invite import Invite
from cli.netplay.printer import Printer
from protocol.crypto import Identity, fingerprint
from protocol.log import SignedEvent
from protocol.net import Mesh, TransportError
from protocol.session import LogChecker, VerifyReport
from protocol.session.chat import ChatBook, is_chat

__all__ = ["Watcher", "MAX_AHEAD", "refused_event_line"]

MAX_AHEAD = 512        # events held past the next height; later ones wait for a catch-up


@dataclass
class WatchTimes:
    grace: float = 15.0        # seconds a refused event waits for the halt that convicts it
    resync: float = 2.0        # seconds without news before asking a peer for what was missed
    idle: float | None = None  # stop after this long without progress (None: while connected)


def refused_event_line(index: int, author: str, exc: BaseException) -> str:
    """`REFUSED at seq N by FINGERPRINT: WORDS: REASON`, the words of the refusal table
    (SPEC §29.16, §31.11), never the error's class name."""
    return f"REFUSED at seq {index} by {author}: {describe(exc)}"


class Watcher:
    def __init__(self, invite: Invite, printer: Printer, *, board: bool = True,
                 times: WatchTimes | None = None) -> None:
        if invite.game is None:
            raise ValueError("a spectator invite names the game's watch id")
        self.invite = invite
        self.printer = printer
        self.board = board
        self.times = times or WatchTimes()
        self.identity = Identity.generate("spectator")
        self.checker: LogChecker | None = None
        self.kit = None
        self._ahead: dict[int, SignedEvent] = {}
        self._turn = 0
        self._chat: ChatBook | None = None
        self._news_send, self._news = trio.open_memory_channel[SignedEvent](4096)
        self.mesh = Mesh(self.identity, invite.game, lambda key: True, self._on_event,
                         listen=False, watching=True)

    @property
    def height(self) -> int:
        return self.checker.fed if self.checker is not None else 0

    async def _on_event(self, peer_key: bytes, ev: SignedEvent) -> None:
        try:
            self._news_send.send_nowait(ev)
        except trio.WouldBlock:   # a burst beyond the queue: a catch-up fills the gap
            pass

    async def run(self) -> VerifyReport:
        """Watch until the game ends (see the module's docstring) and return the verdict.
        Raises the transport's error (or ValueError for a peer that is not the invite's)
        when the invite's peer cannot be watched through."""
        failed: Exception | None = None
        async with trio.open_nursery() as nursery:
            await nursery.start(self.mesh.run)
            try:
                key = await self.mesh.connect(self.invite.host, self.invite.port)
                if self.invite.creator and fingerprint(key) != self.invite.creator:
                    raise ValueError(f"the peer at {self.invite.host}:{self.invite.port} is "
                                     f"{fingerprint(key)}, not {self.invite.creator}")
                await self._watch()
            except (TransportError, ValueError) as exc:   # raised bare, not in the nursery's group
                failed = exc
            finally:
                self.mesh.close()
        if failed is not None:
            raise failed
        return self.verdict()

    def verdict(self) -> VerifyReport:
        if self.checker is None:
            return VerifyReport(True, None, reason="no event arrived")
        self.checker.conclude()
        return self.checker.report()

    async def _watch(self) -> None:
        await self._catch_up()
        quiet_since = trio.current_time()
        held_until: float | None = None    # when a held refusal becomes the verdict
        while not self._over():
            held = self.checker is not None and self.checker.held is not None
            if not held:
                held_until = None
            elif held_until is None:
                held_until = trio.current_time() + self.times.grace
            if held_until is not None and trio.current_time() >= held_until:
                return              # no halt came in time: the refused event is the verdict
            wait = self.times.resync if held_until is None else min(self.times.resync,
                                                                     held_until - trio.current_time())
            with trio.move_on_after(wait) as quiet:
                ev = await self._news.receive()
            before = self.height
            if quiet.cancelled_caught:
                await self._catch_up()      # the halt, if a peer has it and its gossip was lost
                if not self.mesh.peer_keys() and self.height == before:
                    self.printer.say("no peer left to watch")
                    return
            else:
                self._take(ev)
            if self.height > before:
                quiet_since = trio.current_time()
            elif self.times.idle is not None and trio.current_time() - quiet_since > self.times.idle:
                self.printer.say(f"nothing new for {self.times.idle:g} s: stopped watching")
                return

    def _over(self) -> bool:
        return self.checker is not None and self.checker.over

    async def _catch_up(self) -> None:
        """Ask each peer in turn for the events from our height on (SPEC §29.7)."""
        for key in self.mesh.peer_keys():
            try:
                events = await self.mesh.request_since(key, self.height)   # within the peer timeout
            except TransportError:
                continue
            before = self.height
            for ev in events:
                self._take(ev)
            if self.height > before or self._over():
                return

    def _take(self, ev: SignedEvent) -> None:
        if is_chat(ev):
            self._chat_line(ev)
            return
        if self._over() or ev.seq < self.height or ev.seq > self.height + MAX_AHEAD:
            return
        if self.checker is None and not self._start(ev):
            return
        self._ahead.setdefault(ev.seq, ev)
        while self.height in self._ahead and not self._over():
            nxt = self._ahead.pop(self.height)
            if self.checker.feed(nxt.wire, provisional=True):
                self._show(nxt)
            else:
                self._refused(nxt)
                break

    def _start(self, ev: SignedEvent) -> bool:
        """The first event names the game: its id must be the one the watch id names, its
        rules one this program knows (else the verifier's default refuses it)."""
        if ev.seq != 0:
            return False
        try:
            self.mesh.learn_game(ev.game)
        except ValueError as exc:
            self.printer.say(f"refused: {exc}")
            return False
        rules = ev.body.get("rules") if ev.kind == "hello" and isinstance(ev.body, dict) else None
        self.kit = kit_for_rules(rules) if isinstance(rules, str) else None
        self.kit = self.kit or kit_for(DEFAULT_KEY)
        self.checker = LogChecker(self.kit.session_rules(), ev.game)
        self.printer.say(f"watching game {ev.game.hex()} ({self.kit.title})")
        return True

    def _chat_line(self, ev: SignedEvent) -> None:
        """A spectator sees the table talk too (SPEC §29.18), checked as a seat checks it."""
        s = self.checker.session if self.checker is not None else None
        if s is None or not s.seat_keys:
            return
        if self._chat is None:
            self._chat = ChatBook(s.game, set(s.seat_keys))
        now = trio.current_time()
        if self._chat.problem(ev, now) is None:
            self._chat.keep(ev, now)
            name = s.names[s.roster.index(ev.author)] if len(s.names) == len(s.roster) else ""
            self.printer.say(f"chat  {name} ({fingerprint(ev.author)}): {ev.body['text']}")

    def _refused(self, ev: SignedEvent) -> None:
        index, exc = self.checker.held
        self.printer.say(refused_event_line(index, fingerprint(ev.author), exc))
        self.printer.say(f"waiting up to {self.times.grace:g} s for the players' verdict on it")

    def _show(self, ev: SignedEvent) -> None:
        s = self.checker.session
        self.printer.say(f"{ev.seq:5d} {s.notes[-1] if s.notes else ev.kind}")
        if not self.board or s.state is None or s.phase != "play":
            return
        line = self.kit.turn_line(s.state, at_start=True)
        if line is not None and line[0] != self._turn:
            self._turn = line[0]
            self.printer.say(line[1])
            self.printer.say(self.kit.render_board(s.state))
