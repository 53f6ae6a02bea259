"""The table's own options in a game's config, which no engine sees (SPEC §29.14, §29.20):
the turn clock's length (`turn_clock`, whole seconds) and what its end does (`on_clock`:
"pass" or "abort") travel in the config so every peer knows them; each game's session rules
take them out before the engine reads the config."""
from __future__ import annotations

from protocol.session.clock_pass import ON_CLOCK_CHOICES, ON_CLOCK_KEY

__all__ = ["CLOCK_KEY", "ON_CLOCK_KEY", "ON_CLOCK_CHOICES", "MIN_CLOCK", "MAX_CLOCK", "check_clock",
           "check_on_clock", "game_options", "clock_words"]

CLOCK_KEY = "turn_clock"
MIN_CLOCK, MAX_CLOCK = 5, 86400
TABLE_KEYS = (CLOCK_KEY, ON_CLOCK_KEY)


def check_clock(seconds: object) -> int:
    if type(seconds) is not int or not MIN_CLOCK <= seconds <= MAX_CLOCK:
        raise ValueError(f"turn_clock must be whole seconds from {MIN_CLOCK} to {MAX_CLOCK}, not {seconds!r}")
    return seconds


def check_on_clock(choice: object) -> str:
    if choice not in ON_CLOCK_CHOICES:
        raise ValueError(f"on_clock must be one of {', '.join(ON_CLOCK_CHOICES)}, not {choice!r}")
    return str(choice)


def game_options(config: dict) -> dict:
    """The config without the table's own options (checked here), for the engine."""
    if CLOCK_KEY in config:
        check_clock(config[CLOCK_KEY])
    if ON_CLOCK_KEY in config:
        check_on_clock(config[ON_CLOCK_KEY])
        if CLOCK_KEY not in config:
            raise ValueError("on_clock needs a turn_clock")
    return {k: v for k, v in config.items() if k not in TABLE_KEYS}


def clock_words(config: dict) -> str | None:
    """The clock as the lobby shows it (SPEC §29.20): "turn clock 1:30, then the turn
    passes" or "..., then the game is aborted"; None without a clock."""
    seconds = config.get(CLOCK_KEY) if isinstance(config, dict) else None
    if not isinstance(seconds, int):
        return None
    then = "the turn passes" if config.get(ON_CLOCK_KEY) == "pass" else "the game is aborted"
    return f"turn clock {seconds // 60}:{seconds % 60:02d} a turn, then {then}"
