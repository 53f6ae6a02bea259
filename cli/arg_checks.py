"""Argument types and checks that say what to type instead (a first hour without a
traceback, SPEC §30): port numbers, positive durations and counts, and a folder the
command will write into, checked before any work starts."""
from __future__ import annotations

import argparse
import os
from pathlib import Path

__all__ = ["port_number", "positive_seconds", "seconds_from_zero", "at_least_one", "writable_folder"]


def port_number(text: str) -> int:
    """A TCP port to listen on: 1-65535, or 0 for any free one."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port: a whole number from 1 to 65535 "
                                         "(or 0, or leave it out, for any free port)")
    return port


def positive_seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0 (e.g. 120 or 0.5)")
    return seconds


def seconds_from_zero(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0 <= seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds from 0 (e.g. 60)")
    return seconds


def at_least_one(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        count = 0
    if count < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 1")
    return count


def writable_folder(path: str | os.PathLike, command: str, option: str) -> Path:
    """Make the folder a command writes into (logs, keys) now, so a bad one is one line at
    the start, never a traceback after a game's first events; raises SystemExit."""
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".asv-write-test-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise SystemExit(f"asv {command}: cannot write into {option} {path} ({reason}); "
                         f"give a folder you can write to, e.g. {option} ./asv-logs") from None
    return folder
