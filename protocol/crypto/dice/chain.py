"""Hash chains of secret links, one per seat and generation (SPEC §33.2).

A seat draws a 32-byte seed, derives the chain's last link from it, and hashes backwards
to the head, which it publishes in a signed `dice-chain` event. Each roll opens the next
link: link j is checked by hashing it once and comparing with link j-1 (the head is link
0). Every step hashes the game id, the seat, the generation and the position with the
link, so a link is valid in exactly one place: a link of another game, seat, chain or
position does not check, and a chain made from a reused seed differs in every game.
Opening link j tells nobody link j+1 (SHA-256 is one-way), and the seat cannot open any
other value at j than the one fixed when it published the head (that would be a
SHA-256 second preimage).
"""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from functools import cached_property

from protocol.crypto.group import lp

__all__ = [
    "SEED_TAG", "LINK_TAG", "LINK_BYTES", "SEED_BYTES", "MAX_CHAIN_LENGTH", "MAX_SEATS", "ChainContext",
    "ChainCommit", "SecretChain", "commit_chain", "step", "check_link", "fresh_seed",
]

SEED_TAG = b"p2p-asv/dice/seed/v1"
LINK_TAG = b"p2p-asv/dice/link/v1"
LINK_BYTES = 32
SEED_BYTES = 32
MAX_CHAIN_LENGTH = 1 << 16   # a chain needs L hashes to make and L * 32 bytes to keep
MAX_SEATS = 256
MAX_GAME_ID = 64


def _u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


@dataclass(frozen=True)
class ChainContext:
    """Where a chain belongs: the game, the seat (0-based, seat order) and the seat's chain
    generation (0 for its first chain, +1 for each fresh one)."""
    game: bytes
    seat: int
    gen: int

    def __post_init__(self) -> None:
        if not isinstance(self.game, bytes) or not 1 <= len(self.game) <= MAX_GAME_ID:
            raise ValueError(f"a game id is 1 to {MAX_GAME_ID} bytes")
        if not 0 <= self.seat < MAX_SEATS or not 0 <= self.gen < (1 << 32):
            raise ValueError("seat or generation out of range")

    @cached_property
    def step_prefix(self) -> bytes:
        """The parts every step of this chain shares: lp(LINK_TAG, game, u32be(seat), u32be(gen))."""
        return lp(LINK_TAG, self.game, _u32(self.seat), _u32(self.gen))


def _last_link(ctx: ChainContext, seed: bytes, length: int) -> bytes:
    return hashlib.sha256(lp(SEED_TAG, ctx.game, _u32(ctx.seat), _u32(ctx.gen), _u32(length), seed)).digest()


def step(ctx: ChainContext, position: int, link: bytes) -> bytes:
    """Link `position - 1` from link `position`:
    SHA-256(lp(LINK_TAG, game, u32be(seat), u32be(gen), u32be(position), link))."""
    # lp is a plain concatenation of parts, so the shared prefix is computed once per chain
    return hashlib.sha256(ctx.step_prefix + lp(_u32(position), link)).digest()


def commit_chain(seed: bytes, length: int, ctx: ChainContext) -> tuple[bytes, tuple[bytes, ...]]:
    """(head, links) of the chain of `length` links made from `seed`; links[j-1] is link j,
    the one the seat opens at its j-th roll of this chain."""
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
        raise ValueError(f"a chain seed is {SEED_BYTES} bytes")
    if not 1 <= length <= MAX_CHAIN_LENGTH:
        raise ValueError(f"a chain has 1 to {MAX_CHAIN_LENGTH} links")
    links = [_last_link(ctx, seed, length)]
    for position in range(length, 1, -1):
        links.append(step(ctx, position, links[-1]))
    head = step(ctx, 1, links[-1])
    links.reverse()
    return head, tuple(links)


def check_link(ctx: ChainContext, prev: bytes, link: bytes, position: int) -> bool:
    """True iff `link` is link `position` of the chain whose link `position - 1` (the head
    when position is 1) is `prev`."""
    if not isinstance(link, bytes) or len(link) != LINK_BYTES or position < 1:
        return False
    return step(ctx, position, link) == prev


def fresh_seed() -> bytes:
    """A chain seed from the OS CSPRNG."""
    return secrets.token_bytes(SEED_BYTES)


@dataclass(frozen=True)
class ChainCommit:
    """The public part of a chain: what a `dice-chain` event carries."""
    gen: int
    length: int
    head: bytes


class SecretChain:
    """A seat's own chain. It keeps only the seed in secrets (SPEC §33.6): the links are
    recomputed from it, so a returning peer rebuilds the same chain."""

    def __init__(self, seed: bytes, length: int, ctx: ChainContext) -> None:
        self.ctx = ctx
        self.seed = seed
        self.head, self._links = commit_chain(seed, length, ctx)

    @classmethod
    def fresh(cls, game: bytes, seat: int, gen: int, length: int) -> "SecretChain":
        return cls(fresh_seed(), length, ChainContext(game, seat, gen))

    @property
    def length(self) -> int:
        return len(self._links)

    def commitment(self) -> ChainCommit:
        return ChainCommit(self.ctx.gen, self.length, self.head)

    def link(self, position: int) -> bytes:
        """Link `position` (1 … length), the seat's opening at that position."""
        if not 1 <= position <= self.length:
            raise IndexError(f"chain of {self.length} links has no link {position}")
        return self._links[position - 1]

    def __repr__(self) -> str:  # never show the seed
        return f"SecretChain(seat={self.ctx.seat}, gen={self.ctx.gen}, length={self.length})"
