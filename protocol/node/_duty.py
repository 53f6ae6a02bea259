"""The abort and halt duty (SPEC §29.6, §29.10): votes that the due peer is silent, the
statements about a height (votes, refusals), the co-signed abort, and the halt carrying
a refused event. A mixin of Node: it reads the node's session, mesh and identity."""
from __future__ import annotations

import time

from protocol.errors import EventError
from protocol.log import SignedEvent
from protocol.net import TransportError
from protocol.node._notes import Note, NoteKind
from protocol.session.abort import (ABORT_KIND, REFUSE_KIND, VOTE_BASE, VOTE_KIND, Ballot, abort_writers,
                                    check_abort, make_abort, make_refusal, votes_problem)
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
        at once, the k-th after (k + 1) timeouts without a halt arriving."""
        s = self.session
        if s.evidence is None or s.phase == Phase.HALTED or s.evidence[0].seq != s.chain.height:
            return
        culprit = s.evidence[0].author
        k = abort_writers(s.roster, culprit).index(self.me)
        if k > 0 and time.monotonic() - self._progress_at < self.options.timeout * (k + 1):
            return
        s.write_halt()
        self.note(Note(NoteKind.WRITTEN, seq=s.chain.height - 1, text=s.notes[-1]))
        self._applied(s.chain.events[-1])
        await self.mesh.broadcast(s.chain.events[-1])

    async def _abort_if_complete(self) -> None:
        """Write the abort once every other seat's vote is in: the first writer after the
        silent peer at once, the k-th after (k + 1) timeouts of silence (SPEC §29.6)."""
        s = self.session
        votes = self.ballot.complete(s) if s.roster is not None and s.next_author() not in (None, self.me) else None
        if votes is None:
            return
        k = abort_writers(s.roster, s.next_author()).index(self.me)
        if k > 0 and time.monotonic() - self._progress_at < self.options.timeout * (k + 1):
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

    def _abort_against_me(self, ev: SignedEvent) -> None:
        """An abort naming this peer silent at a height where it holds its own event: if every
        other seat co-signed it, none of them applied that event (nor any later one of ours,
        which builds on it), so this peer drops its events from that height and takes the
        abort, and all logs end at one head (SPEC §29.6)."""
        s, h = self.session, ev.seq
        if s.chain.events[h].author != self.me or s.chain.events[h] == ev or ev.hash in self._refused_at:
            return
        self._refused_at.add(ev.hash)   # looked at once: replaying the game is not cheap
        votes = ev.body.get("votes")
        if (ev.prev != s.chain.events[h].prev or not isinstance(votes, list)
                or votes_problem(s.roster, self.game, h, ev.prev, self.me, votes) is not None):
            return
        earlier = s.rewound(h)
        try:
            check_abort(earlier, ev)
        except EventError as exc:
            self.rejected.append(exc)
            return
        if s.log is not None:
            s.log.truncate(h)
        earlier.log, earlier.secret_store = s.log, s.secret_store
        earlier.receive(ev)
        self.session = earlier
        self.note(Note(NoteKind.TAKEN_BACK, seq=h, count=s.chain.height - h, text=earlier.notes[-1]))
        self._applied(ev)

    async def _send_quietly(self, key: bytes, ev: SignedEvent) -> None:
        try:
            await self.mesh.send_event(key, ev)
        except TransportError:
            pass
