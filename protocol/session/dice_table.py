"""The session's dice (SPEC §33.8): a DiceLedger of the game and the roll the game waits for.
While a DiceRequest is due, the seats that need a chain write `dice-chain` events in seat
order, then the active seats write `dice-open` events in `opening_order(active, roller)`;
the last opening finishes the roll and its faces go to the game, with no chance event."""
from __future__ import annotations

from protocol.crypto.dice import (CHAIN_KIND, OPEN_KIND, BadDiceBody, DiceError, DiceLedger, opening_order,
                                  parse_chain_body, parse_open_body)
from protocol.session.errors import BadBody, BadDice
from protocol.session.game_rules import DiceRequest
from protocol.session.phases import EventKind

__all__ = ["DiceTable"]
assert (CHAIN_KIND, OPEN_KIND) == (EventKind.DICE_CHAIN, EventKind.DICE_OPEN)


class DiceTable:
    def __init__(self, game: bytes, seats: int) -> None:
        self.ledger = DiceLedger(game, seats)
        self.current: DiceRequest | None = None

    def begin(self, request: DiceRequest) -> None:
        self.current = request

    def due_seat(self) -> int:
        needs = self.ledger.needs_chain()
        if needs:
            return needs[0]
        roller = self.current.roller if self.current.roller in self.ledger.active else None
        pending = set(self.ledger.pending())
        return next(s for s in opening_order(self.ledger.active, roller) if s in pending)

    def due_kind(self) -> EventKind:
        return EventKind.DICE_CHAIN if self.ledger.needs_chain() else EventKind.DICE_OPEN

    def accept_chain(self, seq: int, seat: int, author: bytes, body: dict) -> str:
        try:
            commit = parse_chain_body(seat, body)
            self.ledger.add_chain(seat, commit)
        except BadDiceBody as exc:
            raise BadBody(exc.reason, seq=seq, author=author) from None
        except DiceError as exc:
            raise BadDice(exc.reason, seq=seq, author=author) from None
        return f"dice chain {commit.gen} of seat {seat} ({commit.length} links)"

    def accept_open(self, seq: int, seat: int, author: bytes, body: dict) -> tuple[int, ...] | None:
        """The faces once this opening finished the roll, else None."""
        try:
            index, link = parse_open_body(seat, body)
            record = self.ledger.open(seat, index, link)
        except BadDiceBody as exc:
            raise BadBody(exc.reason, seq=seq, author=author) from None
        except DiceError as exc:
            raise BadDice(exc.reason, seq=seq, author=author) from None
        if record is None:
            return None
        request, self.current = self.current, None
        return record.faces(request.sides, request.count)
