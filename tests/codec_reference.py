"""The canonical codec's decoder as it was before its fast paths (protocol/codec.py at
c3593cf), kept as the reference that tests/test_codec_reference.py holds the decoder to:
the same value, or the same error with the same reason and offset, for every input."""
from __future__ import annotations

import struct
from typing import Any

from protocol.codec import DEFAULT_MAX_DEPTH, DEFAULT_MAX_LEN, DEFAULT_MAX_SIZE, CodecError

_U8, _U16, _U32, _U64 = struct.Struct(">B"), struct.Struct(">H"), struct.Struct(">I"), struct.Struct(">Q")
_I8, _I16, _I32, _I64 = struct.Struct(">b"), struct.Struct(">h"), struct.Struct(">i"), struct.Struct(">q")


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
        start = self.pos
        b = self.take(1, "type byte")[0]
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
        if 0xC4 <= b <= 0xC6:
            st, floor = ((_U8, -1), (_U16, 0xFF), (_U32, 0xFFFF))[b - 0xC4]
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
        raw = self.take(n, "str")
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
        result: dict = {}
        prev_key: bytes | None = None
        for _ in range(n):
            key_start = self.pos
            if key_start >= len(self.data):
                raise CodecError("truncated map: ran out of bytes", key_start)
            b = self.data[key_start]
            if not (0xA0 <= b <= 0xBF or 0xD9 <= b <= 0xDB):
                raise CodecError("map key is not a str", key_start)
            key = self.value(depth + 1)
            key_bytes = self.data[key_start:self.pos]
            if prev_key is not None and key_bytes <= prev_key:
                why = "duplicate map key" if key_bytes == prev_key else "map keys not in canonical order"
                raise CodecError(f"non-canonical: {why} ({key!r})", key_start)
            prev_key = key_bytes
            result[key] = self.value(depth + 1)
        return result
