"""Signed, hash-chained events and adversarial inputs (SPEC §22)."""
from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings, strategies as st

from protocol import codec
from protocol.log.events import (
    EVENT_DOMAIN, ZERO_HASH, BrokenChain, Chain, Equivocation, EquivocationProof, EventError,
    ForgedSignature, InvalidProof, MalformedEvent, OutOfOrder, ReplayedEvent, WrongAuthor,
    WrongGame, parse_event, sign_event,
)
from protocol.crypto import Identity

GAME = bytes(range(16))
OTHER_GAME = bytes(range(1, 17))
ALICE = Identity.from_seed(b"a" * 32, "alice")
BOB = Identity.from_seed(b"b" * 32, "bob")
MALLORY = Identity.from_seed(b"m" * 32, "mallory")


def build(n, game=GAME, authors=(ALICE, BOB)):
    events, prev = [], ZERO_HASH
    for seq in range(n):
        ev = sign_event(authors[seq % len(authors)], game, seq, prev, "move", {"n": seq})
        events.append(ev)
        prev = ev.hash
    return events


def resign(identity, envelope_fields):
    """Sign an arbitrary envelope map as-is (to craft malformed but signed events)."""
    env = codec.encode(envelope_fields)
    return codec.encode({"e": env, "s": identity.sign(EVENT_DOMAIN + env)})


def fields(**over):
    f = {"v": 1, "game": GAME, "seq": 0, "prev": ZERO_HASH, "author": ALICE.public_key_bytes,
         "kind": "move", "body": {}}
    f.update(over)
    return f


def test_domain_prefix_kat():
    """SPEC §22.3: the literal signing prefix."""
    assert EVENT_DOMAIN == b"p2p-asv/event/v1\x00"


def test_layout_and_hash():
    """SPEC §22.2/§22.4: wire = {"e": envelope, "s": sig}; hash = SHA-256(wire)."""
    ev = sign_event(ALICE, GAME, 0, ZERO_HASH, "hello", {"x": [1, b"\x00"]})
    outer = codec.decode(ev.wire)
    assert set(outer) == {"e", "s"} and outer["e"] == ev.envelope and outer["s"] == ev.signature
    assert ev.hash == hashlib.sha256(ev.wire).digest()
    assert codec.decode(ev.envelope) == fields(kind="hello", body={"x": [1, b"\x00"]})
    assert ev.wire.startswith(b"\x82\xa1e\xc4" if len(ev.envelope) < 256 else b"\x82\xa1e")
    again = parse_event(ev.wire, expected_game=GAME)
    assert again == ev and again.body == {"x": [1, b"\x00"]} and again.author == ALICE.public_key_bytes


def test_signing_is_deterministic():
    a = sign_event(ALICE, GAME, 0, ZERO_HASH, "k", {"a": 1})
    b = sign_event(ALICE, GAME, 0, ZERO_HASH, "k", {"a": 1})
    assert a.wire == b.wire


def test_chain_accepts_in_order():
    chain = Chain(GAME)
    for ev in build(6):
        chain.append(ev.wire)
    assert chain.height == 6 and chain.head == chain.events[-1].hash


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_any_flipped_byte_is_rejected(data):
    """SPEC §22.5: flipping any bit of the wire makes parsing fail (codec, fields or
    signature) -- an accepted variant would be a forgery."""
    ev = sign_event(ALICE, GAME, 3, b"\x11" * 32, "move", {"card": b"\x07" * 8, "n": 5})
    raw = bytearray(ev.wire)
    i = data.draw(st.integers(0, len(raw) - 1))
    raw[i] ^= 1 << data.draw(st.integers(0, 7))
    with pytest.raises(EventError):
        parse_event(bytes(raw))


def test_forged_signature():
    """Mallory signs but claims to be Alice."""
    env = codec.encode(fields())
    wire = codec.encode({"e": env, "s": MALLORY.sign(EVENT_DOMAIN + env)})
    with pytest.raises(ForgedSignature) as info:
        parse_event(wire)
    assert info.value.seq == 0 and info.value.author == ALICE.public_key_bytes
    with pytest.raises(ForgedSignature):
        Chain(GAME).append(wire)


def test_signature_without_domain_prefix_rejected():
    env = codec.encode(fields())
    wire = codec.encode({"e": env, "s": ALICE.sign(env)})
    with pytest.raises(ForgedSignature):
        parse_event(wire)


@pytest.mark.parametrize("over,why", [
    ({"v": 2}, "version"), ({"v": True}, "version"), ({"game": b"x" * 20}, "game id"),
    ({"seq": -1}, "seq"), ({"seq": False}, "seq"), ({"prev": b"\x00" * 31}, "prev"),
    ({"prev": b"\x01" * 32}, "seq 0"), ({"kind": "Bad Kind"}, "kind"), ({"kind": ""}, "kind"),
    ({"kind": "a" * 65}, "kind"), ({"body": [1]}, "body"), ({"extra": 1}, "unknown"),
])
def test_malformed_envelopes(over, why):
    """SPEC §22.1: unknown, missing or mistyped fields are refused even when signed."""
    with pytest.raises(MalformedEvent, match=why):
        parse_event(resign(ALICE, fields(**over)))


def test_missing_field():
    f = fields()
    del f["kind"]
    with pytest.raises(MalformedEvent, match="missing"):
        parse_event(resign(ALICE, f))


def test_malformed_wire_layouts():
    ev = sign_event(ALICE, GAME, 0, ZERO_HASH, "k", {})
    with pytest.raises(MalformedEvent, match="exactly the keys"):
        parse_event(codec.encode({"e": ev.envelope, "s": ev.signature, "x": 1}))
    with pytest.raises(MalformedEvent, match="64-byte"):
        parse_event(codec.encode({"e": ev.envelope, "s": ev.signature[:32]}))
    with pytest.raises(MalformedEvent, match="trailing"):
        parse_event(ev.wire + b"\x00")
    # an envelope that is validly signed but not canonical is refused before anything else
    noncanon = b"\x87" + b"".join(codec.encode(k) + codec.encode(v) for k, v in fields().items())
    wire = codec.encode({"e": noncanon, "s": ALICE.sign(EVENT_DOMAIN + noncanon)})
    with pytest.raises(MalformedEvent, match="non-canonical"):
        parse_event(wire)


def test_sign_event_rejects_bad_input():
    with pytest.raises(MalformedEvent):
        sign_event(ALICE, GAME, 1, b"short", "k", {})
    with pytest.raises(codec.CodecError):
        sign_event(ALICE, GAME, 0, ZERO_HASH, "k", {"f": 0.5})


def test_wrong_game():
    ev = build(1, game=OTHER_GAME)[0]
    with pytest.raises(WrongGame):
        parse_event(ev.wire, expected_game=GAME)
    with pytest.raises(WrongGame):
        Chain(GAME).append(ev.wire)
    with pytest.raises(WrongGame):
        Chain(GAME).append(ev)  # already-parsed events are checked too


def test_event_spliced_from_another_game():
    """Same authors, same heights, another game: the foreign event breaks in."""
    ours, theirs = build(3), build(3, game=OTHER_GAME)
    chain = Chain(GAME)
    chain.append(ours[0])
    with pytest.raises(WrongGame):
        chain.append(theirs[1])


def test_wrong_author():
    seats = [ALICE.public_key_bytes, BOB.public_key_bytes]
    chain = Chain(GAME, expected_author=lambda seq: seats[seq % 2])
    chain.append(sign_event(ALICE, GAME, 0, ZERO_HASH, "move", {}))
    bad = sign_event(MALLORY, GAME, 1, chain.head, "move", {})
    with pytest.raises(WrongAuthor) as info:
        chain.append(bad)
    assert info.value.seq == 1 and info.value.author == MALLORY.public_key_bytes
    assert "seq 1" in str(info.value) and MALLORY.fingerprint in str(info.value)
    also_alice = sign_event(ALICE, GAME, 1, chain.head, "move", {})
    with pytest.raises(WrongAuthor):
        chain.append(also_alice)
    chain.append(sign_event(BOB, GAME, 1, chain.head, "move", {}))
    assert chain.height == 2


def test_author_rule_with_several_or_anyone():
    allowed = {ALICE.public_key_bytes, BOB.public_key_bytes}
    chain = Chain(GAME, expected_author=lambda seq: None if seq == 0 else allowed)
    chain.append(sign_event(MALLORY, GAME, 0, ZERO_HASH, "join", {}))
    with pytest.raises(WrongAuthor):
        chain.append(sign_event(MALLORY, GAME, 1, chain.head, "x", {}))
    chain.append(sign_event(BOB, GAME, 1, chain.head, "x", {}))


def test_replayed_event():
    events = build(3)
    chain = Chain(GAME)
    for ev in events:
        chain.append(ev)
    with pytest.raises(ReplayedEvent):
        chain.append(events[1].wire)
    assert isinstance(ReplayedEvent("r"), OutOfOrder)
    assert chain.height == 3 and not chain.equivocations


def test_reordered_events():
    events = build(4)
    chain = Chain(GAME)
    chain.append(events[0])
    with pytest.raises(OutOfOrder, match="expected seq 1"):
        chain.append(events[2])
    chain.append(events[1])
    chain.append(events[2])
    assert chain.height == 3


def test_broken_chain():
    events = build(2)
    chain = Chain(GAME)
    chain.append(events[0])
    forked = sign_event(BOB, GAME, 1, b"\x42" * 32, "move", {"n": 1})
    with pytest.raises(BrokenChain) as info:
        chain.append(forked)
    assert info.value.seq == 1
    # an event from a chain with a different history, though validly signed
    other = build(3, authors=(ALICE, BOB, ALICE))
    alt = sign_event(ALICE, GAME, 0, ZERO_HASH, "move", {"n": 99})
    chain2 = Chain(GAME)
    chain2.append(alt)
    with pytest.raises(BrokenChain):
        chain2.append(other[1])


def test_equivocation_detected_with_standalone_proof():
    """SPEC §22.7: two signed events by one author at one height are kept as a proof
    that a third party can check from its bytes alone."""
    chain = Chain(GAME)
    for ev in build(2):
        chain.append(ev)
    twin = sign_event(BOB, GAME, 1, chain.events[0].hash, "move", {"n": "different"})
    with pytest.raises(Equivocation) as info:
        chain.append(twin)
    err = info.value
    assert err.seq == 1 and err.author == BOB.public_key_bytes
    assert chain.equivocations == [err.proof] and chain.height == 2
    blob = err.proof.to_bytes()
    # a third party, with nothing but the blob:
    proof = EquivocationProof.from_bytes(blob)
    assert proof.verify() == (BOB.public_key_bytes, GAME, 1)
    assert proof.verify(expected_game=GAME)[2] == 1
    with pytest.raises(InvalidProof):
        proof.verify(expected_game=OTHER_GAME)
    # order of discovery does not matter: one pair, one proof
    assert EquivocationProof.of(twin.wire, chain.events[1].wire) == proof


def test_equivocation_at_height_zero_with_different_prev_is_caught_too():
    chain = Chain(GAME)
    first = build(1)[0]
    chain.append(first)
    again = sign_event(ALICE, GAME, 0, ZERO_HASH, "move", {"n": 1})
    with pytest.raises(Equivocation):
        chain.append(again)


def test_other_author_at_taken_height_is_not_equivocation():
    chain = Chain(GAME)
    chain.append(build(1)[0])
    with pytest.raises(OutOfOrder) as info:
        chain.append(sign_event(MALLORY, GAME, 0, ZERO_HASH, "move", {}))
    assert not isinstance(info.value, Equivocation) and not chain.equivocations


def test_bogus_proofs_rejected():
    a = build(2)
    b = build(2, game=OTHER_GAME)
    with pytest.raises(InvalidProof, match="different heights"):
        EquivocationProof.of(a[0].wire, sign_event(ALICE, GAME, 2, b"\x01" * 32, "m", {}).wire).verify()
    with pytest.raises(InvalidProof, match="different authors"):
        EquivocationProof.of(a[0].wire, sign_event(BOB, GAME, 0, ZERO_HASH, "m", {}).wire).verify()
    with pytest.raises(InvalidProof, match="different games"):
        EquivocationProof.of(a[0].wire, b[0].wire).verify()
    with pytest.raises(InvalidProof, match="differ"):
        EquivocationProof(a[0].wire, a[0].wire).verify()
    forged = bytearray(a[1].wire)
    forged[-1] ^= 1
    with pytest.raises(InvalidProof, match="not valid"):
        EquivocationProof.of(a[1].wire, bytes(forged)).verify()
    with pytest.raises(InvalidProof):
        EquivocationProof.from_bytes(codec.encode({"kind": "nope", "a": b"", "b": b""}))
    with pytest.raises(InvalidProof):
        EquivocationProof.from_bytes(b"\xc1")


def test_chain_rejects_bad_game_id():
    with pytest.raises(ValueError):
        Chain(b"short")


def test_signature_is_checked_before_game_id():
    """SPEC §22.5: a forged event for another game is reported as forged, so WrongGame
    always names a real signer."""
    env = codec.encode(fields(game=OTHER_GAME))
    wire = codec.encode({"e": env, "s": MALLORY.sign(EVENT_DOMAIN + env)})
    with pytest.raises(ForgedSignature):
        parse_event(wire, expected_game=GAME)


def test_errors_are_one_family():
    from protocol.errors import ProtocolError
    for cls in (MalformedEvent, ForgedSignature, WrongGame, WrongAuthor, BrokenChain, OutOfOrder,
                ReplayedEvent, Equivocation, InvalidProof, codec.CodecError):
        assert issubclass(cls, ProtocolError)
