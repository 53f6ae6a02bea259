"""verify_log for the copies of one game kept by several peers."""
from __future__ import annotations

from pathlib import Path

from protocol.session import verify_log


def verify_logs(paths, rules_factory) -> list:
    """The VerifyReport of each log. verify_log reads nothing but the file, so byte-equal
    logs (every peer of a finished game writes the same chain) get the report of the one
    replayed first: N copies cost one replay, and a copy that differs is replayed itself."""
    reports: dict[bytes, object] = {}
    out = []
    for path in paths:
        data = Path(path).read_bytes()
        if data not in reports:
            reports[data] = verify_log(path, rules_factory())[0]
        out.append(reports[data])
    return out
