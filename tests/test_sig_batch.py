"""Batched signature checks (SPEC §20.6): a batch passes only if every signature in it passes
`identity.verify` (libsodium's rule, §20.5), and `first_bad_signature` names the same first bad
signature as checking one by one, with the native extension and without it. The edge inputs
are those of tests/test_signature_rule.py, plus the one a cofactored batch gets wrong: a
signer's own R with a small-order point added and S made to match."""
from __future__ import annotations

import random

import pytest

from protocol.crypto import BadSignature, Identity, sig_batch, verify
from tests.test_signature_rule import L, challenge, secret_scalar, with_s
from tests.weak_keys import NON_CANONICAL, SMALL_ORDER, _add, _decode, _encode

native = pytest.mark.skipif(sig_batch._native is None, reason="the native extension is not built")

RNG = random.Random(20)
SEEDS = [RNG.randbytes(32) for _ in range(4)]
SIGNERS = [Identity.from_seed(seed) for seed in SEEDS]


def honest(n: int, rng: random.Random) -> list[tuple[bytes, bytes, bytes]]:
    out = []
    for i in range(n):
        signer = SIGNERS[i % len(SIGNERS)]
        message = rng.randbytes(rng.randrange(0, 400))
        out.append((signer.public_key_bytes, message, signer.sign(message)))
    return out


def one_by_one(items) -> int:
    for i, (key, message, sig) in enumerate(items):
        try:
            verify(key, message, sig)
        except BadSignature:
            return i
    return -1


def torsion_signature(signer_index: int, message: bytes, torsion: bytes) -> bytes:
    """R + T with S = r + h'·a for h' the challenge of the new R: the cofactored equation
    holds (8T = 0), libsodium's cofactorless one does not."""
    signer, seed = SIGNERS[signer_index], SEEDS[signer_index]
    key, sig = signer.public_key_bytes, signer.sign(message)
    r_mixed = _encode(_add(_decode(sig[:32]), _decode(torsion)))
    a = secret_scalar(seed)
    s = int.from_bytes(sig[32:], "little")
    s2 = (s + (challenge(r_mixed, key, message) - challenge(sig[:32], key, message)) * a) % L
    return r_mixed + s2.to_bytes(32, "little")


def bad_variants(item) -> list[tuple[str, tuple[bytes, bytes, bytes]]]:
    key, message, sig = item
    s = int.from_bytes(sig[32:], "little")
    out = [("message", (key, message + b"!", sig)),
           ("R bit", (key, message, bytes([sig[0] ^ 1]) + sig[1:])),
           ("S bit", (key, message, sig[:40] + bytes([sig[40] ^ 4]) + sig[41:])),
           ("S + L", (key, message, with_s(sig, s + L))),
           ("other key", (SIGNERS[(SIGNERS.index(next(x for x in SIGNERS if x.public_key_bytes == key)) + 1) % 4]
                          .public_key_bytes, message, sig)),
           ("identity R", (key, message, SMALL_ORDER[0] + sig[32:]))]
    out += [(f"small-order R {r.hex()[:6]}", (key, message, r + sig[32:])) for r in SMALL_ORDER[1:] + NON_CANONICAL]
    out += [(f"weak key {k.hex()[:6]}", (k, message, sig)) for k in SMALL_ORDER + NON_CANONICAL]
    return out


def test_honest_batches_pass_and_name_nobody():
    rng = random.Random(1)
    for n in (1, 2, 7, 40, 300):
        items = honest(n, rng)
        assert sig_batch.first_bad_signature(items) == -1
    assert sig_batch.first_bad_signature([]) == -1


@native
def test_an_honest_batch_passes_as_one_equation():
    assert sig_batch.batch_passes(honest(50, random.Random(2)))


@pytest.mark.parametrize("where", [0, 17, 39])
def test_every_bad_signature_is_named_where_one_by_one_names_it(where):
    base = honest(40, random.Random(3))
    for name, bad in bad_variants(base[where]):
        items = base[:where] + [bad] + base[where + 1:]
        assert one_by_one(items) == where, name
        assert sig_batch.first_bad_signature(items) == where, name
        assert not sig_batch.batch_passes(items), name


@pytest.mark.parametrize("torsion", SMALL_ORDER[1:], ids=lambda t: t.hex()[:6])
def test_a_signer_adding_a_small_order_point_to_r_does_not_pass_a_batch(torsion):
    base = honest(20, random.Random(4))
    message = b"an envelope"
    bad = (SIGNERS[1].public_key_bytes, message, torsion_signature(1, message, torsion))
    items = base[:5] + [bad] + base[5:]
    assert one_by_one(items) == 5
    assert not sig_batch.batch_passes(items)
    assert sig_batch.first_bad_signature(items) == 5


@native
def test_without_the_subgroup_check_of_r_that_signature_would_pass():
    """Why each R is multiplied by L (SPEC §20.6): the weighted sum alone misses an R with an
    order-2 point added whenever its weight is even; here the weight is 2."""
    message = b"an envelope"
    key = SIGNERS[0].public_key_bytes
    order_two = SMALL_ORDER[1]   # (0, -1)
    sig = torsion_signature(0, message, order_two)
    h, s, z = challenge(sig[:32], key, message), int.from_bytes(sig[32:], "little"), 2
    scalars = b"".join(k.to_bytes(32, "little") for k in (z, z * h % L, -z * s % L))
    points = sig[:32] + key + sig_batch._BASE
    assert sig_batch._native.ed25519_batch_ok(scalars, points, 0) is True
    assert sig_batch._native.ed25519_batch_ok(scalars, points, 1) is False


def test_random_corruptions_agree_with_one_by_one():
    rng = random.Random(5)
    base = honest(24, rng)
    for _ in range(60):
        items = list(base)
        for _ in range(rng.randrange(1, 3)):
            i = rng.randrange(len(items))
            key, message, sig = items[i]
            pos = rng.randrange(64)
            items[i] = (key, message, sig[:pos] + bytes([sig[pos] ^ (1 << rng.randrange(8))]) + sig[pos + 1:])
        assert sig_batch.first_bad_signature(items) == one_by_one(items)


def test_without_the_native_extension_the_verdicts_are_the_same(monkeypatch):
    base = honest(30, random.Random(6))
    monkeypatch.setattr(sig_batch, "_native", None)
    assert not sig_batch.batch_passes(base)
    assert sig_batch.first_bad_signature(base) == -1
    for name, bad in bad_variants(base[9])[:6]:
        items = base[:9] + [bad] + base[10:]
        assert sig_batch.first_bad_signature(items) == 9, name
