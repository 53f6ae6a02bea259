"""Who may take a lobby seat (SPEC §29.2): a joiner asks the creator for one with a join
request naming the creator's fingerprint as its invite has it; the creator seats it only
when that is its own fingerprint, and says in words why not otherwise (a wrong invite, a
full game, a started one). A mixin of Node: it reads the node's lobby, roster, mesh and
options."""
from __future__ import annotations

import trio

from protocol.crypto import fingerprint
from protocol.net import HandshakeError, KeyNotAllowed, PeerRefused, TransportError
from protocol.node._notes import Note, NoteKind
from protocol.node._options import NotInRoster
from protocol.session import creator_key_matches

__all__ = ["LobbyDoor", "LobbyRefused", "WrongCreator", "GameFull", "GameStarted", "NoJoinRequest", "LobbyBusy",
           "LOBBY_REFUSALS", "MAX_UNSEATED"]


class LobbyRefused(NotInRoster):
    """The creator refused this peer's join request; `code` says why (LOBBY_REFUSALS)."""

    def __init__(self, reason: str, code: str) -> None:
        super().__init__(reason)
        self.reason, self.code = reason, code


class WrongCreator(HandshakeError):
    """A join request names another creator: the joiner's invite has a wrong fingerprint."""

    code = "not-creator"


class NoJoinRequest(HandshakeError):
    """A connection before the roster that neither is the creator nor asked for a seat."""

    code = "no-join"


class LobbyBusy(HandshakeError):
    """Too many connections before the roster that hold no seat (strangers, SPEC §29.2)."""

    code = "busy"


class GameFull(KeyNotAllowed):
    """A key not admitted because the lobby's seats are taken (its own code: say so)."""

    code = "full"


class GameStarted(KeyNotAllowed):
    """A key not admitted because the roster is fixed without it (its own code: say so)."""

    code = "started"


# connections a peer holds before the roster from keys outside its lobby (a joiner's
# lobby is itself alone): the other seats (at most 3), the creator and a few to spare
MAX_UNSEATED = 8

# the refusals this module makes of a lobby connection, said by the creator as such
LOBBY_DOOR_ERRORS = (WrongCreator, GameFull, NoJoinRequest, LobbyBusy)

# refusals after which a peer that has not seen the roster stops: the creator said no
LOBBY_REFUSALS = (WrongCreator.code, GameFull.code, GameStarted.code)


class LobbyDoor:
    def _init_lobby(self) -> None:
        self._lobby_refusal: PeerRefused | None = None
        self._requested: set[bytes] = set()   # keys that sent this peer a join request

    def _expected(self, key: bytes) -> bool:
        """A reason to keep `key`'s lobby connection: it is the creator, holds a seat, or
        asked for one (SPEC §29.2)."""
        return key in self.lobby or key in self._requested or creator_key_matches(self.creator, key)

    @property
    def _is_creator(self) -> bool:
        return self.creator == self.me and self.options.seats is not None

    def _allowed(self, key: bytes) -> bool | TransportError:
        roster = self.roster
        if roster is not None:
            return key in roster or GameStarted(
                f"this game has started and its {len(roster)} seat(s) are taken; nobody can join it now. "
                "ask the players for an invite to their next game", peer=fingerprint(key))
        if self._is_creator and key not in self.lobby and len(self.lobby) >= self.options.seats:
            return self._full(key)
        here = self.mesh.peer_keys()
        if key not in here and not self._expected(key) and \
                len([k for k in here if k not in self.lobby]) >= MAX_UNSEATED:
            return LobbyBusy(f"this lobby already holds {MAX_UNSEATED} connections without a seat; try again later",
                             peer=fingerprint(key))
        return True

    def _full(self, key: bytes) -> GameFull:
        return GameFull(f"this game is full ({len(self.lobby)} of {self.options.seats} seats taken); "
                        "ask the host for another game", peer=fingerprint(key))

    def _ask_for_seat(self, key: bytes) -> None:
        """A joiner asks every peer it meets before the roster; only the creator answers."""
        if self.session is None and self.creator != self.me:
            creator = self.creator if isinstance(self.creator, str) else fingerprint(self.creator)
            self.mesh.send_join(key, creator.strip().upper())

    async def _drop_unless_expected(self, key: bytes) -> None:
        """A lobby connection that is not the creator and sent no join request within
        `join_grace` is closed: a stranger costs one bounded connection for a bounded time."""
        await trio.sleep(self.options.join_grace)
        if self.roster is None and key in self.mesh.peer_keys() and not self._expected(key):
            self.mesh.disconnect(key, NoJoinRequest(
                f"no join request within {self.options.join_grace:g} s of connecting to this game's lobby",
                peer=fingerprint(key)))

    def _lobby_peer_up(self, key: bytes) -> None:
        if self.roster is not None:
            return
        self._ask_for_seat(key)   # a seat is taken by a join request, not a connection (SPEC §29.2)
        if self._nursery is not None and not self._expected(key):
            self._nursery.start_soon(self._drop_unless_expected, key)

    def _on_join(self, key: bytes, creator: str) -> None:
        if self.roster is None:
            self._requested.add(key)
        if not self._is_creator or self.roster is not None or key in self.lobby:
            return
        if not creator_key_matches(creator, self.me):
            self.mesh.disconnect(key, WrongCreator(
                f"the invite's fingerprint {creator} does not match this game's creator {fingerprint(self.me)}",
                peer=fingerprint(key)))
            return
        if len(self.lobby) >= self.options.seats:
            self.mesh.disconnect(key, self._full(key))
            return
        self.lobby.append(key)
        self.note(Note(NoteKind.JOINED, who=key, count=len(self.lobby), seats=self.options.seats))
        if len(self.lobby) >= self.options.seats:
            self._lobby_full.set()

    def _refused_by_lobby(self, error: TransportError) -> None:
        if self.session is None and isinstance(error, PeerRefused) and error.code in LOBBY_REFUSALS:
            self._lobby_refusal = error
