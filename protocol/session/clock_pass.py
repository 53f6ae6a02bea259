"""The co-signed pass (SPEC §29.20): when a seat's turn clock runs out, the others play the
game's own pass move for it, and only that.

The table agrees on what the end of the clock does in the game config of the first hello
(`on_clock`: "pass" or "abort"; no key: "abort", as before the pass existed). With "pass",
when the seat X due at height h is past its clock, each other roster peer that has applied
nothing of X at h signs a *pass vote*: kind `clock-pass-vote`, seq PASS_BASE + h (never a
chain height, never the seq of an abort vote or refusal), `prev` its head at h, body
`{"seat": X}`. Once a peer holds the votes of every seat but X it writes the `clock-pass`
event at h carrying them; the session then plays, for X, the one move the game declares for
a seat out of time in this situation (GameRules.timeout_action; for instance "next" or
"pass"), and nothing else. The clock itself is not in the log: an outsider checks that the
table agreed to passes, that every other seat signed this pass about this head, and that the
move is the game's declared one and legal; not how long X took (each peer measured that).

A voter never applies X's event at h afterwards (`PassBallot.bars`), and a peer that applied
it never votes but answers a vote with the abort refusal of §29.6, which releases the voter:
so X's late move and the pass are never both applied by honest peers. This module is
transport-free; the node (protocol/node/_clock_pass.py) decides when to vote and write.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from protocol.crypto import Identity, fingerprint
from protocol.log import SignedEvent, sign_event
from protocol.session.abort import REFUSE_KIND, VOTE_BASE, voters
from protocol.session.body import check_fields, is_bytes, want_bytes, want_list, want_str
from protocol.session.cosigned import cosigned_problem
from protocol.session.errors import BadBody, IllegalMove, StateHashMismatch, UnexpectedKind
from protocol.session.game_rules import CHANCE, GameRuleError
from protocol.session.phases import EventKind, Phase, SeqBase

__all__ = ["ON_CLOCK_KEY", "ON_CLOCK_CHOICES", "PASS_KIND", "PASS_VOTE_KIND", "PASS_BASE", "passes_allowed",
           "pass_move", "make_pass_vote", "is_pass_vote", "check_clock_pass", "receive_clock_pass",
           "write_clock_pass", "PassBallot", "pass_votes_problem"]

ON_CLOCK_KEY = "on_clock"                 # the game config's word for what the clock's end does
ON_CLOCK_CHOICES = ("pass", "abort")
PASS_KIND = EventKind.CLOCK_PASS
PASS_VOTE_KIND = EventKind.PASS_VOTE
PASS_BASE = int(SeqBase.CLOCK_PASS)   # a pass vote about height h has seq PASS_BASE + h
PASS_AHEAD = 16                           # votes kept for heights this far beyond the peer's own


def passes_allowed(session) -> bool:
    """Did the table agree, in the first hello's config, that the clock's end passes?"""
    return isinstance(session.config, dict) and session.config.get(ON_CLOCK_KEY) == "pass"


def pass_move(session) -> str | None:
    """The action text the game declares for the seat due now if its clock has run out (its
    "end my turn"/"pass" move), when the table agreed to passes and that move is legal now
    and plays no hidden card; else None. Only an action may be passed (never a deck step, a
    roll or a hand-over)."""
    if (session.phase != Phase.PLAY or session.leaving or not passes_allowed(session)
            or session.halted is not None):
        return None
    seat = session.rules.to_move(session.state)
    declared = getattr(session.rules, "timeout_action", None)
    if seat is None or seat == CHANCE or declared is None:
        return None
    text = declared(session.state, seat)
    if not isinstance(text, str):
        return None
    try:
        if session.rules.revealed_cards(session.state, seat, session._read(text)):
            return None   # a forced move never claims a hidden card
    except GameRuleError:
        return None
    return text


def is_pass_vote(ev: SignedEvent) -> bool:
    return ev.seq >= PASS_BASE


def make_pass_vote(identity: Identity, game: bytes, height: int, head: bytes, seat_key: bytes) -> SignedEvent:
    """This peer's statement that `seat_key`, due at `height` after `head`, is past its clock."""
    return sign_event(identity, game, PASS_BASE + height, head, PASS_VOTE_KIND, {"seat": seat_key})


def _votes_problem(session, seq: int, prev: bytes, seat_key: bytes, votes: list) -> str | None:
    """Why `votes` are not the pass votes of every seat but `seat_key`, in lobby order, each
    about height `seq` after `prev`; or None."""
    want = voters(session.roster, seat_key)

    def about(vote: SignedEvent) -> str | None:
        if (vote.kind != PASS_VOTE_KIND or vote.seq != PASS_BASE + seq or vote.prev != prev
                or vote.body != {"seat": seat_key}):
            return f"the pass vote of {fingerprint(vote.author)} is about another height, head or seat"
        return None

    return cosigned_problem(session.game, want, votes,
                            count=f"a clock pass carries the votes of all {len(want)} other seats",
                            noun="a pass vote", about=about,
                            order=f"pass votes must be those of {' '.join(fingerprint(k) for k in want)}, in lobby order")


def pass_votes_problem(session, seq: int, prev: bytes, seat_key: bytes, votes: object) -> str | None:
    """`_votes_problem` for a body not checked yet (`votes` may be anything): the node's cheap
    check of a pass before it replays the game to take it (SPEC §28.12)."""
    if not isinstance(votes, list):
        return "a clock pass's votes are a list"
    return _votes_problem(session, seq, prev, seat_key, votes)


def check_clock_pass(session, ev: SignedEvent) -> str:
    """Raise a SessionError unless `ev` is a complete clock pass at the session's height;
    return the move it plays. Changes nothing."""
    seq, author, body = ev.seq, ev.author, ev.body
    if session.phase != Phase.PLAY or session.roster is None:
        raise UnexpectedKind(f"no clock pass may be written in phase {session.phase!r}", seq=seq, author=author)
    check_fields(body, {"seat": want_bytes(32), "a": want_str(512), "votes": want_list(), "h": want_bytes(32)},
                 seq, author)
    if not passes_allowed(session):
        raise BadBody("this game's config does not let the others pass a seat's turn (on_clock is not "
                      "'pass')", seq=seq, author=author)
    due = session.next_author()
    if body["seat"] != due:
        raise BadBody("a clock pass must name the seat due at this height", seq=seq, author=author)
    if author == due or author not in session.roster:
        raise BadBody("a clock pass is written by another peer of the roster", seq=seq, author=author)
    reason = _votes_problem(session, seq, ev.prev, due, body["votes"])
    if reason is not None:
        raise BadBody(reason, seq=seq, author=author)
    move = pass_move(session)
    if move is None:
        raise IllegalMove("the game declares no pass move for this seat here", seq=seq, author=author)
    if body["a"] != move:
        raise IllegalMove(f"a clock pass plays the game's pass move {move!r}, not {body['a']!r}",
                          seq=seq, author=author)
    return move


def _play(session, seq: int, move: str, author: bytes) -> str:
    """Play the pass move for the due seat (the engine refuses it: IllegalMove, nothing changed)."""
    seat = session.rules.to_move(session.state)
    try:
        session._engine(seat, session._read(move))
    except GameRuleError as exc:
        raise IllegalMove(f"the pass move {move!r} is refused: {exc}", seq=seq, author=author) from None
    session._sync(seq)
    return (f"clock pass: {fingerprint(session.seat_keys[seat])} out of time at seq {seq}, "
            f"played {move!r}")


def receive_clock_pass(session, ev: SignedEvent) -> SignedEvent:
    """Check and apply a received clock pass (Session.receive's branch for PASS_KIND)."""
    move = check_clock_pass(session, ev)
    note = _play(session, ev.seq, move, ev.author)
    note += f"; co-signed by {len(ev.body['votes'])} peer(s)"
    if ev.body["h"] != session.state_hash():
        session.halted = StateHashMismatch(
            f"author's state hash {ev.body['h'].hex()[:16]} differs from {session.state_hash().hex()[:16]}",
            seq=ev.seq, author=ev.author)
        raise session.halted
    session._accept(ev, note)
    return ev


def write_clock_pass(peer, votes: dict[bytes, SignedEvent]) -> SignedEvent:
    """This peer's clock pass at its height, carrying every other seat's vote (lobby order);
    applied and logged here (a SessionPeer that is not the seat due)."""
    seq, due = peer.chain.height, peer.next_author()
    wires = [votes[k].wire for k in voters(peer.roster, due)]
    move = pass_move(peer)
    if move is None or due == peer.me:
        raise IllegalMove("no clock pass can be written here", seq=seq, author=peer.me)
    note = _play(peer, seq, move, peer.me) + f"; co-signed by {len(wires)} peer(s)"
    body = {"seat": due, "a": move, "votes": wires, "h": peer.state_hash()}
    ev = sign_event(peer.identity, peer.game, seq, peer.chain.head, PASS_KIND, body)
    peer._accept(ev, note)
    return ev


@dataclass
class PassBallot:
    """One peer's pass votes: its own (`cast`: height, seat key) and those gathered."""

    cast: tuple[int, bytes] | None = None
    votes: dict[int, dict[bytes, SignedEvent]] = field(default_factory=dict)

    def add(self, vote: SignedEvent, roster: list[bytes], height: int) -> bool:
        h = vote.seq - PASS_BASE
        seat = vote.body.get("seat")
        if (vote.kind != PASS_VOTE_KIND or h < height or h > height + PASS_AHEAD or vote.author not in roster
                or seat not in roster or seat == vote.author or set(vote.body) != {"seat"}):
            return False
        held = self.votes.setdefault(h, {})
        if vote.author in held:
            return False
        held[vote.author] = vote
        return True

    def vote(self, identity: Identity, session) -> SignedEvent:
        height, seat = session.chain.height, session.next_author()
        own = make_pass_vote(identity, session.game, height, session.chain.head, seat)
        self.cast = (height, seat)
        self.votes.setdefault(height, {})[identity.public_key_bytes] = own
        return own

    def own(self, height: int, me: bytes) -> SignedEvent | None:
        return self.votes.get(height, {}).get(me)

    def complete(self, session) -> dict[bytes, SignedEvent] | None:
        height, seat = session.chain.height, session.next_author()
        good = {k: v for k, v in self.votes.get(height, {}).items()
                if v.prev == session.chain.head and v.body == {"seat": seat}}
        return good if all(k in good for k in voters(session.roster, seat)) else None

    def released_by(self, refusal: SignedEvent, me: bytes) -> bool:
        """A refusal (§29.6) by a third seat shows it applied the seat's event at the height
        voted on: the pass can never complete, so the vote is withdrawn."""
        if self.cast is None or refusal.kind != REFUSE_KIND:
            return False
        height, seat = self.cast
        if (refusal.seq != VOTE_BASE + height or refusal.author in (seat, me)
                or refusal.body.get("silent") != seat or not is_bytes(refusal.body.get("seen"), 32)):
            return False
        self.cast = None
        self.votes.get(height, {}).pop(me, None)
        return True

    def bars(self, ev: SignedEvent) -> bool:
        """True if this peer voted to pass `ev`'s author's turn at `ev`'s height."""
        return self.cast is not None and self.cast == (ev.seq, ev.author) and ev.kind != PASS_KIND

    def moved_to(self, height: int) -> None:
        for h in [h for h in self.votes if h < height]:
            del self.votes[h]
        if self.cast is not None and self.cast[0] < height:
            self.cast = None
