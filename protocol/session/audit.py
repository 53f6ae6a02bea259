"""End-of-game audit from the log alone (SPEC §26.7).

Once every seat has opened its key share x_i and its shuffle witnesses, anyone can
(1) re-check every shuffle against its witness, in the order they happened, naming the
first shuffler whose output is not a re-randomised permutation of its input (a dropped,
duplicated or substituted card); (2) decrypt every card of every deck with x = Σx_i and
check each shuffled deck holds exactly what went in (the public labels of a new deck, or
the cards under the source handles of a reshuffle); (3) check every identity that was
revealed or claimed in play against its ciphertext.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from protocol.crypto import group as g
from protocol.poker import deck as mp
from protocol.session.dealing import DeckBook

__all__ = ["AuditReport", "run_audit"]


@dataclass(frozen=True)
class AuditReport:
    passed: bool
    shuffles_checked: int
    cards_opened: int
    seq: int | None = None       # the culprit's record when failed
    seat: int | None = None      # the culprit's seat when failed
    reason: str = ""


def _fail(checked: int, opened: int, seq: int | None, seat: int | None, reason: str) -> AuditReport:
    return AuditReport(False, checked, opened, seq, seat, reason)


def run_audit(book: DeckBook, secrets: Sequence[bytes],
              witnesses: Sequence[dict[int, mp.ShuffleWitness]]) -> AuditReport:
    """`secrets[s]` must already match Y_s (checked when seat s opened)."""
    x = g.scalar_from_int(0)
    for s in secrets:
        x = g.scalar_add(x, s)
    opened: dict[bytes, str | None] = {}

    def read(ct: mp.Ciphertext) -> str | None:
        key = ct.to_bytes()
        if key not in opened:
            try:
                opened[key] = mp.open_card(ct, [x], book.table)
            except mp.UnknownCard:
                opened[key] = None
        return opened[key]

    checked = 0
    for group in book.groups:
        for step in group.steps:
            witness = witnesses[step.seat].get(step.seq)
            if witness is None:
                return _fail(checked, len(opened), step.seq, step.seat, "no witness opened for this shuffle")
            try:
                mp.verify_shuffle_with_witness(step.before, step.after, witness, book.joint_key)
            except mp.ShuffleMismatch as exc:
                return _fail(checked, len(opened), step.seq, step.seat,
                             f"shuffle of {group.request.deck} does not check: {exc.reason}"
                             + (f" (output position {exc.position})" if exc.position is not None else ""))
            checked += 1
    for group in book.groups:
        start = (Counter(group.request.labels) if group.request.labels is not None
                 else Counter(read(ct) for ct in group.start))
        final = group.steps[-1].after if group.steps else group.start
        if Counter(read(ct) for ct in final) != start:
            first = group.steps[0] if group.steps else None
            return _fail(checked, len(opened), first and first.seq, first and first.seat,
                         f"deck {group.request.deck} does not hold what went into it")
    for ct in book.cipher.values():
        read(ct)
    for claim in book.claims:
        actual = read(book.cipher[claim.handle])
        if actual != claim.label:
            return _fail(checked, len(opened), claim.seq, claim.seat,
                         f"card #{claim.handle} was stated as {claim.label!r} but is {actual!r}")
    return AuditReport(True, checked, len(opened))
