"""Takebacks (SPEC §29.17): the last action is taken back when every other seat says yes,
and only while nothing hidden has been seen since it.

Three statements, signed events that are never chain records (like the abort's votes,
SPEC §29.6), each with seq TAKEBACK_BASE + h, where h is the height the takeback would
take and `prev` the head (the hash of the action at h − 1):

    takeback-ask   by the seat that asks, body {"a": the action's text, "n": 0, 1 or 2}
    takeback-yes   by another seat, body {"ask": SHA-256 of the ask's wire}
    takeback-no    by another seat (or the asker, withdrawing), the same body

`n` numbers one seat's asks at one height (a refused ask may be asked again, at most
MAX_ASKS times), so each ask is a new wire and each answer names the ask it answers.
The `takeback` event itself is a chain record at h, written by
the seat due at h in place of its action (so no honest peer can fork: one author is due
at a height), carrying the ask and the yes of every seat but the asker and itself. The
session then puts back the state from before the undone action (a copy kept when it was
applied), so the takeback's `h` is the state hash before that action.

Transport-free: the node (protocol/node/_takeback.py) carries the statements and decides
when to write; the session checks the takeback like any event (so `asv verify` does too).
"""
from __future__ import annotations

from protocol.crypto import Identity, fingerprint
from protocol.errors import EventError
from protocol.log import SignedEvent, event_hash, parse_event, sign_event
from protocol.session.body import check_fields, want_bytes, want_list
from protocol.session.cosigned import cosigned_problem
from protocol.session.errors import BadBody, SessionError
from protocol.session.phases import SEQ_SPAN, EventKind, SeqBase

__all__ = ["MAX_ASKS", "TAKEBACK_KIND", "ASK_KIND", "YES_KIND", "NO_KIND", "TAKEBACK_BASE", "STATEMENT_KINDS",
           "CannotTakeBack", "is_takeback_statement", "make_ask", "make_answer", "undo_problem",
           "statement_problem", "cosigners", "check_takeback", "write_takeback"]

TAKEBACK_KIND = EventKind.TAKEBACK
ASK_KIND = EventKind.TAKEBACK_ASK
YES_KIND = EventKind.TAKEBACK_YES
NO_KIND = EventKind.TAKEBACK_NO
STATEMENT_KINDS = (ASK_KIND, YES_KIND, NO_KIND)
TAKEBACK_BASE = int(SeqBase.TAKEBACK)   # seq of a statement about height h: TAKEBACK_BASE + h
MAX_ASKS = 3                            # asks one seat may make at one height
_REVEALING = ("shares", "refresh", "dice-open", "hand-over")   # events after which something hidden was seen


class CannotTakeBack(SessionError):
    """No takeback can be asked here (the reason says why); nothing was sent."""
    spec = "§29.17"


def is_takeback_statement(ev: SignedEvent) -> bool:
    return ev.kind in STATEMENT_KINDS and TAKEBACK_BASE <= ev.seq < TAKEBACK_BASE + SEQ_SPAN


def undo_problem(session) -> str | None:
    """Why the last action cannot be taken back now, in words, or None (SPEC §29.17):
    the head must be an action that played no hidden card and whose application showed
    or dealt nothing and left a seat to move (no deck operation or roll under way)."""
    if session.phase != "play" or session.next_kind() != EventKind.ACTION:
        return "a takeback can be asked only while a seat is to move in play"
    events = session.chain.events
    last = next((i for i in range(len(events) - 1, -1, -1) if events[i].kind == EventKind.ACTION), None)
    if last is None:
        return "no action has been played yet"
    if events[-1].kind == TAKEBACK_KIND:
        return "the last action was taken back already"
    if last != len(events) - 1:
        later = events[last + 1:]
        seen = next((e for e in later if e.kind in _REVEALING), None)
        if seen is not None:
            return (f"a card or a roll was revealed since the action at event {last} ({seen.kind} at event "
                    f"{seen.seq}): what was seen cannot be un-seen, so taking it back would let a seat try "
                    "again knowing it")
        return (f"the game went on after the action at event {last} ({later[0].kind} at event {later[0].seq}); "
                "only an action that is the last event can be taken back")
    point = session.undo_point
    if point is None or point[0] != last:
        return (f"the action at event {last} showed, dealt or rolled something, so what was seen cannot be "
                "un-seen")
    return None


def make_ask(identity: Identity, session, n: int = 0) -> SignedEvent:
    """This seat's n-th ask (from 0) to take back the head action (raises CannotTakeBack if it
    cannot be, or after MAX_ASKS asks at this height)."""
    problem = undo_problem(session)
    h = session.chain.height
    if problem is None and not 0 <= n < MAX_ASKS:
        problem = f"the takeback was asked {MAX_ASKS} times here already"
    if problem is not None:
        raise CannotTakeBack(problem, seq=h, author=identity.public_key_bytes)
    return sign_event(identity, session.game, TAKEBACK_BASE + h, session.chain.head, ASK_KIND,
                      {"a": session.chain.events[-1].body["a"], "n": n})


def make_answer(identity: Identity, ask: SignedEvent, yes: bool) -> SignedEvent:
    return sign_event(identity, ask.game, ask.seq, ask.prev, YES_KIND if yes else NO_KIND, {"ask": ask.hash})


def cosigners(session, asker: bytes, writer: bytes) -> list[bytes]:
    """The seats whose yes a takeback carries: every seat but the asker and the writer, in seat order."""
    return [k for k in session.seat_keys if k not in (asker, writer)]


def statement_problem(session, ev: SignedEvent, ask: SignedEvent | None = None) -> str | None:
    """Why `ev` is not a sound statement about this session's head (an ask; or, given the
    ask, a yes or no about it), or None."""
    h = session.chain.height
    if ev.author not in session.seat_of:
        return f"{fingerprint(ev.author)} holds no seat"
    if ev.seq != TAKEBACK_BASE + h or ev.prev != session.chain.head:
        return f"the statement of {fingerprint(ev.author)} is about another height or head"
    if ask is None:
        if ev.kind != ASK_KIND:
            return f"a {ASK_KIND} is needed, not {ev.kind}"
        n = ev.body.get("n")
        if (set(ev.body) != {"a", "n"} or ev.body["a"] != session.chain.events[-1].body.get("a")
                or not isinstance(n, int) or isinstance(n, bool) or not 0 <= n < MAX_ASKS):
            return f"the ask of {fingerprint(ev.author)} does not name the last action's text and its number"
        return None
    if ev.kind not in (YES_KIND, NO_KIND) or ev.body != {"ask": ask.hash}:
        return f"the answer of {fingerprint(ev.author)} is not about this ask"
    return None


def _parse(wire: object, game: bytes, what: str) -> tuple[SignedEvent | None, str | None]:
    if not isinstance(wire, bytes):
        return None, f"{what} must be bin"
    try:
        return parse_event(wire, expected_game=game), None
    except EventError as exc:
        return None, f"{what} is not a valid signed event ({type(exc).__name__}: {exc.reason})"


def check_takeback(session, seq: int, author: bytes, body: dict) -> tuple[int, str]:
    """Raise BadBody unless `body` is a sound takeback at the session's height by `author`
    (the seat due, checked before); return (the undone action's seq, the note to log)."""
    check_fields(body, {"ask": want_bytes(), "votes": want_list()}, seq, author)
    problem = undo_problem(session)
    if problem is not None:
        raise BadBody(f"nothing can be taken back here: {problem}", seq=seq, author=author)
    ask, reason = _parse(body["ask"], session.game, "the ask")
    if ask is not None:
        reason = statement_problem(session, ask)
    if reason is not None:
        raise BadBody(reason, seq=seq, author=author)
    want = cosigners(session, ask.author, author)

    def about(vote: SignedEvent) -> str | None:
        reason = statement_problem(session, vote, ask)
        if reason is None and vote.kind != YES_KIND:
            reason = f"{fingerprint(vote.author)} said no"
        return reason

    reason = cosigned_problem(
        session.game, want, body["votes"], noun="a yes", about=about,
        count=(f"a takeback carries the yes of all {len(want)} other seat(s) "
               f"({' '.join(fingerprint(k) for k in want) or 'none'}), not {len(body['votes'])}"),
        order=f"the yes of every other seat is needed, in seat order: {' '.join(map(fingerprint, want))}")
    if reason is not None:
        raise BadBody(reason, seq=seq, author=author)
    undone = seq - 1
    return undone, (f"takeback of {session.chain.events[undone].body['a']!r} (event {undone}) asked by "
                    f"{fingerprint(ask.author)}; agreed by every seat")


def write_takeback(peer, ask: SignedEvent, votes: dict[bytes, SignedEvent]) -> bytes:
    """The takeback at the peer's height (it must be the seat due), carrying `ask` and the
    yes in `votes` of every seat but the asker and this one; checked, applied, logged, and
    its wire returned, like `SessionPeer.act`."""
    seq = peer.chain.height
    if peer.pending_obligation() != EventKind.ACTION:
        raise CannotTakeBack("only the seat due to act writes the takeback", seq=seq, author=peer.me)
    body = {"ask": ask.wire, "votes": [votes[k].wire for k in cosigners(peer, ask.author, peer.me)]}
    note = peer._apply(seq, peer.me, TAKEBACK_KIND, body)
    body["h"] = peer.state_hash()
    ev = sign_event(peer.identity, peer.game, seq, peer.chain.head, TAKEBACK_KIND, body)
    peer._accept(ev, note)
    return ev.wire


def answer_hash(ask_wire: bytes) -> bytes:
    return event_hash(ask_wire)
