"""The Amazing Space Venture rules engine: pure, deterministic, no I/O, no clock, no randomness."""
