"""The abort and halt duty (SPEC §29.6, §29.10): votes that the due peer is silent, the
statements about a height (votes, refusals), the co-signed abort, and the halt carrying
a refused event. A mixin of Node: it reads the node's session, mesh and identity."""
from __future__ import annotations

import time

from protocol.log import SignedEvent
from protocol.net import TransportError
from protocol.node._notes import Note, NoteKind
from protocol.session.abort import (ABORT_KIND, REFUSE_KIND, VOTE_BASE, VOTE_KIND, Ballot, abort_writers,
                                    make_abort, make_refusal)
from protocol.session import Phase

__all__ = ["AbortDuty"]


class AbortDuty:
    def _init_duty(self) -> None:
        self.ballot = Ballot()                          # abort votes at this height (SPEC §29.6)
        self.barred: list[SignedEvent] = []             # late events of a peer this one voted silent
        self._outbox: list[SignedEvent] = []            # refusals (and the events they answer) to send
        self._refused_at: set = set()    # heights whose votes this peer answered; aborts it looked at
        # a resumed peer waiting for the others to come back casts no vote and says no "back"
        # line meanwhile: nobody is late while everyone has left (SPEC §29.15)
        self.votes_held = False
        # when this peer first held what a writer needs (SPEC §29.6, §29.10): the k-th writer's
        # delay runs from then, not from the last progress (after a long think it had passed)
        self._evidence_since: tuple[bytes, float] | None = None    # (refused event's hash, since)
        self._votes_since: tuple[int, bytes, bytes, float] | None = None   # (height, silent, head, since)

    def _escalation_due(self, k: int, since: float) -> bool:
        """The k-th writer after the culprit writes at once if k = 0, else k timeouts after
        it first held the evidence or the complete votes (SPEC §29.6, §29.10)."""
        return k == 0 or time.monotonic() - since >= self.options.timeout * k

    def _evidence_arrived(self, ev: SignedEvent) -> float:
        if self._evidence_since is None or self._evidence_since[0] != ev.hash:
            self._evidence_since = (ev.hash, time.monotonic())
        return self._evidence_since[1]

    def _votes_arrived(self, height: int, silent: bytes, head: bytes) -> float:
        if self._votes_since is None or self._votes_since[:3] != (height, silent, head):
            self._votes_since = (height, silent, head, time.monotonic())
        return self._votes_since[3]

    async def _duty_when_idle(self, quiet: float) -> None:
        """Nothing arrived this tick: halt if due, vote against a due peer both silent and
        gone for the timeout, and write the abort once every vote is in."""
        s = self.session
        if s is not None and not self.over:
            await self._halt_if_due()
        if s is None or s.next_author() in (None, self.me) or self.over or s.halted is not None:
            return
        due = s.next_author()
        # thinking is not leaving (SPEC §29.13): vote only against a peer both silent and gone
        # (no connection, so no keepalive; or past the turn clock, §29.14) for the timeout
        gone = max(self.absent_for(due), self.overtime(due) if self.overtime is not None else 0.0)
        if (min(quiet, gone) >= self.options.timeout and self.ballot.cast != (self.height, due)
                and not self.votes_held):
            await self.vote_silent()
        await self._abort_if_complete()

    async def vote_silent(self) -> bool:
        """Sign and send this peer's vote that the peer due at this height is silent (SPEC
        §29.6). Only while another peer is due and this one has applied nothing of it at
        this height; from then on this peer never applies that peer's event at this height.
        The abort takes effect once every seat but the silent one has voted. Returns True
        if a vote was sent (the node's own timeout calls this; so may a keepalive policy)."""
        s = self.session
        if s is None or self.over or s.roster is None or s.next_author() in (None, self.me):
            return False
        if self.ballot.cast == (self.height, s.next_author()):
            return False
        vote = self.ballot.vote(self.identity, s)
        self.note(Note(NoteKind.VOTED, who=s.next_author(), seq=self.height))
        await self.mesh.broadcast(vote)
        return True

    async def _halt_if_due(self) -> None:
        """The due author signed an event this peer had to refuse for what it says: write the
        halt carrying it (SPEC §29.10). The first peer after the culprit in lobby order writes
        at once, the k-th k timeouts after the evidence reached it without a halt arriving."""
        s = self.session
        if s.evidence is None or s.phase == Phase.HALTED or s.evidence[0].seq != s.chain.height:
            return
        culprit = s.evidence[0].author
        k = abort_writers(s.roster, culprit).index(self.me)
        if not self._escalation_due(k, self._evidence_arrived(s.evidence[0])):
            return
        s.write_halt()
        self.note(Note(NoteKind.WRITTEN, seq=s.chain.height - 1, text=s.notes[-1]))
        self._applied(s.chain.events[-1])
        await self.mesh.broadcast(s.chain.events[-1])

    async def _abort_if_complete(self) -> None:
        """Write the abort once every other seat's vote is in: the first writer after the
        silent peer at once, the k-th k timeouts after it first held every vote (SPEC §29.6)."""
        s = self.session
        votes = self.ballot.complete(s) if s.roster is not None and s.next_author() not in (None, self.me) else None
        if votes is None:
            return
        k = abort_writers(s.roster, s.next_author()).index(self.me)
        if not self._escalation_due(k, self._votes_arrived(s.chain.height, s.next_author(), s.chain.head)):
            return
        ev = make_abort(self.identity, s, votes)
        s.receive(ev)
        self.note(Note(NoteKind.WRITTEN, seq=ev.seq, text=s.notes[-1]))
        self._applied(ev)
        await self.mesh.broadcast(ev)

    def _on_statement(self, ev: SignedEvent) -> None:
        """A vote or a refusal about some height (SPEC §29.6)."""
        s = self.session
        if s is None or s.roster is None or ev.author not in s.roster:
            return
        h = ev.seq - VOTE_BASE
        if ev.kind == REFUSE_KIND:
            self._keep_refusal(ev)   # with its author's vote inside an abort it convicts (§29.19)
            if self.ballot.released_by(ev, self.me):
                self.note(Note(NoteKind.VOTE_WITHDRAWN, who=ev.author, seq=h))
                for late in [e for e in self.barred if e.seq == h]:
                    self.barred.remove(late)
                    self._feed(late)
            return
        if ev.kind != VOTE_KIND:
            return
        if h < self.height:
            if ev.body.get("silent") == s.chain.events[h].author and ev.author != self.me:
                self._answer_vote(h)
            return
        self.ballot.add(ev, s.roster, self.height)

    def _answer_vote(self, h: int) -> None:
        """Someone voted silent the author of the event we applied at height h: tell it the
        abort cannot complete (we never vote there), and hand it the event (SPEC §29.6)."""
        late = self.session.chain.events[h]
        if late.author != self.me and late.kind != ABORT_KIND and h not in self._refused_at:
            self._refused_at.add(h)
            self._outbox += [make_refusal(self.identity, self.session, h), late]

    async def _send_quietly(self, key: bytes, ev: SignedEvent) -> None:
        try:
            await self.mesh.send_event(key, ev)
        except TransportError:
            pass
