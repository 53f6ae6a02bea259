"""Canonical codec (SPEC §21): round trip, uniqueness, strictness, bounds."""
from __future__ import annotations

import struct
from enum import IntEnum, StrEnum

import msgpack
import pytest
from hypothesis import given, settings, strategies as st

from protocol import codec
from protocol.codec import (
    DEFAULT_MAX_DEPTH, INT_MAX, INT_MIN, CodecError, decode, encode, encode_plain,
)

scalars = (st.none() | st.booleans() | st.integers(INT_MIN, INT_MAX)
           | st.text(max_size=40) | st.binary(max_size=40))
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=12), inner, max_size=6),
    max_leaves=40,
)


@given(values)
def test_round_trip(v):
    """SPEC §21.1: decode(encode(v)) == v."""
    assert decode(encode(v)) == v


@given(values)
def test_matches_msgpack_reference(v):
    """SPEC §21.2: the encoding is plain msgpack (msgpack-python reads it back)."""
    assert msgpack.unpackb(encode(v), raw=False, strict_map_key=False) == v


def _sorted_deep(v):
    if isinstance(v, dict):
        return {k: _sorted_deep(v[k]) for k in sorted(v, key=lambda k: encode(k))}
    if isinstance(v, list):
        return [_sorted_deep(x) for x in v]
    return v


@given(values)
def test_same_bytes_as_msgpack_with_sorted_keys(v):
    """SPEC §21.2: smallest forms are exactly msgpack-python's choices (use_bin_type)."""
    assert encode(v) == msgpack.packb(_sorted_deep(v), use_bin_type=True)


@given(st.dictionaries(st.text(max_size=8), st.integers(0, 9), min_size=2, max_size=8), st.randoms())
def test_dict_order_does_not_matter(d, rnd):
    """SPEC §21.3: one value has one encoding whatever the insertion order."""
    items = list(d.items())
    rnd.shuffle(items)
    assert encode(dict(items)) == encode(d)


def test_tuple_encodes_as_array():
    assert encode((1, 2)) == encode([1, 2])


def test_map_key_order_is_by_encoded_bytes():
    """SPEC §21.3 KAT: "b" (a1 62) sorts before "aa" (a2 61 61): shorter fixstr first."""
    assert encode({"aa": 1, "b": 2}) == bytes.fromhex("82a162 02 a26161 01".replace(" ", ""))


@pytest.mark.parametrize("v,hexs", [
    (0, "00"), (127, "7f"), (128, "cc80"), (256, "cd0100"), (65536, "ce00010000"),
    (2**32, "cf0000000100000000"), (-1, "ff"), (-32, "e0"), (-33, "d0df"), (-129, "d1ff7f"),
    (b"", "c400"), ("", "a0"), ("x" * 32, "d920" + "78" * 32), ([], "90"), ({}, "80"),
    (None, "c0"), (True, "c3"), (False, "c2"),
])
def test_known_answers(v, hexs):
    assert encode(v).hex() == hexs
    assert decode(bytes.fromhex(hexs)) == v


@pytest.mark.parametrize("bad", [1.5, {1: 2}, {b"k": 1}, {1, 2}, object(), 2**64, INT_MIN - 1, "\ud800"])
def test_encode_rejects(bad):
    with pytest.raises(CodecError):
        encode(bad)


@pytest.mark.parametrize("hexs,why", [
    ("cb3ff0000000000000", "float"), ("ca3f800000", "float"),
    ("d40100", "ext"), ("c70101aa", "ext"), ("c1", "never used"),
    ("cc05", "wider"), ("cd0005", "wider"), ("ce00000005", "wider"), ("cf0000000000000005", "wider"),
    ("d005", "wider or signed"), ("d0ff", "wider or signed"), ("d1ff80", "wider or signed"),
    ("d90161", "wider"), ("c50001aa", "wider"), ("dc000101", "wider"), ("de0001a16101", "wider"),
    ("82a16201a16101", "order"), ("82a16101a16101", "duplicate"), ("8101a0", "not a str"),
    ("0000", "trailing"), ("", "empty"), ("92", "truncated"), ("a3616263ff", "trailing"),
    ("a2ff61", "UTF-8"), ("dd7fffffff", "exceeds max_len"), ("c4ff00", "truncated"),
])
def test_decode_rejects(hexs, why):
    """SPEC §21.4: every non-canonical or forbidden form is refused, with the reason."""
    with pytest.raises(CodecError, match=why):
        decode(bytes.fromhex(hexs))


def test_too_deep():
    ok = [0]
    for _ in range(DEFAULT_MAX_DEPTH - 1):
        ok = [ok]
    assert decode(encode(ok)) == ok
    with pytest.raises(CodecError, match="deeper"):
        encode([ok])
    raw = b"\x91" * (DEFAULT_MAX_DEPTH + 1) + b"\x00"
    with pytest.raises(CodecError, match="deeper"):
        decode(raw)
    with pytest.raises(CodecError, match="deeper"):
        decode(encode({"a": {"b": 1}}), max_depth=1)


def test_oversize_and_long_containers():
    big = encode(b"x" * 1000)
    assert decode(big, max_size=len(big)) == b"x" * 1000
    with pytest.raises(CodecError, match="max_size"):
        decode(big, max_size=len(big) - 1)
    with pytest.raises(CodecError, match="max_len"):
        decode(encode(list(range(20))), max_len=19)
    with pytest.raises(CodecError, match="exceeds"):
        encode(list(range(20)), max_len=19)


def test_huge_declared_length_is_refused_without_allocating():
    with pytest.raises(CodecError, match="truncated"):
        decode(b"\xc6" + struct.pack(">I", 2**32 - 1) + b"x")
    with pytest.raises(CodecError, match="truncated"):
        decode(b"\xde" + struct.pack(">H", 40000) + b"\xa1a\x00")


@given(values, st.binary(min_size=1, max_size=8))
def test_trailing_garbage_rejected(v, junk):
    with pytest.raises(CodecError):
        decode(encode(v) + junk)


@settings(max_examples=300)
@given(values, st.data())
def test_any_accepted_input_is_canonical(v, data):
    """SPEC §21.4: decode accepts only bytes that encode would produce, so a mutated
    encoding is either rejected or is the canonical encoding of what it decodes to."""
    raw = bytearray(encode(v))
    i = data.draw(st.integers(0, len(raw) - 1))
    raw[i] = data.draw(st.integers(0, 255))
    try:
        decoded = decode(bytes(raw))
    except CodecError:
        return
    assert encode(decoded) == bytes(raw)


@given(st.integers(INT_MIN, INT_MAX))
def test_wider_int_forms_rejected(n):
    """Every int re-packed in every wider msgpack form than the canonical one is refused."""
    canonical = encode(n)
    forms = []
    for tag, fmt in ((0xCC, ">B"), (0xCD, ">H"), (0xCE, ">I"), (0xCF, ">Q"),
                     (0xD0, ">b"), (0xD1, ">h"), (0xD2, ">i"), (0xD3, ">q")):
        try:
            forms.append(bytes((tag,)) + struct.pack(fmt, n))
        except struct.error:
            pass
    for form in forms:
        if form != canonical:
            with pytest.raises(CodecError, match="non-canonical"):
                decode(form)
        else:
            assert decode(form) == n


def test_a_remembered_map_key_decodes_the_same_and_a_cut_one_is_still_refused():
    """The decoder remembers short keys by their encoded bytes (a speed-up): a remembered key
    gives the same value, and input cut inside such a key is refused as before."""
    data = encode({"kind": 1, "seq": 2})
    assert decode(data) == {"kind": 1, "seq": 2} and decode(data) == {"kind": 1, "seq": 2}
    cut = data[:3]                                     # map header, then "kind" cut short
    with pytest.raises(CodecError, match="truncated"):
        decode(cut)
    wrong = data.replace(b"\xa4kind", b"\xa4kinD")     # one byte of a remembered key changed
    assert decode(wrong) == {"kinD": 1, "seq": 2}


# ------------------------------------------------------- the encoder's fast path (§21.2)

class _Colour(IntEnum):
    RED = 3


class _Name(StrEnum):
    ANNA = "anna"


# every form encode takes, not only the decoded ones: tuples, bytearray, memoryview, an
# IntEnum and a StrEnum, dicts whose keys arrive in any order
wide_scalars = (scalars | st.just(_Colour.RED) | st.just(_Name.ANNA)
                | st.binary(max_size=40).map(bytearray) | st.binary(max_size=40).map(memoryview))
wide_values = st.recursive(
    wide_scalars,
    lambda inner: (st.lists(inner, max_size=6) | st.lists(inner, max_size=6).map(tuple)
                   | st.dictionaries(st.text(max_size=12), inner, max_size=6)),
    max_leaves=40,
)


def _same(a, b) -> bool:
    """Equal, of the same exact types, maps in the same key order (True == 1 is no match)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


@given(wide_values)
def test_the_fast_path_writes_the_written_out_encoders_bytes(v):
    assert encode(v) == codec._encode_written_out(v, DEFAULT_MAX_DEPTH, 65536)


@given(wide_values)
def test_encode_plain_gives_what_decode_gives_back(v):
    """sign_event keeps this value as the event's fields (SPEC §22.3): it must be the
    receivers' view exactly, types and key order included."""
    raw, plain = encode_plain(v)
    assert raw == encode(v)
    assert _same(plain, decode(raw))


@pytest.mark.parametrize("bad", [
    [1, 1.5], {"a": 1.5, 1: 2}, {1: 2, "a": 1.5}, {"\ud800": 1}, ["ok", "\ud800"], [2**64], {"k": {INT_MIN - 1}},
    [[[[0]]]],
])
def test_the_fast_path_refuses_as_the_written_out_encoder_does(bad):
    """The same error, raised by the written-out encoder in its own order of checks."""
    with pytest.raises(CodecError) as slow:
        codec._encode_written_out(bad, 3, 65536)
    for write in (encode, lambda v, **k: encode_plain(v, **k)[0]):
        with pytest.raises(CodecError) as fast:
            write(bad, max_depth=3)
        assert str(fast.value) == str(slow.value)


def test_the_fast_path_keeps_the_limits():
    with pytest.raises(CodecError, match="deeper than 2"):
        encode([[[]]], max_depth=2)
    with pytest.raises(CodecError, match="exceeds 3"):
        encode({"a": [1, 2, 3, 4]}, max_len=3)
    assert encode([[]], max_depth=2) == b"\x91\x90"
