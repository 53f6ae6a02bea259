"""How a networked peer ends (SPEC §29.6): the errors a user can cause or fix (one line,
exit 1), a resumed game already over, the exit code of a node, and trio.run for a command."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import trio

from cli.errors import UserError
from cli.netplay.error_lines import error_line
from cli.netplay.regather import NobodyBack
from protocol.crypto import KeyFileError
from protocol.errors import ProtocolError
from protocol.node import Node, NotInRoster, ResumeError


class LeftLobby(Exception):
    """The creator left its lobby (Ctrl-D or quit) before the game started (SPEC §29.2)."""


# Failures a user can cause or fix (unreachable address, port in use, refused key, bad
# log...): reported in one line, exit 1. Anything else is a bug and keeps its traceback.
EXPECTED_ERRORS = (ProtocolError, OSError, ValueError, NotInRoster, ResumeError, KeyFileError, NobodyBack,
                   LeftLobby)
INTERRUPTED = "interrupted; your log keeps every event written so far"


def exit_code(node: Node) -> int:
    """0 finished; 2 aborted (a silent peer was named); 1 anything else."""
    s = node.session
    if s is not None and s.finished:
        return 0
    if s is not None and s.phase == "aborted":
        return 2
    return 1


class GameOver(Exception):
    """--resume of a game whose log already ends (finished or aborted): nothing to join."""

    def __init__(self, peer, log: str) -> None:
        super().__init__(log)
        self.peer, self.log = peer, log


def write_timings(node: Node, path: str | None) -> None:
    if path:
        Path(path).write_text(json.dumps({"signed": node.timing.signed, "applied": node.timing.applied}))


def user_error(exc: BaseException, kinds=EXPECTED_ERRORS) -> BaseException | None:
    """The error of one of `kinds` inside `exc`, looking through trio's exception groups
    (a failure in a nursery arrives wrapped), or None."""
    if isinstance(exc, BaseExceptionGroup):
        for sub in exc.exceptions:
            found = user_error(sub, kinds)
            if found is not None:
                return found
        return None
    return exc if isinstance(exc, kinds) else None


def run_peer(command: str, flow) -> "Node | int":
    """trio.run(flow) for `asv host`/`asv join`: the node, or an exit code after a
    one-line message when the user interrupted (Ctrl-C) or an expected error ended it.
    Every event written so far is already fsynced, so the log stays valid (SPEC §29.7)."""
    try:
        return trio.run(flow)
    except BaseException as exc:
        if user_error(exc, (KeyboardInterrupt,)) is not None:
            print(INTERRUPTED, file=sys.stderr)
            return 1
        over = user_error(exc, (GameOver, UserError))
        if over is not None:
            raise over from None
        err = user_error(exc)
        if err is None:
            raise
        print(f"asv {command}: {error_line(err)}", file=sys.stderr)
        return 1
