"""Signed evidence and the halt event (SPEC §29.10): a refused event convicts its author.

When the author due at height h signs an event that every honest replica must refuse for
what it says (a wrong state hash, a bad proof, a bad share, an illegal move, a malformed
body ...), that event is itself the proof: it is validly signed, chained to the head
and written by the one peer allowed to write there, and anyone who replays the log up to
h refuses it again for the same reason. A peer that saw it writes a `halt` at h carrying
the event's exact wire; the session checks the evidence by replaying it and takes nothing
after the halt. The first peer after the culprit in lobby order writes the halt at once,
the k-th only after (k + 1) timeouts, so normally every log holds one and the same halt.
"""
from __future__ import annotations

from protocol.crypto import Identity, fingerprint
from protocol.errors import EventError
from protocol.log import SignedEvent, parse_event, sign_event
from protocol.session.body import check_fields, want_bytes, want_str
from protocol.session.errors import BadBody, DeckCorrupted, SessionError, SessionHalted, UnexpectedKind
from protocol.session.phases import ENDED, EventKind

__all__ = ["HALT_KIND", "MAX_REASON", "check_halt", "make_halt", "convicting"]

HALT_KIND = EventKind.HALT
MAX_REASON = 300


def convicting(error: BaseException) -> bool:
    """Does this refusal of an event (already checked to come from the due author, chained to
    the head) prove its author wrong? Everything the session refuses for the event's own
    content does; a deck found corrupted by a valid event does not (SPEC §26.4)."""
    return isinstance(error, SessionError) and not isinstance(error, (DeckCorrupted, SessionHalted))


def make_halt(identity: Identity, session, evidence: SignedEvent, error: EventError) -> SignedEvent:
    """This peer's halt at the session's height, carrying the refused event (not applied)."""
    reason = f"{type(error).__name__}: {error.reason}"[:MAX_REASON]
    return sign_event(identity, session.game, session.chain.height, session.chain.head, HALT_KIND,
                      {"culprit": evidence.author, "evidence": evidence.wire, "reason": reason})


def check_halt(session, ev: SignedEvent) -> str:
    """Raise a SessionError unless `ev` is a sound halt at the session's height; return the
    note to log. The evidence is replayed through `session.receive`: if it is in fact a
    valid event it is applied (it is the due author's event) and the halt is refused."""
    seq, author, body = ev.seq, ev.author, ev.body
    if session.phase in ENDED or session.roster is None:
        raise UnexpectedKind(f"no halt may be written in phase {session.phase!r}", seq=seq, author=author)
    if "refusal" in body:   # a seat that voted and refused at this height (SPEC §29.19)
        from protocol.session.conviction import check_conviction
        if author not in session.roster:
            raise BadBody("a halt is written by a peer of the roster", seq=seq, author=author)
        return check_conviction(session, ev)
    check_fields(body, {"culprit": want_bytes(32), "evidence": want_bytes(), "reason": want_str(MAX_REASON)},
                 seq, author)
    if author not in session.roster:
        raise BadBody("a halt is written by a peer of the roster", seq=seq, author=author)
    try:
        evidence = parse_event(body["evidence"], expected_game=session.game)
    except EventError as exc:
        raise BadBody(f"the evidence is not a signed event of this game: {exc.reason}", seq=seq, author=author) from None
    known = session.evidence
    # refused here already: it was due then (a wrong state hash has changed this replica since)
    due = evidence.author if known is not None and known[0].wire == evidence.wire else session.next_author()
    if (evidence.seq != seq or evidence.prev != ev.prev or evidence.author != due or evidence.author == author
            or body["culprit"] != due or evidence.kind in (HALT_KIND, "abort")):
        raise BadBody("the evidence must be an event of the peer due at this height, after this head",
                      seq=seq, author=author)
    if known is not None and known[0].wire == evidence.wire:
        error = known[1]
    else:
        try:
            session.receive(evidence)
        except EventError as exc:
            if not convicting(exc):
                raise BadBody(f"the evidence proves nothing: {exc}", seq=seq, author=author) from None
            error = exc
        else:
            raise BadBody("the evidence is a valid event (it is now applied)", seq=seq, author=author)
    return f"halt: {fingerprint(due)} at seq {seq}: {type(error).__name__}: {error.reason}"[:MAX_REASON + 80]
