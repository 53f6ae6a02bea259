"""A node's settings, its timing record and its own errors (SPEC §29)."""
from __future__ import annotations

from dataclasses import dataclass, field

from protocol.errors import ProtocolError

__all__ = ["DEFAULT_TIMEOUT", "DEFAULT_RESYNC", "DEFAULT_LINGER", "NodeOptions", "Timing",
           "NotInRoster", "ResumeError"]

DEFAULT_TIMEOUT = 120.0    # seconds the due peer may stay silent before it is named in an abort
DEFAULT_RESYNC = 2.0       # seconds without progress before asking peers for missed events
DEFAULT_LINGER = 1.0       # seconds to keep serving after the game ends (last wires flush)


class NotInRoster(ProtocolError, RuntimeError):
    """The game started with a roster that does not hold this peer's key."""


class ResumeError(ProtocolError, RuntimeError):
    """A log or its secrets cannot be used to rejoin the game (the reason says why)."""


@dataclass
class NodeOptions:
    host: str = "127.0.0.1"
    port: int = 0
    timeout: float = DEFAULT_TIMEOUT
    resync: float = DEFAULT_RESYNC
    linger: float = DEFAULT_LINGER
    keepalive: float = 2.0
    peer_timeout: float = 10.0
    seats: int | None = None          # lobby size; None: fixed by a roster already known
    join_grace: float = 10.0          # seconds a lobby connection may go without a join request (§29.2)


@dataclass
class Timing:
    """When this peer signed or applied each event (time.monotonic(); one clock per host)."""
    signed: dict[int, float] = field(default_factory=dict)
    applied: dict[int, float] = field(default_factory=dict)
