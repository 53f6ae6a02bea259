"""Transport message types and their fields (SPEC §28.2).

Every frame payload is a canonical codec map with "t" (the type) and exactly the fields
listed for that type in SCHEMAS, each of the listed kind. `check` refuses anything else
with MalformedFrame (or UnknownMessageType for an unknown "t").
"""
from __future__ import annotations

from typing import Any

from protocol.net.errors import MalformedFrame, UnknownMessageType

__all__ = ["SCHEMAS", "check", "NONCE_SIZE", "MAX_HOST_LEN", "MAX_PEERS_LISTED", "MAX_CODE_LEN",
           "MAX_MSG_LEN", "MAX_HAVE"]

NONCE_SIZE = 32
MAX_HOST_LEN = 255
MAX_PEERS_LISTED = 64
MAX_CODE_LEN = 32
MAX_MSG_LEN = 1000
MAX_HAVE = 512            # hashes in one `have` (SPEC §28.13): 512 * 34 bytes, far below a frame
_U63 = (1 << 63) - 1


def _int_in(lo: int, hi: int):
    def ok(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi
    ok.__doc__ = f"int in [{lo}, {hi}]"
    return ok


def _bin(*sizes: int):
    def ok(v: Any) -> bool:
        return isinstance(v, bytes) and (not sizes or len(v) in sizes)
    ok.__doc__ = f"bin of {' or '.join(map(str, sizes))} bytes" if sizes else "bin"
    return ok


def _str(max_len: int):
    def ok(v: Any) -> bool:
        return isinstance(v, str) and len(v) <= max_len
    ok.__doc__ = f"str of at most {max_len} characters"
    return ok


def _is_bool(v: Any) -> bool:
    """bool"""
    return isinstance(v, bool)


def _peer_entry(v: Any) -> bool:
    return (isinstance(v, dict) and set(v) == {"key", "host", "port"} and _bin(32)(v["key"])
            and _str(MAX_HOST_LEN)(v["host"]) and _int_in(1, 65535)(v["port"]))


def _peer_list(v: Any) -> bool:
    return isinstance(v, list) and len(v) <= MAX_PEERS_LISTED and all(_peer_entry(e) for e in v)


_peer_list.__doc__ = f'list of at most {MAX_PEERS_LISTED} maps {{"key": bin 32, "host": str, "port": int in [1, 65535]}}'


def _wire_list(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(w, bytes) for w in v)


_wire_list.__doc__ = "list of bin"


def _hash_list(v: Any) -> bool:
    return isinstance(v, list) and 0 < len(v) <= MAX_HAVE and all(isinstance(h, bytes) and len(h) == 32 for h in v)


_hash_list.__doc__ = f"list of 1 to {MAX_HAVE} bin of 32 bytes"

SCHEMAS: dict[str, dict[str, Any]] = {
    # handshake, SPEC §28.4
    "hello": {"v": _int_in(0, _U63), "game": _bin(16, 32), "key": _bin(32),
              "nonce": _bin(NONCE_SIZE), "eph": _bin(32), "port": _int_in(0, 65535)},
    "auth": {"sig": _bin(64)},
    "ok": {},
    # any time, SPEC §28.9
    "error": {"code": _str(MAX_CODE_LEN), "msg": _str(MAX_MSG_LEN)},
    # after the handshake, SPEC §28.5-§28.8
    "ping": {},
    "event": {"wire": _bin()},
    "peers": {"peers": _peer_list},
    "since": {"id": _int_in(0, _U63), "from": _int_in(0, _U63)},
    "batch": {"id": _int_in(0, _U63), "wires": _wire_list, "more": _is_bool},
    # event hashes this peer has, so the receiver need not relay them to it, SPEC §28.13
    "have": {"hashes": _hash_list},
    # a lobby's join request, SPEC §29.2: the creator's fingerprint as the joiner's invite has it
    "join": {"creator": _str(MAX_CODE_LEN)},
}


def check(msg: dict[str, Any], *, peer: str | None = None) -> dict[str, Any]:
    """Return `msg` if it is a well-formed message of a known type; raise otherwise."""
    kind = msg.get("t")
    schema = SCHEMAS.get(kind) if isinstance(kind, str) else None
    if schema is None:
        raise UnknownMessageType(f"unknown message type {kind!r}", peer=peer)
    fields = set(msg) - {"t"}
    if fields != set(schema):
        missing = sorted(set(schema) - fields)
        unknown = sorted(fields - set(schema))
        raise MalformedFrame(f'"{kind}" message fields wrong: missing {missing}, unknown {unknown}', peer=peer)
    for name in sorted(schema):
        if not schema[name](msg[name]):
            raise MalformedFrame(f'"{kind}" field "{name}" must be {schema[name].__doc__}', peer=peer)
    return msg
