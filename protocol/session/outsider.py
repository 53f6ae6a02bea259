"""What an outsider reads from a log alone (SPEC §25.7): every card whose ciphertext has
a published decryption share from every seat.

No rules engine and no deck bookkeeping: the seats are the authors of the `key-reveal`
events, the ciphertexts are the outputs of the `shuffle` and `refresh` events (their `d`),
and each `shares` or `hand-over` event says which ciphertext each share answers (`for` =
[handle, C1], SPEC §26.4, §26.13). Wherever the shares of all seats of one C1 are in the
log, anyone computes the card as C2 − ΣD; "all seats" are those still in the game when the
ciphertext was made (a seat that left, by a `hand-over` or a `forfeit`, is needed only by
the ciphertexts made before it left). The invariant of §25.7 is that this happens only for cards shown to
the table; `asv verify` (protocol/session/verify.py) and the leak measure
(benchmarks/outsider_reads.py) use this reader. Shares are not checked here: share_check.py
and a full replay do that.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from protocol.crypto import group as g
from protocol.poker import deck as mp
from protocol.log.events import SignedEvent

__all__ = ["ReadableCard", "OutsiderReader", "readable_cards"]


@dataclass(frozen=True)
class ReadableCard:
    seq: int              # the event whose share completed the set
    author: bytes         # its author
    handle: int           # the handle the completing share answers
    c1: bytes
    label: str | None     # what C2 − ΣD decodes to; None: no card of the table


class OutsiderReader:
    """Feed the events of one chain in order (`add`); each call returns the cards that
    event made readable."""

    def __init__(self, table: mp.CardTable | None = None) -> None:
        self.table = table
        self.seats: list[bytes] = []                 # key-reveal authors: seat order
        self.c2: dict[bytes, bytes] = {}             # C1 -> C2 of every ciphertext in the log
        self.shares: dict[bytes, dict[bytes, bytes]] = {}   # C1 -> author -> D
        self.needed: dict[bytes, frozenset[bytes]] = {}     # C1 -> the seats in the game when it was made
        self.departed: set[bytes] = set()
        self.read: list[ReadableCard] = []

    def add(self, ev: SignedEvent) -> list[ReadableCard]:
        body = ev.body if isinstance(ev.body, dict) else {}
        if ev.kind == "key-reveal":
            self.seats.append(ev.author)
        elif ev.kind in ("shuffle", "refresh") and isinstance(body.get("d"), bytes):
            d, present = body["d"], frozenset(self.seats) - self.departed
            for i in range(0, len(d) - mp.CIPHERTEXT_BYTES + 1, mp.CIPHERTEXT_BYTES):
                self.c2[d[i:i + 32]] = d[i + 32:i + 64]
                self.needed.setdefault(d[i:i + 32], present)
        elif ev.kind == "shares":
            return self._shares(ev, body)
        elif ev.kind == "hand-over":
            out = self._shares(ev, body)
            self.departed.add(ev.author)
            return out
        elif ev.kind == "forfeit" and isinstance(body.get("silent"), bytes):
            self.departed.add(body["silent"])
        return []

    def _shares(self, ev: SignedEvent, body: dict) -> list[ReadableCard]:
        shares, answered = body.get("s"), body.get("for")
        if not isinstance(shares, list) or not isinstance(answered, list):
            return []
        out = []
        for raw, item in zip(shares, answered):
            if not (isinstance(raw, bytes) and len(raw) >= 32 and isinstance(item, list) and len(item) == 2):
                continue
            handle, c1 = item
            known = self.shares.setdefault(c1, {})
            complete_before = self._complete(c1, known)
            known[ev.author] = raw[:32]
            if complete_before or not self._complete(c1, known) or c1 not in self.c2:
                continue
            card = ReadableCard(ev.seq, ev.author, handle, c1, self._decode(c1, known))
            out.append(card)
        self.read.extend(out)
        return out

    def _complete(self, c1: bytes, known: dict[bytes, bytes]) -> bool:
        needed = self.needed.get(c1, frozenset(self.seats))
        return bool(needed) and all(s in known for s in needed)

    def _decode(self, c1: bytes, known: dict[bytes, bytes]) -> str | None:
        if self.table is None:
            return None
        try:
            needed = self.needed.get(c1, frozenset(self.seats))
            point = mp.combine_shares(mp.Ciphertext(c1, self.c2[c1]), [known[s] for s in self.seats if s in needed])
            label = self.table.label_of(point)
        except (mp.UnknownCard, g.GroupError, ValueError):
            return None
        return label.decode() if isinstance(label, bytes) else label


def readable_cards(events: Iterable[SignedEvent], labels: Sequence[str] | None = None) -> list[ReadableCard]:
    """Every card of the chain `events` that an outsider can decode (SPEC §25.7)."""
    reader = OutsiderReader(mp.CardTable(tuple(labels)) if labels is not None else None)
    for ev in events:
        reader.add(ev)
    return reader.read
