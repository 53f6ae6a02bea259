"""The abort event (SPEC §29.6): a peer names a silent peer and the game stops.

When the one peer due to write has been silent past the timeout, another roster peer
writes `abort` at the waiting height. Its body names the silent key and carries the
evidence: the seq of the last event the writer saw and how long it waited. Once accepted,
the session takes nothing more; the log stays a valid (unfinished) chain, and `asv
verify` reports the abort (exit 2: valid, not finished).
"""
from __future__ import annotations

from protocol.log import SignedEvent, sign_event
from protocol.crypto import Identity, fingerprint
from protocol.session.body import check_fields, is_int, want_bytes
from protocol.session.errors import BadBody, UnexpectedKind

__all__ = ["ABORT_KIND", "check_abort", "make_abort", "abort_writers", "MAX_WAIT"]

ABORT_KIND = "abort"
MAX_WAIT = 10 ** 7      # seconds; a sanity bound on the claimed wait


def check_abort(session, ev: SignedEvent) -> str:
    """Raise a SessionError unless `ev` is an acceptable abort at the session's height;
    return the note to log. Called before anything changes (SPEC §26.3 order)."""
    seq, author, body = ev.seq, ev.author, ev.body
    if session.phase in ("done", "aborted") or session.roster is None:
        raise UnexpectedKind(f"no abort may be written in phase {session.phase!r}", seq=seq, author=author)
    check_fields(body, {"silent": want_bytes(32), "last": is_int, "waited": is_int}, seq, author)
    due = session.next_author()
    if body["silent"] != due:
        raise BadBody("an abort must name the peer due to write at this height", seq=seq, author=author)
    if author == due or author not in session.roster:
        raise BadBody("an abort is written by another peer of the roster", seq=seq, author=author)
    if body["last"] != seq - 1:
        raise BadBody(f'"last" must be the seq of the last event seen ({seq - 1})', seq=seq, author=author)
    if not 1 <= body["waited"] <= MAX_WAIT:
        raise BadBody('"waited" must be whole seconds, at least 1', seq=seq, author=author)
    return f"abort: {fingerprint(due)} silent for {body['waited']} s after seq {seq - 1}"


def make_abort(identity: Identity, session, waited: float) -> SignedEvent:
    """Sign an abort naming the peer the session waits for (not yet applied)."""
    seq = session.chain.height
    body = {"silent": session.next_author(), "last": seq - 1, "waited": max(1, int(waited))}
    return sign_event(identity, session.game, seq, session.chain.head, ABORT_KIND, body)


def abort_writers(roster: list[bytes], silent: bytes) -> list[bytes]:
    """Who writes the abort, in order of escalation: the roster peers after the silent
    one, cyclically (SPEC §29.6). The k-th writes after (k + 1) timeouts."""
    i = roster.index(silent)
    return [roster[(i + k) % len(roster)] for k in range(1, len(roster))]
