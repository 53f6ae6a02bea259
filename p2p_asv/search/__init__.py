"""The information-set Monte Carlo tree search bot (SPEC §12.3)."""
from .bot import DEFAULT_ITERATIONS, DEFAULT_THINK, SearchBot

__all__ = ["DEFAULT_ITERATIONS", "DEFAULT_THINK", "SearchBot"]
