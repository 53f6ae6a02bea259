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
    spec = "§26.8"   # the SPEC section it enforces (§36.3)


class UnexpectedKind(SessionError):
    """The event's kind is not the one the session waits for at this height."""
    spec = "§26.2"   # the SPEC section it enforces (§36.3)


class BadBody(SessionError):
    """The body misses fields, has unknown ones, or a field has the wrong type or size."""
    spec = "§26.12"   # the SPEC section it enforces (§36.3)


class OpeningMismatch(SessionError):
    """A reveal does not open its commitment (seat order, key share) or an opened secret
    does not match what was published."""
    spec = "§24.3"   # the SPEC section it enforces (§36.3)


class BadKeyShare(SessionError):
    """A published key share or its proof of knowledge does not verify."""
    spec = "§25.3"   # the SPEC section it enforces (§36.3)


class BadShuffle(SessionError):
    """A shuffled deck has the wrong size or holds an invalid (non-canonical, small-order,
    identity) point."""
    spec = "§25.5"   # the SPEC section it enforces (§36.3)


class BadShuffleProof(BadShuffle):
    """A shuffle whose proof (SPEC §25.10) does not show its deck is a re-encrypted
    permutation of the exact input deck: a replaced, duplicated, substituted or forged
    card, a proof made for another event, or a bad point in the deck or the proof."""
    spec = "§25.10"   # the SPEC section it enforces (§36.3)


class BadRefresh(SessionError):
    """A refreshed card (SPEC §25.11, §26.4) that is not a proven re-encryption of the card
    under its handle, or repeats a C1 already in the game."""
    spec = "§25.11"   # the SPEC section it enforces (§36.3)


class BadShare(SessionError):
    """A decryption share has an invalid point or its Chaum-Pedersen proof fails."""
    spec = "§25.6"   # the SPEC section it enforces (§36.3)


class CardNotHeld(SessionError):
    """An action claims a hidden card that was never dealt to its author."""
    spec = "§26.5"   # the SPEC section it enforces (§36.3)


class ClaimMismatch(SessionError):
    """A claimed card identity does not match what the handle's ciphertext opens to."""
    spec = "§26.5"   # the SPEC section it enforces (§36.3)


class IllegalMove(SessionError):
    """The game's rules refuse the action (the rules' reason is in the message)."""
    spec = "§26.3"   # the SPEC section it enforces (§36.3)


class BadDice(SessionError):
    """A `dice-chain` or `dice-open` the dice ledger refuses (SPEC §33.8): a wrong link, a
    chain out of turn, an opening of another roll; the ledger's reason is in the message."""
    spec = "§33.8"   # the SPEC section it enforces (§36.3)


class StateHashMismatch(SessionError):
    """The author's state hash differs from the one this peer computed. The session halts:
    the peers no longer agree on the game, and the event is not logged."""
    spec = "§26.3"   # the SPEC section it enforces (§36.3)


class DeckCorrupted(SessionError):
    """A revealed or dealt card decrypts to no card, or the game refuses the outcome of a
    deck operation. Every shuffle is proven and every share checked on arrival, so this
    means the game and the session disagree; no author is blamed."""
    spec = "§26.4"   # the SPEC section it enforces (§36.3)


class SessionHalted(SessionError):
    """The session stopped after an unrecoverable disagreement and accepts nothing more."""
    spec = "§29.10"   # the SPEC section it enforces (§36.3)


class CardExposed(SessionError):
    """An event that completes every seat's decryption share of a ciphertext never shown
    to the table: anyone holding the log reads that card (SPEC §25.7). Found by `asv
    verify`'s outsider check (protocol/session/verify.py)."""
    spec = "§25.7"   # the SPEC section it enforces (§36.3)


class VotedAndRefused(SessionError):
    """A seat signed both an abort vote and a refusal about one height (SPEC §29.19): it
    said it had seen nothing of the due peer there and that it had applied its event. Its
    vote inside a complete abort and its refusal convict it (a conviction halt)."""
    spec = "§29.19"
