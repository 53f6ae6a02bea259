"""The lockstep game session (SPEC §26-§27): one replica of a game's signed log, its decks
and its rules, the peer that writes its own events, local play, aborts, the lobby's rule
of trust and `verify_log`. Depends on poker, log, crypto and protocol's base; knows nothing
of the network."""
from protocol.session.abort import ABORT_KIND, abort_writers, make_abort
from protocol.session.core import HASHED_PHASES, MAX_PLAYERS, Session, card_table
from protocol.session.errors import (
    BadBody, BadDice, BadKeyShare, BadRefresh, BadShare, BadShuffle, BadShuffleProof, CardExposed, CardNotHeld,
    ClaimMismatch, DeckCorrupted, IllegalMove, OpeningMismatch, SessionError, SessionHalted, StateHashMismatch,
    UnexpectedKind,
)
from protocol.session.game_rules import CHANCE, Agent, DeckRequest, DiceRequest, GameRuleError, GameRules, agent_record
from protocol.session.lobby import NotTheCreator, creator_key_matches, first_hello_problem
from protocol.session.local_game import StalledGame, run_local
from protocol.session.peer import NotYourTurn, SessionPeer
from protocol.session.phases import ENDED, DeckOp, EventKind, Phase
from protocol.session.verify import (
    EXIT_INVALID, EXIT_UNFINISHED, EXIT_VALID, LogChecker, VerifyReport, verify_log,
)

__all__ = [
    "Session", "SessionPeer", "NotYourTurn", "Phase", "EventKind", "DeckOp", "ENDED", "HASHED_PHASES", "MAX_PLAYERS", "card_table",
    "GameRules", "GameRuleError", "DeckRequest", "DiceRequest", "Agent", "agent_record", "CHANCE",
    "run_local", "StalledGame", "verify_log", "VerifyReport", "LogChecker", "EXIT_VALID", "EXIT_INVALID",
    "EXIT_UNFINISHED", "ABORT_KIND", "make_abort", "abort_writers", "creator_key_matches",
    "first_hello_problem", "NotTheCreator",
    "SessionError", "UnexpectedKind", "BadBody", "OpeningMismatch", "BadKeyShare", "BadShuffle",
    "BadShuffleProof", "BadRefresh", "CardExposed", "BadShare", "CardNotHeld", "ClaimMismatch", "IllegalMove",
    "StateHashMismatch", "DeckCorrupted", "SessionHalted", "BadDice",
]
