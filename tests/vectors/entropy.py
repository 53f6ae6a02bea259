"""Fixed entropy for the test vectors (SPEC §36.1): while `fixed_entropy(seed)` is active,
every random draw of the protocol (os.urandom, secrets.token_bytes, secrets.randbelow)
comes from a SHA-256 counter stream of the seed, so the same program writes the same
bytes. For vectors only: their secrets are public, nobody may play with them."""
from __future__ import annotations

import hashlib
import os
import secrets
from contextlib import contextmanager
from typing import Iterator

STREAM_TAG = b"p2p-asv/test-vectors/entropy/v1"


class Stream:
    """SHA-256(tag ‖ seed ‖ counter u64be) blocks, read in order."""

    def __init__(self, seed: bytes) -> None:
        self.seed = bytes(seed)
        self.counter = 0
        self.buffer = b""

    def bytes(self, n: int) -> bytes:
        while len(self.buffer) < n:
            block = STREAM_TAG + self.seed + self.counter.to_bytes(8, "big")
            self.buffer += hashlib.sha256(block).digest()
            self.counter += 1
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def below(self, bound: int) -> int:
        """Uniform in [0, bound), by rejection of 64-bit draws (as secrets.randbelow is uniform)."""
        if bound <= 0:
            raise ValueError("bound must be positive")
        limit = (1 << 64) - (1 << 64) % bound
        while True:
            x = int.from_bytes(self.bytes(8), "big")
            if x < limit:
                return x % bound


@contextmanager
def fixed_entropy(seed: bytes) -> Iterator[Stream]:
    stream = Stream(seed)
    saved = os.urandom, secrets.token_bytes, secrets.randbelow
    os.urandom = stream.bytes                                            # type: ignore[assignment]
    secrets.token_bytes = lambda n=32: stream.bytes(n)                   # type: ignore[assignment]
    secrets.randbelow = stream.below                                     # type: ignore[assignment]
    try:
        yield stream
    finally:
        os.urandom, secrets.token_bytes, secrets.randbelow = saved       # type: ignore[assignment]
