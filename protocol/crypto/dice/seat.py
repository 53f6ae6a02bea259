"""A seat's own side of the dice (SPEC §33.6, §33.8): it makes its chains, keeps their
seeds for the secrets file, and writes the body of the dice event it owes, reading what is
due from its own replica's ledger (so it opens exactly the link every verifier expects).
"""
from __future__ import annotations

from typing import Any, Mapping

from protocol.crypto.dice.bodies import chain_body, open_body
from protocol.crypto.dice.chain import MAX_CHAIN_LENGTH, SEED_BYTES, ChainContext, SecretChain, fresh_seed
from protocol.crypto.dice.ledger import DiceLedger

__all__ = ["DEFAULT_CHAIN_LENGTH", "SECRET_PREFIX", "DiceSeat"]

DEFAULT_CHAIN_LENGTH = 1024   # SPEC §33.8: about a millisecond to make, rarely renewed
SECRET_PREFIX = "dice/"       # secrets-file keys: "dice/<gen>" -> {"seed": bin 32, "len": int}


class DiceSeat:
    """The chains of seat `seat` in game `game`, by generation."""

    def __init__(self, game: bytes, seat: int, length: int = DEFAULT_CHAIN_LENGTH) -> None:
        if not 1 <= length <= MAX_CHAIN_LENGTH:
            raise ValueError(f"a chain has 1 to {MAX_CHAIN_LENGTH} links")
        ChainContext(game, seat, 0)   # checks game and seat
        self.game = game
        self.seat = seat
        self.length = length
        self._chains: dict[int, SecretChain] = {}

    def chain_body(self, ledger: DiceLedger, seed: bytes | None = None) -> dict[str, Any]:
        """The body of the `dice-chain` event this seat owes now (the ledger says it needs a
        chain). The seed is drawn fresh unless given; store `secret_entry(gen)` before the
        event is sent."""
        if self.seat not in ledger.needs_chain():
            raise ValueError(f"seat {self.seat} owes no chain now")
        gen = ledger.generation(self.seat) + 1
        chain = self._chains.get(gen)
        if chain is None:
            chain = SecretChain(fresh_seed() if seed is None else seed, self.length,
                                ChainContext(self.game, self.seat, gen))
            self._chains[gen] = chain
        return chain_body(chain.commitment())

    def open_body(self, ledger: DiceLedger) -> dict[str, Any]:
        """The body of this seat's `dice-open` for the roll being opened."""
        if self.seat not in ledger.pending() or self.seat in ledger.needs_chain():
            raise ValueError(f"seat {self.seat} owes no opening now")
        chain = self._chains.get(ledger.generation(self.seat))
        if chain is None:
            raise ValueError(f"seat {self.seat} does not hold chain {ledger.generation(self.seat)}")
        position = chain.length - ledger.remaining(self.seat) + 1
        return open_body(ledger.roll_index, chain.link(position))

    def secret_entry(self, gen: int) -> dict[str, Any]:
        """The secrets-file entry of chain `gen` (its seed and length, never its links)."""
        chain = self._chains[gen]
        return {f"{SECRET_PREFIX}{gen}": {"seed": chain.seed, "len": chain.length}}

    @classmethod
    def from_secrets(cls, game: bytes, seat: int, secrets: Mapping[str, Any],
                     length: int = DEFAULT_CHAIN_LENGTH) -> "DiceSeat":
        """Rebuild a returning seat's chains from its merged secrets map."""
        me = cls(game, seat, length)
        for key, entry in secrets.items():
            if isinstance(key, str) and key.startswith(SECRET_PREFIX):
                gen = int(key[len(SECRET_PREFIX):])
                seed, n = entry["seed"], entry["len"]
                if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
                    raise ValueError(f"secrets entry {key!r} has no {SEED_BYTES}-byte seed")
                me._chains[gen] = SecretChain(seed, n, ChainContext(game, seat, gen))
        return me
