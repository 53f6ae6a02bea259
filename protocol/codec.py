"""Canonical msgpack: one value, one encoding (SPEC §21).

Values: None, bool, int in [-2**63, 2**64 - 1], str (UTF-8), bytes, list, and dict with
str keys. No floats, no ext types. `encode` writes the single canonical form (smallest
int/str/bin/container headers, map entries sorted by the bytes of their encoded keys).
`decode` is strict and bounded: it rejects anything `encode` would not have produced,
so for every accepted input, encode(decode(data)) == data.

Both directions are written out here (rather than delegated to msgpack-python) so that
every rejection has a precise reason and offset; tests cross-check against msgpack-python.
Encoding a plain value (the usual case) takes a fast path: the value in canonical order,
written by msgpack-python's C packer, whose output for it is the same bytes.
"""
from __future__ import annotations

import struct
from typing import Any

import msgpack

from protocol.errors import CodecError

__all__ = [
    "CodecError", "encode", "encode_plain", "decode", "bin_head",
    "DEFAULT_MAX_SIZE", "DEFAULT_MAX_DEPTH", "DEFAULT_MAX_LEN", "INT_MIN", "INT_MAX",
]

DEFAULT_MAX_SIZE = 4 * 1024 * 1024   # bytes of one encoded value
DEFAULT_MAX_DEPTH = 32               # nesting of containers; a scalar has depth 0
DEFAULT_MAX_LEN = 65536              # elements of one array / entries of one map
INT_MIN = -(1 << 63)
INT_MAX = (1 << 64) - 1

_U8, _U16, _U32, _U64 = struct.Struct(">B"), struct.Struct(">H"), struct.Struct(">I"), struct.Struct(">Q")
_I8, _I16, _I32, _I64 = struct.Struct(">b"), struct.Struct(">h"), struct.Struct(">i"), struct.Struct(">q")


# ------------------------------------------------------------------------------ encode

def encode(obj: Any, *, max_depth: int = DEFAULT_MAX_DEPTH, max_len: int = DEFAULT_MAX_LEN) -> bytes:
    """Canonical encoding of `obj`. Tuples encode as arrays; bytearray/memoryview as bin.
    Raises CodecError for floats, non-str map keys, out-of-range ints, unpaired
    surrogates, or values deeper/longer than the limits (so the output always decodes
    with the same limits)."""
    try:
        return _packb(_plain(obj, 0, max_depth, max_len))
    except _FALL_BACK:
        return _encode_written_out(obj, max_depth, max_len)


def encode_plain(obj: Any, *, max_depth: int = DEFAULT_MAX_DEPTH,
                 max_len: int = DEFAULT_MAX_LEN) -> tuple[bytes, Any]:
    """`encode(obj)` and the value as `decode` gives it back from those bytes (lists for
    tuples, bytes for bytearray, plain int and str, maps in canonical key order), without
    decoding: the caller that signs an event keeps the receivers' view of it (SPEC §22.3).

    The fast path puts the plain value in canonical order and lets msgpack-python's C
    packer write it: for such a value its output is the canonical form (smallest headers;
    tests/test_codec.py holds the two to the same bytes). Anything the fast path does not
    take plainly (a float, a key that is no str, an int out of range, a string that is not
    UTF-8, a limit passed) goes to the written-out encoder, which raises the precise error."""
    try:
        plain = _plain(obj, 0, max_depth, max_len)
        return _packb(plain), plain
    except _FALL_BACK:
        raw = _encode_written_out(obj, max_depth, max_len)
        return raw, decode(raw, max_size=len(raw), max_depth=max_depth, max_len=max_len)


def _encode_written_out(obj: Any, max_depth: int, max_len: int) -> bytes:
    out = bytearray()
    _enc(obj, out, 0, max_depth, max_len)   # raises CodecError, or the fast path's alarm was false
    return bytes(out)


class _NotPlain(CodecError):
    """The value needs the written-out encoder (its error, or a rare form); never seen
    outside this module."""

    def __init__(self) -> None:
        super().__init__("not a plain value (the written-out encoder decides)")


# what sends a value to the written-out encoder: _plain's refusal, or the packer's own
# (a str that is not UTF-8: UnicodeEncodeError; anything else it cannot write); a key's
# CodecError too, so that the error raised is the written-out encoder's first, in its order
_FALL_BACK = (CodecError, ValueError, OverflowError, UnicodeEncodeError, TypeError)


def _packb(plain: Any) -> bytes:
    return msgpack.packb(plain, use_bin_type=True)


#: a map key's encoded bytes, the canonical order's sort key (SPEC §21.3), bounded
_KEY_BYTES: dict[str, bytes] = {}


def _key_bytes(key: str) -> bytes:
    raw = _KEY_BYTES.get(key)
    if raw is None:
        raw = _str_bytes(key)
        if len(_KEY_BYTES) < _KEYS_MAX:
            _KEY_BYTES[key] = raw
    return raw


def _plain(obj: Any, depth: int, max_depth: int, max_len: int) -> Any:
    kind = type(obj)
    if kind is bytes or kind is str or obj is None or kind is bool:
        return obj
    if kind is int:
        if INT_MIN <= obj <= INT_MAX:
            return obj
        raise _NotPlain()
    if kind is list or kind is tuple:
        if depth >= max_depth or len(obj) > max_len:
            raise _NotPlain()
        depth += 1
        return [item if type(item) is bytes else _plain(item, depth, max_depth, max_len) for item in obj]
    if kind is dict:
        if depth >= max_depth or len(obj) > max_len:
            raise _NotPlain()
        depth += 1
        for key in obj:
            if type(key) is not str:
                raise _NotPlain()
        keys = sorted(obj, key=_key_bytes)
        return {key: _plain(obj[key], depth, max_depth, max_len) for key in keys}
    if kind is bytearray or kind is memoryview:
        return bytes(obj)
    if isinstance(obj, int):   # an IntEnum, say: encoded as its int
        return _plain(int(obj), depth, max_depth, max_len)
    if isinstance(obj, str):   # a StrEnum, say: its characters, as _str_bytes encodes them
        return str.__str__(obj)
    raise _NotPlain()


def _int_bytes(v: int) -> bytes:
    if v >= 0:
        if v <= 0x7F:
            return bytes((v,))
        if v <= 0xFF:
            return b"\xcc" + _U8.pack(v)
        if v <= 0xFFFF:
            return b"\xcd" + _U16.pack(v)
        if v <= 0xFFFFFFFF:
            return b"\xce" + _U32.pack(v)
        if v <= INT_MAX:
            return b"\xcf" + _U64.pack(v)
    else:
        if v >= -32:
            return _I8.pack(v)  # negative fixint: the two's complement byte itself
        if v >= -0x80:
            return b"\xd0" + _I8.pack(v)
        if v >= -0x8000:
            return b"\xd1" + _I16.pack(v)
        if v >= -0x80000000:
            return b"\xd2" + _I32.pack(v)
        if v >= INT_MIN:
            return b"\xd3" + _I64.pack(v)
    raise CodecError(f"int {v} outside [-2**63, 2**64-1]")


def _str_bytes(s: str) -> bytes:
    try:
        raw = s.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise CodecError(f"string is not encodable as UTF-8 ({exc.reason})") from None
    n = len(raw)
    if n <= 31:
        head = bytes((0xA0 | n,))
    elif n <= 0xFF:
        head = b"\xd9" + _U8.pack(n)
    elif n <= 0xFFFF:
        head = b"\xda" + _U16.pack(n)
    elif n <= 0xFFFFFFFF:
        head = b"\xdb" + _U32.pack(n)
    else:
        raise CodecError("string longer than 2**32-1 bytes")
    return head + raw


def bin_head(n: int) -> bytes:
    """The canonical header of a bin of `n` bytes."""
    if n <= 0xFF:
        return b"\xc4" + _U8.pack(n)
    if n <= 0xFFFF:
        return b"\xc5" + _U16.pack(n)
    if n <= 0xFFFFFFFF:
        return b"\xc6" + _U32.pack(n)
    raise CodecError("bin longer than 2**32-1 bytes")


def _container_head(n: int, fix: int, b16: bytes, b32: bytes) -> bytes:
    if n <= 15:
        return bytes((fix | n,))
    if n <= 0xFFFF:
        return b16 + _U16.pack(n)
    return b32 + _U32.pack(n)


def _enc(obj: Any, out: bytearray, depth: int, max_depth: int, max_len: int) -> None:
    if obj is None:
        out += b"\xc0"
    elif obj is True:
        out += b"\xc3"
    elif obj is False:
        out += b"\xc2"
    elif isinstance(obj, int):
        out += _int_bytes(int(obj))
    elif isinstance(obj, str):
        out += _str_bytes(obj)
    elif isinstance(obj, (bytes, bytearray, memoryview)):
        raw = bytes(obj)
        out += bin_head(len(raw))
        out += raw
    elif isinstance(obj, float):
        raise CodecError("floats are not allowed")
    elif isinstance(obj, (list, tuple)):
        if depth + 1 > max_depth:
            raise CodecError(f"nesting deeper than {max_depth}")
        if len(obj) > max_len:
            raise CodecError(f"array of {len(obj)} elements exceeds {max_len}")
        out += _container_head(len(obj), 0x90, b"\xdc", b"\xdd")
        for item in obj:
            _enc(item, out, depth + 1, max_depth, max_len)
    elif isinstance(obj, dict):
        if depth + 1 > max_depth:
            raise CodecError(f"nesting deeper than {max_depth}")
        if len(obj) > max_len:
            raise CodecError(f"map of {len(obj)} entries exceeds {max_len}")
        entries = []
        for key, value in obj.items():
            if not isinstance(key, str):
                raise CodecError(f"map key {key!r} is not a str")
            entries.append((_str_bytes(key), value))
        entries.sort(key=lambda kv: kv[0])  # SPEC §21.3: order by encoded key bytes
        out += _container_head(len(entries), 0x80, b"\xde", b"\xdf")
        for key_bytes, value in entries:
            out += key_bytes
            _enc(value, out, depth + 1, max_depth, max_len)
    else:
        raise CodecError(f"type {type(obj).__name__} cannot be encoded")


# ------------------------------------------------------------------------------ decode

def decode(data: bytes | bytearray | memoryview, *, max_size: int = DEFAULT_MAX_SIZE,
           max_depth: int = DEFAULT_MAX_DEPTH, max_len: int = DEFAULT_MAX_LEN) -> Any:
    """Decode exactly one canonical value filling all of `data`. Arrays come back as
    lists, maps as dicts, bin as bytes. Raises CodecError naming the reason and offset."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise CodecError(f"expected bytes, got {type(data).__name__}")
    data = bytes(data)
    if len(data) > max_size:
        raise CodecError(f"input of {len(data)} bytes exceeds max_size {max_size}")
    if not data:
        raise CodecError("empty input", 0)
    dec = _Decoder(data, max_depth, max_len)
    value = dec.value(0)
    if dec.pos != len(data):
        raise CodecError(f"{len(data) - dec.pos} trailing bytes after the value", dec.pos)
    return value


#: fixstr map keys already decoded, by their encoded bytes (header included), bounded
_KEYS: dict[bytes, str] = {}
_KEYS_MAX = 1024


class _Decoder:
    __slots__ = ("data", "pos", "max_depth", "max_len")

    def __init__(self, data: bytes, max_depth: int, max_len: int) -> None:
        self.data = data
        self.pos = 0
        self.max_depth = max_depth
        self.max_len = max_len

    def take(self, n: int, what: str) -> bytes:
        end = self.pos + n
        if end > len(self.data):
            raise CodecError(f"truncated {what}: need {n} bytes, {len(self.data) - self.pos} left", self.pos)
        chunk = self.data[self.pos:end]
        self.pos = end
        return chunk

    def unpack(self, st: struct.Struct, what: str) -> int:
        return st.unpack(self.take(st.size, what))[0]

    def value(self, depth: int) -> Any:
        # the type byte read in place, and the fixed forms that fill an event (small ints,
        # short strings, bins, small arrays and maps) first: the verifier decodes every
        # event, and take() for one byte was a fifth of the decoder's time. Every check,
        # reason and offset is the same as in the general forms below.
        data, start = self.data, self.pos
        if start >= len(data):
            raise CodecError(f"truncated type byte: need 1 bytes, {len(data) - start} left", start)
        b = data[start]
        self.pos = start + 1
        if b <= 0x7F:
            return b
        if b >= 0xE0:
            return b - 0x100
        if 0xA0 <= b <= 0xBF:
            return self.string(b & 0x1F, start, min_len=0)
        if 0x90 <= b <= 0x9F:
            return self.array(b & 0x0F, depth, start)
        if 0x80 <= b <= 0x8F:
            return self.map(b & 0x0F, depth, start)
        if b == 0xC4:
            if start + 2 > len(data):
                raise CodecError(f"truncated bin length: need 1 bytes, {len(data) - start - 1} left", start + 1)
            n = data[start + 1]
            self.pos = start + 2
            return self.take(n, "bin")
        if b == 0xC0:
            return None
        if b == 0xC2:
            return False
        if b == 0xC3:
            return True
        if b in (0xCA, 0xCB):
            raise CodecError("floats are not allowed", start)
        if b in (0xC7, 0xC8, 0xC9) or 0xD4 <= b <= 0xD8:
            raise CodecError("ext types are not allowed", start)
        if b == 0xC1:
            raise CodecError("byte 0xc1 is never used in msgpack", start)
        if 0xCC <= b <= 0xCF:
            st, floor = ((_U8, 0x7F), (_U16, 0xFF), (_U32, 0xFFFF), (_U64, 0xFFFFFFFF))[b - 0xCC]
            v = self.unpack(st, "uint")
            if v <= floor:
                raise CodecError(f"non-canonical: uint {v} in a wider form than needed", start)
            return v
        if 0xD0 <= b <= 0xD3:
            st, ceil = ((_I8, -33), (_I16, -0x81), (_I32, -0x8001), (_I64, -0x80000001))[b - 0xD0]
            v = self.unpack(st, "int")
            if v > ceil:
                raise CodecError(f"non-canonical: int {v} in a wider or signed form than needed", start)
            return v
        if 0xD9 <= b <= 0xDB:
            st, floor = ((_U8, 31), (_U16, 0xFF), (_U32, 0xFFFF))[b - 0xD9]
            return self.string(self.unpack(st, "str length"), start, min_len=floor + 1)
        if 0xC5 <= b <= 0xC6:
            st, floor = ((_U16, 0xFF), (_U32, 0xFFFF))[b - 0xC5]
            n = self.unpack(st, "bin length")
            if n <= floor:
                raise CodecError(f"non-canonical: bin of {n} bytes in a wider form than needed", start)
            return self.take(n, "bin")
        if b in (0xDC, 0xDD):
            st = _U16 if b == 0xDC else _U32
            n = self.unpack(st, "array length")
            self.check_wide_container(n, b == 0xDC, start)
            return self.array(n, depth, start)
        if b in (0xDE, 0xDF):
            st = _U16 if b == 0xDE else _U32
            n = self.unpack(st, "map length")
            self.check_wide_container(n, b == 0xDE, start)
            return self.map(n, depth, start)
        raise CodecError(f"unknown type byte 0x{b:02x}", start)  # unreachable: all bytes covered

    @staticmethod
    def check_wide_container(n: int, is16: bool, start: int) -> None:
        floor = 15 if is16 else 0xFFFF
        if n <= floor:
            raise CodecError(f"non-canonical: container of {n} in a wider form than needed", start)

    def string(self, n: int, start: int, *, min_len: int) -> str:
        if n < min_len:
            raise CodecError(f"non-canonical: str of {n} bytes in a wider form than needed", start)
        end = self.pos + n
        if end > len(self.data):
            raise CodecError(f"truncated str: need {n} bytes, {len(self.data) - self.pos} left", self.pos)
        raw = self.data[self.pos:end]
        self.pos = end
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise CodecError(f"invalid UTF-8 in str ({exc.reason})", start) from None

    def enter(self, n: int, per_item: int, depth: int, start: int, what: str) -> None:
        if depth + 1 > self.max_depth:
            raise CodecError(f"nesting deeper than {self.max_depth}", start)
        if n > self.max_len:
            raise CodecError(f"{what} of {n} exceeds max_len {self.max_len}", start)
        # every element takes at least one byte: refuse impossible lengths before looping
        if n * per_item > len(self.data) - self.pos:
            raise CodecError(f"truncated {what}: {n} declared, too few bytes left", start)

    def array(self, n: int, depth: int, start: int) -> list:
        self.enter(n, 1, depth, start, "array")
        return [self.value(depth + 1) for _ in range(n)]

    def map(self, n: int, depth: int, start: int) -> dict:
        self.enter(n, 2, depth, start, "map")
        data = self.data
        result: dict = {}
        prev_key: bytes | None = None
        for _ in range(n):
            key_start = self.pos
            if key_start >= len(data):
                raise CodecError("truncated map: ran out of bytes", key_start)
            b = data[key_start]
            if not (0xA0 <= b <= 0xBF or 0xD9 <= b <= 0xDB):
                raise CodecError("map key is not a str", key_start)
            # a short key seen before (a log repeats a few dozen): its encoded bytes name it
            key_bytes = data[key_start:key_start + 1 + (b & 0x1F)] if b <= 0xBF else b""
            key = _KEYS.get(key_bytes)
            if key is not None:
                self.pos = key_start + len(key_bytes)
            else:
                key = self.value(depth + 1)
                key_bytes = data[key_start:self.pos]
                if b <= 0xBF and len(_KEYS) < _KEYS_MAX:
                    _KEYS[key_bytes] = key
            if prev_key is not None and key_bytes <= prev_key:
                why = "duplicate map key" if key_bytes == prev_key else "map keys not in canonical order"
                raise CodecError(f"non-canonical: {why} ({key!r})", key_start)
            prev_key = key_bytes
            result[key] = self.value(depth + 1)
        return result
