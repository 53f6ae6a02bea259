"""The test vectors of SPEC §36 (tests/vectors/): `asv verify --json` gives on every log
exactly what the manifest says, the known-answer transcripts are what the code computes
(and check out on their own), every error `asv verify` can report names a SPEC section
that exists, and the generator writes the committed files again byte for byte.

After a format change: `make vectors` writes them again (SPEC §36.1)."""
from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cli.main import main
from protocol import codec
from protocol.crypto import group as g
from protocol.crypto import commit_reveal as cr
from protocol.crypto.identity import Identity, verify
from protocol.errors import CodecError, EventError, LogError
from protocol.log import parse_event
from protocol.net.secure import FrameOpener, derive_keys
from protocol.poker import deck as mp
from protocol.poker import keys
from protocol.poker.cards import Ciphertext
from protocol.poker.shuffle_proof import ShuffleProofError, verify_shuffle
from tests.vectors import kat
from tests.vectors.make_vectors import EXPECTED_FIELDS, GAMES, HERE, KAT_FILE, MANIFEST, expected, generate

ROOT = Path(__file__).resolve().parents[1]
MANIFEST_DATA = json.loads((HERE / MANIFEST).read_text(encoding="utf-8"))
VECTORS = MANIFEST_DATA["vectors"]
KAT = json.loads((HERE / KAT_FILE).read_text(encoding="utf-8"))
TAMPERS = {"flip-header", "flip-record", "flip-resealed", "cut", "pad", "splice", "reorder", "duplicate", "equivocation",
           "re-sign", "re-sign-state", "foreign-key", "wrong-key-proof", "wrong-proof", "wrong-share"}
DECKLESS = {"space-walk"}          # no decks (SPEC §47.2): nothing shuffled, no share to spoil


def verify_json(path: Path, capsys) -> dict:
    code = main(["verify", str(path), "--json"])
    report = json.loads(capsys.readouterr().out)
    report.setdefault("exit_code", code)
    assert report["exit_code"] == code
    return report


@pytest.mark.parametrize("vector", VECTORS, ids=[v["file"] for v in VECTORS])
def test_asv_verify_gives_what_the_manifest_says(vector, capsys):
    report = verify_json(HERE / vector["file"], capsys)
    assert expected(report) == vector["expect"]


def test_the_manifest_holds_every_scenario_and_tamper_class_for_every_game():
    classes = {(v["game"], v["class"]) for v in VECTORS}
    for key in GAMES:
        wanted = {"finished", "unfinished", "aborted", "halted", "format1"} | TAMPERS
        if key in DECKLESS:
            wanted -= {"wrong-proof", "wrong-share"}
        assert {c for g_, c in classes if g_ == key} >= wanted, key
    assert ("asv", "not-a-log") in classes and ("asv", "other-rules") in classes
    assert set(MANIFEST_DATA["fields"]) == set(EXPECTED_FIELDS)
    codes = {v["class"]: v["expect"]["exit_code"] for v in VECTORS if v["game"] == "asv"}
    assert (codes["finished"], codes["unfinished"], codes["aborted"], codes["halted"], codes["splice"],
            codes["not-a-log"]) == (0, 2, 2, 2, 1, 3)


def test_the_vectors_are_small_and_readable():
    files = [p for p in HERE.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert sum(p.stat().st_size for p in files) < 3_000_000
    assert {v["file"] for v in VECTORS} == {p.relative_to(HERE).as_posix() for p in files if p.suffix == ".asvlog"}


@pytest.mark.e2e
def test_the_asv_command_itself_gives_the_manifest_verdicts():
    """The real `asv` program in its own process, one vector of each exit code and a halt."""
    asv = Path(sys.executable).with_name("asv")
    assert asv.exists(), asv
    chosen = [v for v in VECTORS if v["game"] == "asv" and v["class"] in
              ("finished", "unfinished", "halted", "wrong-share", "flip-header", "not-a-log", "other-rules")]
    for vector in chosen:
        done = subprocess.run([str(asv), "verify", str(HERE / vector["file"]), "--json"], capture_output=True,
                              text=True, timeout=120, cwd=ROOT)
        report = json.loads(done.stdout)
        report.setdefault("exit_code", done.returncode)
        assert done.returncode == vector["expect"]["exit_code"], (vector["file"], done.stderr)
        assert expected(report) == vector["expect"], vector["file"]


def test_the_verify_line_names_the_spec_section_and_the_program(capsys):
    assert main(["verify", str(HERE / "asv" / "tamper-wrong-share.asvlog")]) == 1
    out = capsys.readouterr().out
    assert "INVALID at seq 18" in out and "BadShare" in out and "(SPEC §25.6)" in out
    assert f"written by: {MANIFEST_DATA['program']}" in out
    assert main(["verify", str(HERE / "asv" / "format1.asvlog")]) == 2
    assert "written by: not named (log format 1" in capsys.readouterr().out
    assert main(["verify", str(HERE / "space-walk" / "halted.asvlog")]) == 2
    assert "StateHashMismatch" in (out := capsys.readouterr().out) and "(SPEC §26.3)" in out


def test_the_generator_writes_the_committed_vectors_again(tmp_path):
    """Fixed seeds: the same program writes the same bytes (so they are current, too)."""
    generate(tmp_path)
    for path in sorted(p for p in HERE.rglob("*") if p.suffix in (".asvlog", ".json")):
        again = tmp_path / path.relative_to(HERE)
        assert again.read_bytes() == path.read_bytes(), f"{path.relative_to(ROOT)} is stale: run make vectors"


# -- §36.3: every error verify reports names its SPEC section -------------------------------------

def _subclasses(cls) -> set[type]:
    out = set()
    for sub in cls.__subclasses__():
        out |= {sub} | _subclasses(sub)
    return out


def test_every_error_verify_can_report_names_a_spec_section_that_exists():
    import protocol.session  # noqa: F401 - loads every session error (the peer's, the lobby's)
    import protocol.session.lobby  # noqa: F401
    import protocol.session.peer  # noqa: F401
    spec = (ROOT / "SPEC.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^#{2,3} (§\d+(?:\.\d+)*) ", spec, re.MULTILINE))
    classes = {EventError, LogError} | _subclasses(EventError) | _subclasses(LogError)
    assert len(classes) > 30
    for cls in classes:
        assert "spec" in vars(cls), f"{cls.__module__}.{cls.__name__} names no SPEC section (spec = '§…')"
        assert cls.spec in headings, f"{cls.__name__}.spec = {cls.spec!r}: no such SPEC section"


# -- §36.4: the known-answer transcripts ------------------------------------------------------------

def test_the_known_answer_transcripts_are_what_the_code_computes():
    assert kat.transcripts() == KAT


def test_codec_transcript_decodes_and_refuses():
    for case in KAT["codec"]["encode"]:
        raw = bytes.fromhex(case["hex"])
        value = kat.from_json(case["value"])
        assert codec.encode(value) == raw and codec.decode(raw) == value
    for case in KAT["codec"]["refuse"]:
        with pytest.raises(CodecError):
            codec.decode(bytes.fromhex(case["hex"]))


def test_event_transcript_parses_and_chains():
    t = KAT["event"]
    assert Identity.from_seed(bytes.fromhex(t["ed25519_seed"])).public_key_bytes.hex() == t["author"]
    prev = bytes(32)
    for case in t["events"]:
        wire = bytes.fromhex(case["wire"])
        ev = parse_event(wire, expected_game=bytes.fromhex(t["game"]))
        assert ev.prev == prev and hashlib.sha256(wire).hexdigest() == case["hash"]
        verify(bytes.fromhex(t["author"]), bytes.fromhex(t["event_domain"]) + ev.envelope, ev.signature)
        prev = ev.hash


def test_commit_reveal_transcript_opens():
    t = KAT["commit_reveal"]
    context = bytes.fromhex(t["context"])
    for case in t["commits"]:
        assert cr.opens(bytes.fromhex(case["commitment"]), bytes.fromhex(case["value"]), context)
    joint = bytes.fromhex(t["joint_value"])
    for n, perm in t["permutations"].items():
        assert sorted(perm) == list(range(int(n))) and cr.permutation_from_seed(joint, int(n)) == perm


def test_joint_key_shuffle_and_share_transcripts_verify():
    t = KAT["joint_key"]
    context = bytes.fromhex(t["context"])
    publics = []
    for case in t["shares"]:
        published = keys.PublishedKeyShare.from_bytes(bytes.fromhex(case["published"]))
        publics.append(keys.verify_key_share(published, context, case["participant"]))
        assert g.base_mul(bytes.fromhex(case["secret"])).hex() == case["public"] == published.public.hex()
    assert keys.joint_public_key(publics).hex() == t["joint_key"]
    s = KAT["shuffle"]
    deck = [Ciphertext.from_bytes(bytes.fromhex(c)) for c in s["before"]]
    after = [Ciphertext.from_bytes(bytes.fromhex(c)) for c in s["after"]]
    verify_shuffle(deck, after, bytes.fromhex(s["proof"]), bytes.fromhex(s["joint_key"]), bytes.fromhex(s["context"]))
    with pytest.raises(ShuffleProofError):
        verify_shuffle(deck, after[::-1], bytes.fromhex(s["proof"]), bytes.fromhex(s["joint_key"]),
                       bytes.fromhex(s["context"]))
    d = KAT["share"]
    card = Ciphertext.from_bytes(bytes.fromhex(d["ciphertext"]))
    opened = []
    for case in d["shares"]:
        share = mp.DecryptionShare.from_bytes(bytes.fromhex(case["share"]))
        opened.append(mp.verify_share(share, bytes.fromhex(case["public"]), card, bytes.fromhex(d["context"]),
                                      case["participant"]))
    assert mp.combine_shares(card, opened).hex() == d["point"]


def test_transport_transcript_keys_agree_and_frames_open():
    t = KAT["transport"]
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
    listener = X25519PrivateKey.from_private_bytes(bytes.fromhex(t["listener_ephemeral_private"]))
    shared = listener.exchange(X25519PublicKey.from_public_bytes(bytes.fromhex(t["dialer_ephemeral"])))
    assert shared.hex() == t["shared"]
    ours = derive_keys(shared, bytes.fromhex(t["salt"]), dialer=False)
    assert (ours.receive.hex(), ours.send.hex()) == (t["dialer_to_listener"], t["listener_to_dialer"])
    for role in ("dialer", "listener"):
        verify(bytes.fromhex(t[f"{role}_key"]), bytes.fromhex(t[f"{role}_transcript"]),
               bytes.fromhex(t[f"{role}_signature"]))
    opener = FrameOpener(ours.receive)
    for frame in t["dialer_frames"]:
        assert opener.open(bytes.fromhex(frame["header"]), bytes.fromhex(frame["sealed"])).hex() == frame["payload"]
