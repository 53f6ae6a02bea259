"""Cryptographic building blocks (SPEC §20, §24, §25.1-§25.2): the Ed25519 group and its
proofs, commit-reveal rounds, and player identities. Depends only on protocol's base
(errors, codec, fingerprint). `group` and `proofs` are used as modules (`g`, `pf`)."""
from protocol.crypto.commit_reveal import CommitRevealRound, commit
from protocol.crypto.identity import (
    MAX_NAME_LEN, PUBLIC_KEY_SIZE, SIGNATURE_SIZE, BadSignature, Identity, KeyFileError, KeyFileExists,
    MissingKeyFile, UnsafePermissions, WeakPublicKey, check_public_key, default_key_path, fingerprint, load_identity,
    save_identity, verify,
)

__all__ = [
    "CommitRevealRound", "commit",
    "Identity", "verify", "fingerprint", "save_identity", "load_identity", "default_key_path",
    "BadSignature", "KeyFileError", "MissingKeyFile", "KeyFileExists", "UnsafePermissions", "PUBLIC_KEY_SIZE", "SIGNATURE_SIZE",
    "MAX_NAME_LEN", "check_public_key", "WeakPublicKey",
]
