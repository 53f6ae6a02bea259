"""The conviction halt (SPEC §29.19): a seat that both voted an abort and refused it.

A refusal (§29.6) says "I applied the due peer's event at h"; a vote says "I saw nothing
of it at h". A seat that signs both can get one honest peer to withdraw its vote and go on
while another completes the abort with that same vote. When a peer holds a complete abort
at h whose votes include seat L's, and L's refusal about h, it writes a halt at h, after
the same head as the abort, carrying both: the abort proves what every other seat voted
(so every honest peer may take it in place of what it holds at h, §29.19), the refusal
contradicts L's vote inside it. The halt names L; nothing more is taken.
"""
from __future__ import annotations

from protocol.crypto import Identity, fingerprint
from protocol.errors import EventError
from protocol.log import SignedEvent, parse_event, sign_event
from protocol.session.abort import ABORT_KIND, REFUSE_KIND, VOTE_BASE, check_abort, voters
from protocol.session.body import check_fields, want_bytes, want_str
from protocol.session.errors import BadBody, VotedAndRefused
from protocol.session.phases import EventKind

__all__ = ["make_conviction", "check_conviction", "convicts", "CONVICTION_FIELDS"]

CONVICTION_FIELDS = {"culprit", "abort", "refusal", "reason"}
_REASON = "voted the due peer silent and refused that vote at the same height"


def convicts(abort: SignedEvent, refusal: SignedEvent) -> bool:
    """Does `refusal` contradict a vote inside the complete `abort` (same height, same head,
    same silent peer, by one of its voters)? The abort's votes are checked elsewhere."""
    silent = abort.body.get("silent")
    return (abort.kind == ABORT_KIND and refusal.kind == REFUSE_KIND and refusal.seq == VOTE_BASE + abort.seq
            and refusal.prev == abort.prev and refusal.author != silent
            and refusal.body.get("silent") == silent and isinstance(refusal.body.get("seen"), bytes))


def make_conviction(identity: Identity, session, abort: SignedEvent, refusal: SignedEvent) -> SignedEvent:
    """The halt at the abort's height (the session's height: pass the session before the
    abort) carrying the abort and the refusal that contradicts one of its votes."""
    return sign_event(identity, session.game, abort.seq, abort.prev, EventKind.HALT,
                      {"culprit": refusal.author, "abort": abort.wire, "refusal": refusal.wire,
                       "reason": _REASON})


def check_conviction(session, ev: SignedEvent) -> str:
    """Raise a SessionError unless `ev` is a sound conviction halt at the session's height
    (the caller checked the phase and the chain position); return the note to log. Sets the
    session's `evidence` to the refusal and its error, as a halt's evidence (§29.10)."""
    seq, author, body = ev.seq, ev.author, ev.body
    check_fields(body, {"culprit": want_bytes(32), "abort": want_bytes(), "refusal": want_bytes(),
                        "reason": want_str(300)}, seq, author)
    try:
        abort = parse_event(body["abort"], expected_game=session.game)
        refusal = parse_event(body["refusal"], expected_game=session.game)
    except EventError as exc:
        raise BadBody(f"a conviction carries signed events of this game: {exc.reason}", seq=seq, author=author) from None
    if abort.kind != ABORT_KIND or abort.seq != seq or abort.prev != ev.prev:
        raise BadBody("a conviction carries a complete abort at its own height, after its head", seq=seq, author=author)
    check_abort(session, abort)   # every other seat's vote, the culprit's included
    culprit = body["culprit"]
    if (not convicts(abort, refusal) or refusal.author != culprit or culprit == author
            or culprit not in voters(session.roster, abort.body["silent"])):
        raise BadBody("the refusal must be the culprit's, about the abort's height, head and silent peer",
                      seq=seq, author=author)
    error = VotedAndRefused(f"{fingerprint(culprit)} {_REASON}", seq=seq, author=culprit)
    session.evidence = (refusal, error)
    return f"halt: {fingerprint(culprit)} at seq {seq}: {type(error).__name__}: {error.reason}"[:380]
