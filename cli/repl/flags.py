"""The REPL's command-line switches, apart from the REPL itself: `asv host` and `asv join`
with a bot seat build their parser without importing prompt_toolkit (SPEC §28.13)."""
from __future__ import annotations

import sys

__all__ = ["add_plain", "add_auto_pass", "wants_screen"]


def add_plain(parser) -> None:
    parser.add_argument("--plain", action="store_true",
                        help="line mode: no full-screen game screen (for scripts and screen readers; "
                             "also whenever output is not a terminal)")


def add_auto_pass(parser) -> None:
    """SPEC §31.8: on by default; the same fixed delay for every seat (SPEC §14.2)."""
    parser.add_argument("--auto-pass", dest="auto_pass", action="store_true", default=True,
                        help="answer by itself what has one answer: pass when no card of yours fits, "
                             "next when nothing else is allowed (the default)")
    parser.add_argument("--no-auto-pass", dest="auto_pass", action="store_false",
                        help="type every answer yourself, even a pass that is the only one")


def wants_screen(args, input=None, output=None) -> bool:
    """The full-screen game screen unless --plain, or input or output is not a terminal."""
    return (not getattr(args, "plain", False) and input is None and output is None
            and sys.stdin.isatty() and sys.stdout.isatty())
