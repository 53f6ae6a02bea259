"""The REPL seat of `asv host` / `asv join` (SPEC §29.5, §31.2): the peer's lobby and game run
in trio on a background thread; once the game starts, the one live REPL runs in the main
thread over the network driver (cli.netplay.driver), for every game."""
from __future__ import annotations

import queue
import sys
import threading

import trio

from cli.errors import UserError
from cli.games import DEFAULT_KEY, game_of, kit_for
from cli.netplay.driver import NetDriver, peer_address, recording_rules
from cli.netplay.error_lines import error_line
from cli.netplay.host import host_game
from cli.netplay.join import join_game
from cli.netplay.outcome import INTERRUPTED, GameOver, exit_code, user_error
from cli.netplay.peer_names import ABORT_NOTE, abort_line
from cli.netplay.printer import Printer
from cli.repl.fullscreen import LiveScreenRepl, wants_screen
from cli.repl.live import LiveRepl, NoteWriter, UiSink
from cli.repl.loop import default_history, use_colour

__all__ = ["play_networked"]

STARTED = ("play", "done", "aborted")


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


def ended_before_seats(node) -> str | None:
    """Why a game ended before its seat draw (an abort: nobody holds a board), or None.
    The REPL needs a board; such a game ends with this line instead (issue 22 item 8)."""
    s = node.session
    if s is None or s.state is not None or s.phase != "aborted":
        return None
    return f"{abort_line(s)}; it ended before the seats were drawn, so nothing was played"


def play_networked(args, *, host: bool, input=None, output=None, history=None, color=None,
                   repl_class=LiveRepl, **repl_options) -> int:
    """`asv host` / `asv join` with a human seat: lobby in trio, then the REPL."""
    rules = recording_rules(game_of(args) if host else kit_for(DEFAULT_KEY))
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
        refused = user_error(error, (UserError,)) if error is not None else None
        if refused is not None:
            raise refused from None      # a refused command line: main() says it
        shown = user_error(error) if error is not None else None
        if error is not None and shown is None:
            raise error                  # a bug
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
    early = ended_before_seats(node)
    if early is not None:                # no board to show: one line and the exit code, no REPL
        worker.join()
        print(f"asv {'host' if host else 'join'}: {early}", file=sys.stderr)
        return exit_code(node)
    printer.out = None                   # from here the REPL tells the story
    driver = NetDriver(node, token, node.rules, address=peer_address(args, None))
    use_color = use_colour(args.no_color) if color is None else color
    if repl_class is LiveRepl and getattr(args, "auto_pass", False):
        repl_options.setdefault("auto_pass", True)
    if repl_class is LiveRepl and wants_screen(args, input, output):
        repl_class = LiveScreenRepl         # the full-screen game screen (SPEC §31.9)
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
            repl.say_command(hint)   # never wrapped, to be copied whole
        try:
            trio.from_thread.run_sync(outcome["scope"].cancel, trio_token=token)
        except trio.RunFinishedError:
            pass
    worker.join()
    s = node.session
    if s is not None and s.finished and node.log_path is not None:
        repl.say(f"log {node.log_path}  ({s.chain.height} events, head {s.chain.head.hex()})")
    elif s is not None and s.phase == "aborted" and driver.end_reason() not in repl.transcript:
        repl.say(driver.end_reason())   # unless the REPL said it already (LiveRepl does, before its last line)
    return exit_code(node)
