"""Deferred proof equations (SPEC §25.14): a batch says whether every equation holds, a bad
one or a bad point makes it false, and `verify_log` gives the same report with proofs
deferred as with every proof checked as it is read, on every vector (valid or tampered)."""
from pathlib import Path

import pytest

from cli.games import game_of_log
from protocol.crypto import group as g
from protocol.crypto import proof_batch as pb
from protocol.crypto import proofs as pf
from protocol.session import verify as verify_mod

CTX = b"batch-test"
VECTORS = Path(__file__).parent / "vectors"


def statement(k: int):
    secret = g.scalar_from_int(1000 + k)
    c1 = g.hash_to_point(b"batch-test", k.to_bytes(4, "big"))
    public, share = g.base_mul(secret), g.mul(secret, c1)
    return public, c1, share, pf.prove_equal_dlog(secret, c1, CTX, public=public, share=share)


def deferred(*cases) -> pb.ProofBatch:
    batch = pb.ProofBatch()
    with pb.deferring(batch):
        for public, c1, share, proof in cases:
            pf.verify_equal_dlog(public, c1, share, proof, CTX)   # returns at once: deferred
    return batch


def test_a_batch_of_true_equations_holds_and_is_emptied():
    batch = deferred(*(statement(k) for k in range(20)))
    assert len(batch) == 20 and batch.holds() and len(batch) == 0 and batch.holds()
    assert pb.active() is None


def test_one_wrong_share_or_one_bad_point_makes_the_batch_false():
    cases = [statement(k) for k in range(8)]
    public, c1, share, proof = cases[5]
    wrong_share = [*cases[:5], (public, c1, g.add(share, g.G), proof), *cases[6:]]
    assert not deferred(*wrong_share).holds()
    for bad in (g.IDENTITY, proof.a[:31] + bytes([proof.a[31] | 0x80])):   # not points: refused in the sum
        bad_a = [*cases[:5], (public, c1, share, pf.EqualDlogProof(bad, proof.b, proof.response)), *cases[6:]]
        assert not deferred(*bad_a).holds()
    bad_share = [*cases[:5], (public, c1, g.IDENTITY, proof), *cases[6:]]
    assert not deferred(*bad_share).holds()
    # the cheap checks still refuse at once, deferred or not
    with pytest.raises(pf.InvalidProof, match="non-canonical"):
        bumped = (g.scalar_to_int(proof.response) + g.L).to_bytes(32, "little")
        deferred((public, c1, share, pf.EqualDlogProof(proof.a, proof.b, bumped)))


def test_two_false_equations_do_not_cancel():
    """Swapping two proofs' shares gives two false equations; the weights keep them apart."""
    a, b = statement(1), statement(2)
    assert not deferred((a[0], a[1], b[2], a[3]), (b[0], b[1], a[2], b[3])).holds()


VECTOR_FILES = sorted(p for p in VECTORS.rglob("*.asvlog"))


@pytest.mark.parametrize("path", VECTOR_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_verify_log_reports_the_same_with_and_without_deferring(path, monkeypatch):
    rules = game_of_log(path).session_rules()
    fell_back = []
    real = verify_mod._verify_scan

    def spying(p, scan, r, upto, batch):
        if batch is None:
            fell_back.append(True)
        return real(p, scan, r, upto, batch)
    monkeypatch.setattr(verify_mod, "_verify_scan", spying)
    deferred_report, _ = verify_mod.verify_log(path, rules)
    direct_report, _ = verify_mod.verify_log(path, rules, defer_proofs=False)
    assert deferred_report.to_json() == direct_report.to_json()
    if deferred_report.valid:
        assert fell_back == [True]     # only the defer_proofs=False run: a valid log needed no second pass


def test_a_wrong_share_in_a_log_is_found_by_the_second_pass(monkeypatch):
    path = VECTORS / "asv" / "tamper-wrong-share.asvlog"
    rules = game_of_log(path).session_rules()
    passes = []
    real = verify_mod._verify_scan
    monkeypatch.setattr(verify_mod, "_verify_scan",
                        lambda p, scan, r, upto, batch: passes.append(batch is not None) or real(p, scan, r, upto, batch))
    report, _ = verify_mod.verify_log(path, rules)
    assert not report.valid and passes == [True, False] and "BadShare" == report.kind


def _tampered_log(tmp_path, kind: str, offset: int) -> Path:
    """The finished asv vector up to its first `kind` event, that event's first proof bytes
    changed at `offset` and the event signed again by its author (as the vectors' tampers)."""
    from protocol.log import parse_event, read_log
    from tests.vectors import make_vectors as mv
    source = VECTORS / "asv" / "finished.asvlog"
    records = list(read_log(source))
    at = next(i for i, r in enumerate(records) if parse_event(r).kind == kind)
    ev = parse_event(records[at])
    keys = {i.public_key_bytes: i for i in mv.identities("asv", len(mv.GAMES["asv"]["bots"]))}
    field = "p" if kind == "refresh" else "s"
    index = None if kind == "refresh" else 0
    spoiled = mv.resign(records[at], keys[ev.author], lambda b: mv.spoil_bin(b, field, index, offset))
    path = tmp_path / f"{kind}-{offset}.asvlog"
    mv.write(path, ev.game, records[:at] + [spoiled] + records[at + 1:at + 3])
    return path


@pytest.mark.parametrize("kind, offset", [("refresh", 3), ("refresh", 40), ("shares", 32 + 3), ("shares", 32 + 70)])
def test_a_spoiled_refresh_or_share_proof_gives_the_one_by_one_report(tmp_path, kind, offset):
    """A commitment (A, B) or the response changed in a refresh's or a share's proof: the
    deferred check and the one-by-one check give the same refusal, at that event."""
    path = _tampered_log(tmp_path, kind, offset)
    rules = game_of_log(path).session_rules()
    deferred_report, _ = verify_mod.verify_log(path, rules)
    direct_report, _ = verify_mod.verify_log(path, rules, defer_proofs=False)
    assert not direct_report.valid and direct_report.kind in ("BadRefresh", "BadShare")
    assert deferred_report.to_json() == direct_report.to_json()
