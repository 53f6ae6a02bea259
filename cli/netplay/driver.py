"""The REPL seat on the network (SPEC §29.5): a SeatDriver whose game runs in a Node, one
driver for every game (through its kit, SPEC §34).

trio runs the peer (mesh, session, log) in a background thread; the prompt_toolkit REPL
runs in the main thread and talks to it only through trio.from_thread, so the session is
touched by one thread alone. The REPL reads snapshots (a clone of the public state and
of this seat's view) taken on the trio thread after every change.
"""
from __future__ import annotations

from copy import deepcopy

import trio

from protocol.errors import ProtocolError

from cli.errors import NotSent
from cli.games import DEFAULT_KEY, GameKit, kit_for
from cli.games.kit import Happened
from cli.games.refusal_words import describe
from cli.netplay.clock_lines import ClockLines
from cli.netplay.peer_names import abort_line
from cli.netplay.table_talk import TableTalk
from cli.netplay.turn_clock import TurnClock
from protocol.session.clock_pass import pass_move

__all__ = ["RecordingRules", "NetDriver", "PeerStopped", "peer_address", "recording_rules"]


class PeerStopped(NotSent):
    """An action could not be sent: the peer stopped or the game moved on (nothing changed)."""


class RecordingRules:
    """A game's session rules that remember every event the session applies (seat, action
    and what the kit says it earned), so the REPL can tell the human what the seats and the
    decks did. Everything else is the kit's own rules'."""

    def __init__(self, kit: GameKit | None = None) -> None:
        self.kit = kit = kit or kit_for(DEFAULT_KEY)
        self.rules = kit.session_rules()
        self.name = self.rules.name
        self.applied: list[Happened] = []

    def __getattr__(self, name: str):
        if name.startswith("__") or name == "rules":   # copy and pickle probe before __init__ ran
            raise AttributeError(name)
        return getattr(self.rules, name)

    def apply_action(self, state, seat: int, action, *more) -> None:
        was = self.kit.before(state)
        self.rules.apply_action(state, seat, action, *more)
        parsed = self.kit.parse_action(action) if isinstance(action, str) else action
        self.applied.append(self.kit.happened(was, state, seat, parsed))


class NetDriver(TableTalk):
    """cli.repl.loop.SeatDriver over a running Node (call only from outside the trio thread)."""

    def __init__(self, node, token, rules: RecordingRules, address: str | None = None) -> None:
        self.node, self.token, self.rules = node, token, rules
        self.kit = rules.kit
        self.address = address          # a peer's HOST:PORT to resume through
        self._sink = None
        self._absent_shown: dict[bytes, bool] = {}
        self._clock_shown = False
        self._clock_out = None
        self._seen = 0
        self._unread: list[Happened] = []   # applied but not yet told (own actions included)
        self._snap = None
        self._refresh()
        s = node.session
        self.seat = s.seat
        names = [s.names[s.roster.index(k)] for k in s.seat_keys]
        self.labels = ["you" if i == self.seat else names[i] for i in range(s.players)]
        self.colours = list(self.kit.seat_colours(s.players))
        self._clock_lines = ClockLines(self.seat)

    def _sync(self, fn, *args):
        return trio.from_thread.run_sync(fn, *args, trio_token=self.token)

    def _take(self):
        s = self.node.session
        return (self.kit.copy_state(s.state), deepcopy(s.view), s.pending_obligation() == "action", self.node.over,
                list(self.rules.applied[self._seen:]))

    def _refresh(self) -> None:
        """A new snapshot; the events applied since the last one wait in `_unread` until
        told, so none is lost to a refresh made for another reason (a submit, the start)."""
        state, view, due, over, new = self._sync(self._take)
        self._snap = (state, view, due, over)
        self._seen += len(new)
        self._unread.extend(new)

    def _told(self) -> list[Happened]:
        told, self._unread = self._unread, []
        return told

    # -- SeatDriver ------------------------------------------------------------------
    def state(self):
        return self._snap[0]

    def view(self):
        return self._snap[1]

    def is_over(self) -> bool:
        return self._snap[3]

    def legal(self) -> list:
        """Legal actions of this seat, once per snapshot (the prompt asks on every redraw)."""
        snap = self._snap
        if getattr(self, "_legal_of", None) is not snap:
            self._legal = self.kit.legal_actions(snap[0], snap[1]) if snap[2] else []
            self._legal_of = snap
        return self._legal

    def submit(self, action) -> None:
        """Check the action on a copy (a kit engine error says why, nothing changes), then
        write it; PeerStopped when it could not be sent."""
        self.kit.apply(self.kit.copy_state(self.state()), self.seat, action)
        try:
            trio.from_thread.run(self.node.submit, action.text(), trio_token=self.token)
        except trio.RunFinishedError:   # the peer stopped (the game ended meanwhile)
            self._snap = (*self._snap[:3], True)
            raise PeerStopped("the game has ended on this peer (see above); nothing was sent") from None
        except ProtocolError as exc:    # e.g. an abort came in just before: not due any more
            raise PeerStopped(describe(exc)) from None   # plain words, no class name (§31.11)
        self._refresh()

    def poll(self) -> list[Happened]:
        """The events applied since the last call, without waiting (the live REPL): this
        seat's own actions too, for the score lines they earn (SPEC §31.3), and on a resume
        the game so far."""
        if not self._finished():
            try:
                self._refresh()
            except trio.RunFinishedError:
                self._snap = (*self._snap[:3], True)
        return self._told()

    def _finished(self) -> bool:
        """The peer's trio run has ended (the game is over, or the peer stopped)."""
        try:
            self._sync(lambda: None)
        except trio.RunFinishedError:
            self._snap = (*self._snap[:3], True)
            return True
        return False

    def attach(self, sink) -> None:
        """Push to `sink` (cli.repl.live.UiSink) from the trio thread: `changed()` after
        every change and once a second; `note(text)` through the Printer's lines."""
        self._sink = sink
        try:
            self._sync(trio.lowlevel.spawn_system_task, self._watch)
        except trio.RunFinishedError:
            sink.changed()

    async def _watch(self) -> None:
        try:
            while not self.node.over:
                with trio.move_on_after(1.0):
                    await self.node.wait_changed()
                self._sink.changed()
                self._show_absent()
                self._show_clock()
        except Exception as exc:  # noqa: BLE001 - a crash here would end the peer's trio run
            self._sink.note(f"(live updates stopped: {type(exc).__name__}: {exc})")
        self._sink.changed()

    def _show_clock(self) -> None:
        """The turn clock's countdown in the toolbar, and one line when it runs out (SPEC §29.14)."""
        clock = self.node.overtime
        ticking = clock.on_clock() if isinstance(clock, TurnClock) else None
        if ticking is None:
            if self._clock_shown:
                self._sink.status("clock", None)
                self._clock_shown = False
            return
        seat, left = ticking
        who = "you" if seat == self.seat else self.colours[seat]
        whole = int(abs(left))
        for line in self._clock_lines.lines(clock, seat, left):   # line mode has no toolbar (§31.12)
            self._sink.note(line)
        if left >= 0:
            self._sink.status("clock", f"{who}: {whole // 60}:{whole % 60:02d} left")
            self._clock_out = None
        else:
            self._sink.status("clock", f"{who}: over time {whole // 60}:{whole % 60:02d}")
            if self._clock_out != (seat, clock.since):
                self._clock_out = (seat, clock.since)
                self._sink.note(self._clock_words(seat, clock))
        self._clock_shown = True

    def _clock_words(self, seat: int, clock: TurnClock) -> str:
        """The one line said when a seat's clock runs out (SPEC §29.14, §29.20): what happens
        next, in words; never that a connected player is gone."""
        you = seat == self.seat
        whose = "your" if you else f"{self.colours[seat]}'s"
        grace = f"{self.node.options.timeout:g} s"
        s = self.node.session
        move = pass_move(s) if clock.passes and s is not None else None
        if move is not None:
            return (f"{whose} turn clock ran out: the others play {move!r} for {'you' if you else 'them'} "
                    "as soon as each has signed it")
        there = " and the game has no pass move here" if clock.passes else ""
        return (f"your turn clock ran out{there}: move within {grace}, or the game is aborted" if you else
                f"{whose} turn clock ran out{there}: if they have not moved within {grace}, the game is aborted")

    def _show_absent(self) -> None:
        """A toolbar item per peer gone (no connection): who, and for how long (SPEC §29.13)."""
        s = self.node.session
        if s is None or s.roster is None:
            return
        for key in s.roster:
            if key == self.node.me:
                continue
            gone = self.node.absent_for(key)
            shown = self._absent_shown.get(key, False)
            if gone >= 1:
                name = self.node.who(key).split(" (")[0]
                self._sink.status(f"gone:{key.hex()}", f"{name} gone {int(gone) // 60}:{int(gone) % 60:02d}")
                self._absent_shown[key] = True
            elif shown:
                self._sink.status(f"gone:{key.hex()}", None)
                self._absent_shown[key] = False

    def end_reason(self) -> str | None:
        """Why an aborted game ended, naming the silent seat by colour and name (issue 8)."""
        s = self.node.session
        clock = self.node.overtime
        cause = clock.abort_cause if isinstance(clock, TurnClock) else None
        return abort_line(s, cause) if s is not None and s.phase == "aborted" else None

    def resume_hint(self) -> str | None:
        """The command that brings this seat back (SPEC §29.7): the log and a peer's address."""
        log = self.node.log_path
        if log is None:
            return None
        address = self.address
        if address is None:
            try:
                address = self._sync(peer_address, None, self.node)
            except trio.RunFinishedError:
                address = None
        return f"asv join {address or 'HOST:PORT'} --resume {log}"

    def wait_for_turn(self) -> list[Happened]:
        while True:
            self._refresh()
            if self._snap[2] or self._snap[3]:
                return self._told()
            trio.from_thread.run(self._wait, trio_token=self.token)

    async def _wait(self) -> None:
        with trio.move_on_after(1.0):       # wake now and then even without events
            await self.node.wait_changed()


def peer_address(args, node) -> str | None:
    """HOST:PORT of another peer of this game, to come back through (SPEC §29.7)."""
    address = getattr(args, "address", None) if args is not None else None
    if address:
        return address.split("/")[0].removeprefix("asv join ").strip()
    try:
        known = node.mesh.known_peers()
    except Exception:  # noqa: BLE001 - no address book: the hint says HOST:PORT
        return None
    return f"{known[0].host}:{known[0].port}" if known else None


def recording_rules(game: GameKit) -> RecordingRules:
    """The REPL's recording rules for `game`."""
    return RecordingRules(game)
