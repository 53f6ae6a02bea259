"""Peer exchange: where peers listen, and the `peers` messages (SPEC §28.5).

A peer's address is the host seen on its socket and the port from its hello. A new
current connection is told every other peer's address; the other peers are told the
new one's. Addresses learnt from `peers` messages are what auto-dial uses.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from protocol import codec

from protocol.net import messages
from protocol.net.errors import Flooding

__all__ = ["PeerAddress", "AddressBook", "MAX_ADVERTISED"]

# Distinct keys one connection may name in `peers` messages. An honest peer names the
# peers it is connected to, a handful per game; more would make us store and dial
# whatever a hostile peer invents.
MAX_ADVERTISED = 256


@dataclass(frozen=True, order=True)
class PeerAddress:
    key: bytes
    host: str
    port: int


def _entry(addr: PeerAddress) -> dict[str, Any]:
    return {"key": addr.key, "host": addr.host, "port": addr.port}


class AddressBook:
    """Every peer address learnt so far, by key."""

    def __init__(self, own_key: bytes) -> None:
        self.own_key = own_key
        self._addresses: dict[bytes, PeerAddress] = {}

    def known(self) -> list[PeerAddress]:
        return sorted(self._addresses.values())

    def connected(self, key: bytes, host: str | None, port: int) -> PeerAddress | None:
        """Record where a peer we hold a connection with listens (port 0: it does not)."""
        if host and port:
            self._addresses[key] = PeerAddress(key, host, port)
        return self._addresses.get(key)

    def list_payload(self, current: Iterable[bytes], exclude: bytes) -> bytes:
        """`peers` for a new peer: every other current peer whose address is known, in key
        order."""
        entries = [_entry(self._addresses[k]) for k in sorted(current)
                   if k != exclude and k in self._addresses]
        return codec.encode({"t": "peers", "peers": entries[:messages.MAX_PEERS_LISTED]})

    @staticmethod
    def announce_payload(addr: PeerAddress) -> bytes:
        """`peers` telling the others about one new peer."""
        return codec.encode({"t": "peers", "peers": [_entry(addr)]})

    def received(self, entries: list[dict[str, Any]], *, advertised: set[bytes],
                 peer: str | None = None) -> list[PeerAddress]:
        """Learn the addresses of a checked `peers` message; return them, our own left out.
        `advertised` holds the keys the sending connection named so far: past
        MAX_ADVERTISED distinct keys it is Flooding."""
        out = []
        for e in entries:
            addr = PeerAddress(e["key"], e["host"], e["port"])
            if addr.key == self.own_key:
                continue
            advertised.add(addr.key)
            if len(advertised) > MAX_ADVERTISED:
                raise Flooding(f"named more than {MAX_ADVERTISED} peers in peer exchange", peer=peer)
            self._addresses.setdefault(addr.key, addr)
            out.append(addr)
        return out
