"""What `asv verify`, `asv log` and `asv replay` share (SPEC §27.6-§27.8): reading a log
that may be missing, the exit code for a file that cannot be read, and the players' names."""
from __future__ import annotations

import argparse

from protocol.crypto import fingerprint
from protocol.log.logfile import LOG_MAGIC

# SPEC §27.6: 0 valid and finished, 1 invalid (tampered), 2 valid but unfinished or aborted,
# 3 the file cannot be read at all (missing, no permission, not a log file).
EXIT_UNREADABLE = 3


def unreadable(path, session) -> bool:
    """True when nothing could be checked: the file cannot be opened, or it is not a log
    at all (it does not start with the log magic). A file that starts as a log but whose
    header is damaged was tampered with: that stays INVALID (exit 1)."""
    if session is not None:
        return False
    try:
        with open(path, "rb") as fh:
            return fh.read(len(LOG_MAGIC)) != LOG_MAGIC
    except OSError:
        return True


def other_rules(path) -> str | None:
    """Why a readable log cannot be checked by this program: it names rules (a game or a
    version of one) that this asv does not know (SPEC §27.6, exit 3). None when it can."""
    from cli.games import other_rules_reason, unknown_rules
    name = unknown_rules(path)
    return None if name is None else other_rules_reason(path, name)


def cannot_read(path, reason: str) -> str:
    """The line for a log that cannot be read, naming the file once (the reader's reason
    may name it already)."""
    prefix = f"cannot read {path}: "
    return reason if reason.startswith(prefix) else prefix + reason


def players(session, colours_for) -> list[str]:
    """'blue alice (MFRG-…)' per seat once the seats are drawn, else per lobby place;
    the fingerprint alone when the log carries no name. `colours_for(n)`: the game's seat
    colours (its kit's seat_colours)."""
    if session is None:
        return []
    keys = session.seat_keys or session.roster or []
    colours = colours_for(len(keys)) if session.seat_keys else [None] * len(keys)
    out = []
    for key, colour, name in zip(keys, colours, names_of(session, keys)):
        words = [w for w in (colour, name) if w]
        out.append(f"{' '.join(words)} ({fingerprint(key)})" if words else fingerprint(key))
    return out


def names_of(session, keys: list[bytes]) -> list[str]:
    """The name each key gave in its hello ("" when none)."""
    out = []
    for key in keys:
        index = session.roster.index(key) if session.roster and key in session.roster else None
        out.append(session.names[index] if index is not None and index < len(session.names) else "")
    return out


def seat_names(session) -> list[str]:
    """The name of the player in each seat, once the seats are drawn."""
    return names_of(session, session.seat_keys) if session is not None and session.seat_keys else []


def seq_number(text: str) -> int:
    """argparse type of --to: a height is a whole number from 0."""
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r} is not an event height (a whole number from 0)")
    return int(text)
