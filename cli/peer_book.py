"""Where the other peers of a game listen, kept beside this peer's log (SPEC §29.12), so
`asv join --resume LOG` can come back through any of them, not only the host.

`<log>.peers` is JSON: [{"fingerprint", "host", "port"}], rewritten whenever the mesh
learns a new address (its own connections and the peer exchange, SPEC §28.5).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from protocol.crypto import fingerprint

__all__ = ["peers_path", "save_peers", "load_peers", "PeerBook"]


def peers_path(log: str | os.PathLike) -> Path:
    return Path(str(log) + ".peers")


def save_peers(log: str | os.PathLike, entries: list[dict]) -> None:
    path = peers_path(log)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(entries, indent=1))
    os.replace(tmp, path)


def load_peers(log: str | os.PathLike) -> list[tuple[str, int]]:
    """(host, port) of every peer recorded beside LOG; [] when none (or unreadable)."""
    try:
        entries = json.loads(peers_path(log).read_text())
        return [(str(e["host"]), int(e["port"])) for e in entries
                if isinstance(e, dict) and 0 < int(e["port"]) < 65536]
    except (OSError, ValueError, KeyError, TypeError):
        return []


class PeerBook:
    """Keeps `<log>.peers` up to date with a node's mesh (call `update(node)` often: it
    writes only when something changed). `first` is an address known before the mesh
    (the invite), kept at the head of the list."""

    def __init__(self, first: tuple[str, int] | None = None) -> None:
        self.first = first
        self._written: list[dict] | None = None

    def update(self, node) -> None:
        if node.log_path is None:
            return
        entries = [{"fingerprint": fingerprint(a.key), "host": a.host, "port": a.port}
                   for a in node.mesh.known_peers()]
        if self.first is not None and not any((e["host"], e["port"]) == self.first for e in entries):
            entries.insert(0, {"fingerprint": "", "host": self.first[0], "port": self.first[1]})
        if entries != self._written:
            try:
                save_peers(node.log_path, entries)
                self._written = entries
            except OSError:
                pass   # a hint for a later resume, never worth stopping the game for
