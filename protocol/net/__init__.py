"""The trio TCP transport (SPEC §28), in one import.

    framing    length-prefixed frames, codec message maps         protocol.net.framing
    messages   message types and their fields                     protocol.net.messages
    handshake  mutual authentication by identity keys             protocol.net.handshake
    mesh       connections, keepalives, dispatch                  protocol.net.mesh
               one current connection per pair, tie-break         protocol.net.mesh.conn
               seen set, wire checks before forwarding            protocol.net.mesh.gossip
               catch-up requests and batched answers              protocol.net.mesh.catchup
               address book, peer exchange                        protocol.net.mesh.peers
    errors     typed errors that say which side broke             protocol.net.errors

Depends on log (event wires), crypto (identities) and protocol's base; never on the session.
Game-agnostic: it moves signed-event wires (SPEC §22) and its own control messages.
"""
from __future__ import annotations

from protocol.net.framing import DEFAULT_MAX_FRAME, HEADER_SIZE, FramedStream, encode_frame
from protocol.net.handshake import (
    DIALER, HANDSHAKE_DOMAIN, LISTENER, TRANSPORT_VERSION, Authenticated, NonceCache, handshake,
    transcript, watch_id,
)
from protocol.net.mesh import DEFAULT_KEEPALIVE, DEFAULT_PEER_TIMEOUT, Mesh, PeerAddress, open_mesh
from protocol.net.messages import SCHEMAS, check
from protocol.net.errors import (
    BadEventWire, CannotListen, CatchupTimeout, ConnectionClosed, DuplicateConnection, FrameAuthError, FrameTooLarge,
    HandshakeError, HandshakeSignatureError, HandshakeTimeout, KeyNotAllowed, MalformedFrame,
    NotConnected, PeerRefused, PeerTimeout, ReplayedNonce, SendQueueFull, TransportError,
    UnknownGame, UnknownMessageType, VersionMismatch, Flooding, SpectatorsFull, SpectatorSent, plain_reason,
)

__all__ = [
    "FramedStream", "encode_frame", "DEFAULT_MAX_FRAME", "HEADER_SIZE",
    "handshake", "transcript", "watch_id", "Authenticated", "NonceCache", "HANDSHAKE_DOMAIN",
    "TRANSPORT_VERSION", "DIALER", "LISTENER",
    "Mesh", "open_mesh", "PeerAddress", "DEFAULT_KEEPALIVE", "DEFAULT_PEER_TIMEOUT",
    "SCHEMAS", "check",
    "TransportError", "FrameTooLarge", "FrameAuthError", "ConnectionClosed", "MalformedFrame", "UnknownMessageType",
    "HandshakeError", "VersionMismatch", "UnknownGame", "KeyNotAllowed", "HandshakeSignatureError",
    "ReplayedNonce", "DuplicateConnection", "HandshakeTimeout", "PeerRefused", "PeerTimeout",
    "BadEventWire", "SendQueueFull", "NotConnected", "CatchupTimeout", "CannotListen", "Flooding",
    "SpectatorsFull", "SpectatorSent",
    "plain_reason",
]
