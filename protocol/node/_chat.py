"""Table talk on the network (SPEC §29.18): saying a line, taking the others', keeping them
in the chat sidecar beside the log. A mixin of Node: it reads the node's session, mesh,
identity and log path. Chat never enters the session: it changes no state hash."""
from __future__ import annotations

import time

from protocol.log import SignedEvent, parse_event
from protocol.log.chatfile import ChatFile, chat_path, scan_chat
from protocol.node._notes import Note, NoteKind
from protocol.session.chat import CHAT_BASE, ChatBook, ChatRefused, make_line

__all__ = ["Chat"]


class Chat:
    def _init_chat(self) -> None:
        self._chat_book: ChatBook | None = None
        self.chat_refused = 0          # lines of others not taken (unsound, a replay, over the bounds)
        self._chat_warned: set[bytes] = set()   # authors told about once

    def _chat(self) -> ChatBook | None:
        """The book of lines seen, made once the seats are known (from the sidecar on a resume)."""
        s = self.session
        if self._chat_book is None and s is not None and s.seat_keys:
            book = ChatBook(self.game, set(s.seat_keys))
            if self.log_path is not None and chat_path(self.log_path).exists():
                try:
                    for wire in scan_chat(self.log_path).records:
                        book.keep(parse_event(wire, expected_game=self.game))
                except Exception:   # noqa: BLE001 - a damaged sidecar: new lines still go in a fresh book
                    pass
            self._chat_book = book
        return self._chat_book

    async def say(self, text: str) -> SignedEvent:
        """Sign one chat line and send it to every seat (SPEC §29.18); ChatRefused (nothing
        sent) for a line the others would refuse, or before the seats are drawn."""
        book = self._chat()
        if book is None or self.over:
            raise ChatRefused("chat opens once the seats are drawn, and closes when the game ends",
                              seq=CHAT_BASE, author=self.me)
        line = make_line(self.identity, self.game, book.next_number(self.me), text)
        now = time.monotonic()
        problem = book.problem(line, now)
        if problem:
            raise ChatRefused(problem.replace(f"{self.identity.fingerprint} says", "you say"),
                              seq=line.seq, author=self.me)
        self._keep_line(book, line, now)
        await self.mesh.broadcast(line)
        return line

    def _on_chat(self, ev: SignedEvent) -> None:
        book = self._chat()
        if book is None:
            return
        now = time.monotonic()
        problem = book.problem(ev, now)
        if problem == "":
            return   # a line seen before (gossip or a resume's echo)
        if problem is not None:
            self.chat_refused += 1
            if ev.author not in self._chat_warned:   # once per author: a flood makes one line
                self._chat_warned.add(ev.author)
                self.note(Note(NoteKind.CHAT_REFUSED, who=ev.author, reason=problem))
            return
        self._keep_line(book, ev, now)

    def _keep_line(self, book: ChatBook, line: SignedEvent, now: float) -> None:
        book.keep(line, now)
        if self.log_path is not None:
            with ChatFile(self.log_path, self.game) as f:
                f.append(line.wire)
        self.note(Note(NoteKind.CHAT, who=line.author, text=line.body["text"], seq=line.seq - CHAT_BASE))
