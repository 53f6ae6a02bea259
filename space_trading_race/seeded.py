"""A seeded, portable random source for the local dealer and the bots, never the engine:
SHA-256 in counter mode, the same numbers under any Python and PYTHONHASHSEED (SPEC §57.4)."""
from __future__ import annotations

import hashlib


class SeededRandom:
    def __init__(self, seed: int | str, stream: str = "") -> None:
        self._key = hashlib.sha256(f"space-trading-race/seeded\0{stream}\0{seed}".encode()).digest()
        self._counter = 0

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), by rejection sampling (no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            self._counter += 1
            x = int.from_bytes(hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()[:8], "big")
            if x < limit:
                return x % n

    def choice(self, items):
        return items[self.below(len(items))]

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
