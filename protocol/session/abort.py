"""Co-signed aborts (SPEC §29.6): a silent peer is named only when every other seat says so.

When the peer due to write at height h stays silent, each other roster peer that has not
seen that peer's event at h signs an *abort vote*: an event of kind `abort-vote` whose
seq is VOTE_BASE + h (so it is never part of the chain and never collides with the
voter's own events at h), whose `prev` is the head the voter holds at h, and whose body
names the silent key. Once a peer holds the votes of every seat but the silent one, it
writes the `abort` event at h carrying all of them; only then does the abort take effect.

A voter never applies the named peer's event at h afterwards (`Ballot.bars`), and a peer
that applied that event never votes; so a late event and an abort are never both applied
by honest peers, and one insider alone cannot get an honest peer named silent in a game
of three or more. This module is transport-free: the node (protocol/node/_duty.py) decides when
to vote and carries the wires; the session checks the abort like any other event.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from protocol.crypto import Identity, fingerprint
from protocol.log import SignedEvent, sign_event
from protocol.session.body import check_fields, want_bytes, want_list
from protocol.session.cosigned import cosigned_problem
from protocol.session.errors import BadBody, UnexpectedKind
from protocol.session.phases import ENDED, EventKind, SeqBase

__all__ = ["votes_problem", "ABORT_KIND", "FORFEIT_KIND", "silence_kind", "VOTE_KIND", "REFUSE_KIND", "VOTE_BASE", "make_refusal", "check_abort", "make_vote", "make_abort", "voters",
           "abort_writers", "is_vote", "Ballot"]

ABORT_KIND = EventKind.ABORT
FORFEIT_KIND = EventKind.FORFEIT   # the same votes, where the game goes on without the seat (SPEC §26.14)
VOTE_KIND = EventKind.VOTE
REFUSE_KIND = EventKind.REFUSE
VOTE_AHEAD = 16          # votes kept for heights this far beyond the peer's own
VOTE_BASE = int(SeqBase.ABORT_VOTE)   # a vote about height h has seq VOTE_BASE + h: never a chain height


def voters(roster: list[bytes], silent: bytes) -> list[bytes]:
    """Every seat but the silent one, in lobby order: the abort needs all their votes."""
    return [k for k in roster if k != silent]


def abort_writers(roster: list[bytes], silent: bytes) -> list[bytes]:
    """Who writes the abort once the votes are in, in order of escalation: the roster peers
    after the silent one, cyclically. The first writes at once; the k-th (k = 0, 1, ...)
    only after (k + 1) timeouts, so honest peers normally write one and the same abort."""
    i = roster.index(silent)
    return [roster[(i + k) % len(roster)] for k in range(1, len(roster))]


def is_vote(ev: SignedEvent) -> bool:
    return ev.seq >= VOTE_BASE


def make_vote(identity: Identity, game: bytes, height: int, head: bytes, silent: bytes) -> SignedEvent:
    """This peer's vote that `silent` wrote nothing it has seen at `height` (after `head`)."""
    return sign_event(identity, game, VOTE_BASE + height, head, VOTE_KIND, {"silent": silent})


def make_refusal(identity: Identity, session, height: int) -> SignedEvent:
    """This peer's statement that it applied the event at `height` (so it never votes the
    author silent there): it releases a peer that voted (SPEC §29.6). It has the seq of a
    vote about that height, so a peer that signs both has equivocated (§22.7)."""
    late = session.chain.events[height]
    prev = session.chain.events[height - 1].hash if height > 0 else bytes(32)
    return sign_event(identity, session.game, VOTE_BASE + height, prev, REFUSE_KIND,
                      {"silent": late.author, "seen": late.hash})


def silence_kind(session) -> EventKind:
    """What answers the due peer's silence at the session's height: a `forfeit` where the
    session can take that seat out and go on (a dice withholder in a game that lets seats
    leave, SPEC §26.14), else the `abort`. Every replica computes the same answer."""
    due = session.next_author()
    seat = session.seat_of.get(due) if due is not None else None
    return FORFEIT_KIND if seat is not None and session.forfeit_lost(seat) is not None else ABORT_KIND


def make_abort(identity: Identity, session, votes: dict[bytes, SignedEvent]) -> SignedEvent:
    """The abort (or, where the game goes on without the seat, the forfeit, `silence_kind`)
    at the session's height, carrying the votes of every other seat (in lobby order). Not
    applied here: pass it to `session.receive`."""
    silent = session.next_author()
    wires = [votes[k].wire for k in voters(session.roster, silent)]
    return sign_event(identity, session.game, session.chain.height, session.chain.head, silence_kind(session),
                      {"silent": silent, "votes": wires})


def check_abort(session, ev: SignedEvent) -> str:
    """Raise a SessionError unless `ev` is a complete abort at the session's height; return
    the note to log. Called before anything changes (SPEC §26.3 order)."""
    seq, author, body = ev.seq, ev.author, ev.body
    if session.phase in ENDED or session.roster is None:
        raise UnexpectedKind(f"no abort may be written in phase {session.phase!r}", seq=seq, author=author)
    check_fields(body, {"silent": want_bytes(32), "votes": want_list()}, seq, author)
    due = session.next_author()
    if body["silent"] != due:
        raise BadBody("an abort must name the peer due to write at this height", seq=seq, author=author)
    if author == due or author not in session.roster:
        raise BadBody("an abort is written by another peer of the roster", seq=seq, author=author)
    reason = votes_problem(session.roster, session.game, seq, ev.prev, due, body["votes"])
    if reason is not None:
        raise BadBody(reason, seq=seq, author=author)
    want = silence_kind(session)
    if ev.kind != want:   # one answer per height, so honest writers never fork (SPEC §26.14)
        raise BadBody(f"this silence is answered by {want!r}, not {ev.kind!r} (SPEC §26.14)", seq=seq, author=author)
    if ev.kind == FORFEIT_KIND:
        return (f"forfeit: {fingerprint(due)} withheld its {session.next_kind()} at seq {seq}; co-signed by "
                f"{len(body['votes'])} peer(s); seat {session.seat_of[due]} leaves the game")
    return f"abort: {fingerprint(due)} silent at seq {seq}; co-signed by {len(body['votes'])} peer(s)"


def votes_problem(roster: list[bytes], game: bytes, seq: int, prev: bytes, silent: bytes,
                  votes: list) -> str | None:
    """Why `votes` are not the votes of every seat but `silent`, in lobby order, each about
    height `seq` after `prev`; or None."""
    want = voters(roster, silent)

    def about(vote: SignedEvent) -> str | None:
        if (vote.kind != VOTE_KIND or vote.seq != VOTE_BASE + seq or vote.prev != prev
                or vote.body != {"silent": silent}):
            return f"the vote of {fingerprint(vote.author)} is about another height, head or peer"
        return None

    return cosigned_problem(game, want, votes, count=f"an abort carries the votes of all {len(want)} other seats",
                            noun="a vote", about=about,
                            order=f"votes must be those of {' '.join(fingerprint(k) for k in want)}, in lobby order")


@dataclass
class Ballot:
    """One peer's votes at its current height: its own, and those gathered from others.

    `cast` is this peer's own vote (height, silent key) once it voted; from then on it must
    not apply the silent peer's event at that height (`bars`)."""

    cast: tuple[int, bytes] | None = None
    own: SignedEvent | None = None
    votes: dict[int, dict[bytes, SignedEvent]] = field(default_factory=dict)

    def add(self, vote: SignedEvent, roster: list[bytes], height: int) -> bool:
        """Keep a vote of a roster peer about this height or a later one (later ones may become
        useful once this peer catches up). Returns False for one not worth keeping."""
        h = vote.seq - VOTE_BASE
        silent = vote.body.get("silent") if vote.kind == VOTE_KIND else None
        if (h < height or h > height + VOTE_AHEAD or vote.author not in roster or silent not in roster
                or silent == vote.author or set(vote.body) != {"silent"}):
            return False
        held = self.votes.setdefault(h, {})
        if vote.author in held:
            return False
        held[vote.author] = vote
        return True

    def vote(self, identity: Identity, session) -> SignedEvent:
        """Sign this peer's vote against the peer due at the session's height."""
        height, silent = session.chain.height, session.next_author()
        self.own = make_vote(identity, session.game, height, session.chain.head, silent)
        self.cast = (height, silent)
        self.votes.setdefault(height, {})[identity.public_key_bytes] = self.own
        return self.own

    def complete(self, session) -> dict[bytes, SignedEvent] | None:
        """The votes of every other seat against the due peer at this height, each about
        this head, or None while any is missing."""
        held = self.votes.get(session.chain.height)
        if not held and len(session.roster) > 1:   # no vote here (asked after every event)
            return None
        silent = session.next_author()
        held = held or {}
        good = {k: v for k, v in held.items()
                if v.prev == session.chain.head and v.body == {"silent": silent}}
        if all(k in good for k in voters(session.roster, silent)):
            return good
        return None

    def released_by(self, refusal: SignedEvent, me: bytes) -> bool:
        """True if `refusal` (REFUSE_KIND) shows that another seat applied the silent peer's
        event at the height this peer voted on: the abort can then never complete, so the
        vote is withdrawn and the late event may be applied."""
        if self.cast is None or refusal.kind != REFUSE_KIND:
            return False
        height, silent = self.cast
        if (refusal.seq != VOTE_BASE + height or refusal.author in (silent, me)
                or refusal.body.get("silent") != silent or not isinstance(refusal.body.get("seen"), bytes)):
            return False
        self.cast = self.own = None
        return True

    def bars(self, ev: SignedEvent) -> bool:
        """True if this peer voted that `ev`'s author was silent at `ev`'s height."""
        return self.cast is not None and self.cast == (ev.seq, ev.author) and ev.kind != ABORT_KIND

    def moved_to(self, height: int) -> None:
        """Forget votes about heights this peer has passed."""
        for h in [h for h in self.votes if h < height]:
            del self.votes[h]
