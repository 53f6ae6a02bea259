"""Identities, fingerprints, key files and `asv keygen` (SPEC §20)."""
from __future__ import annotations

import base64
import hashlib
import os

import pytest

from cli.netplay.error_lines import error_line
from cli.main import main as asv_main
from protocol import codec
from protocol.crypto import (
    BadSignature, Identity, KeyFileError, KeyFileExists, MissingKeyFile, UnsafePermissions, default_key_path,
    fingerprint, load_identity, save_identity, verify,
)

# RFC 8032 section 7.1, TEST 1
RFC_SEED = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
RFC_PUB = bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
RFC_SIG = bytes.fromhex("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")


def test_rfc8032_vector():
    """SPEC §20.1: Ed25519 as in RFC 8032 (deterministic signatures)."""
    ident = Identity.from_seed(RFC_SEED)
    assert ident.public_key_bytes == RFC_PUB
    assert ident.sign(b"") == RFC_SIG
    verify(RFC_PUB, b"", RFC_SIG)


def test_fingerprint_kat():
    """SPEC §20.2: base32 of the first 10 bytes of SHA-256(public key), 4 groups of 4."""
    assert fingerprint(RFC_PUB) == "EH7D-DX5B-KSRG-CYTL"
    assert fingerprint(bytes(32)) == "MZUH-VLPY-MK6X-O3EP"
    expected = base64.b32encode(hashlib.sha256(RFC_PUB).digest()[:10]).decode()
    assert fingerprint(RFC_PUB).replace("-", "") == expected
    with pytest.raises(ValueError):
        fingerprint(b"short")


def test_sign_verify_and_rejections():
    a, b = Identity.generate(), Identity.generate()
    sig = a.sign(b"hello")
    verify(a.public_key_bytes, b"hello", sig)
    with pytest.raises(BadSignature):
        verify(a.public_key_bytes, b"hellO", sig)
    with pytest.raises(BadSignature):
        verify(b.public_key_bytes, b"hello", sig)
    with pytest.raises(BadSignature):
        verify(a.public_key_bytes, b"hello", sig[:-1] + bytes([sig[-1] ^ 1]))
    with pytest.raises(BadSignature, match="64 bytes"):
        verify(a.public_key_bytes, b"hello", sig[:63])
    with pytest.raises(BadSignature, match="32 bytes"):
        verify(a.public_key_bytes[:31], b"hello", sig)


def test_non_canonical_s_rejected():
    """SPEC §20.1: S + L (the group order) is the same scalar mod L but must be refused,
    otherwise anyone could make a second valid signature for an event."""
    ident = Identity.from_seed(RFC_SEED)
    L = 2**252 + 27742317777372353535851937790883648493
    s = int.from_bytes(RFC_SIG[32:], "little")
    malleated = RFC_SIG[:32] + (s + L).to_bytes(32, "little")
    with pytest.raises(BadSignature):
        verify(ident.public_key_bytes, b"", malleated)


def test_repr_hides_secret():
    ident = Identity.from_seed(RFC_SEED, "alice")
    assert RFC_SEED.hex() not in repr(ident) and "EH7D" in repr(ident)


def test_key_file_round_trip_and_mode(tmp_path):
    """SPEC §20.3: mode 0600, versioned codec map, read back identical."""
    path = tmp_path / "sub" / "id.key"
    ident = Identity.generate("alice")
    save_identity(ident, path)
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert os.stat(path.parent).st_mode & 0o777 == 0o700
    back = load_identity(path)
    assert back.public_key_bytes == ident.public_key_bytes and back.name == "alice"
    obj = codec.decode(path.read_bytes())
    assert obj["format"] == "p2p-asv/identity" and obj["v"] == 1


def test_key_file_refuses_overwrite_without_force(tmp_path):
    path = tmp_path / "id.key"
    first = Identity.generate()
    save_identity(first, path)
    with pytest.raises(KeyFileExists, match="already exists"):
        save_identity(Identity.generate(), path)
    assert load_identity(path).public_key_bytes == first.public_key_bytes
    second = Identity.generate()
    save_identity(second, path, force=True)
    assert load_identity(path).public_key_bytes == second.public_key_bytes


@pytest.mark.parametrize("mode", [0o640, 0o604, 0o660, 0o644, 0o602])
def test_key_file_with_loose_permissions_refused(tmp_path, mode):
    path = tmp_path / "id.key"
    save_identity(Identity.generate(), path)
    os.chmod(path, mode)
    with pytest.raises(UnsafePermissions, match="chmod 600"):
        load_identity(path)


def test_damaged_key_files_refused(tmp_path):
    path = tmp_path / "id.key"
    with pytest.raises(MissingKeyFile, match="no key file at"):
        load_identity(path)
    with pytest.raises(MissingKeyFile) as info:
        load_identity(path)
    assert error_line(info.value).endswith("; create one with `asv keygen`")   # the command's words, not protocol's
    ident = Identity.generate()
    good = codec.decode(_bytes_of(ident, tmp_path))

    def write(obj_or_bytes):
        data = obj_or_bytes if isinstance(obj_or_bytes, bytes) else codec.encode(obj_or_bytes)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.write(fd, data)
        os.close(fd)

    write(b"-----BEGIN PRIVATE KEY-----")
    with pytest.raises(KeyFileError, match="not a key file"):
        load_identity(path)
    write({**good, "v": 2})
    with pytest.raises(KeyFileError, match="version"):
        load_identity(path)
    write({**good, "public": Identity.generate().public_key_bytes})
    with pytest.raises(KeyFileError, match="does not match"):
        load_identity(path)
    write({**good, "extra": 1})
    with pytest.raises(KeyFileError, match="unexpected fields"):
        load_identity(path)


def _bytes_of(ident, tmp_path):
    p = tmp_path / "tmp.key"
    save_identity(ident, p)
    return p.read_bytes()


def test_default_key_path(monkeypatch, tmp_path):
    monkeypatch.setenv("ASV_HOME", str(tmp_path))
    assert default_key_path() == tmp_path / "identity.key"
    monkeypatch.delenv("ASV_HOME")
    assert str(default_key_path()).endswith(".config/asv/identity.key")


def test_asv_keygen_command(monkeypatch, tmp_path, capsys):
    """SPEC §20.4: writes the key, prints the fingerprint, refuses to overwrite."""
    monkeypatch.setenv("ASV_HOME", str(tmp_path))
    assert asv_main(["keygen", "--name", "bob"]) == 0
    out = capsys.readouterr().out
    ident = load_identity(tmp_path / "identity.key")
    assert ident.name == "bob" and ident.fingerprint in out
    assert asv_main(["keygen"]) == 1
    assert "--force" in capsys.readouterr().err
    assert load_identity(tmp_path / "identity.key").public_key_bytes == ident.public_key_bytes
    assert asv_main(["keygen", "--force"]) == 0
    assert load_identity(tmp_path / "identity.key").public_key_bytes != ident.public_key_bytes
    other = tmp_path / "other.key"
    assert asv_main(["keygen", "--out", str(other)]) == 0
    assert os.stat(other).st_mode & 0o777 == 0o600
