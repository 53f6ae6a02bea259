"""A seeded, portable random source for the local dealer and the bots (never the engine).

SHA-256 in counter mode: the same seed gives the same numbers on every Python version and
under any PYTHONHASHSEED, unlike `random`, whose algorithms may change between versions.
"""
from __future__ import annotations

import hashlib


class SeededRandom:
    def __init__(self, seed: int | str | bytes, stream: str = "") -> None:
        if isinstance(seed, int):
            seed = str(seed)
        if isinstance(seed, str):
            seed = seed.encode()
        self._key = hashlib.sha256(b"p2p-asv/seeded\0" + stream.encode() + b"\0" + seed).digest()
        self._counter = 0

    def _block(self) -> int:
        self._counter += 1
        digest = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
        return int.from_bytes(digest[:8], "big")

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) by rejection sampling (no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self._block()
            if x < limit:
                return x % n

    def choice(self, items):
        return items[self.below(len(items))]

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
