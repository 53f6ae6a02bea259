"""Chat and takebacks for the REPL seat on the network (SPEC §29.17, §29.18): what the
driver offers the REPL's `say`, `undo`, `yes` and `no`. A mixin of NetDriver: it reaches the
node only through trio.from_thread, like the rest of the driver."""
from __future__ import annotations

import trio

from protocol.errors import ProtocolError

__all__ = ["TableTalk"]


class TableTalk:
    node: object
    token: object

    def _call(self, fn, *args) -> str | None:
        """Run one of the node's table-talk calls; the refusal's words, or None when done."""
        try:
            trio.from_thread.run(fn, *args, trio_token=self.token)
        except trio.RunFinishedError:
            return "the game has ended on this peer; nothing was sent"
        except ProtocolError as exc:     # ChatRefused, CannotTakeBack: the reason is in words
            return f"not sent: {getattr(exc, 'reason', exc)}"
        return None

    def say(self, text: str) -> str | None:
        return self._call(self.node.say, text)

    def ask_takeback(self) -> str | None:
        return self._call(self.node.ask_takeback)

    def answer_takeback(self, yes: bool) -> str | None:
        return self._call(self.node.answer_takeback, yes)

    def takeback_question(self) -> str | None:
        """The action another seat asks to take back, while this seat has not answered."""
        try:
            ask = trio.from_thread.run_sync(lambda: self.node.takeback_asked, trio_token=self.token)
        except trio.RunFinishedError:
            return None
        return None if ask is None else ask.body["a"]
