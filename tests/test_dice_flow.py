"""Fair dice over signed events, as SPEC §33.8 says the session will run them: three peers
sign `dice-chain` and `dice-open` events, each peer's ledger takes every event, a chain
runs out and is renewed, a seat comes back from its secrets, a withholder is forfeited,
and a third party holding only the signed events recomputes every roll."""
from __future__ import annotations

import pytest

from protocol import codec
from protocol.crypto import Identity
from protocol.crypto import dice as d
from protocol.log import ZERO_HASH, SignedEvent, parse_event, sign_event

GAME = bytes(range(16))
SEATS = 3


class Table:
    """Three peers; `events` is the signed log, `forfeits` the heights at which the
    co-signed forfeit of a seat was written (standing in for that event, §33.8)."""

    def __init__(self, length: int) -> None:
        self.ids = [Identity.from_seed(bytes([40 + s]) * 32) for s in range(SEATS)]
        self.seat_of = {ident.public_key_bytes: s for s, ident in enumerate(self.ids)}
        self.seats = [d.DiceSeat(GAME, s, length) for s in range(SEATS)]
        self.ledgers = [d.DiceLedger(GAME, SEATS) for _ in range(SEATS)]
        self.secrets: list[dict] = [{} for _ in range(SEATS)]
        self.events: list[SignedEvent | tuple[str, int]] = []

    def write(self, seat: int, kind: str, body: dict) -> None:
        prev = ZERO_HASH if not self.events else b"\x01" * 32   # chaining is §22's business
        ev = sign_event(self.ids[seat], GAME, len(self.events), prev, kind, body)
        self.events.append(ev)
        for ledger in self.ledgers:
            deliver(ledger, parse_event(ev.wire, expected_game=GAME), self.seat_of)

    def roll(self, sides: int, count: int, roller: int, withhold: int | None = None) -> d.RollRecord:
        me = self.ledgers[roller]
        while True:
            for s in me.needs_chain():
                body = self.seats[s].chain_body(self.ledgers[s])
                self.secrets[s].update(self.seats[s].secret_entry(body["gen"]))   # before it is sent
                self.write(s, d.CHAIN_KIND, body)
            for s in d.opening_order(me.pending(), roller if roller in me.active else None):
                if s == withhold:
                    # silent: the others' co-signed forfeit, then the roll is drawn again
                    self.events.append(("forfeit", s))
                    for ledger in self.ledgers:
                        ledger.forfeit(s)
                    withhold = None
                    break
                before = len(me.rolls)
                self.write(s, d.OPEN_KIND, self.seats[s].open_body(self.ledgers[s]))
                if len(me.rolls) > before:
                    return me.rolls[-1]


def deliver(ledger: d.DiceLedger, ev: SignedEvent, seat_of: dict[bytes, int]) -> d.RollRecord | None:
    seat = seat_of[ev.author]
    if ev.kind == d.CHAIN_KIND:
        ledger.add_chain(seat, d.parse_chain_body(seat, ev.body))
        return None
    roll, link = d.parse_open_body(seat, ev.body)
    return ledger.open(seat, roll, link)


def replay(items: list, seat_of: dict[bytes, int]) -> d.DiceLedger:
    """A third party's check: only the wires and the forfeits, nothing secret."""
    ledger = d.DiceLedger(GAME, SEATS)
    for item in items:
        if isinstance(item, tuple):
            ledger.forfeit(item[1])
        else:
            deliver(ledger, parse_event(item.wire, expected_game=GAME), seat_of)
    return ledger


def test_a_game_of_rolls_with_a_renewed_chain_a_returning_seat_and_a_withholder():
    t = Table(length=3)
    rolls = [t.roll(6, 2, roller=k % SEATS) for k in range(4)]
    assert [r.index for r in rolls] == [0, 1, 2, 3]
    kinds = [e.kind for e in t.events]
    assert kinds.count(d.CHAIN_KIND) == 6 and kinds.count(d.OPEN_KIND) == 12   # a fresh chain each at roll 3
    assert [o.gen for o in rolls[3].openings] == [1, 1, 1]
    # seat 1 comes back: its chains rebuilt from its secrets file's map (through the codec)
    merged = codec.decode(codec.encode(t.secrets[1]))
    t.seats[1] = d.DiceSeat.from_secrets(GAME, 1, merged, length=3)
    rolls.append(t.roll(6, 2, roller=1))
    # roll 5: the roller (seat 2) opens last, sees the roll and withholds; it is forfeited
    rolls.append(t.roll(6, 2, roller=2, withhold=2))
    assert t.ledgers[0].active == (0, 1) and [o.seat for o in rolls[-1].openings] == [0, 1]
    assert [o.seat for o in rolls[-1].voided] == [0, 1]
    rolls.append(t.roll(20, 1, roller=0))
    assert len({ledger.snapshot() for ledger in t.ledgers}) == 1
    verifier = replay(t.events, t.seat_of)
    assert verifier.rolls == rolls
    assert [r.faces(6, 2) for r in verifier.rolls] == [r.faces(6, 2) for r in rolls]


def test_a_tampered_or_misattributed_opening_is_refused_naming_its_seat():
    t = Table(length=4)
    for k in range(2):
        t.roll(6, 1, roller=k)
    last = next(i for i in range(len(t.events) - 1, -1, -1) if t.events[i].kind == d.OPEN_KIND)
    ev = t.events[last]
    seat = t.seat_of[ev.author]
    # the author re-signs its opening with another value: every checker refuses it, naming it
    forged = sign_event(t.ids[seat], GAME, ev.seq, ev.prev, d.OPEN_KIND, d.open_body(ev.body["roll"], bytes(32)))
    with pytest.raises(d.WrongLink) as e:
        replay(t.events[:last] + [forged], t.seat_of)
    assert e.value.seat == seat
    # another seat signs the same link as its own: not its chain
    other = (seat + 1) % SEATS
    copied = sign_event(t.ids[other], GAME, ev.seq, ev.prev, d.OPEN_KIND, ev.body)
    with pytest.raises(d.DiceError) as e:
        replay(t.events[:last] + [copied], t.seat_of)
    assert e.value.seat == other
    # an opening of roll 0 replayed at roll 1
    first_open = next(x for x in t.events if x.kind == d.OPEN_KIND)
    with pytest.raises(d.WrongRoll):
        replay(t.events + [first_open], t.seat_of)


def test_a_seat_owes_only_what_its_ledger_says():
    t = Table(length=2)
    with pytest.raises(ValueError):
        t.seats[0].open_body(t.ledgers[0])               # no chain yet
    t.roll(6, 1, roller=0)
    with pytest.raises(ValueError):
        t.seats[0].chain_body(t.ledgers[0])              # links left
    lost = d.DiceSeat(GAME, 0, 2)                         # a seat that lost its secrets
    with pytest.raises(ValueError):
        lost.open_body(t.ledgers[0])
