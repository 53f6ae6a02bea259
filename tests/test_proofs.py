"""Schnorr and Chaum-Pedersen proofs: known answers and forgeries (SPEC §25.2)."""

import pytest

from protocol.crypto import group as g
from protocol.crypto import proofs as pf
from tests import ristretto_ref

X = g.scalar_from_int(0x1234567)
K = g.scalar_from_int(0x7654321)
C1 = g.hash_to_point(b"test-domain", b"C1")
CTX = b"ctx"


def flip(data: bytes, i: int = 0) -> bytes:
    return data[:i] + bytes([data[i] ^ 1]) + data[i + 1 :]


def test_schnorr_known_answer():
    y = g.base_mul(X)
    assert y.hex() == "089109765401ebbb31892c1c6e1b036c1397fd91b9e27142b90d46767b308c52"
    assert y == ristretto_ref.base_mul(0x1234567)  # an independent computation
    proof = pf.prove_dlog(X, CTX, nonce=K)
    assert proof.to_bytes().hex() == (
        "056f7e6ce892f84368b6ae08eb056fbd1eac83f5150079d56d60c9a8412f0f0b"
        "d0b5aed34081011c5a38679f4e744895b2743fecae08ab99450fddccd1927b02"
    )
    # the response is k + c·x mod L
    c = g.scalar_to_int(proof.challenge)
    assert g.scalar_to_int(proof.response) == (0x7654321 + c * 0x1234567) % g.L
    pf.verify_dlog(y, proof, CTX)
    assert pf.Proof.from_bytes(proof.to_bytes()) == proof


def test_schnorr_random_nonce_verifies():
    y = g.base_mul(X)
    p1, p2 = pf.prove_dlog(X, CTX), pf.prove_dlog(X, CTX)
    assert p1 != p2
    pf.verify_dlog(y, p1, CTX)
    pf.verify_dlog(y, p2, CTX)


def test_schnorr_rejects_forgeries():
    y = g.base_mul(X)
    proof = pf.prove_dlog(X, CTX, nonce=K)
    with pytest.raises(pf.InvalidProof, match="challenge does not match"):
        pf.verify_dlog(y, proof, b"other ctx")
    with pytest.raises(pf.InvalidProof, match="challenge does not match"):
        pf.verify_dlog(g.base_mul(g.scalar_from_int(5)), proof, CTX)
    with pytest.raises(pf.InvalidProof):
        pf.verify_dlog(y, pf.Proof(flip(proof.challenge), proof.response), CTX)
    with pytest.raises(pf.InvalidProof):
        pf.verify_dlog(y, pf.Proof(proof.challenge, flip(proof.response)), CTX)
    with pytest.raises(pf.InvalidProof, match="public key: identity"):
        pf.verify_dlog(g.IDENTITY, proof, CTX)
    with pytest.raises(pf.InvalidProof, match="bad scalar"):
        pf.verify_dlog(y, pf.Proof(proof.challenge, g.L.to_bytes(32, "little")), CTX)
    with pytest.raises(pf.InvalidProof, match="zero"):
        pf.verify_dlog(y, pf.Proof(bytes(32), proof.response), CTX)
    with pytest.raises(pf.InvalidProof, match="64 bytes"):
        pf.Proof.from_bytes(proof.to_bytes()[:63])


def test_schnorr_response_malleation_by_L_rejected():
    # s + L encodes the same residue; non-canonical scalars must not give a second proof.
    y = g.base_mul(X)
    proof = pf.prove_dlog(X, CTX, nonce=K)
    bumped = g.scalar_to_int(proof.response) + g.L  # < 2**254, fits in 32 bytes
    with pytest.raises(pf.InvalidProof, match="non-canonical"):
        pf.verify_dlog(y, pf.Proof(proof.challenge, bumped.to_bytes(32, "little")), CTX)


def test_chaum_pedersen_known_answer():
    y = g.base_mul(X)
    d = g.mul(X, C1)
    assert d.hex() == "3c39155f7e2a5efbda938bddc59e2870348074bc08cdd76446f57dcd22b99b5f"
    proof = pf.prove_equal_dlog(X, C1, CTX, nonce=K)
    # commitment form (SPEC §25.2): A ‖ B ‖ s; the same nonce gave challenge a52d57bc… and this
    # s in the challenge form before
    assert proof.to_bytes().hex() == (
        "96d8ce7685c29075810dab5004b2dd41733ff72df1aba91845454dba669a6002"
        "e0127e91a147d802e174ee0963b341cb99267a674ea924f008e76c96e807674c"
        "dc34a855a87a057196646c5e4482db88bdd7c91753b53af1772af55f247cf806"
    )
    assert pf._cp_challenge(CTX, y, C1, d, proof.a, proof.b).hex() == (
        "a52d57bccca4882d5532ef5e6e3fc3de782f382a0587974edd63de471b536201")
    pf.verify_equal_dlog(y, C1, d, proof, CTX)
    # passing precomputed public/share gives the same proof
    assert pf.prove_equal_dlog(X, C1, CTX, public=y, share=d, nonce=K) == proof


def test_chaum_pedersen_rejects_forgeries():
    y = g.base_mul(X)
    d = g.mul(X, C1)
    proof = pf.prove_equal_dlog(X, C1, CTX)
    other = g.scalar_from_int(99)
    with pytest.raises(pf.InvalidProof, match="equations do not hold"):
        pf.verify_equal_dlog(y, C1, d, proof, b"ctx2")
    # a share made with a different secret (wrong decryption share)
    with pytest.raises(pf.InvalidProof):
        pf.verify_equal_dlog(y, C1, g.mul(other, C1), proof, CTX)
    # an honest proof for a different secret does not pass for this key
    with pytest.raises(pf.InvalidProof):
        pf.verify_equal_dlog(y, C1, g.mul(other, C1), pf.prove_equal_dlog(other, C1, CTX), CTX)
    with pytest.raises(pf.InvalidProof):
        pf.verify_equal_dlog(y, g.G, d, proof, CTX)
    other_point = g.hash_to_point(b"test", b"A")
    for bad in (pf.EqualDlogProof(other_point, proof.b, proof.response),
                pf.EqualDlogProof(proof.a, other_point, proof.response),
                pf.EqualDlogProof(proof.b, proof.a, proof.response),
                pf.EqualDlogProof(proof.a, proof.b, flip(proof.response, 5))):
        with pytest.raises(pf.InvalidProof, match="equations do not hold"):
            pf.verify_equal_dlog(y, C1, d, bad, CTX)
    with pytest.raises(pf.InvalidProof, match="commitment A: identity"):
        pf.verify_equal_dlog(y, C1, d, pf.EqualDlogProof(g.IDENTITY, proof.b, proof.response), CTX)
    marked = proof.b[:31] + bytes([proof.b[31] | 0x80])         # bit 255 set: never an encoding
    with pytest.raises(pf.InvalidProof, match="commitment B"):
        pf.verify_equal_dlog(y, C1, d, pf.EqualDlogProof(proof.a, marked, proof.response), CTX)
    with pytest.raises(pf.InvalidProof, match="non-canonical"):
        bumped = (g.scalar_to_int(proof.response) + g.L).to_bytes(32, "little")
        pf.verify_equal_dlog(y, C1, d, pf.EqualDlogProof(proof.a, proof.b, bumped), CTX)
    with pytest.raises(pf.InvalidProof, match="96 bytes"):
        pf.EqualDlogProof.from_bytes(proof.to_bytes()[:95])
    with pytest.raises(pf.InvalidProof, match="share: identity"):
        pf.verify_equal_dlog(y, C1, g.IDENTITY, proof, CTX)
    with pytest.raises(pf.InvalidProof, match="share"):
        pf.verify_equal_dlog(y, C1, ((2**255 - 19) - 1).to_bytes(32, "little"), proof, CTX)
    with pytest.raises(pf.InvalidProof, match="rejected"):  # small-order base
        pf.verify_equal_dlog(y, bytes(32), d, proof, CTX)


def test_proof_kinds_are_domain_separated():
    # A Schnorr proof is never a Chaum-Pedersen proof, even with the same nonce and context.
    # (the same nonce: equal commitments k·G, so equal responses would mean equal challenges)
    schnorr, cp = pf.prove_dlog(X, CTX, nonce=K), pf.prove_equal_dlog(X, g.G, CTX, nonce=K)
    assert cp.a == g.base_mul(K) and schnorr.response != cp.response


def test_nonces_are_hedged_with_the_secret_the_statement_and_fresh_randomness(monkeypatch):
    # SPEC §25.2: with the OS generator stuck, two statements under one secret still get
    # different nonces (a repeated nonce would give the secret away), and one statement
    # twice still gets the same valid proof only if every input repeats.
    import protocol.crypto.proofs as proofs_module
    secret = g.random_scalar()
    monkeypatch.setattr(proofs_module.os, "urandom", lambda n: b"\x00" * n)
    a = proofs_module.prove_dlog(secret, b"context-a")
    b = proofs_module.prove_dlog(secret, b"context-b")
    public = g.base_mul(secret)
    proofs_module.verify_dlog(public, a, b"context-a")
    proofs_module.verify_dlog(public, b, b"context-b")
    # s = k + c·x: equal k would let anyone solve for x from (a, b); check they differ
    k_a = g.scalar_sub(a.response, g.scalar_mul(a.challenge, secret))
    k_b = g.scalar_sub(b.response, g.scalar_mul(b.challenge, secret))
    assert k_a != k_b
    assert proofs_module.prove_dlog(secret, b"context-a") == a


def test_a_derived_nonce_gives_one_statement_one_proof_and_two_statements_two_nonces():
    """SPEC §25.2: a decryption share's proof nonce is derived from the secret and the
    statement, so the peer signs the same shares event again after a power cut (§23.4):
    the same statement gives the same proof, with no OS randomness; another context or
    another base gives another nonce (equal nonces would give x away); both verify."""
    secret = g.random_scalar()
    public, c1 = g.base_mul(secret), g.base_mul(g.random_scalar())
    share = g.mul(secret, c1)
    one = pf.prove_equal_dlog(secret, c1, b"ctx-a", derived=True)
    assert pf.prove_equal_dlog(secret, c1, b"ctx-a", public=public, share=share, derived=True) == one
    other = pf.prove_equal_dlog(secret, c1, b"ctx-b", derived=True)
    c2 = g.base_mul(g.random_scalar())
    third = pf.prove_equal_dlog(secret, c2, b"ctx-a", derived=True)
    nonces = {g.scalar_sub(p.response, g.scalar_mul(pf._cp_challenge(ctx, public, base, g.mul(secret, base),
                                                                       p.a, p.b), secret))
              for p, ctx, base in ((one, b"ctx-a", c1), (other, b"ctx-b", c1), (third, b"ctx-a", c2))}
    assert len(nonces) == 3
    pf.verify_equal_dlog(public, c1, share, one, b"ctx-a")
    pf.verify_equal_dlog(public, c1, share, other, b"ctx-b")
    pf.verify_equal_dlog(public, c2, g.mul(secret, c2), third, b"ctx-a")
    assert pf.prove_equal_dlog(secret, c1, b"ctx-a") != one   # hedged: fresh OS bytes
