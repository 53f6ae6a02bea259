"""The REPL seat on the network (SPEC §29.5): a SeatDriver whose game runs in a Node.

trio runs the peer (mesh, session, log) in a background thread; the prompt_toolkit REPL
runs in the main thread and talks to it only through trio.from_thread, so the session is
touched by one thread alone. The REPL reads snapshots (a clone of the public state and
of this seat's view) taken on the trio thread after every change.
"""
from __future__ import annotations

import queue
import sys
import threading
from copy import deepcopy

import trio

from p2p_asv.engine import apply, legal_actions
from p2p_asv.errors import EngineError
from protocol.errors import ProtocolError
from p2p_asv.geometry import seat_colours
from p2p_asv.state import CHANCE

from .asv_adapter import AsvRules
from .error_lines import error_line
from .net_peer import INTERRUPTED, GameOver, Printer, exit_code, host_game, join_game, user_error
from .narrate import before, score_lines, settled
from .peer_names import ABORT_NOTE, abort_line
from .turn_clock import TurnClock
from .repl import Happened, default_history, use_colour
from .repl_live import LiveRepl, NoteWriter, UiSink

__all__ = ["RecordingRules", "NetDriver", "play_networked"]

STARTED = ("play", "done", "aborted")


class PeerStopped(EngineError):
    """An action could not be sent: the peer stopped or the game moved on (nothing changed)."""


class RecordingRules(AsvRules):
    """AsvRules that remember every event the session applies (seat, action and the score
    lines it earned), so the REPL can tell the human what the seats and the decks did."""

    def __init__(self) -> None:
        self.applied: list[Happened] = []

    def apply_action(self, state, seat: int, action) -> None:
        action = self.read(action) if isinstance(action, str) else action   # the session passes it read
        was = before(state)
        super().apply_action(state, seat, action)
        self.applied.append(Happened(seat, action, score_lines(was, state, action),
                                     settled(was, state, action, seat)))


class NetDriver:
    """cli.repl.SeatDriver over a running Node (call only from outside the trio thread)."""

    def __init__(self, node, token, rules: RecordingRules, address: str | None = None) -> None:
        self.node, self.token, self.rules = node, token, rules
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
        self.colours = list(seat_colours(s.players))

    def _sync(self, fn, *args):
        return trio.from_thread.run_sync(fn, *args, trio_token=self.token)

    def _take(self):
        s = self.node.session
        return (s.state.clone(), deepcopy(s.view), s.pending_obligation() == "action", self.node.over,
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
            self._legal = legal_actions(snap[0], snap[1]) if snap[2] else []
            self._legal_of = snap
        return self._legal

    def submit(self, action) -> None:
        """Check the action on a copy (EngineError says why, nothing changes), then write it."""
        apply(self.state().clone(), self.seat, action)
        try:
            trio.from_thread.run(self.node.submit, action.text(), trio_token=self.token)
        except trio.RunFinishedError:   # the peer stopped (the game ended meanwhile)
            self._snap = (*self._snap[:3], True)
            raise PeerStopped("the game has ended on this peer (see above); nothing was sent") from None
        except ProtocolError as exc:    # e.g. an abort came in just before: not due any more
            raise PeerStopped(f"not sent: {exc}") from None
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
        """Push to `sink` (cli.repl_live.UiSink) from the trio thread: `changed()` after
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
        if left >= 0:
            self._sink.status("clock", f"{who}: {whole // 60}:{whole % 60:02d} left")
            self._clock_out = None
        else:
            self._sink.status("clock", f"{who}: over time {whole // 60}:{whole % 60:02d}")
            if self._clock_out != (seat, clock.since):
                self._clock_out = (seat, clock.since)
                grace = f"{self.node.options.timeout:g} s"
                self._sink.note(f"your turn clock ran out: move within {grace}, or the game is aborted"
                                if seat == self.seat else
                                f"{self.colours[seat]}'s turn clock ran out: if they have not moved within {grace}, "
                                "the game is aborted as for a peer that left")
        self._clock_shown = True

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
        return abort_line(s) if s is not None and s.phase == "aborted" else None

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


def interrupted(outcome: dict, worker: threading.Thread) -> int:
    """Ctrl-C before the REPL opened: stop the peer (its log keeps what it wrote), say so
    in one line, exit 1 (SPEC §29.6), never a traceback."""
    if "token" in outcome:
        try:
            trio.from_thread.run_sync(outcome["scope"].cancel, trio_token=outcome["token"])
        except trio.RunFinishedError:
            pass
    worker.join(timeout=10)
    print(INTERRUPTED, file=sys.stderr)
    return 1


def recording_rules(game):
    """The REPL's recording rules for `game` (a cli.games.Game)."""
    if game.key == "space-walk":
        from .sw_net import SwRecordingRules
        return SwRecordingRules()
    return RecordingRules()


def play_networked(args, *, host: bool, input=None, output=None, history=None, color=None,
                   repl_class=LiveRepl, **repl_options) -> int:
    """`asv host` / `asv join` with a human seat: lobby in trio, then the REPL."""
    from .games import GAMES, game_of
    rules = recording_rules(game_of(args) if host else GAMES["asv"])
    printer = Printer(turns=False)
    handoff: queue.Queue = queue.Queue()
    outcome: dict = {}

    def ready(node) -> None:
        handoff.put((node, trio.lowlevel.current_trio_token()))

    async def main() -> None:
        with trio.CancelScope() as scope:
            outcome["scope"], outcome["token"] = scope, trio.lowlevel.current_trio_token()
            flow = host_game if host else join_game
            more = {} if host else {"rules_for": recording_rules}   # a joiner learns the game (SPEC §47.7)
            outcome["node"] = await flow(args, printer=printer, ready=ready, rules=rules, **more)

    def thread_main() -> None:
        try:
            trio.run(main)
        except BaseException as exc:  # reported by the main thread
            outcome["error"] = exc
        finally:
            handoff.put(None)

    worker = threading.Thread(target=thread_main, name="asv-peer", daemon=True)
    worker.start()
    try:
        got = handoff.get()
    except KeyboardInterrupt:   # Ctrl-C in the lobby or while waiting for the others (SPEC §29.15)
        return interrupted(outcome, worker)
    if got is None:
        error = outcome.get("error")
        over = user_error(error, (GameOver,)) if error is not None else None
        if over is not None:
            raise over                   # a resumed game that had already ended
        shown = user_error(error) if error is not None else None
        if error is not None and shown is None:
            raise error                  # a bug, or SystemExit with its message
        print(f"asv {'host' if host else 'join'}: "
              f"{error_line(shown) if shown else 'the peer stopped before the game began'}", file=sys.stderr)
        return 1
    node, token = got

    async def started() -> None:
        while node.session is None or node.session.phase not in STARTED:
            await node.wait_changed()

    try:
        trio.from_thread.run(started, trio_token=token)
    except KeyboardInterrupt:
        return interrupted(outcome, worker)
    except (trio.RunFinishedError, trio.Cancelled):
        worker.join()
        error = outcome.get("error")
        known = user_error(error) if error is not None else None
        command = "host" if host else "join"
        print(f"asv {command}: {error_line(known)}" if known is not None else
              f"asv {command}: the peer stopped before the game began: {error}", file=sys.stderr)
        return 1
    printer.out = None                   # from here the REPL tells the story
    if isinstance(node.rules, RecordingRules):
        driver = NetDriver(node, token, node.rules, address=peer_address(args, None))
    else:  # Space Walk: its own driver and (turn-by-turn) REPL (SPEC §48)
        from .sw_net import SwNetDriver
        from .sw_repl import SwRepl
        driver = SwNetDriver(node, token, node.rules, address=peer_address(args, None))
        repl_class = SwRepl if repl_class is LiveRepl else repl_class
    use_color = use_colour(args.no_color) if color is None else color
    if repl_class is LiveRepl and getattr(args, "auto_pass", False):
        repl_options.setdefault("auto_pass", True)
    repl = repl_class(driver, color=use_color, input=input, output=output,
                      history=history or default_history(), **repl_options)
    if isinstance(repl, UiSink):
        printer.out = NoteWriter(repl, hold=(ABORT_NOTE,))   # drops appear above the prompt; the abort once, at the end
    play_networked.last_repl = repl      # for tests: the transcript
    repl.run()
    if not node.over:                    # the human left: stop the peer; its log keeps what it wrote
        hint = driver.resume_hint()
        if hint:
            repl.say("your log keeps every event written so far; come back with:")
            if hasattr(repl, "say_command"):   # never wrapped, to be copied whole
                repl.say_command(hint)
            else:                              # the Space Walk REPL (SPEC §48)
                repl.say(f"  {hint}")
        try:
            trio.from_thread.run_sync(outcome["scope"].cancel, trio_token=token)
        except trio.RunFinishedError:
            pass
    worker.join()
    s = node.session
    if s is not None and s.finished and node.log_path is not None:
        repl.say(f"log {node.log_path}  ({s.chain.height} events, head {s.chain.head.hex()})")
    elif s is not None and s.phase == "aborted" and abort_line(s) not in repl.transcript:
        repl.say(abort_line(s))   # unless the REPL said it already (LiveRepl does, before its last line)
    return exit_code(node)
