"""The table's own options in a game's config, which no engine sees (SPEC §29.14): the turn
clock's length travels in the config (`turn_clock`, whole seconds) so every peer knows it;
each game's session rules take it out before the engine reads the config."""
from __future__ import annotations

__all__ = ["CLOCK_KEY", "MIN_CLOCK", "MAX_CLOCK", "check_clock", "game_options"]

CLOCK_KEY = "turn_clock"
MIN_CLOCK, MAX_CLOCK = 5, 86400


def check_clock(seconds: object) -> int:
    if type(seconds) is not int or not MIN_CLOCK <= seconds <= MAX_CLOCK:
        raise ValueError(f"turn_clock must be whole seconds from {MIN_CLOCK} to {MAX_CLOCK}, not {seconds!r}")
    return seconds


def game_options(config: dict) -> dict:
    """The config without the table's own options (checked here), for the engine."""
    if CLOCK_KEY in config:
        check_clock(config[CLOCK_KEY])
        config = {k: v for k, v in config.items() if k != CLOCK_KEY}
    return config
