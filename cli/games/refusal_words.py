"""The plain words for every refusal a player can read (SPEC §31.11): one table, used by the
REPL's refused line, the network notes (cli/netplay/node_notes.py), the "not sent" line of
a networked seat and `asv watch`, so no line on the screen shows an error's class name.

The table is keyed by the class's full name ("module.Qualname"), not by the class, so this
module imports no engine (only a game's kit may, tests/test_imports.py) and still names the
engines' errors. A subclass is looked up by its own name first, then its bases' (the MRO),
but tests/test_refusal_words.py asks for an entry of its own for every error class of
protocol/ and of the engines, so a new class is given its words when it is written."""
from __future__ import annotations

__all__ = ["PHRASES", "phrase", "reason_of", "describe", "refused_line"]

FALLBACK = "refused"

PHRASES: dict[str, str] = {
    # -- the engines' refusals of a typed action (the REPL leads with these, SPEC §31.5) --
    "p2p_asv.errors.EngineError": "refused",
    "p2p_asv.errors.MalformedAction": "not understood",
    "p2p_asv.errors.OutOfTurn": "not your move",
    "p2p_asv.errors.IllegalAction": "not allowed",
    "p2p_asv.errors.ImpossibleState": "not possible in a true game",
    "space_walk.errors.SpaceWalkError": "refused",
    "space_walk.errors.MalformedAction": "not understood",
    "space_walk.errors.OutOfTurn": "not your move",
    "space_walk.errors.IllegalAction": "not allowed",
    "space_trading_race.errors.TradingRaceError": "refused",
    "space_trading_race.errors.MalformedAction": "not understood",
    "space_trading_race.errors.OutOfTurn": "not your move",
    "space_trading_race.errors.IllegalAction": "not allowed",
    "protocol.session.game_rules.GameRuleError": "the rules refuse it",
    # -- a seat's action that did not leave this machine --
    "cli.errors.NotSent": "not sent",
    "cli.netplay.driver.PeerStopped": "not sent",
    # -- protocol/errors.py: codec, signatures, key files, events, proofs, logs --
    "protocol.errors.ProtocolError": "refused",
    "protocol.errors.CodecError": "garbled data",
    "protocol.errors.BadSignature": "a signature that does not check",
    "protocol.errors.WeakPublicKey": "a key nobody may sign with",
    "protocol.errors.KeyFileError": "a key file that cannot be used",
    "protocol.errors.MissingKeyFile": "no key file",
    "protocol.errors.KeyFileExists": "a key file is there already",
    "protocol.errors.EventError": "an event that cannot be taken",
    "protocol.errors.MalformedEvent": "a garbled event",
    "protocol.errors.ForgedSignature": "a forged signature",
    "protocol.errors.WrongGame": "an event of another game",
    "protocol.errors.WrongAuthor": "not that seat's event to write",
    "protocol.errors.BrokenChain": "an event that does not follow the last one",
    "protocol.errors.OutOfOrder": "an event out of order",
    "protocol.errors.ReplayedEvent": "an event seen already",
    "protocol.errors.Equivocation": "two different events signed for one place",
    "protocol.errors.InvalidProof": "a proof that does not check",
    "protocol.errors.LogError": "a damaged log",
    "protocol.errors.BadHeader": "not a log of this program, or a damaged start",
    "protocol.errors.TornRecord": "a log cut short mid-record",
    "protocol.errors.TrailingGarbage": "unreadable bytes in the log",
    "protocol.errors.CorruptRecord": "a damaged log record",
    "protocol.errors.UnsafePermissions": "a private file others can read",
    # -- protocol/session: the game's own rules of play --
    "protocol.session.errors.SessionError": "an event against the game's rules of play",
    "protocol.session.errors.UnexpectedKind": "not the event due now",
    "protocol.session.errors.BadBody": "an event with wrong fields",
    "protocol.session.errors.OpeningMismatch": "a secret that does not match its commitment",
    "protocol.session.errors.BadKeyShare": "a key share that does not check",
    "protocol.session.errors.BadShuffle": "a bad shuffle",
    "protocol.session.errors.BadShuffleProof": "a shuffle whose proof does not check",
    "protocol.session.errors.BadRefresh": "a refreshed card that does not check",
    "protocol.session.errors.BadShare": "a card share that does not check",
    "protocol.session.errors.CardNotHeld": "a card that seat was never dealt",
    "protocol.session.errors.ClaimMismatch": "a card that is not the one claimed",
    "protocol.session.errors.IllegalMove": "a move the rules refuse",
    "protocol.session.errors.BadDice": "a dice step that does not check",
    "protocol.session.errors.StateHashMismatch": "the seats no longer agree on the game",
    "protocol.session.errors.DeckCorrupted": "a card that opens to no card",
    "protocol.session.errors.SessionHalted": "the game has stopped",
    "protocol.session.errors.CardExposed": "a hidden card everyone could read",
    "protocol.session.errors.VotedAndRefused": "a seat that said two opposite things",
    "protocol.session.takeback.CannotTakeBack": "no takeback here",
    "protocol.session.peer.NotYourTurn": "not this seat's turn to write",
    "protocol.session.chat.ChatRefused": "a chat line not taken",
    "protocol.session.lobby.NotTheCreator": "not signed by the game's creator",
    "protocol.session.local_game.StalledGame": "the game cannot go on",
    # -- protocol/crypto and protocol/poker: the cryptography under the cards and dice --
    "protocol.crypto.group.GroupUnavailable": "the cryptography library is missing",
    "protocol.crypto.group.GroupError": "bad cryptographic data",
    "protocol.crypto.group.InvalidPoint": "bad cryptographic data",
    "protocol.crypto.group.InvalidScalar": "bad cryptographic data",
    "protocol.crypto.commit_reveal.CommitRevealError": "a commit-and-reveal step that does not check",
    "protocol.crypto.commit_reveal.UnknownParticipant": "a stranger in a commit-and-reveal",
    "protocol.crypto.commit_reveal.DuplicateCommit": "two different commitments from one seat",
    "protocol.crypto.commit_reveal.RevealTooEarly": "a secret shown too early",
    "protocol.crypto.commit_reveal.CommitMismatch": "a secret that does not match its commitment",
    "protocol.crypto.commit_reveal.MissingCommit": "a commitment missing",
    "protocol.crypto.commit_reveal.MissingReveal": "a secret not shown",
    "protocol.crypto.dice.errors.DiceError": "a dice step that does not check",
    "protocol.crypto.dice.errors.BadDiceBody": "a dice event with wrong fields",
    "protocol.crypto.dice.errors.BadChainCommit": "a dice chain that may not start now",
    "protocol.crypto.dice.errors.WrongLink": "a dice link that does not follow the chain",
    "protocol.crypto.dice.errors.WrongRoll": "an opening of another roll",
    "protocol.crypto.dice.errors.AlreadyOpened": "a roll opened twice",
    "protocol.crypto.dice.errors.OpeningTooEarly": "a roll opened too early",
    "protocol.crypto.dice.errors.SeatNotActive": "a seat that is not in the dice",
    "protocol.poker.cards.MentalPokerError": "a card step that does not check",
    "protocol.poker.cards.DuplicateLabel": "two cards with one name",
    "protocol.poker.cards.PointCollision": "two cards that look alike",
    "protocol.poker.cards.UnknownCard": "a card that opens to no card",
    "protocol.poker.cards.MalformedDeck": "a garbled deck",
    "protocol.poker.keys.InvalidKeyShare": "a key share that does not check",
    "protocol.poker.shuffle.ShuffleMismatch": "a shuffle that is not of the same cards",
    "protocol.poker.shuffle_proof.ShuffleProofError": "a shuffle whose proof does not check",
    "protocol.poker.deck.InvalidDecryptionShare": "a card share that does not check",
    "protocol.poker.refresh.RefreshProofError": "a refreshed card that does not check",
    # -- protocol/net: connections --
    "protocol.net.errors.TransportError": "a connection problem",
    "protocol.net.errors.FrameTooLarge": "a message too large",
    "protocol.net.errors.ConnectionClosed": "the connection closed",
    "protocol.net.errors.MalformedFrame": "a garbled message",
    "protocol.net.errors.UnknownMessageType": "a message of another program version",
    "protocol.net.errors.FrameAuthError": "a message tampered with on the way",
    "protocol.net.errors.HandshakeError": "the connection could not be set up",
    "protocol.net.errors.HandshakeSignatureError": "a peer that could not prove its key",
    "protocol.net.errors.VersionMismatch": "another program version",
    "protocol.net.errors.UnknownGame": "another game",
    "protocol.net.errors.KeyNotAllowed": "a player this game has no seat for",
    "protocol.net.errors.ReplayedNonce": "a replayed connection",
    "protocol.net.errors.DuplicateConnection": "a second connection to the same peer",
    "protocol.net.errors.HandshakeTimeout": "the connection took too long to set up",
    "protocol.net.errors.SpectatorsFull": "no room for another spectator",
    "protocol.net.errors.SpectatorSent": "a spectator that tried to play",
    "protocol.net.errors.PeerRefused": "the peer refused",
    "protocol.net.errors.PeerTimeout": "the peer went quiet",
    "protocol.net.errors.BadEventWire": "a garbled event",
    "protocol.net.errors.SendQueueFull": "a peer too slow to keep up",
    "protocol.net.errors.NotConnected": "not connected",
    "protocol.net.errors.CatchupTimeout": "no answer to a catch-up in time",
    "protocol.net.errors.CannotListen": "cannot listen there",
    "protocol.net.errors.Flooding": "a peer asking for too much at once",
    # -- protocol/node: the lobby and resuming --
    "protocol.node._lobby.GameFull": "the game is full",
    "protocol.node._lobby.GameStarted": "the game has started",
    "protocol.node._lobby.WrongCreator": "an invite for another creator",
    "protocol.node._lobby.NoJoinRequest": "a connection that asked for no seat",
    "protocol.node._lobby.LobbyBusy": "the lobby is busy",
    "protocol.node._lobby.LobbyRefused": "the host refused the seat",
    "protocol.node._options.NotInRoster": "this player has no seat in the game",
    "protocol.node._options.ResumeError": "the log cannot resume the game",
}


def full_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def phrase(error: BaseException | type) -> str:
    """The words for `error` (an exception or its class): its own entry, else its nearest
    base's, else "refused"."""
    cls = error if isinstance(error, type) else type(error)
    return next((PHRASES[full_name(c)] for c in cls.__mro__ if full_name(c) in PHRASES), FALLBACK)


def reason_of(error: BaseException) -> str:
    """What the error says in its own words, without the class name some errors put at the
    front of their message (EventError, LogError): their `reason` field when they have one."""
    reason = getattr(error, "reason", None)
    return str(reason) if isinstance(reason, str) and reason else str(error)


def describe(error: BaseException) -> str:
    """"PHRASE: REASON" (or the phrase alone when the error says nothing more)."""
    words, reason = phrase(error), reason_of(error)
    return f"{words}: {reason}" if reason and reason != words else words


def refused_line(error: BaseException, better: str | None = None) -> str:
    """The REPL's line for a refused or unsent action (SPEC §31.5): the phrase, then the
    screen's explanation in the board's words when it has one, else the error's reason."""
    return f"{phrase(error)}: {better or reason_of(error)}"
