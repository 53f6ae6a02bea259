"""The signature rule (SPEC §20.5): libsodium's verification, checked against OpenSSL's on
every kind of input the protocol admits (keys that pass check_public_key) and on the edge
encodings: non-canonical S, small-order and mixed-order R, non-canonical R. The two agree
except on one input, R = the identity with S = h·a, which only the key's owner can make:
OpenSSL accepts it, libsodium (and so the protocol) refuses it. Whatever the protocol
accepts, OpenSSL accepts too: the rule is the stricter of the two."""
from __future__ import annotations

import hashlib
import random

import pytest
from nacl import bindings as sodium

from protocol.crypto import BadSignature, Identity, verify
from tests.weak_keys import NON_CANONICAL, SMALL_ORDER, _add, _decode, _encode, openssl_accepts

L = 2 ** 252 + 27742317777372353535851937790883648493
SEED = bytes(range(32))
SIGNER = Identity.from_seed(SEED)
KEY = SIGNER.public_key_bytes
MESSAGE = b"p2p-asv/event/v1\x00an envelope"


def protocol_accepts(key: bytes, message: bytes, signature: bytes) -> bool:
    try:
        verify(key, message, signature)
    except BadSignature:
        return False
    return True


def secret_scalar(seed: bytes) -> int:
    """a, the clamped secret scalar of RFC 8032 §5.1.5."""
    a = int.from_bytes(hashlib.sha512(seed).digest()[:32], "little")
    return (a & ((1 << 254) - 8)) | (1 << 254)


def challenge(r: bytes, key: bytes, message: bytes) -> int:
    return int.from_bytes(hashlib.sha512(r + key + message).digest(), "little") % L


def with_s(signature: bytes, s: int) -> bytes:
    return signature[:32] + s.to_bytes(32, "little")


def both(key: bytes, message: bytes, signature: bytes) -> tuple[bool, bool]:
    ours, theirs = protocol_accepts(key, message, signature), openssl_accepts(key, message, signature)
    assert theirs or not ours, "the protocol accepted a signature OpenSSL refuses"
    return ours, theirs


def test_honest_signatures_verify_under_both_and_signing_is_unchanged():
    rng = random.Random(7)
    for i in range(60):
        signer = Identity.from_seed(rng.randbytes(32))
        message = rng.randbytes(rng.randrange(0, 3000))
        signature = signer.sign(message)
        # libsodium signs the same bytes: one key and one message, one signature (RFC 8032)
        _, secret = sodium.crypto_sign_seed_keypair(signer.seed_bytes())
        assert sodium.crypto_sign(message, secret)[:64] == signature
        assert both(signer.public_key_bytes, message, signature) == (True, True)


def test_any_flipped_bit_of_signature_message_or_key_is_refused_by_both():
    signature = SIGNER.sign(MESSAGE)
    for bit in range(512):
        bad = bytearray(signature)
        bad[bit // 8] ^= 1 << (bit % 8)
        assert both(KEY, MESSAGE, bytes(bad)) == (False, False), bit
    for bit in range(0, len(MESSAGE) * 8, 7):
        bad = bytearray(MESSAGE)
        bad[bit // 8] ^= 1 << (bit % 8)
        assert both(KEY, bytes(bad), signature) == (False, False), bit
    other = Identity.from_seed(bytes(32)).public_key_bytes
    assert both(other, MESSAGE, signature) == (False, False)


def test_a_non_canonical_s_is_refused_by_both():
    signature = SIGNER.sign(MESSAGE)
    s = int.from_bytes(signature[32:], "little")
    for wide in (s + L, s + 2 * L, s + 15 * L, s | (1 << 255), s | (1 << 253)):
        if wide < 1 << 256:
            assert both(KEY, MESSAGE, with_s(signature, wide)) == (False, False)


def test_the_identity_as_r_is_the_one_difference_and_the_protocol_refuses_it():
    """S·B = R + h·A with R the identity holds for S = h·a: OpenSSL accepts that signature,
    libsodium refuses R of small order. Only the holder of a can make it; refusing it is
    the stricter choice (SPEC §20.5)."""
    r = SMALL_ORDER[0]
    signature = r + (challenge(r, KEY, MESSAGE) * secret_scalar(SEED) % L).to_bytes(32, "little")
    assert both(KEY, MESSAGE, signature) == (False, True)
    with pytest.raises(BadSignature, match="does not verify"):
        verify(KEY, MESSAGE, signature)


@pytest.mark.parametrize("r", SMALL_ORDER[1:] + NON_CANONICAL, ids=lambda r: r.hex()[:6] + "…" + r.hex()[-2:])
def test_other_small_order_and_non_canonical_r_are_refused_by_both(r):
    # the S an identity R would need, and the honest S: neither makes such an R verify
    a = secret_scalar(SEED)
    for s in (challenge(r, KEY, MESSAGE) * a % L, int.from_bytes(SIGNER.sign(MESSAGE)[32:], "little"), 0, 1):
        assert both(KEY, MESSAGE, r + s.to_bytes(32, "little")) == (False, False)


@pytest.mark.parametrize("torsion", SMALL_ORDER[1:], ids=lambda t: t.hex()[:6])
def test_a_mixed_order_r_is_refused_by_both(torsion):
    """R + T for a torsion point T: a cofactored check would accept some of these with a
    matching S; both libraries check the cofactorless equation byte for byte."""
    signature = SIGNER.sign(MESSAGE)
    mixed = _encode(_add(_decode(signature[:32]), _decode(torsion)))
    s = int.from_bytes(signature[32:], "little")
    for s2 in (s, (s + challenge(mixed, KEY, MESSAGE) - challenge(signature[:32], KEY, MESSAGE)) % L):
        assert both(KEY, MESSAGE, mixed + s2.to_bytes(32, "little")) == (False, False)


def test_keys_the_protocol_refuses_never_reach_either_library():
    """Small-order and non-canonical keys are refused by check_public_key first (SPEC §20.1),
    whatever the signature: OpenSSL would accept a forged one, libsodium would not."""
    for key in SMALL_ORDER + NON_CANONICAL:
        with pytest.raises(BadSignature):
            verify(key, MESSAGE, bytes(64))
    for bad_len in (b"", bytes(63), bytes(65)):
        with pytest.raises(BadSignature, match="64 bytes"):
            verify(KEY, MESSAGE, bad_len)
