"""ristretto255 group wrapper: encodings, validation, scalars, hash-to-point (SPEC §25.1)."""

import hashlib

import pytest

from protocol.crypto import group as g
from tests.ristretto_ref import ed25519_base_point, encode
from tests.ristretto_ref import from_hash as ristretto255_from_hash
from tests.weak_keys import NON_CANONICAL as ED_NON_CANONICAL
from tests.weak_keys import SMALL_ORDER as ED_SMALL_ORDER

P = 2**255 - 19


def s(n: int) -> bytes:
    return g.scalar_from_int(n)


# RFC 9496 appendix A.1: the encodings of 0·B .. 4·B (an independent known answer).
RFC9496_MULTIPLES = (
    "0000000000000000000000000000000000000000000000000000000000000000",
    "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76",
    "6a493210f7499cd17fecb510ae0cea23a110e8d5b901f8acadd3095c73a3b919",
    "94741f5d5d52755ece4f23f044ee27d5d1ea1e2bd196b462166b16152a9d0259",
    "da80862773358b466ffadfe0b3293ab3d9fd53c5ea6c955358f568322daf6a57",
)
# RFC 9496 appendix A.2: encodings that must not decode (non-canonical field elements,
# negative field elements, non-square x^2, negative xy, s = -1 which gives y = 0).
RFC9496_BAD = (
    "00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "f3ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "0100000000000000000000000000000000000000000000000000000000000000",
    "01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "ed57ffd8c914fb201471d1c3d245ce3c746fcbe63a3679d51b6a516ebebe0e20",
    "c34c4e1826e5d403b78e246e88aa051c36ccf0aafebffe137d148a2bf9104562",
    "c940e5a4404157cfb1628b108db051a8d439e1a421394ec4ebccb9ec92a8ac78",
    "26948d35ca62e643e26a83177332e6b6afeb9d08e4268b650f1f5bbd8d81d371",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
)


#: hash_to_point(b"test-domain", b"label-1"), from the code and the pure-Python map alike.
KNOWN_LABEL_1 = "b8b72ef835d9b0329b41011119468afdc8ef7e198f99fb11e9563c5d22fbc62b"


def test_base_point_and_rfc9496_multiples():
    assert g.G.hex() == RFC9496_MULTIPLES[1]
    assert encode(ed25519_base_point()) == g.G  # the reference encoder agrees with the RFC
    assert g.IDENTITY.hex() == RFC9496_MULTIPLES[0]
    for n, want in enumerate(RFC9496_MULTIPLES[1:], start=1):
        assert g.base_mul(s(n)).hex() == want
        assert g.mul(s(n), g.G).hex() == want


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


def test_every_decoded_element_has_prime_order():
    # Decoding is the whole check: each element that decodes is killed by L (the
    # multiplication by L gives the identity, which libsodium refuses) and not by less.
    found = 0
    for i in range(64):
        candidate = bytearray(hashlib.sha256(b"decode-%d" % i).digest())
        candidate[31] &= 0x7F
        try:
            pt = g.validate_point(bytes(candidate))
        except g.InvalidPoint:
            continue
        found += 1
        with pytest.raises(g.GroupError):
            g.mul(g.L.to_bytes(32, "little"), pt)
        assert g.add(g.mul(s(g.L - 1), pt), pt) == g.IDENTITY
    assert found > 0


def test_zero_scalar_multiplication_is_refused():
    with pytest.raises(g.InvalidScalar):
        g.base_mul(bytes(32))
    with pytest.raises(g.GroupError):
        g.mul(bytes(32), g.G)


def test_validate_point_accepts_valid_points():
    for n in (1, 2, 99, g.L - 1):
        pt = g.base_mul(s(n))
        assert g.validate_point(pt) == pt
    assert g.validate_point(bytearray(g.G)) == g.G


@pytest.mark.parametrize(
    "bad, reason",
    [
        (g.G[:31], "length"),
        (g.G + b"\x00", "length"),
        (RFC9496_MULTIPLES[1], "expected bytes"),
        (g.IDENTITY, "identity"),
        # libsodium 1.0.18 decodes these as G and as the identity: refused by the top bit
        (g.G[:31] + bytes([g.G[31] | 0x80]), "top bit"),
        (bytes(31) + b"\x80", "top bit"),
        (bytes.fromhex(RFC9496_BAD[0]), "top bit"),
    ]
    + [(bytes.fromhex(h), "canonical ristretto255") for h in RFC9496_BAD[1:]],
)
def test_validate_point_rejects(bad, reason):
    with pytest.raises(g.InvalidPoint) as exc:
        g.validate_point(bad)
    assert reason in str(exc.value)


def test_arithmetic_refuses_a_top_bit_encoding():
    # libsodium 1.0.18 would decode it as G; the shuffle verifier relies on mul refusing it.
    marked = g.G[:31] + bytes([g.G[31] | 0x80])
    for call in (lambda: g.mul(s(3), marked), lambda: g.add(marked, g.G), lambda: g.sub(g.G, marked)):
        with pytest.raises(g.GroupError, match="top bit"):
            call()


def test_ed25519_attack_points_are_not_group_elements():
    # The Ed25519 small-order and non-canonical encodings that the old group had to
    # refuse (tests/weak_keys.py) do not pass as ristretto255 elements either.
    for bad in ED_SMALL_ORDER + ED_NON_CANONICAL:
        with pytest.raises(g.InvalidPoint):
            g.validate_point(bad)


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
    counter0 = hashlib.sha512(g.lp(g.H2P_TAG, b"test-domain", b"label-1", (0).to_bytes(4, "big"))).digest()
    assert pt == ristretto255_from_hash(counter0)  # the independent pure-Python map
    assert pt.hex() == KNOWN_LABEL_1
    assert g.validate_point(pt) == pt
    assert g.hash_to_point(b"test-domain", b"label-1") == pt
    assert g.hash_to_point(b"test-domain", b"label-2") != pt
    assert g.hash_to_point(b"other-domain", b"label-1") != pt
    # length prefixing: moving a byte between domain and label changes the point
    assert g.hash_to_point(b"test-domainl", b"abel-1") != pt


def test_hash_to_point_retries_past_the_identity(monkeypatch):
    real = g._from_hash
    calls = []

    def first_gives_identity(u):
        calls.append(u)
        return g.IDENTITY if len(calls) == 1 else real(u)

    monkeypatch.setattr(g, "_from_hash", first_gives_identity)
    pt = g.hash_to_point(b"test-domain", b"label-1")
    assert len(calls) == 2 and calls[0] != calls[1]
    counter1 = hashlib.sha512(g.lp(g.H2P_TAG, b"test-domain", b"label-1", (1).to_bytes(4, "big"))).digest()
    assert pt == real(counter1) and g.validate_point(pt) == pt


def test_from_hash_matches_the_independent_map():
    for i in range(8):
        digest = hashlib.sha512(b"map-%d" % i).digest()
        assert g._from_hash(digest) == ristretto255_from_hash(digest)


def test_lp_is_unambiguous():
    assert g.lp(b"ab", b"c") != g.lp(b"a", b"bc")
    assert g.lp(b"ab") == b"\x00\x00\x00\x02ab"
    with pytest.raises(TypeError):
        g.lp("text")  # type: ignore[arg-type]


@pytest.mark.parametrize("breakage", [
    "sys.modules['pysodium'] = None",                                 # pysodium not installed
    "import ctypes.util; ctypes.util.find_library = lambda name: None",  # no system libsodium
])
def test_a_missing_system_library_is_a_clear_error(breakage):
    import subprocess
    import sys

    code = f"import sys\n{breakage}\nimport protocol.crypto.group"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "GroupUnavailable" in done.stderr and "libsodium 1.0.18 or later" in done.stderr, done.stderr
    assert "apt-get install libsodium23" in done.stderr
