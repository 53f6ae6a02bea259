"""Check the decryption shares of a log without the game's rules (SPEC §26.4).

Every `shares` and `hand-over` event says what it answers: `for` = [handle, C1] per share. With the key
shares Y_i published in the `key-reveal` events, a third party holding only the log checks
each share's Chaum-Pedersen proof for the statement (Y_i, C1, D_i) under the context of
§26.4; it needs no rules engine and no deck bookkeeping. (That C1 is the ciphertext under
that handle is what a full replay adds, SPEC §26.10.)
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field

from protocol.crypto import point_cache
from protocol.poker import deck as mp
from protocol.crypto import proofs
from protocol.session.dealing import share_context
from protocol.session.phases import EventKind
from protocol.log.events import SignedEvent
from protocol.crypto.identity import fingerprint

__all__ = ["ShareCheck", "check_shares"]


@dataclass
class ShareCheck:
    checked: int = 0
    failures: list[tuple[int, str, int, str]] = field(default_factory=list)   # (seq, author, index, reason)


def check_shares(events: list[SignedEvent]) -> ShareCheck:
    """Check every share of every `shares` and `hand-over` event in `events` (a game's
    chain, in order)."""
    publics: dict[bytes, bytes] = {}
    out = ShareCheck()
    for ev in events:
        if ev.kind == EventKind.KEY_REVEAL and isinstance(ev.body.get("k"), bytes):
            publics[ev.author] = ev.body["k"][:32]
        if ev.kind not in (EventKind.SHARES, EventKind.HAND_OVER):   # both say what they answer (§26.13)
            continue
        shares, answered = ev.body.get("s"), ev.body.get("for")
        name = fingerprint(ev.author)
        if not isinstance(shares, list) or not isinstance(answered, list) or len(shares) != len(answered):
            out.failures.append((ev.seq, name, -1, '"s" and "for" must be lists of one length'))
            continue
        for i, (raw, item) in enumerate(zip(shares, answered)):
            out.checked += 1
            try:
                handle, c1 = item
                point_cache.valid(c1)   # the C1 of a deck the log checked: a look-up (SPEC §25.12)
                share = mp.DecryptionShare.from_bytes(raw, name)
                context = mp.share_context(share_context(ev.game, ev.seq, handle), name)
                proofs.verify_equal_dlog(publics[ev.author], c1, share.share, share.proof, context)
            except (ValueError, TypeError, KeyError, struct.error) as exc:   # every proof error is a ValueError
                out.failures.append((ev.seq, name, i, f"{type(exc).__name__}: {exc}"))
    return out
