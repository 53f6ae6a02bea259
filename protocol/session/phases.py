"""The session's named states, each one StrEnum (SPEC §26.2): the phase of a game, the kind
of an event, the kind of a deck operation. Their values are the strings of the wire and the
log, unchanged: a member equals its string, encodes as it and prints as it (str and repr), so
a log, a message or a caller that compares with the string sees no difference."""
from __future__ import annotations

from enum import IntEnum, StrEnum

__all__ = ["Phase", "EventKind", "DeckOp", "ENDED", "SETUP_KINDS", "SeqBase", "SEQ_SPAN", "statement_family"]


class _WireName(StrEnum):
    def __repr__(self) -> str:
        return repr(self.value)


class Phase(_WireName):
    HELLO = "hello"                 # lobby order
    SEAT_COMMIT = "seat-commit"
    SEAT_REVEAL = "seat-reveal"
    KEY_COMMIT = "key-commit"       # seat order
    KEY_REVEAL = "key-reveal"
    PLAY = "play"                   # actions, shuffles and shares, as the game asks
    DONE = "done"
    ABORTED = "aborted"             # a co-signed abort named a silent peer (§29.6)
    HALTED = "halted"               # a halt carried a refused event (§29.10)


ENDED = frozenset({Phase.DONE, Phase.ABORTED, Phase.HALTED})   # nothing more may be written


class EventKind(_WireName):
    HELLO = "hello"
    SEAT_COMMIT = "seat-commit"
    SEAT_REVEAL = "seat-reveal"
    KEY_COMMIT = "key-commit"
    KEY_REVEAL = "key-reveal"
    ACTION = "action"
    SHUFFLE = "shuffle"
    REFRESH = "refresh"             # a card re-encrypted before it changes hands (§25.7, §26.4)
    SHARES = "shares"
    DICE_CHAIN = "dice-chain"       # the fair dice (§33.8)
    DICE_OPEN = "dice-open"
    HAND_OVER = "hand-over"         # a seat the game removed (§26.13)
    ABORT = "abort"
    FORFEIT = "forfeit"             # a dice withholder voted out, the game goes on (§33.8, §26.14)
    HALT = "halt"
    CLOCK_PASS = "clock-pass"       # the others play a timed-out seat's pass move (§29.20)
    VOTE = "abort-vote"             # statements about a height, never chain events (§29.6)
    REFUSE = "abort-refuse"
    TAKEBACK = "takeback"           # the last action taken back, every other seat agreeing (§29.17)
    TAKEBACK_ASK = "takeback-ask"   # statements about a height, never chain events (§29.17)
    TAKEBACK_YES = "takeback-yes"
    TAKEBACK_NO = "takeback-no"
    CHAT = "chat"                   # a line of table talk, never a chain event (§29.18)
    PASS_VOTE = "clock-pass-vote"   # a statement: this seat is past its clock (§29.20)


# the event due in each setup phase is of the phase's own name
SETUP_KINDS = {Phase.HELLO: EventKind.HELLO, Phase.SEAT_COMMIT: EventKind.SEAT_COMMIT,
               Phase.SEAT_REVEAL: EventKind.SEAT_REVEAL, Phase.KEY_COMMIT: EventKind.KEY_COMMIT,
               Phase.KEY_REVEAL: EventKind.KEY_REVEAL}


class DeckOp(_WireName):
    SHUFFLE = "shuffle"             # fill fresh handles from labels or from source handles
    REVEAL = "reveal"               # the cards become public
    DEAL = "deal"                   # the cards are revealed to one seat alone
    HAND_OVER = "hand-over"         # never asked by a game: the session's own, a seat leaving (§26.13)


# Statements (votes, refusals, takeback asks and answers, chat lines, clock-pass votes) are
# signed events that are never chain events: each family's seq is its base + a height (or a
# line number), in a range of SEQ_SPAN of its own, all far above any chain height. One table,
# so that no two families can share a range (two once did, at a merge). SPEC §26.12.
SEQ_SPAN = 1 << 60


class SeqBase(IntEnum):
    ABORT_VOTE = 1 << 62                              # abort votes and refusals about height h (§29.6)
    TAKEBACK = (1 << 62) + SEQ_SPAN                   # takeback asks and answers about height h (§29.17)
    CHAT = (1 << 62) + 2 * SEQ_SPAN                   # chat line n (§29.18)
    CLOCK_PASS = (1 << 62) + 3 * SEQ_SPAN             # clock-pass votes about height h (§29.20)


def statement_family(seq: int) -> SeqBase | None:
    """The statement family whose range holds `seq`, or None for a chain height."""
    for base in SeqBase:
        if base <= seq < base + SEQ_SPAN:
            return base
    return None
