"""Strict checks of event bodies (SPEC §26.3): exact field sets and field types."""
from __future__ import annotations

from typing import Any, Callable

from protocol.session.errors import BadBody

__all__ = ["check_fields", "is_bytes", "is_int", "want_bytes", "want_str", "want_list", "want_map"]

Check = Callable[[Any], bool]


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def is_bytes(v: Any, size: int | None = None) -> bool:
    return isinstance(v, bytes) and (size is None or len(v) == size)


def want_bytes(size: int | None = None) -> Check:
    return lambda v: is_bytes(v, size)


def want_str(max_len: int) -> Check:
    return lambda v: isinstance(v, str) and len(v) <= max_len


def want_list() -> Check:
    return lambda v: isinstance(v, list)


def want_map() -> Check:
    return lambda v: isinstance(v, dict)


def check_fields(body: dict, spec: dict[str, Check], seq: int, author: bytes) -> None:
    """Exactly the fields of `spec`, each passing its check; else BadBody naming the author."""
    if set(body) != set(spec):
        raise BadBody(f"fields must be {sorted(spec)}, got {sorted(body)}", seq=seq, author=author)
    for name, ok in spec.items():
        if not ok(body[name]):
            raise BadBody(f"field {name!r} has the wrong type or size", seq=seq, author=author)
