"""One end for every honest peer (SPEC §29.19): competing ends settle by one rule, a
sound abort wins over what a peer holds at its height, and a seat that voted and refused
is convicted. A mixin of Node: it reads the node's session, ballot, outbox and identity.

*Ends.* A halt or an abort is the last event of a game (an end). Two honest peers may
write different ends at one height after one head (a halt lost on its way, writers whose
delays both ran out); every peer that sees both keeps the one of lowest rank (`end_rank`:
a halt before an abort, then the lower event hash) and puts it in place of its own last
record, so all logs hold the same bytes. A peer whose own end wins sends it again so the
other's writer learns of it.

*An abort over events.* An abort at h carries the vote of every seat but the silent one:
this peer's own (so it said it had applied nothing at h), or, for the silent peer, every
other's. A peer that applied an event at h after all (a vote withdrawn on a refusal that
lied, a vote forgotten in a crash) therefore takes the abort when it comes and drops its
events from h (§29.6 did this for the silent peer only). A forfeit (§26.14) carries the
same votes, so the same holds for it (§29.22): the withholder whose late opening reached
nobody takes the forfeit, and the game goes on from it.
"""
from __future__ import annotations

from protocol.errors import EventError
from protocol.log import SignedEvent
from protocol.node._notes import Note, NoteKind
from protocol.session.abort import ABORT_KIND, FORFEIT_KIND, REFUSE_KIND, VOTE_BASE, votes_problem
from protocol.session.conviction import convicts, make_conviction
from protocol.session.halt import HALT_KIND
from protocol.session import Phase

__all__ = ["Settling", "end_rank", "END_KINDS", "TAKEN_OVER_KINDS"]

END_KINDS = (ABORT_KIND, HALT_KIND)
# what a peer takes in place of its own events from that height on (SPEC §29.19, §29.22): the
# ends, and the forfeit, which carries the abort's votes but lets the game go on
TAKEN_OVER_KINDS = (ABORT_KIND, HALT_KIND, FORFEIT_KIND)
MAX_LOOKED_AT = 256     # ends checked and refused, remembered so a replay is not checked again
MAX_REFUSALS = 64       # refusals kept for a later conviction (SPEC §29.19)


def end_rank(ev: SignedEvent) -> tuple[int, bytes]:
    """The order in which competing ends at one height after one head win: a halt (it
    proves a fault) before an abort or a forfeit (they prove only an absence), then the
    lower hash."""
    return (0 if ev.kind == HALT_KIND else 1, ev.hash)


def _embedded_abort(ev: SignedEvent) -> bool:
    """An abort or a forfeit (every other seat's votes: the silent seat's event at that
    height reached none of them), or a conviction halt that carries an abort (§29.19, §29.22)."""
    return ev.kind in (ABORT_KIND, FORFEIT_KIND) or (ev.kind == HALT_KIND and "abort" in ev.body)


class Settling:
    def _init_settling(self) -> None:
        self._looked_at: set[bytes] = set()
        self._refusals: dict[tuple[int, bytes], SignedEvent] = {}   # (height, author) -> refusal
        self._convicted: set[bytes] = set()                          # aborts a conviction was tried on

    def _keep_refusal(self, ev: SignedEvent) -> None:
        if ev.kind == REFUSE_KIND:
            self._refusals.setdefault((ev.seq - VOTE_BASE, ev.author), ev)
            while len(self._refusals) > MAX_REFUSALS:
                del self._refusals[next(iter(self._refusals))]

    def _settle(self, ev: SignedEvent) -> None:
        """An end at a height below this peer's: take it in place of what this peer holds
        there if the rules of the module docstring say so (SPEC §29.19)."""
        s, h = self.session, ev.seq
        mine = s.chain.events[h]
        if mine == ev or ev.hash in self._looked_at:
            return
        if ev.prev != mine.prev:
            return   # another history before h: not settled here
        if mine.kind in TAKEN_OVER_KINDS:   # competing ends, or forfeits (the game went on after one)
            if end_rank(ev) >= end_rank(mine):
                if (h == s.chain.height - 1 or mine.kind == FORFEIT_KIND) and mine not in self._outbox:
                    self._outbox.append(mine)   # ours wins: its writer must learn of it
                return
        elif not _embedded_abort(ev):
            return   # a halt over an applied event: its culprit signed two events at h
        self._remember(ev.hash)
        votes = ev.body.get("votes")
        if ev.kind in (ABORT_KIND, FORFEIT_KIND) and (not isinstance(votes, list) or votes_problem(
                s.roster, s.game, h, ev.prev, ev.body.get("silent"), votes) is not None):
            return   # checked before the replay below: one insider's forged ends cost a parse each (§28.12)
        earlier = s.rewound(h)
        try:
            earlier.receive(ev)
        except EventError as exc:
            self.rejected.append(exc)
            return
        self._replace_from(h, earlier, ev, dropped=s.chain.height - h, was_end=mine.kind in TAKEN_OVER_KINDS)

    def _remember(self, digest: bytes) -> None:
        if len(self._looked_at) >= MAX_LOOKED_AT:
            self._looked_at.clear()
        self._looked_at.add(digest)

    def _replace_from(self, h: int, earlier, ev: SignedEvent, *, dropped: int, was_end: bool) -> None:
        """Make `earlier` (this peer's chain up to h, then `ev`) the session, its log too."""
        s = self.session
        if s.log is not None:
            s.log.truncate(h)
            s.log.append(ev.wire)
        earlier.log, earlier.secret_store = s.log, s.secret_store
        self.session = earlier
        if was_end and dropped == 1:
            self.note(Note(NoteKind.SETTLED, who=ev.author, seq=h, text=earlier.notes[-1]))
        else:
            self.note(Note(NoteKind.TAKEN_BACK, seq=h, count=dropped, text=earlier.notes[-1]))
        self._applied(ev)

    def _convict_if_proven(self) -> None:
        """This peer ends in a complete abort and holds a refusal by one of its voters about
        that height: write the conviction halt in the abort's place and send it (§29.19)."""
        s = self.session
        if s is None or s.phase != Phase.ABORTED:
            return
        abort = s.chain.events[-1]
        if abort.hash in self._convicted:
            return
        refusal = next((r for (h, _), r in self._refusals.items() if h == abort.seq and convicts(abort, r)), None)
        if refusal is None or refusal.author == self.me:
            return
        self._convicted.add(abort.hash)
        earlier = s.rewound(abort.seq)
        halt = make_conviction(self.identity, earlier, abort, refusal)
        try:
            earlier.receive(halt)
        except EventError as exc:
            self.rejected.append(exc)
            return
        self._remember(halt.hash)
        self._replace_from(abort.seq, earlier, halt, dropped=1, was_end=True)
        self._outbox.append(halt)
