"""Dice nobody can bias (SPEC §33): hash chains of secret links committed per seat, a roll
drawn from the next link of every seat, and the ledger that checks openings and names the
seat at fault. Game-agnostic; rests on protocol's base and crypto.group only.

    chain     seeds, links, heads (§33.2)
    roll      the roll digest and its faces (§33.3-§33.4), the opening order (§33.5)
    ledger    every seat's chain state, openings, forfeits (§33.5)
    bodies    the `dice-chain` and `dice-open` event bodies (§33.6)
    seat      a seat's own chains, secrets and the bodies it owes (§33.6, §33.8)
    errors    DiceError and its kinds (§33.7)
"""
from protocol.crypto.dice.bodies import (
    CHAIN_KIND, OPEN_KIND, chain_body, open_body, parse_chain_body, parse_open_body,
)
from protocol.crypto.dice.chain import (
    MAX_CHAIN_LENGTH, ChainCommit, ChainContext, SecretChain, check_link, commit_chain, fresh_seed, step,
)
from protocol.crypto.dice.errors import (
    AlreadyOpened, BadChainCommit, BadDiceBody, DiceError, OpeningTooEarly, SeatNotActive, WrongLink,
    WrongRoll,
)
from protocol.crypto.dice.ledger import DiceLedger, RollRecord
from protocol.crypto.dice.roll import (
    Opening, face_words, faces, faces_from_words, opening_order, roll, roll_dice, roll_digest,
)
from protocol.crypto.dice.seat import DEFAULT_CHAIN_LENGTH, DiceSeat

__all__ = [
    "CHAIN_KIND", "OPEN_KIND", "chain_body", "open_body", "parse_chain_body", "parse_open_body",
    "MAX_CHAIN_LENGTH", "ChainCommit", "ChainContext", "SecretChain", "check_link", "commit_chain",
    "fresh_seed", "step",
    "DiceError", "BadDiceBody", "BadChainCommit", "WrongLink", "WrongRoll", "AlreadyOpened",
    "OpeningTooEarly", "SeatNotActive",
    "DiceLedger", "RollRecord", "DiceSeat", "DEFAULT_CHAIN_LENGTH",
    "Opening", "face_words", "faces", "faces_from_words", "opening_order", "roll", "roll_dice",
    "roll_digest",
]
