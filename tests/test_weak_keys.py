"""Small-order and non-canonical Ed25519 public keys are refused everywhere (SPEC §20.1,
§22.5, §22.7, §26.2, §28.4). For each of the eight small-order points a signature is
forged without any secret and OpenSSL accepts it; the protocol refuses the key before
it looks at any signature."""
from __future__ import annotations

import os

import pytest

from protocol import codec
from protocol.errors import InvalidProof, MalformedEvent
from protocol.log import EVENT_DOMAIN, EquivocationProof, parse_event, sign_event
from protocol.net import KeyNotAllowed
from protocol.crypto import Identity, WeakPublicKey, check_public_key, verify
from protocol.session import BadBody, Session
from tests.test_handshake import BOB, kw, run_both
from tests.toy_game import ToyRules
from tests.weak_keys import NON_CANONICAL, SMALL_ORDER, WeakSigner, forge, openssl_accepts

ORDERS = [1, 2, 4, 4, 8, 8, 8, 8]
POINTS = pytest.mark.parametrize("key", SMALL_ORDER, ids=[f"order{o}-{k.hex()[:6]}" for o, k in zip(ORDERS, SMALL_ORDER)])


def weak_event(key: bytes, game: bytes, seq: int, body: dict, kind: str = "hello") -> bytes:
    """An event wire whose author is `key`, with a signature OpenSSL accepts."""
    envelope = codec.encode({"v": 1, "game": game, "seq": seq, "prev": bytes(32), "author": key,
                             "kind": kind, "body": body})
    signature = forge(key, EVENT_DOMAIN + envelope)
    assert openssl_accepts(key, EVENT_DOMAIN + envelope, signature)  # the threat is real
    return codec.encode({"e": envelope, "s": signature})


@POINTS
def test_each_small_order_point_is_refused_as_a_key_and_its_forged_signature_too(key):
    with pytest.raises(WeakPublicKey):
        check_public_key(key)
    sig = forge(key, b"anything at all")
    assert openssl_accepts(key, b"anything at all", sig)
    with pytest.raises(WeakPublicKey):
        verify(key, b"anything at all", sig)


@pytest.mark.parametrize("key", NON_CANONICAL, ids=lambda k: k.hex()[:4] + "…" + k.hex()[-2:])
def test_non_canonical_encodings_are_refused(key):
    with pytest.raises(WeakPublicKey):
        check_public_key(key)


def test_honest_keys_pass_and_wrong_sizes_are_refused():
    for seed in range(1, 20):
        key = Identity.from_seed(bytes([seed]) * 32).public_key_bytes
        assert check_public_key(key) == key
    for bad in (b"", bytes(31), bytes(33), "x" * 32, None):
        with pytest.raises(WeakPublicKey):
            check_public_key(bad)


@POINTS
def test_an_event_by_a_small_order_key_is_refused_before_its_signature(key):
    game = os.urandom(16)
    wire = weak_event(key, game, 0, {"x": 1})
    with pytest.raises(MalformedEvent) as exc:
        parse_event(wire, expected_game=game)
    assert exc.value.author == key and "author key refused" in exc.value.reason


@POINTS
def test_a_roster_listing_a_small_order_key_is_refused_at_the_first_hello(key):
    rules, game = ToyRules(), os.urandom(16)
    creator = Identity.from_seed(b"c" * 32, "creator")
    roster = [creator.public_key_bytes, key]
    hello = sign_event(creator, game, 0, bytes(32), "hello",
                       {"name": "c", "roster": roster, "rules": rules.name, "config": {}})
    observer = Session(rules, game)
    with pytest.raises(BadBody) as exc:
        observer.receive(hello.wire)
    assert exc.value.author == creator.public_key_bytes and "roster key 1 is refused" in exc.value.reason
    assert observer.chain.height == 0 and observer.roster is None
    # a peer given that roster up front (as a node is, from the hello) refuses it the same way
    given = Session(rules, game, roster=roster, config={})
    with pytest.raises(BadBody):
        given.receive(hello.wire)


@POINTS
async def test_the_handshake_refuses_a_small_order_key(key):
    dialer, listener = await run_both(kw(WeakSigner(key), allowed=lambda k: True),
                                      kw(BOB, allowed=lambda k: True))
    assert isinstance(listener, KeyNotAllowed) and "is refused" in listener.reason
    assert not hasattr(dialer, "peer_key")  # the dialer got no connection either


@POINTS
def test_an_equivocation_proof_against_a_small_order_key_convicts_nobody(key):
    game = os.urandom(16)
    a, b = weak_event(key, game, 3, {"x": 1}, "move"), weak_event(key, game, 3, {"x": 2}, "move")
    proof = EquivocationProof.from_bytes(EquivocationProof.of(a, b).to_bytes())
    with pytest.raises(InvalidProof) as exc:
        proof.verify(expected_game=game)
    assert "author key refused" in str(exc.value)
