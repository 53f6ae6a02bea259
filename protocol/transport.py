"""The trio TCP transport in one import (SPEC §28).

    framing    length-prefixed frames, codec message maps         protocol.framing
    messages   message types and their fields                     protocol.messages
    handshake  mutual authentication by identity keys             protocol.handshake
    mesh       connections, keepalives, dispatch                  protocol.mesh
               one current connection per pair, tie-break         protocol.mesh_conn
               seen set, wire checks before forwarding            protocol.mesh_gossip
               catch-up requests and batched answers              protocol.mesh_catchup
               address book, peer exchange                        protocol.mesh_peers
    errors     typed errors that say which side broke             protocol.transport_errors

Game-agnostic: it moves signed-event wires (SPEC §22) and its own control messages.
"""
from __future__ import annotations

from protocol.framing import DEFAULT_MAX_FRAME, HEADER_SIZE, FramedStream, encode_frame
from protocol.handshake import (
    DIALER, HANDSHAKE_DOMAIN, LISTENER, TRANSPORT_VERSION, Authenticated, NonceCache, handshake,
    transcript,
)
from protocol.mesh import DEFAULT_KEEPALIVE, DEFAULT_PEER_TIMEOUT, Mesh, PeerAddress, open_mesh
from protocol.messages import SCHEMAS, check
from protocol.transport_errors import (
    BadEventWire, CannotListen, CatchupTimeout, ConnectionClosed, DuplicateConnection, FrameTooLarge,
    HandshakeError, HandshakeSignatureError, HandshakeTimeout, KeyNotAllowed, MalformedFrame,
    NotConnected, PeerRefused, PeerTimeout, ReplayedNonce, SendQueueFull, TransportError,
    UnknownGame, UnknownMessageType, VersionMismatch, Flooding,
)

__all__ = [
    "FramedStream", "encode_frame", "DEFAULT_MAX_FRAME", "HEADER_SIZE",
    "handshake", "transcript", "Authenticated", "NonceCache", "HANDSHAKE_DOMAIN",
    "TRANSPORT_VERSION", "DIALER", "LISTENER",
    "Mesh", "open_mesh", "PeerAddress", "DEFAULT_KEEPALIVE", "DEFAULT_PEER_TIMEOUT",
    "SCHEMAS", "check",
    "TransportError", "FrameTooLarge", "ConnectionClosed", "MalformedFrame", "UnknownMessageType",
    "HandshakeError", "VersionMismatch", "UnknownGame", "KeyNotAllowed", "HandshakeSignatureError",
    "ReplayedNonce", "DuplicateConnection", "HandshakeTimeout", "PeerRefused", "PeerTimeout",
    "BadEventWire", "SendQueueFull", "NotConnected", "CatchupTimeout", "CannotListen", "Flooding",
]
