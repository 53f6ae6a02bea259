"""Which program this is (SPEC §30.1): the project's version, the hash of the lock file its
dependencies were installed from, and whether the installed packages still match that lock."""
from __future__ import annotations

import hashlib
import platform
import re
from importlib import metadata
from pathlib import Path

DIST_NAME = "p2p-asv"
# The lock sits at the root of the tree the packages are in (an editable install or a clone).
LOCK_PATH = Path(__file__).resolve().parent.parent / "requirements.lock"
LOCK_HASH_CHARS = 12
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)", re.MULTILINE)


def project_version() -> str:
    try:
        return metadata.version(DIST_NAME)
    except metadata.PackageNotFoundError:   # run from a tree that was never installed
        return "unknown"


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
        try:
            got = metadata.version(name)
        except metadata.PackageNotFoundError:
            got = "missing"
        if got != pinned:
            drift.append(f"{name} {pinned} -> {got}")
    return drift


def version_line() -> str:
    """What `asv --version` prints: `p2p-asv 0.1.0 (lock 1a2b3c4d5e6f, Python 3.11.7)`, and the
    packages that differ from the lock, if any do."""
    digest = lock_hash()
    line = (f"{DIST_NAME} {project_version()} (lock {digest or 'none'}, "
            f"Python {platform.python_version()})")
    drift = lock_drift()
    if drift:
        line += "; installed packages differ from the lock: " + ", ".join(drift)
    return line
