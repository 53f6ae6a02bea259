"""The bodies of the two dice events and their strict checks (SPEC §33.6).

The session writes them as ordinary signed events; these pure functions build a body and
check one that arrived (exact field set, exact types), so the session only adds its own
fields (the state hash `h`) and turns a DiceError into evidence against the author.
"""
from __future__ import annotations

from typing import Any, Iterable

from protocol.crypto.dice.chain import LINK_BYTES, ChainCommit
from protocol.crypto.dice.errors import BadDiceBody

__all__ = ["CHAIN_KIND", "OPEN_KIND", "chain_body", "open_body", "parse_chain_body", "parse_open_body"]

CHAIN_KIND = "dice-chain"
OPEN_KIND = "dice-open"
_U32 = 1 << 32


def chain_body(commit: ChainCommit) -> dict[str, Any]:
    return {"gen": commit.gen, "len": commit.length, "head": commit.head}


def open_body(roll: int, link: bytes) -> dict[str, Any]:
    return {"roll": roll, "link": link}


def _int(v: Any, bound: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < bound


def _fields(seat: int, body: Any, mine: set[str], extra: Iterable[str]) -> None:
    if not isinstance(body, dict):
        raise BadDiceBody(seat, "a body is a map")
    want = mine | set(extra)
    if set(body) != want:
        raise BadDiceBody(seat, f"fields must be {sorted(want)}, got {sorted(map(str, body))}")


def parse_chain_body(seat: int, body: Any, extra: Iterable[str] = ()) -> ChainCommit:
    """A `dice-chain` body: `gen` u32, `len` u32, `head` bin 32 (plus the caller's `extra`
    field names, which the caller checks). The ledger then checks the values in context."""
    _fields(seat, body, {"gen", "len", "head"}, extra)
    if not _int(body["gen"], _U32) or not _int(body["len"], _U32):
        raise BadDiceBody(seat, "gen and len are integers in 0 … 2^32-1")
    if not isinstance(body["head"], bytes) or len(body["head"]) != LINK_BYTES:
        raise BadDiceBody(seat, f"head is {LINK_BYTES} bytes")
    return ChainCommit(body["gen"], body["len"], body["head"])


def parse_open_body(seat: int, body: Any, extra: Iterable[str] = ()) -> tuple[int, bytes]:
    """A `dice-open` body: `roll` u64 (the roll index), `link` bin 32 (plus `extra`)."""
    _fields(seat, body, {"roll", "link"}, extra)
    if not _int(body["roll"], 1 << 64):
        raise BadDiceBody(seat, "roll is an integer in 0 … 2^64-1")
    if not isinstance(body["link"], bytes) or len(body["link"]) != LINK_BYTES:
        raise BadDiceBody(seat, f"link is {LINK_BYTES} bytes")
    return body["roll"], body["link"]
