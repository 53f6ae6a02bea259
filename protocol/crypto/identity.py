"""Player identities: Ed25519 key pairs, fingerprints and key files (SPEC §20)."""
from __future__ import annotations

import functools
import os
import stat
from pathlib import Path

import nacl.bindings as _sodium
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from nacl.exceptions import BadSignatureError

from protocol import codec
from protocol.errors import (BadSignature, CodecError, KeyFileError, KeyFileExists, MissingKeyFile, UnsafePermissions,
                             WeakPublicKey)
from protocol.fingerprint import PUBLIC_KEY_SIZE, fingerprint

__all__ = [
    "Identity", "verify", "fingerprint", "check_public_key", "WeakPublicKey", "save_identity", "load_identity", "default_key_path",
    "BadSignature", "KeyFileError", "MissingKeyFile", "KeyFileExists", "UnsafePermissions",
    "PUBLIC_KEY_SIZE", "SIGNATURE_SIZE", "KEY_FILE_FORMAT", "KEY_FILE_VERSION", "MAX_NAME_LEN",
]

SIGNATURE_SIZE = 64
KEY_FILE_FORMAT = "p2p-asv/identity"
KEY_FILE_VERSION = 1
MAX_NAME_LEN = 64          # characters of a display name in a key file
_MAX_KEY_FILE = 4096       # bytes: a key file is tiny; refuse anything bigger


# Every event's author key is checked again at every peer, and a game has a handful of
# keys: remembering the answers for recent keys takes this step off each signature check.
# It is a pure function of the bytes.
@functools.lru_cache(maxsize=1024)
def _valid_point(key: bytes) -> bool:
    return _sodium.crypto_core_ed25519_is_valid_point(key)


def check_public_key(public_key_bytes: object) -> bytes:
    """Return the key if it may be used as an Ed25519 public key (SPEC §20.1), else raise
    WeakPublicKey. Refused: anything but 32 bytes, a non-canonical encoding (y >= p), a
    point not on the curve, and a point of small order or outside the prime-order
    subgroup. OpenSSL accepts a small-order key and a signature "by" it can be made
    without any secret (for the identity point, any R = s·B with S = s verifies), so such
    a key would let anyone sign for a seat and would make an equivocation proof convict
    nobody. An honest key A = a·B always passes. libsodium's is_valid_point makes exactly
    these checks."""
    if not isinstance(public_key_bytes, (bytes, bytearray)) or len(public_key_bytes) != PUBLIC_KEY_SIZE:
        raise WeakPublicKey(f"a public key is exactly {PUBLIC_KEY_SIZE} bytes")
    key = bytes(public_key_bytes)
    if not _valid_point(key):
        raise WeakPublicKey(f"public key {key.hex()[:16]}… is not a canonical point of the prime-order "
                            "subgroup (small order, mixed order, non-canonical or off the curve)")
    return key


def verify(public_key_bytes: bytes, message: bytes, signature: bytes) -> None:
    """Check an Ed25519 signature by libsodium's rule (SPEC §20.5): cofactorless, S < L,
    R not of small order, R compared byte for byte with the encoding of S·B − h·A, after
    check_public_key. Returns None on success; raises BadSignature otherwise, including
    for a key or signature of the wrong length, and WeakPublicKey (a BadSignature) for a
    key that check_public_key refuses. libsodium checks in about 60% of OpenSSL's time,
    and every signature it accepts OpenSSL accepts too (tests/test_signature_rule.py)."""
    if len(public_key_bytes) != PUBLIC_KEY_SIZE:
        raise BadSignature(f"public key must be {PUBLIC_KEY_SIZE} bytes, got {len(public_key_bytes)}")
    key = check_public_key(public_key_bytes)
    if len(signature) != SIGNATURE_SIZE:
        raise BadSignature(f"signature must be {SIGNATURE_SIZE} bytes, got {len(signature)}")
    try:
        _sodium.crypto_sign_open(bytes(signature) + bytes(message), key)
    except BadSignatureError:
        raise BadSignature(f"signature does not verify for key {fingerprint(key)}") from None


class Identity:
    """One player's Ed25519 key pair plus an optional display name."""

    __slots__ = ("_key", "_public", "name")

    def __init__(self, private_key: Ed25519PrivateKey, name: str = "") -> None:
        self._key = private_key
        self._public = private_key.public_key().public_bytes_raw()
        self.name = name

    @classmethod
    def generate(cls, name: str = "") -> "Identity":
        return cls(Ed25519PrivateKey.generate(), name)

    @classmethod
    def from_seed(cls, seed: bytes, name: str = "") -> "Identity":
        """Rebuild from the 32-byte RFC 8032 private key (seed). Useful for tests."""
        if len(seed) != 32:
            raise ValueError("an Ed25519 seed is exactly 32 bytes")
        return cls(Ed25519PrivateKey.from_private_bytes(bytes(seed)), name)

    @property
    def public_key_bytes(self) -> bytes:
        return self._public

    @property
    def fingerprint(self) -> str:
        return fingerprint(self._public)

    def seed_bytes(self) -> bytes:
        """The secret 32-byte seed. Only for writing the key file."""
        return self._key.private_bytes_raw()

    def sign(self, message: bytes) -> bytes:
        """64-byte Ed25519 signature over `message` (deterministic, RFC 8032)."""
        return self._key.sign(bytes(message))

    def __repr__(self) -> str:  # never show the secret
        return f"Identity({self.fingerprint}, name={self.name!r})"


# ---------------------------------------------------------------------------- key files

def default_key_path() -> Path:
    """$ASV_HOME/identity.key if ASV_HOME is set, else ~/.config/asv/identity.key."""
    home = os.environ.get("ASV_HOME")
    base = Path(home) if home else Path.home() / ".config" / "asv"
    return base / "identity.key"


def _key_file_bytes(identity: Identity) -> bytes:
    return codec.encode({
        "format": KEY_FILE_FORMAT,
        "v": KEY_FILE_VERSION,
        "name": identity.name,
        "seed": identity.seed_bytes(),
        "public": identity.public_key_bytes,
    })


def save_identity(identity: Identity, path: str | os.PathLike, *, force: bool = False) -> Path:
    """Write the key file with mode 0600 (SPEC §20.3). Parent directories are created
    with mode 0700. Refuses to replace an existing file unless `force`; the replacement
    is atomic (temporary file + rename) so a crash never leaves half a key."""
    path = Path(path)
    if len(identity.name) > MAX_NAME_LEN:
        raise KeyFileError(f"name longer than {MAX_NAME_LEN} characters")
    if path.exists() and not force:
        raise KeyFileExists(f"{path} already exists")
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    data = _key_file_bytes(identity)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # the file may have pre-existed with looser bits
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    return path


def load_identity(path: str | os.PathLike) -> Identity:
    """Read a key file. Refuses one that group or others may read or write
    (UnsafePermissions), one of another format/version, or one whose public key does
    not match its seed (KeyFileError)."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        raise MissingKeyFile(f"no key file at {path}") from None
    try:
        st = os.fstat(fd)
        if os.name == "posix" and st.st_mode & 0o077:
            raise UnsafePermissions(
                f"key file is accessible by group/others (mode {stat.S_IMODE(st.st_mode):04o}); "
                f"run: chmod 600 {path}", path=str(path))
        data = os.read(fd, _MAX_KEY_FILE + 1)
    finally:
        os.close(fd)
    try:
        obj = codec.decode(data, max_size=_MAX_KEY_FILE, max_depth=1)
    except CodecError as exc:
        raise KeyFileError(f"{path} is not a key file: {exc.reason}") from None
    if not isinstance(obj, dict) or obj.get("format") != KEY_FILE_FORMAT:
        raise KeyFileError(f"{path} is not a {KEY_FILE_FORMAT} key file")
    if obj.get("v") != KEY_FILE_VERSION or isinstance(obj.get("v"), bool):
        raise KeyFileError(f"{path}: unsupported key file version {obj.get('v')!r}")
    if set(obj) != {"format", "v", "name", "seed", "public"}:
        raise KeyFileError(f"{path}: unexpected fields {sorted(obj)}")
    seed, public, name = obj["seed"], obj["public"], obj["name"]
    if not isinstance(seed, bytes) or len(seed) != 32 or not isinstance(public, bytes):
        raise KeyFileError(f"{path}: seed must be 32 bytes")
    if not isinstance(name, str) or len(name) > MAX_NAME_LEN:
        raise KeyFileError(f"{path}: name must be a str of at most {MAX_NAME_LEN} characters")
    identity = Identity.from_seed(seed, name)
    if identity.public_key_bytes != public:
        raise KeyFileError(f"{path}: public key does not match the seed (damaged file)")
    return identity
