"""Check every shuffle and refresh proof of a log without the game's rules (SPEC §26.4).

The first shuffle of every deck operation names its input: `labels` for a new deck (the
public cards (G, M + Y), §25.4) or `in` for a reshuffle (the input ciphertexts, each one a
ciphertext an earlier shuffle or refresh of the log made, or a face-up card's public
encryption, C1 = G, whose card anyone reads as C2 − Y); every later shuffle takes the previous shuffle's output. A `refresh`
names its input card in `for`. With the joint key from the `key-reveal` events, a third
party holding only the log checks every proof; it needs no rules engine and no deck
bookkeeping. A seat that leaves (`hand-over`, `forfeit`, §26.13) leaves the joint key, and
every card whose share of it is in the log drops that share, (C1, C2 − D), as the replay
does; later refreshes name those cards as their input. (That the input is the cards under the right handles is what a full replay
adds, SPEC §26.10.)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from protocol.crypto import group as g
from protocol.crypto import point_cache
from protocol.crypto.identity import fingerprint
from protocol.log.events import SignedEvent
from protocol.poker import deck as mp
from protocol.poker import refresh as rf
from protocol.poker import shuffle_proof as sp
from protocol.session.dealing import refresh_context, shuffle_context

__all__ = ["ShuffleCheck", "check_shuffles"]


@dataclass
class ShuffleCheck:
    shuffles: int = 0                 # shuffle proofs checked
    named: int = 0                    # of them, first shuffles that named their input
    refreshes: int = 0                # refresh proofs checked (one per card)
    failures: list[tuple[int, str, str]] = field(default_factory=list)   # (seq, author, reason)


def _cards(data: object) -> list[mp.Ciphertext]:
    if not isinstance(data, bytes) or len(data) % mp.CIPHERTEXT_BYTES:
        raise ValueError("not a deck of 64-byte cards")
    return [mp.Ciphertext(data[i:i + 32], data[i + 32:i + 64]) for i in range(0, len(data), mp.CIPHERTEXT_BYTES)]


class _Checker:
    def __init__(self) -> None:
        self.publics: list[bytes] = []
        self.made: dict[bytes, mp.Ciphertext] = {}     # C1 -> every ciphertext the log made
        self.last: list[mp.Ciphertext] | None = None   # the previous shuffle's output
        self.out = ShuffleCheck()
        self.seats: list[bytes] = []                   # key-reveal authors, seat order
        self.departed: set[bytes] = set()
        self.shares: dict[bytes, dict[bytes, bytes]] = {}   # C1 -> author -> D

    def joint(self) -> bytes:
        return g.sum_points([y for k, y in zip(self.seats, self.publics) if k not in self.departed])

    def record_shares(self, ev: SignedEvent) -> None:
        for raw, item in zip(ev.body.get("s") or [], ev.body.get("for") or []):
            if isinstance(raw, bytes) and isinstance(item, list) and len(item) == 2:
                self.shares.setdefault(item[1], {})[ev.author] = raw[:32]

    def depart(self, seat: bytes) -> None:
        """The seat's share leaves every card whose share of it is in the log (§26.13)."""
        self.departed.add(seat)
        for c1, ct in self.made.items():
            d = self.shares.get(c1, {}).get(seat)
            if d is not None:
                self.made[c1] = mp.Ciphertext(c1, g.sub(ct.c2, d))

    def shuffle(self, ev: SignedEvent) -> None:
        body = ev.body
        if "labels" in body:
            labels = body["labels"]
            if not isinstance(labels, list) or not all(isinstance(x, (str, bytes)) for x in labels):
                raise ValueError('"labels" must list the new deck\'s labels')
            before = [mp.Ciphertext(g.G, g.add(mp.card_point(x), self.joint())) for x in labels]
        elif "in" in body:
            before = _cards(body["in"])
            for i, ct in enumerate(before):
                if self.made.get(ct.c1) != ct and ct.c1 != g.G:
                    raise ValueError(f"input card {i} is no card the log made, nor a face-up card")
        elif self.last is not None:
            before = self.last
        else:
            raise ValueError("a first shuffle that names no input")
        after = self.last = _cards(body.get("d"))   # the next shuffle's input, even if this proof fails
        sp.verify_shuffle(before, after, body.get("p"), self.joint(), shuffle_context(ev.game, ev.seq, ev.author),
                          fingerprint(ev.author))
        self.out.shuffles += 1
        self.out.named += "labels" in body or "in" in body
        self.made.update((ct.c1, ct) for ct in after)

    def refresh(self, ev: SignedEvent) -> None:
        body = ev.body
        after, proofs, answered = _cards(body.get("d")), body.get("p"), body.get("for")
        if not isinstance(answered, list) or not isinstance(proofs, bytes) or len(answered) != len(after) \
                or len(proofs) != rf.REFRESH_PROOF_BYTES * len(after):
            raise ValueError('"for", "d" and "p" must answer one card each')
        for i, ((handle, raw), ct) in enumerate(zip(answered, after)):
            before, = _cards(raw)
            if self.made.get(before.c1) != before:
                raise ValueError(f"refreshed card {i} is no card the log made")
            n = rf.REFRESH_PROOF_BYTES
            rf.verify_refresh(before, ct, proofs[n * i:n * i + n], self.joint(),
                              refresh_context(ev.game, ev.seq, ev.author, handle), fingerprint(ev.author))
            self.out.refreshes += 1
            self.made[ct.c1] = ct


def check_shuffles(events: list[SignedEvent]) -> ShuffleCheck:
    """Check every shuffle and refresh proof of `events` (a game's chain, in order)."""
    checker = _Checker()
    for ev in events:
        try:
            if ev.kind == "key-reveal" and isinstance(ev.body.get("k"), bytes):
                checker.publics.append(point_cache.valid(ev.body["k"][:32]))
                checker.seats.append(ev.author)
            elif ev.kind == "shares":
                checker.record_shares(ev)
            elif ev.kind == "hand-over":
                checker.record_shares(ev)
                checker.depart(ev.author)
            elif ev.kind == "forfeit" and isinstance(ev.body.get("silent"), bytes):
                checker.depart(ev.body["silent"])
            elif ev.kind == "shuffle":
                checker.shuffle(ev)
            elif ev.kind == "refresh":
                checker.refresh(ev)
        except (ValueError, TypeError, KeyError) as exc:   # every proof and point error is a ValueError
            checker.out.failures.append((ev.seq, fingerprint(ev.author), f"{type(exc).__name__}: {exc}"))
    return checker.out
