"""Typed errors of the lockstep session (SPEC §26.8).

Every rejection of an event is an EventError (SPEC §22): it names the height, the author
and the reason, so a peer, a test or `asv verify` can say who broke what.
"""
from __future__ import annotations

from protocol.errors import EventError

__all__ = [
    "SessionError", "UnexpectedKind", "BadBody", "OpeningMismatch", "BadKeyShare",
    "BadShuffle", "BadShuffleProof", "BadRefresh", "BadShare", "CardNotHeld", "ClaimMismatch", "IllegalMove",
    "StateHashMismatch", "DeckCorrupted", "SessionHalted", "BadDice", "CardExposed", "VotedAndRefused",
]


class SessionError(EventError):
    """An event that is well signed and chained but breaks the session's rules."""


class UnexpectedKind(SessionError):
    """The event's kind is not the one the session waits for at this height."""


class BadBody(SessionError):
    """The body misses fields, has unknown ones, or a field has the wrong type or size."""


class OpeningMismatch(SessionError):
    """A reveal does not open its commitment (seat order, key share) or an opened secret
    does not match what was published."""


class BadKeyShare(SessionError):
    """A published key share or its proof of knowledge does not verify."""


class BadShuffle(SessionError):
    """A shuffled deck has the wrong size or holds an invalid (non-canonical, small-order,
    identity) point."""


class BadShuffleProof(BadShuffle):
    """A shuffle whose proof (SPEC §25.10) does not show its deck is a re-encrypted
    permutation of the exact input deck: a replaced, duplicated, substituted or forged
    card, a proof made for another event, or a bad point in the deck or the proof."""


class BadRefresh(SessionError):
    """A refreshed card (SPEC §25.11, §26.4) that is not a proven re-encryption of the card
    under its handle, or repeats a C1 already in the game."""


class BadShare(SessionError):
    """A decryption share has an invalid point or its Chaum-Pedersen proof fails."""


class CardNotHeld(SessionError):
    """An action claims a hidden card that was never dealt to its author."""


class ClaimMismatch(SessionError):
    """A claimed card identity does not match what the handle's ciphertext opens to."""


class IllegalMove(SessionError):
    """The game's rules refuse the action (the rules' reason is in the message)."""


class BadDice(SessionError):
    """A `dice-chain` or `dice-open` the dice ledger refuses (SPEC §33.8): a wrong link, a
    chain out of turn, an opening of another roll; the ledger's reason is in the message."""


class StateHashMismatch(SessionError):
    """The author's state hash differs from the one this peer computed. The session halts:
    the peers no longer agree on the game, and the event is not logged."""


class DeckCorrupted(SessionError):
    """A revealed or dealt card decrypts to no card, or the game refuses the outcome of a
    deck operation. Every shuffle is proven and every share checked on arrival, so this
    means the game and the session disagree; no author is blamed."""


class SessionHalted(SessionError):
    """The session stopped after an unrecoverable disagreement and accepts nothing more."""


class CardExposed(SessionError):
    """An event that completes every seat's decryption share of a ciphertext never shown
    to the table: anyone holding the log reads that card (SPEC §25.7). Found by `asv
    verify`'s outsider check (protocol/session/verify.py)."""


class VotedAndRefused(SessionError):
    """A seat signed both an abort vote and a refusal about one height (SPEC §29.17): it
    said it had seen nothing of the due peer there and that it had applied its event. Its
    vote inside a complete abort and its refusal convict it (a conviction halt)."""
