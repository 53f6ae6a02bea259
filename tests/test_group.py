"""Ed25519 group wrapper: encodings, validation, scalars, hash-to-point (SPEC §25.1)."""

import hashlib

import pytest

from protocol.crypto import group as g

P = 2**255 - 19


def s(n: int) -> bytes:
    return g.scalar_from_int(n)


def test_base_point_and_rfc8032_public_key():
    # Independent known answer: RFC 8032 test 1; public key = clamp(SHA-512(sk)[:32])·G.
    assert g.G.hex() == "58" + "66" * 31
    sk = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
    a = bytearray(hashlib.sha512(sk).digest()[:32])
    a[0] &= 248
    a[31] &= 127
    a[31] |= 64
    pk = g.base_mul(s(int.from_bytes(a, "little")))
    assert pk.hex() == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"


def test_group_laws():
    a, b = s(12345), s(67890)
    assert g.add(g.base_mul(a), g.base_mul(b)) == g.base_mul(s(12345 + 67890))
    assert g.mul(b, g.base_mul(a)) == g.base_mul(g.scalar_mul(a, b))
    assert g.sub(g.base_mul(b), g.base_mul(a)) == g.base_mul(g.scalar_sub(b, a))
    assert g.add(g.base_mul(a), g.base_mul(g.scalar_neg(a))) == g.IDENTITY
    assert g.scalar_mul(a, g.scalar_inv(a)) == s(1)
    assert g.sum_points([g.G, g.G, g.G]) == g.base_mul(s(3))
    assert g.scalar_from_int(g.L) == bytes(32)
    assert g.scalar_to_int(s(-1)) == g.L - 1


def test_zero_scalar_multiplication_is_refused():
    with pytest.raises(g.InvalidScalar):
        g.base_mul(bytes(32))
    with pytest.raises(g.GroupError):
        g.mul(bytes(32), g.G)


def test_validate_point_accepts_valid_points():
    for n in (1, 2, 99, g.L - 1):  # L-1 gives -G: sign bit set, still canonical
        pt = g.base_mul(s(n))
        assert g.validate_point(pt) == pt
    assert g.validate_point(bytearray(g.G)) == g.G


@pytest.mark.parametrize(
    "bad, reason",
    [
        (g.G[:31], "length"),
        (g.G + b"\x00", "length"),
        ("58" + "66" * 31, "expected bytes"),
        (g.IDENTITY, "identity"),
        # small order: (0, -1) has order 2; y = 0 has order 4
        ((P - 1).to_bytes(32, "little"), "small-order"),
        (bytes(32), "small-order"),
        # non-canonical: y = p + 1 (identity), and x = 0 with the sign bit set
        ((P + 1).to_bytes(32, "little"), "non-canonical"),
        (b"\x01" + bytes(30) + b"\x80", "non-canonical"),
        # canonical y with no point on the curve, or outside the prime-order subgroup
        ((2).to_bytes(32, "little"), "subgroup"),
    ],
)
def test_validate_point_rejects(bad, reason):
    with pytest.raises(g.InvalidPoint) as exc:
        g.validate_point(bad)
    assert reason in str(exc.value)


def test_mixed_order_point_rejected():
    # G + T with T of order 2 is on the curve but outside the prime-order subgroup.
    torsion = (P - 1).to_bytes(32, "little")
    mixed = g.add(g.G, torsion)
    with pytest.raises(g.InvalidPoint):
        g.validate_point(mixed)
    with pytest.raises(g.GroupError):  # libsodium refuses it as a multiplication base too
        g.mul(s(5), mixed)


def test_validate_scalar():
    assert g.validate_scalar(s(5)) == s(5)
    assert g.validate_scalar(bytes(32)) == bytes(32)
    with pytest.raises(g.InvalidScalar, match="zero"):
        g.validate_scalar(bytes(32), nonzero=True)
    with pytest.raises(g.InvalidScalar, match="non-canonical"):
        g.validate_scalar(g.L.to_bytes(32, "little"))
    with pytest.raises(g.InvalidScalar, match="length"):
        g.validate_scalar(bytes(31))
    with pytest.raises(g.InvalidScalar):
        g.scalar_inv(bytes(32))


def test_random_scalar_is_canonical_nonzero_and_fresh():
    drawn = {g.random_scalar() for _ in range(20)}
    assert len(drawn) == 20
    for x in drawn:
        g.validate_scalar(x, nonzero=True)


def test_hash_to_point_known_answer_and_domain_separation():
    pt = g.hash_to_point(b"test-domain", b"label-1")
    assert pt.hex() == "5f78e1fc44623ed44666713a6d21bc36a1e525570adeac1ae4705ae2a5aef50e"
    assert g.validate_point(pt) == pt
    assert g.hash_to_point(b"test-domain", b"label-1") == pt
    assert g.hash_to_point(b"test-domain", b"label-2") != pt
    assert g.hash_to_point(b"other-domain", b"label-1") != pt
    # length prefixing: moving a byte between domain and label changes the point
    assert g.hash_to_point(b"test-domainl", b"abel-1") != pt


def test_hash_to_point_retries_past_the_identity(monkeypatch):
    # from_uniform maps u = 0 to the identity; the counter loop must move on.
    assert g._na.crypto_core_ed25519_from_uniform(bytes(32)) == g.IDENTITY
    real = g._na.crypto_core_ed25519_from_uniform
    calls = []

    def first_gives_identity(u):
        calls.append(u)
        return g.IDENTITY if len(calls) == 1 else real(u)

    monkeypatch.setattr(g._na, "crypto_core_ed25519_from_uniform", first_gives_identity)
    pt = g.hash_to_point(b"test-domain", b"label-1")
    assert len(calls) == 2 and calls[0] != calls[1]
    counter1 = hashlib.sha512(g.lp(g.H2P_TAG, b"test-domain", b"label-1", (1).to_bytes(4, "big"))).digest()
    assert pt == real(counter1[:32]) and g.validate_point(pt) == pt


def test_lp_is_unambiguous():
    assert g.lp(b"ab", b"c") != g.lp(b"a", b"bc")
    assert g.lp(b"ab") == b"\x00\x00\x00\x02ab"
    with pytest.raises(TypeError):
        g.lp("text")  # type: ignore[arg-type]
