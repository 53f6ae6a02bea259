"""Who is here: peers coming and going, and how long a seat has been gone (SPEC §29.13,
§29.15). A mixin of Node: it reads the node's session, lobby, mesh and options."""
from __future__ import annotations

import time

from protocol.crypto import fingerprint
from protocol.net import PeerRefused, TransportError, plain_reason
from protocol.node._lobby import LOBBY_DOOR_ERRORS
from protocol.node._notes import Note, NoteKind

__all__ = ["Presence"]


class Presence:
    def _init_presence(self, resumed: bool) -> None:
        self._down_since: dict[bytes, float] = {}       # peers without a connection, since when
        # whom this node said it lost (only they are "back") and whom it has met since it started:
        # a resumed peer's first meeting with a seat says "is here" (SPEC §29.13, §29.15)
        self._lost: set[bytes] = set()
        self._met: set[bytes] = set()
        self._resumed = resumed
        self._left_out: TransportError | None = None   # refused [key] before we saw the roster

    def _on_peer_up(self, key: bytes) -> None:
        self._lobby_peer_up(key)
        gone = self._down_since.pop(key, None)
        if self.session is not None and self._nursery is not None:
            self._nursery.start_soon(self._catch_up_from, key)
            own = self.ballot.own
            if own is not None and self.ballot.cast[0] == self.height:  # it may have missed our vote
                self._nursery.start_soon(self._send_quietly, key, own)
            if not self.over and not self.votes_held:
                if key in self._lost and gone is not None:
                    self.note(Note(NoteKind.BACK, who=key, seconds=time.monotonic() - gone))
                elif self._resumed and key not in self._met:   # never lost here: no "back", no "gone 0 s"
                    self.note(Note(NoteKind.HERE, who=key))
        self._lost.discard(key)
        self._met.add(key)

    def _on_peer_down(self, key: bytes, error: TransportError) -> None:
        self._refused_by_lobby(error)
        if self.session is None and self._is_creator and key not in self.lobby:
            # never seated: not "lost"; a refusal of this lobby's own is said as one (SPEC §29.2)
            if isinstance(error, LOBBY_DOOR_ERRORS):
                self.note(Note(NoteKind.REFUSED_CONNECTION, error=error))
            return
        if self.session is None and isinstance(error, PeerRefused) and error.code == "key":
            self._left_out = error
        if self.roster is None and key in self.lobby and self.session is None and self.options.seats:
            self.lobby.remove(key)   # left before the start: the seat is free again
        self._down_since.setdefault(key, time.monotonic())
        if not self.over:
            # once the game has started it waits for the seat, up to the abort timeout
            waits = None if self.session is None else self.options.timeout
            self.note(Note(NoteKind.LOST, who=key, reason=plain_reason(error), at=time.time(), seconds=waits,
                           error=error))
            self._lost.add(key)

    def _on_refused(self, error: TransportError) -> None:
        self.note(Note(NoteKind.REFUSED_CONNECTION, error=error))

    def who(self, key: bytes) -> str:
        """A peer's display name and fingerprint, as far as this peer knows them; the
        caller's `namer` (cli: seat colour and name) when it knows the peer."""
        named = self.namer(key) if self.namer is not None else None
        if named:
            return named
        s = self.session
        if s is not None and s.roster is not None and key in s.roster and s.roster.index(key) < len(s.names):
            return f"{s.names[s.roster.index(key)]} ({fingerprint(key)})"
        return fingerprint(key)

    def absent_for(self, key: bytes) -> float:
        """Seconds `key` has been gone: no live connection with this peer, so no keepalive
        either; 0 while it is connected, however long it thinks (SPEC §29.13)."""
        if key in self.mesh.peer_keys():
            return 0.0
        return time.monotonic() - self._down_since.setdefault(key, time.monotonic())

    def restart_absence(self) -> None:
        """Count every roster peer not connected now as gone from now: the end of a wait in
        which nobody could be late (SPEC §29.15) gives each the whole timeout afresh."""
        now, here = time.monotonic(), set(self.mesh.peer_keys())
        for key in self.roster or []:
            if key != self.me and key not in here:
                self._down_since[key] = now
