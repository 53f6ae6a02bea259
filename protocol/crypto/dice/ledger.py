"""Every seat's chain state and the roll being opened (SPEC §33.5).

The ledger is what each replica (and a log verifier) keeps: the chain each active seat
committed, how far it has been opened, the roll index and the openings of the roll in
progress. It takes chain commitments and openings in any order the session delivers them,
refuses a bad one with a typed error naming the seat (changing nothing), and returns the
roll once every active seat has opened its link. A forfeited seat leaves the dice: the
roll in progress is drawn again from the next links of the seats that remain, none of
which anyone has seen (so the forfeiter cannot pick between two outcomes it knows).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from protocol.crypto.dice.chain import LINK_BYTES, MAX_CHAIN_LENGTH, ChainCommit, ChainContext, check_link
from protocol.crypto.dice.errors import (
    AlreadyOpened, BadChainCommit, OpeningTooEarly, SeatNotActive, WrongLink, WrongRoll,
)
from protocol.crypto.dice.roll import Opening, faces, roll_digest

__all__ = ["DiceLedger", "RollRecord"]


@dataclass(frozen=True)
class RollRecord:
    """A finished roll: its index, digest, the openings it was drawn from (seat order) and
    the openings voided by forfeits while it was open (by seat, forfeit after forfeit)."""
    index: int
    digest: bytes
    openings: tuple[Opening, ...]
    voided: tuple[Opening, ...] = ()

    def faces(self, sides: int, count: int = 1) -> tuple[int, ...]:
        return faces(self.digest, sides, count)


@dataclass
class _Seat:
    gen: int = -1                 # generation of the current chain, -1 before the first
    length: int = 0
    opened: int = 0               # links of the current chain opened so far
    prev: bytes = b""             # the head, then the last opened link
    ctx: ChainContext | None = None
    heads: list[bytes] = field(default_factory=list)

    @property
    def remaining(self) -> int:
        return self.length - self.opened


class DiceLedger:
    """Dice of one game among `seats` seats (0 … seats-1, seat order)."""

    def __init__(self, game: bytes, seats: int) -> None:
        ChainContext(game, 0, 0)  # checks the game id
        if not 1 <= seats <= 256:
            raise ValueError("1 to 256 seats")
        self.game = game
        self._seats = [_Seat() for _ in range(seats)]
        self._active = list(range(seats))
        self._attempt: dict[int, Opening] = {}
        self._voided: list[Opening] = []
        self.roll_index = 0
        self.rolls: list[RollRecord] = []
        self.forfeited: list[int] = []

    # --- what is due -------------------------------------------------------------------

    @property
    def active(self) -> tuple[int, ...]:
        return tuple(self._active)

    def remaining(self, seat: int) -> int:
        """Unopened links left in the seat's current chain."""
        return self._seat(seat).remaining

    def generation(self, seat: int) -> int:
        """The seat's current chain generation (-1 before its first chain)."""
        return self._seat(seat).gen

    def needs_chain(self) -> list[int]:
        """Active seats, in seat order, that must commit a fresh chain before anyone may
        open a link of the roll: no unopened link left, and no opening in this roll yet."""
        return [s for s in self._active if s not in self._attempt and self._seats[s].remaining == 0]

    def pending(self) -> list[int]:
        """Active seats, in seat order, whose opening of the current roll is missing."""
        return [s for s in self._active if s not in self._attempt]

    @property
    def in_progress(self) -> bool:
        """True once some seat opened a link of the current roll attempt."""
        return bool(self._attempt)

    # --- commitments -------------------------------------------------------------------

    def add_chain(self, seat: int, commit: ChainCommit) -> None:
        """Take a seat's chain commitment (its first, or a fresh one at the end of its
        chain). Refused: a seat with links left, a roll already being opened, the wrong
        generation, a length out of range, a head that is not 32 bytes."""
        st = self._active_seat(seat)
        if st.remaining > 0:
            raise BadChainCommit(seat, f"chain {st.gen} still has {st.remaining} unopened links")
        if self._attempt:
            raise BadChainCommit(seat, f"roll {self.roll_index} is being opened; a chain may "
                                       "only be committed before the first opening of a roll")
        if commit.gen != st.gen + 1:
            raise BadChainCommit(seat, f"chain generation {commit.gen}, expected {st.gen + 1}")
        if not 1 <= commit.length <= MAX_CHAIN_LENGTH:
            raise BadChainCommit(seat, f"chain length {commit.length} outside 1 … {MAX_CHAIN_LENGTH}")
        if not isinstance(commit.head, bytes) or len(commit.head) != LINK_BYTES:
            raise BadChainCommit(seat, f"a chain head is {LINK_BYTES} bytes")
        st.gen, st.length, st.opened, st.prev = commit.gen, commit.length, 0, commit.head
        st.ctx = ChainContext(self.game, seat, commit.gen)
        st.heads.append(commit.head)

    # --- openings ----------------------------------------------------------------------

    def open(self, seat: int, roll: int, link: bytes) -> RollRecord | None:
        """Take the seat's opening for roll `roll`. Returns the finished roll when this was
        the last opening missing, else None. An identical second opening is a resend and
        returns None; anything refused raises, naming the seat, and changes nothing."""
        st = self._active_seat(seat)
        if roll != self.roll_index:
            raise WrongRoll(seat, f"opened for roll {roll}, the roll being opened is {self.roll_index}")
        if seat in self._attempt:
            if self._attempt[seat].link == link:
                return None
            raise AlreadyOpened(seat, f"a second, different link for roll {roll}")
        waiting = self.needs_chain()
        if waiting:
            raise OpeningTooEarly(seat, waiting)
        position = st.opened + 1
        assert st.ctx is not None   # a seat with an unopened link has a chain
        if not check_link(st.ctx, st.prev, link, position):
            raise WrongLink(seat, f"link {position} of chain {st.gen} does not check for roll {roll}",
                            roll=roll, position=position)
        self._attempt[seat] = Opening(seat, st.gen, position, link)
        st.opened, st.prev = position, link
        if self.pending():
            return None
        return self._finish()

    def forfeit(self, seat: int) -> None:
        """The seat leaves the dice (a forfeit for withholding, or leaving the game). If a
        roll is being opened, its openings so far are void: the roll is drawn again from
        the next link of every remaining seat (the void links are used up)."""
        self._active_seat(seat)
        self._active.remove(seat)
        self.forfeited.append(seat)
        if self._attempt:
            self._voided.extend(self._attempt[s] for s in sorted(self._attempt))
            self._attempt = {}

    # --- internals ---------------------------------------------------------------------

    def _finish(self) -> RollRecord:
        openings = tuple(self._attempt[s] for s in sorted(self._attempt))
        record = RollRecord(self.roll_index, roll_digest(self.game, self.roll_index, openings),
                            openings, tuple(self._voided))
        self.rolls.append(record)
        self.roll_index += 1
        self._attempt = {}
        self._voided = []
        return record

    def _seat(self, seat: int) -> _Seat:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self._seats):
            raise SeatNotActive(seat if isinstance(seat, int) else None, f"no seat {seat!r} at this table")
        return self._seats[seat]

    def _active_seat(self, seat: int) -> _Seat:
        st = self._seat(seat)
        if seat not in self._active:
            raise SeatNotActive(seat, "the seat has forfeited its dice")
        return st

    def snapshot(self) -> tuple:
        """Everything the ledger holds, as a comparable value (tests: a refusal changes nothing)."""
        seats = tuple((s.gen, s.length, s.opened, s.prev, tuple(s.heads)) for s in self._seats)
        return (seats, tuple(self._active), tuple(sorted(self._attempt.items())), tuple(self._voided),
                self.roll_index, tuple(self.rolls), tuple(self.forfeited))
