"""A fast, portable random source for the search bot's simulations (SPEC §12.3).

SplitMix64 on Python integers: the same seed gives the same numbers on every platform and
under any PYTHONHASHSEED. It is much cheaper per number than SeededRandom's SHA-256, which
matters inside thousands of playouts; the seed itself comes from SeededRandom.
"""
from __future__ import annotations

from ..seeded import SeededRandom

_MASK = (1 << 64) - 1


class FastRandom:
    __slots__ = ("_x",)

    def __init__(self, seed: int | str | bytes, stream: str = "") -> None:
        self._x = SeededRandom(seed, "search/" + stream).below(1 << 64)

    def next64(self) -> int:
        self._x = x = (self._x + 0x9E3779B97F4A7C15) & _MASK
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """An integer in [0, n); the modulo bias (n / 2**64) is far below anything a bot notices.
        next64 written out: playouts draw tens of thousands a second."""
        self._x = x = (self._x + 0x9E3779B97F4A7C15) & _MASK
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return (z ^ (z >> 31)) % n

    def choice(self, items):
        return items[self.below(len(items))]

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
