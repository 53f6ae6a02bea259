"""Argument types and checks that say what to type instead (a first hour without a
traceback, SPEC §30): port numbers, positive durations and counts, and a folder the
command will write into, checked before any work starts."""
from __future__ import annotations

import argparse
import os
from pathlib import Path

from cli.errors import UserError

__all__ = ["port_number", "positive_seconds", "seconds_from_zero", "at_least_one", "writable_folder"]


def _checked(text: str, parse, fits, wanted: str):
    """`text` parsed by `parse` when it parses and `fits`; otherwise argparse's error, which
    names what to type instead."""
    try:
        value = parse(text)
    except ValueError:
        value = None
    if value is None or not fits(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not {wanted}")
    return value


def port_number(text: str) -> int:
    """A TCP port to listen on: 1-65535, or 0 for any free one."""
    return _checked(text, int, lambda port: 0 <= port <= 65535,
                    "a port: a whole number from 1 to 65535 (or 0, or leave it out, for any free port)")


def positive_seconds(text: str) -> float:
    return _checked(text, float, lambda s: 0 < s < float("inf"),
                    "a number of seconds above 0 (e.g. 120 or 0.5)")


def seconds_from_zero(text: str) -> float:
    return _checked(text, float, lambda s: 0 <= s < float("inf"), "a number of seconds from 0 (e.g. 60)")


def at_least_one(text: str) -> int:
    return _checked(text, int, lambda count: count >= 1, "a whole number from 1")


def writable_folder(path: str | os.PathLike, command: str, option: str) -> Path:
    """Make the folder a command writes into (logs, keys) now, so a bad one is one line at
    the start, never a traceback after a game's first events; raises UserError."""
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".asv-write-test-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise UserError(f"asv {command}: cannot write into {option} {path} ({reason}); "
                         f"give a folder you can write to, e.g. {option} ./asv-logs") from None
    return folder
