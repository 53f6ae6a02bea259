"""Takebacks on the network (SPEC §29.17): asking, answering, and writing the takeback once
every other seat said yes. A mixin of Node: it reads the node's session, identity and
outbox (the statements go out with the next turn of the loop)."""
from __future__ import annotations

import time
from typing import Callable

from protocol.log import SignedEvent
from protocol.node._notes import Note, NoteKind
from protocol.session.phases import EventKind
from protocol.session.takeback import (
    ASK_KIND, NO_KIND, TAKEBACK_BASE, TAKEBACK_KIND, YES_KIND, CannotTakeBack, cosigners, make_answer, make_ask,
    statement_problem, undo_problem, write_takeback,
)

__all__ = ["Takebacks", "TAKEBACK_WAIT"]

TAKEBACK_WAIT = 30.0    # seconds an ask stays open before it lapses (the asker withdraws it)
_EARLY_STATEMENTS = 32  # statements about heights this peer has not reached yet, kept to try later


class Takebacks:
    def _init_takebacks(self) -> None:
        self.takeback_wait = TAKEBACK_WAIT
        # how this seat answers an ask: True, False, or None to ask the person (a REPL seat);
        # None here means: a bot seat agrees, a human seat is asked (SPEC §29.17)
        self.takeback_answer: Callable[[SignedEvent], bool | None] | None = None
        self._ask: SignedEvent | None = None            # the open ask at this height
        self._ask_at = 0.0
        self._answers: dict[bytes, SignedEvent] = {}    # yes or no per seat, about the open ask
        self._tb_early: list[SignedEvent] = []          # statements ahead of this peer's height
        self._asks_made: tuple[int, int] = (-1, 0)      # (height, asks this seat made there)

    # -- what the REPL reads and calls ------------------------------------------------------
    @property
    def takeback_asked(self) -> SignedEvent | None:
        """The open ask, when this seat has yet to answer it (the REPL's question)."""
        ask = self._ask
        if ask is None or ask.author == self.me or self.me in self._answers:
            return None
        return ask

    async def ask_takeback(self) -> SignedEvent:
        """Ask every other seat to take back the last action (SPEC §29.17). Raises
        CannotTakeBack (nothing sent) when it cannot be taken back or an ask is open."""
        s = self.session
        if s is None or self.over:
            raise CannotTakeBack("the game is not being played", seq=self.height, author=self.me)
        if self._ask is not None:
            raise CannotTakeBack(f"a takeback is already asked by {self.who(self._ask.author)}",
                                 seq=self.height, author=self.me)
        made = self._asks_made[1] if self._asks_made[0] == self.height else 0
        ask = make_ask(self.identity, s, made)
        self._asks_made = (self.height, made + 1)
        self._open(ask)
        await self.mesh.broadcast(ask)
        await self._act_while_due()
        return ask

    async def answer_takeback(self, yes: bool) -> SignedEvent:
        """This seat's yes or no to the open ask (CannotTakeBack when none is open)."""
        ask = self._ask
        if ask is None or ask.author == self.me:
            raise CannotTakeBack("no takeback is asked of this seat now", seq=self.height, author=self.me)
        answer = make_answer(self.identity, ask, yes)
        self._take_answer(answer)
        await self.mesh.broadcast(answer)
        await self._act_while_due()
        return answer

    # -- statements as they arrive ----------------------------------------------------------
    def _on_takeback_statement(self, ev: SignedEvent) -> None:
        s = self.session
        if s is None or s.roster is None or ev.author not in s.seat_of:
            return
        h = ev.seq - TAKEBACK_BASE
        if h > self.height:
            if len(self._tb_early) < _EARLY_STATEMENTS:
                self._tb_early.append(ev)
            return
        if h < self.height:
            return
        if ev.kind == ASK_KIND:
            if self._ask is None and statement_problem(s, ev) is None and undo_problem(s) is None:
                self._open(ev)
            return
        if self._ask is None:     # an answer ahead of its ask: try it again when the ask comes
            if len(self._tb_early) < _EARLY_STATEMENTS:
                self._tb_early.append(ev)
            return
        if statement_problem(s, ev, self._ask) is None and ev.author not in self._answers:
            self._take_answer(ev)

    def _open(self, ask: SignedEvent) -> None:
        self._ask, self._ask_at, self._answers = ask, time.monotonic(), {}
        self.note(Note(NoteKind.TAKEBACK_ASKED, who=ask.author, seq=ask.seq - TAKEBACK_BASE,
                       text=ask.body["a"], seconds=self.takeback_wait))
        for early in [e for e in self._tb_early if e.kind != ASK_KIND]:
            self._tb_early.remove(early)
            self._on_takeback_statement(early)
        if ask.author != self.me and self._ask is ask and self.me not in self._answers:
            policy = self.takeback_answer
            yes = policy(ask) if policy is not None else (True if self.agent is not None else None)
            if yes is not None:
                answer = make_answer(self.identity, ask, yes)
                self._take_answer(answer)
                self._outbox.append(answer)

    def _take_answer(self, answer: SignedEvent) -> None:
        self._answers[answer.author] = answer
        if answer.kind == NO_KIND:
            withdrawn = answer.author == self._ask.author
            self.note(Note(NoteKind.TAKEBACK_REFUSED, who=answer.author, seq=self.height,
                           reason="withdrawn" if withdrawn else "no"))
            self._ask = None
            return
        self.note(Note(NoteKind.TAKEBACK_ANSWERED, who=answer.author, seq=self.height))
        self._takeback_if_complete()

    def _takeback_if_complete(self) -> None:
        """The seat due writes the takeback once it has the yes of every other seat (its own
        authorship is its yes; the asker's ask is the asker's)."""
        s, ask = self.session, self._ask
        if ask is None or self.over or s.pending_obligation() != EventKind.ACTION or self._thinking is not None:
            return
        if ask.author != self.me and self._answers.get(self.me, ask).kind != YES_KIND:
            return   # this seat has not said yes (or said no)
        votes = {k: v for k, v in self._answers.items() if v.kind == YES_KIND}
        if any(k not in votes for k in cosigners(s, ask.author, self.me)):
            return
        write_takeback(s, ask, votes)
        ev = s.chain.events[-1]
        self._applied(ev)
        self._outbox.append(ev)

    def _holding_for_takeback(self) -> bool:
        """A bot seat that agreed to the open ask does not move meanwhile (SPEC §29.17)."""
        ask = self._ask
        return ask is not None and (ask.author == self.me or self.me in self._answers)

    def _takeback_moved(self, ev: SignedEvent) -> None:
        """An event was applied: an ask about an earlier height is over."""
        ask = self._ask
        if ev.kind == TAKEBACK_KIND:
            self.note(Note(NoteKind.TAKEBACK_DONE, who=ev.author, seq=ev.seq, text=self.session.notes[-1]))
        elif ask is not None and ask.seq - TAKEBACK_BASE < self.height:
            self.note(Note(NoteKind.TAKEBACK_REFUSED, who=ev.author, seq=ev.seq, reason="moved on"))
        if ask is not None and ask.seq - TAKEBACK_BASE < self.height:
            self._ask, self._answers = None, {}
        if not self._tb_early:   # the usual case: no statement waits for a height (after every event)
            return
        early = [e for e in self._tb_early if e.seq - TAKEBACK_BASE <= self.height]
        self._tb_early = [e for e in self._tb_early if e.seq - TAKEBACK_BASE > self.height]
        for e in sorted(early, key=lambda e: e.kind != ASK_KIND):
            self._on_takeback_statement(e)

    def _expire_takeback(self) -> None:
        """An ask open past the wait lapses; its asker withdraws it with a signed no."""
        ask = self._ask
        if ask is None or time.monotonic() - self._ask_at < self.takeback_wait:
            return
        s = self.session
        missing = [k for k in s.seat_keys if k != ask.author and k not in self._answers]
        self._ask, self._answers = None, {}
        self.note(Note(NoteKind.TAKEBACK_REFUSED, who=missing[0] if missing else None, seq=self.height,
                       reason="timeout", seconds=self.takeback_wait))
        if ask.author == self.me:
            self._outbox.append(make_answer(self.identity, ask, False))
