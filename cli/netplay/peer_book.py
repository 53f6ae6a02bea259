"""Where the other peers of a game listen, kept beside this peer's log (SPEC §29.12), so
`asv join --resume LOG` can come back through any of them, not only the host.

`<log>.peers` is JSON: [{"fingerprint", "host", "port"}], rewritten whenever the mesh
learns a new address (its own connections and the peer exchange, SPEC §28.5). One entry
marked `"self": true` keeps the port this peer listened on, so a resume listens there again
and the others, dialling the addresses they kept, find it (SPEC §29.15).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from protocol.crypto import fingerprint

__all__ = ["peers_path", "save_peers", "load_peers", "load_peer_keys", "kept_entries", "own_port", "own_listen",
           "PeerBook"]


def peers_path(log: str | os.PathLike) -> Path:
    return Path(str(log) + ".peers")


def save_peers(log: str | os.PathLike, entries: list[dict]) -> None:
    path = peers_path(log)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(entries, indent=1))
    os.replace(tmp, path)


def _entries(log: str | os.PathLike) -> list[dict]:
    try:
        entries = json.loads(peers_path(log).read_text())
        return [e for e in entries if isinstance(e, dict) and 0 < int(e["port"]) < 65536]
    except (OSError, ValueError, KeyError, TypeError):
        return []


def kept_entries(log: str | os.PathLike) -> list[dict]:
    """The entries of the book beside LOG (the other peers'), as written."""
    return [e for e in _entries(log) if not e.get("self")]


def load_peers(log: str | os.PathLike) -> list[tuple[str, int]]:
    """(host, port) of every other peer recorded beside LOG; [] when none (or unreadable)."""
    try:
        return [(str(e["host"]), int(e["port"])) for e in _entries(log) if not e.get("self")]
    except (ValueError, KeyError, TypeError):
        return []


def load_peer_keys(log: str | os.PathLike) -> list[tuple[str, str]]:
    """(fingerprint, host) of every other peer recorded beside LOG with its fingerprint."""
    try:
        return [(str(e["fingerprint"]), str(e["host"])) for e in _entries(log)
                if not e.get("self") and e.get("fingerprint") and e.get("host")]
    except (KeyError, TypeError):
        return []


def own_port(log: str | os.PathLike) -> int:
    """The port this peer listened on when it wrote LOG; 0 when not recorded."""
    return next((int(e["port"]) for e in _entries(log) if e.get("self") is True), 0)


def own_listen(log: str | os.PathLike) -> str | None:
    """The address this peer listened on when it wrote LOG (127.0.0.1, 0.0.0.0, ...); None
    when not recorded (a book written before it was kept)."""
    return next((str(e["listen"]) for e in _entries(log) if e.get("self") is True and e.get("listen")), None)


class PeerBook:
    """Keeps `<log>.peers` up to date with a node's mesh (call `update(node)` often: it
    writes only when something changed). `first` is an address known before the mesh
    (the invite), kept at the head of the list; `kept` are the entries of the book a resume
    started from: a peer the mesh has not met again keeps its entry (its fingerprint too,
    which gives its spare ports, SPEC §29.15), so resuming never forgets an address."""

    def __init__(self, first: tuple[str, int] | None = None, kept: list[dict] | None = None) -> None:
        self.first = first
        self.kept = [dict(e) for e in kept or [] if not e.get("self")]
        self._written: list[dict] | None = None
        self._source: tuple | None = None   # what the written entries were made from

    def update(self, node) -> None:
        if node.log_path is None:
            return
        # called after every event: rebuild the entries only when the mesh's addresses or
        # our port changed since the last write (SPEC §28.13: it cost 0.1 ms an event)
        known = node.mesh.known_peers()
        port = getattr(node.mesh, "listen_port", 0)
        source = (tuple(known), port, node.log_path)
        if source == self._source:
            return
        entries = [{"fingerprint": fingerprint(a.key), "host": a.host, "port": a.port}
                   for a in known]
        met = {e["fingerprint"] for e in entries}
        entries += [e for e in self.kept if e.get("fingerprint") not in met
                    and not any((x["host"], x["port"]) == (e.get("host"), e.get("port")) for x in entries)]
        if self.first is not None and not any((e["host"], e["port"]) == self.first for e in entries):
            entries.insert(0, {"fingerprint": "", "host": self.first[0], "port": self.first[1]})
        if port:
            entries.append({"fingerprint": fingerprint(node.me), "host": "", "port": port, "self": True,
                            "listen": node.mesh.address[0]})
        if entries == self._written:
            self._source = source
        else:
            try:
                save_peers(node.log_path, entries)
                self._written = entries
                self._source = source
            except OSError:
                pass   # a hint for a later resume, never worth stopping the game for
