"""Point validation with a memory of encodings that already passed (SPEC §25.1, §25.12).

Whether 32 bytes are a valid ristretto255 point is a pure function of the bytes, so an
encoding that passed :func:`protocol.crypto.group.validate_point` once passes it forever:
remembering it is safe, and it saves the decode when the same bytes come back. They do,
within one game or one log check: a shuffle's output deck is the next shuffle's input and
every share's base C1, and a seat's public key is the statement of every share it sends.
Only encodings that passed are remembered, by their exact bytes; a refused one is checked
again each time (and refused again). The memory is bounded (oldest forgotten first).

The multi-scalar multiplication (protocol/crypto/msm.py) takes validated points only;
the verifiers pass each point through :func:`valid` first.
"""
from __future__ import annotations

from protocol.crypto import group as g

#: Benchmarks that measure a peer's first sight of every point set this to False.
remember = True
_SEEN: dict[bytes, None] = {g.G: None}
_SEEN_MAX = 1 << 15


def valid(p: object) -> bytes:
    """``p`` as bytes if it passes ``group.validate_point`` (raising its InvalidPoint if not);
    bytes that passed before are not decoded again."""
    if isinstance(p, bytes) and p in _SEEN:
        return p
    p = g.validate_point(p)
    _remember(p)
    return p


def _remember(p: bytes) -> None:
    if remember and p not in _SEEN:
        if len(_SEEN) >= _SEEN_MAX:
            _SEEN.pop(next(iter(_SEEN)), None)
        _SEEN[p] = None


def note_valid(points) -> None:
    """Remember encodings a caller has just seen decode (a multi-scalar sum that took them
    and did not refuse: it decodes every point it takes), so their next check is a look-up."""
    for p in points:
        _remember(p)


def is_valid(p: object) -> bool:
    """Whether ``p`` passes ``valid`` (no exception)."""
    try:
        valid(p)
    except g.InvalidPoint:
        return False
    return True


def clear() -> None:
    """Forget every remembered encoding (benchmarks: each run sees every point afresh)."""
    _SEEN.clear()
    _SEEN[g.G] = None
