"""Which program this is (SPEC §30.1): `asv --version`. The lines are made in
protocol/log/program.py, since every log header names the program too (SPEC §23.2)."""
from __future__ import annotations

from protocol.log.program import (
    DIST_NAME, LOCK_HASH_CHARS, LOCK_PATH, lock_drift, lock_hash, lock_pins, project_version, version_line,
)

__all__ = ["DIST_NAME", "LOCK_HASH_CHARS", "LOCK_PATH", "lock_drift", "lock_hash", "lock_pins",
           "project_version", "version_line"]
