"""The names other keys used in earlier games, kept in the user's config folder, so the
lobby can name a friend who joins before this game's hellos tell anyone's name (SPEC §32.4).

`names-seen.json` beside the user's identity key: {fingerprint: name}, the name each key
signed into its last hello seen here, at most MAX_KEPT keys (the oldest forgotten first).
The name is what that key called itself, nothing more: lines show it with the fingerprint.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from cli.netplay.identity_file import user_key_path
from protocol.crypto import fingerprint

__all__ = ["names_path", "name_seen", "remember", "MAX_KEPT"]

MAX_KEPT = 256


def names_path() -> Path:
    return user_key_path().with_name("names-seen.json")


def _load() -> dict[str, str]:
    try:
        kept = json.loads(names_path().read_text())
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in kept.items() if isinstance(k, str) and isinstance(v, str)} \
        if isinstance(kept, dict) else {}


def name_seen(key: bytes) -> str | None:
    """The name `key` used in its last hello seen on this machine, if any."""
    return _load().get(fingerprint(key)) or None


def remember(key: bytes, name: str) -> None:
    """Keep `name` for `key` (a hello just applied). A failure to write loses only a hint."""
    if not name:
        return
    kept = _load()
    fp = fingerprint(key)
    if kept.get(fp) == name and list(kept)[-1] == fp:
        return
    kept.pop(fp, None)
    kept[fp] = name[:64]
    while len(kept) > MAX_KEPT:
        kept.pop(next(iter(kept)))
    path = names_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(kept, indent=1))
        os.replace(tmp, path)
    except OSError:
        pass
