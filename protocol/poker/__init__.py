"""Mental-poker decks (SPEC §25.3-§25.7): ElGamal card encryption under a joint key, verifiable
shuffles and decryption shares. Game-agnostic; depends only on crypto and protocol's base.
`deck` holds the public API (used as a module, `mp`); cards, keys and shuffle are its parts;
shuffle_proof proves a shuffle in zero knowledge (used as a module, `sp`)."""
from protocol.poker.deck import (
    CardTable, Ciphertext, Deck, DecryptionShare, KeySetupRound, KeyShare, MentalPokerError,
    PublishedKeyShare, ShuffleWitness,
)
from protocol.poker.keys import PUBLISHED_KEY_BYTES

__all__ = [
    "CardTable", "Ciphertext", "Deck", "DecryptionShare", "KeySetupRound", "KeyShare",
    "MentalPokerError", "PublishedKeyShare", "ShuffleWitness", "PUBLISHED_KEY_BYTES",
]
