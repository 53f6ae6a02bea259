"""A seeded, portable random source for the bots (never the engine): SHA-256 in counter mode,
the same numbers on every Python version and under any PYTHONHASHSEED (SPEC §46.4)."""
from __future__ import annotations

import hashlib


class SeededRandom:
    def __init__(self, seed: int | str, stream: str = "") -> None:
        self._key = hashlib.sha256(f"space-walk/seeded\0{stream}\0{seed}".encode()).digest()
        self._counter = 0

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), by rejection sampling (no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            self._counter += 1
            block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            x = int.from_bytes(block[:8], "big")
            if x < limit:
                return x % n

    def choice(self, items):
        return items[self.below(len(items))]
