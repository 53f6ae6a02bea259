"""Plain text from styled text, shared by every game's screen and the REPL (SPEC §31.6)."""
from __future__ import annotations

import re

from prompt_toolkit.formatted_text import FormattedText, to_plain_text

__all__ = ["DIM", "plain", "natural_key"]

DIM = "fg:ansibrightblack"   # the style of what matters less (deck operations, empty squares)


def plain(text: FormattedText | str) -> str:
    return to_plain_text(text)


def natural_key(text: str) -> list:
    """Sort key that puts A-2 before A-12 and #9 before #10 (SPEC §31.6)."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]
