"""The clock-pass duty (SPEC §29.20): when the seat due is past its turn clock and the
table agreed to passes, vote to pass its turn, write the pass once every other seat has
voted, and, on the timed-out seat itself, stop acting and take a pass that overtook its own
late event. A mixin of Node: it reads the node's session, mesh, identity and its `overtime`
hook (the clock is the caller's, cli/netplay/turn_clock.py)."""
from __future__ import annotations

import time

from protocol.errors import EventError
from protocol.log import SignedEvent
from protocol.node._notes import Note, NoteKind
from protocol.session.abort import REFUSE_KIND, VOTE_BASE, abort_writers
from protocol.session.clock_pass import (PASS_BASE, PASS_KIND, PassBallot, pass_move, pass_votes_problem,
                                         write_clock_pass)
from protocol.session.phases import EventKind

__all__ = ["ClockPass"]

RESEND = 1.0   # seconds between sends of this peer's pass vote while the pass is not written


class ClockPass:
    def _init_clock_pass(self) -> None:
        self.pass_ballot = PassBallot()
        self._pass_sent = 0.0
        self._pass_ready = (-1, 0.0)   # (height, when every vote of the pass was first held here)

    def passing(self) -> str | None:
        """The move the table plays now for the seat due, which is past its clock (the game's
        declared pass move, §29.20), or None: no pass is due."""
        s = self.session
        if s is None or self.over or s.roster is None or self.overtime is None or self.votes_held:
            return None
        due = s.next_author()
        if due is None or s.next_kind() != EventKind.ACTION or self.overtime(due) <= 0:
            return None
        return pass_move(s)

    async def _pass_if_due(self) -> None:
        """Vote to pass the due seat out of time (and send the vote again now and then until
        the pass is written); write the pass once every other seat's vote is in: the first
        peer after the seat in lobby order at once, the k-th after k timeouts more."""
        s = self.session
        if self.passing() is None or s.next_author() == self.me:
            return
        due, now = s.next_author(), time.monotonic()
        if self.pass_ballot.cast != (self.height, due):
            vote = self.pass_ballot.vote(self.identity, s)
            self._pass_sent = now
            await self.mesh.broadcast(vote)
        elif now - self._pass_sent >= RESEND:
            own = self.pass_ballot.own(self.height, self.me)
            if own is not None:
                self._pass_sent = now
                await self.mesh.broadcast(own)
        votes = self.pass_ballot.complete(s)
        if votes is None:
            return
        # measured from when the votes were complete here, not from the last event: the clock
        # may be far longer than the timeout, and two writers must never both write
        if self._pass_ready[0] != self.height:
            self._pass_ready = (self.height, now)
        k = abort_writers(s.roster, due).index(self.me)
        if k > 0 and now - self._pass_ready[1] < self.options.timeout * k:
            return
        ev = write_clock_pass(s, votes)
        self._applied(ev)
        await self.mesh.broadcast(ev)

    def _on_pass_statement(self, ev: SignedEvent) -> None:
        """A pass vote (or a refusal, which may release this peer's pass vote)."""
        s = self.session
        if s is None or s.roster is None or ev.author not in s.roster:
            return
        if ev.kind == REFUSE_KIND:
            if self.pass_ballot.released_by(ev, self.me):
                h = ev.seq - VOTE_BASE   # the refusal's height: the late event there may be applied now
                for late in [e for e in self.barred if e.seq == h]:
                    self.barred.remove(late)
                    self._feed(late)
            return
        h = ev.seq - PASS_BASE
        if h < self.height:
            if ev.body.get("seat") == s.chain.events[h].author and ev.author != self.me:
                self._answer_vote(h)   # we applied that seat's event: the refusal of §29.6 releases the voter
            return
        self.pass_ballot.add(ev, s.roster, self.height)

    def _votes_pass_against(self, ev: SignedEvent) -> bool:
        """Another seat's pass vote against `ev`'s author at its height arrived before it."""
        held = self.pass_ballot.votes.get(ev.seq, {})
        return ev.kind != PASS_KIND and any(k != self.me and v.body.get("seat") == ev.author for k, v in held.items())

    def _pass_against_me(self, ev: SignedEvent) -> None:
        """A clock pass naming this seat at a height where it holds its own event: every other
        seat co-signed it, so none applied that event (nor ours built on it); drop ours from
        there and take the pass, so all logs end at one head (as for the abort, §29.6)."""
        s, h = self.session, ev.seq
        if s.chain.events[h].author != self.me or s.chain.events[h] == ev or ev.hash in self._refused_at:
            return
        if ev.prev != s.chain.events[h].prev or pass_votes_problem(s, h, ev.prev, self.me, ev.body.get("votes")):
            return   # the votes are checked before the replay below: a forged pass costs a parse (§28.12)
        self._refused_at.add(ev.hash)   # looked at once: replaying the game is not cheap
        earlier = s.rewound(h)
        try:
            earlier.receive(ev)   # checked in full (votes, the move) before anything is dropped
        except EventError as exc:
            self.rejected.append(exc)
            return
        if s.log is not None:
            s.log.truncate(h)
        earlier.log, earlier.secret_store = s.log, s.secret_store
        earlier._logged(ev)
        self.session = earlier
        self.note(Note(NoteKind.TAKEN_BACK, seq=h, count=s.chain.height - h, text=earlier.notes[-1]))
        self._applied(ev)
