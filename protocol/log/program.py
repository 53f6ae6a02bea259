"""Which program this is (SPEC §30.1): the project's version, the hash of the lock file its
dependencies were installed from, and whether the installed packages still match that lock.
`asv --version` prints `version_line()`; every log header names `log_program_line()` (SPEC §23.2)."""
from __future__ import annotations

import hashlib
import os
import platform
import re
import sys
from functools import lru_cache
from pathlib import Path

DIST_NAME = "p2p-asv"
# The lock sits at the root of the tree the packages are in (an editable install or a clone).
LOCK_PATH = Path(__file__).resolve().parents[2] / "requirements.lock"
LOCK_HASH_CHARS = 12
MAX_PROGRAM_BYTES = 255        # a log header gives the program line one length byte (SPEC §23.2)
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)", re.MULTILINE)


def _normal(name: str) -> str:
    """A distribution name as importlib.metadata compares them (PEP 503, `_` for `-`)."""
    return re.sub(r"[-_.]+", "_", name).lower()


@lru_cache(maxsize=1)
def _listed_versions() -> dict[str, str | None]:
    """normal name -> version of the first distribution of that name on sys.path, read from
    its `NAME-VERSION.dist-info` folder's name (None: the first one is another kind, such as
    an .egg-info, whose name does not say its version). One listing of each sys.path folder,
    where importlib.metadata opens and parses every distribution's METADATA file (about
    20 ms for a lock's pins, each peer's start-up, issue 23)."""
    found: dict[str, str | None] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for item in names:
            stem, dot, suffix = item.rpartition(".")
            if not dot or suffix.lower() not in ("dist-info", "egg-info"):
                continue
            name, dash, version = stem.partition("-")
            found.setdefault(_normal(name), version if suffix.lower() == "dist-info" and dash else None)
    return found


def listed_version(name: str) -> str | None:
    """The version in the name of the first distribution folder of `name` on sys.path, or
    None (none, or one whose name does not say it)."""
    return _listed_versions().get(_normal(name))


def installed_version(name: str) -> str | None:
    """The version importlib.metadata gives for distribution `name`, None if not installed."""
    from importlib import metadata   # here: `asv verify` reads no package metadata (SPEC §35.8)
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def project_version() -> str:
    # unknown: run from a tree that was never installed
    return listed_version(DIST_NAME) or installed_version(DIST_NAME) or "unknown"


def lock_hash(path: Path = LOCK_PATH) -> str | None:
    """The first 12 hex digits of the lock file's SHA-256, or None without a lock."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:LOCK_HASH_CHARS]
    except OSError:
        return None


def lock_pins(text: str) -> dict[str, str]:
    """name -> pinned version of every distribution a lock file names."""
    return {name.lower(): version for name, version in _PIN.findall(text)}


def lock_drift(path: Path = LOCK_PATH) -> list[str]:
    """The pinned distributions that are missing or at another version here ("name pin -> got")."""
    try:
        pins = lock_pins(path.read_text())
    except OSError:
        return []
    drift = []
    for name, pinned in pins.items():
        if listed_version(name) == pinned:   # pip names the folder from the metadata's version
            continue
        got = installed_version(name) or "missing"
        if got != pinned:
            drift.append(f"{name} {pinned} -> {got}")
    return drift


def _program() -> str:
    return f"{DIST_NAME} {project_version()} (lock {lock_hash() or 'none'}, Python {platform.python_version()})"


def version_line() -> str:
    """What `asv --version` prints: `p2p-asv 0.1.0 (lock 1a2b3c4d5e6f, Python 3.11.7)`, and the
    packages that differ from the lock, if any do."""
    line = _program()
    drift = lock_drift()
    if drift:
        line += "; installed packages differ from the lock: " + ", ".join(drift)
    return line


@lru_cache(maxsize=1)
def log_program_line() -> str:
    """The line a new log's header names (SPEC §23.2): `asv --version`'s line, with the
    packages that differ from the lock counted rather than listed, so it always fits the
    header's 255 bytes. Computed once a process: it reads the lock and every pin's metadata."""
    line = _program()
    drift = lock_drift()
    if drift:
        line += f"; {len(drift)} installed packages differ from the lock"
    return line[:MAX_PROGRAM_BYTES]
