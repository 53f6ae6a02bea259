"""The decoder's fast paths change nothing (SPEC §21.4): on valid encodings, on every
truncation and one-byte change of them, and on random bytes, protocol.codec.decode gives
the value or the error (reason and offset) of the reference decoder it replaced."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from protocol.codec import CodecError, decode, encode
from tests import codec_reference
from tests.test_codec import values


def outcome(fn, data: bytes, **limits):
    try:
        return ("ok", fn(data, **limits))
    except CodecError as exc:
        return ("error", exc.reason, exc.offset)


def same(data: bytes, **limits) -> None:
    assert outcome(decode, data, **limits) == outcome(codec_reference.decode, data, **limits), data.hex()


@settings(max_examples=300)
@given(values, st.data())
def test_valid_encodings_their_truncations_and_changed_bytes_decode_as_before(v, draw):
    data = encode(v)
    same(data)
    same(data, max_depth=1)
    same(data, max_len=3)
    for cut in range(len(data)):
        same(data[:cut])
    if data:
        i = draw.draw(st.integers(0, len(data) - 1))
        for byte in (0x00, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xC4, 0xC5, 0xD9, 0xDC, 0xDE, 0xFF,
                     draw.draw(st.integers(0, 255))):
            same(data[:i] + bytes([byte]) + data[i + 1:])


@settings(max_examples=500)
@given(st.binary(max_size=64))
def test_random_bytes_decode_or_fail_as_before(data):
    same(data)
    same(b"\x81\xa1e" + data)       # inside a map, after a key
    same(b"\x92\xc4" + data)        # a bin8 at the head of an array
