"""Typed errors of the transport (SPEC §28.9).

Every error says which side broke the rule (`side`: "remote" = the peer, "local" = this
process) and names the peer (`peer`: its fingerprint once known, else its address).
Errors that are sent to the peer as an error frame carry the frame's `code`.
"""
from __future__ import annotations

from protocol.errors import BadSignature, ProtocolError

__all__ = [
    "TransportError", "FrameTooLarge", "FrameAuthError", "ConnectionClosed", "MalformedFrame", "UnknownMessageType",
    "HandshakeError", "VersionMismatch", "UnknownGame", "KeyNotAllowed", "HandshakeSignatureError",
    "ReplayedNonce", "DuplicateConnection", "HandshakeTimeout", "PeerRefused", "PeerTimeout",
    "BadEventWire", "SendQueueFull", "NotConnected", "CatchupTimeout", "CannotListen", "Flooding",
    "plain_reason",
]

REMOTE = "remote"
LOCAL = "local"


class TransportError(ProtocolError):
    """Base of every transport error. `reason` is the plain explanation that is also sent
    to the peer in an error frame; `code` is the error frame's code (SPEC §28.9)."""

    code = "protocol"

    def __init__(self, reason: str, *, side: str = REMOTE, peer: str | None = None) -> None:
        self.reason = reason
        self.side = side
        self.peer = peer
        who = f"peer {peer}" if peer else "peer"
        blame = who if side == REMOTE else f"this side (talking to {who})"
        super().__init__(f"{type(self).__name__}: {reason} [broken by {blame}]")


class FrameTooLarge(TransportError):
    """A frame's length prefix exceeds the limit (received), or a payload to send does."""

    code = "too-large"

    def __init__(self, size: int, limit: int, *, side: str = REMOTE, peer: str | None = None) -> None:
        self.size = size
        self.limit = limit
        verb = "announced" if side == REMOTE else "tried to send"
        super().__init__(f"{verb} a frame of {size} bytes; the limit is {limit}", side=side, peer=peer)


class ConnectionClosed(TransportError):
    """The stream ended. `mid_frame` is True when it ended inside a frame (a short read)."""

    code = "closed"

    def __init__(self, reason: str, *, mid_frame: bool = False, side: str = REMOTE,
                 peer: str | None = None) -> None:
        self.mid_frame = mid_frame
        super().__init__(reason, side=side, peer=peer)


class MalformedFrame(TransportError):
    """A frame payload is not one canonical codec map of a known message with the right
    fields and types."""

    code = "malformed"


class UnknownMessageType(MalformedFrame):
    """A frame's "t" names no message type of this protocol version."""

    code = "unknown-type"


class FrameAuthError(TransportError):
    """A frame after the handshake failed to authenticate under the connection's key
    (flipped, injected, replayed, reordered or dropped bytes): the connection ends."""
    code = "frame-auth"


class HandshakeError(TransportError):
    """The handshake (SPEC §28.4) failed."""

    code = "handshake"


class VersionMismatch(HandshakeError):
    code = "version"


class UnknownGame(HandshakeError):
    code = "game"


class KeyNotAllowed(HandshakeError):
    code = "key"


class HandshakeSignatureError(HandshakeError, BadSignature):
    code = "signature"


class ReplayedNonce(HandshakeError):
    code = "nonce"


class DuplicateConnection(HandshakeError):
    """A second connection between the same two peers lost the tie-break (SPEC §28.6)."""

    code = "duplicate"


class HandshakeTimeout(HandshakeError):
    code = "timeout"


class SpectatorsFull(HandshakeError):
    """A spectator was refused: this peer already serves its bound of spectators, or takes
    none (SPEC §29.16)."""

    code = "spectators-full"


class SpectatorSent(TransportError):
    """A spectator connection sent what only a player may send (an event, a catch-up
    answer, addresses): spectators are read-only, so it is dropped (SPEC §29.16)."""

    code = "read-only"


class PeerRefused(TransportError):
    """The peer sent an error frame. `code` is the peer's code, `reason` its message."""

    def __init__(self, code: str, message: str, *, peer: str | None = None) -> None:
        self.code = code
        super().__init__(f"peer refused with [{code}] {message}", side=REMOTE, peer=peer)
        self.reason = message


class PeerTimeout(TransportError):
    """The peer sent nothing (not even a keepalive) for longer than the timeout."""

    code = "timeout"

    def __init__(self, seconds: float, *, peer_key: bytes | None = None, peer: str | None = None) -> None:
        self.seconds = seconds
        self.peer_key = peer_key
        super().__init__(f"silent for more than {seconds:g} s", side=REMOTE, peer=peer)


class BadEventWire(TransportError):
    """An event frame carried bytes that are not a valid signed event of this game."""

    code = "bad-event"


class SendQueueFull(TransportError):
    """The peer reads too slowly: its outgoing queue is full, so it is dropped."""

    code = "slow"


class NotConnected(TransportError):
    """There is no authenticated connection to the named peer."""

    code = "not-connected"


class CatchupTimeout(TransportError):
    """A catch-up request got no complete answer in time."""

    code = "timeout"


class CannotListen(TransportError):
    """The mesh cannot listen on its address (port in use, address not local...)."""

    code = "listen"

    def __init__(self, host: str, port: int, why: str, errno: int | None = None) -> None:
        self.host, self.port, self.errno = host, port, errno
        super().__init__(f"cannot listen on {host}:{port}: {why}", side=LOCAL)


class Flooding(TransportError):
    """The peer asks for more than an honest peer ever needs at once (catch-up requests
    in flight, or addresses in `peers` messages), so it is dropped (SPEC §28.9)."""

    code = "flood"


def plain_reason(error: TransportError) -> str:
    """Why a connection ended, in a few words a player reads (no class names, no blame
    brackets): the line that says a peer was lost shows this (SPEC §29.13)."""
    if isinstance(error, ConnectionClosed):
        return "connection cut off mid-message" if error.mid_frame else "connection closed"
    if isinstance(error, PeerTimeout):
        return f"no sign of life for {error.seconds:g} s"
    if isinstance(error, PeerRefused):
        return f"it refused the connection: {error.reason}"
    where = "" if error.side == REMOTE else "this side: "
    return f"{where}{error.reason}"
