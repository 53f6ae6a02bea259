"""Where this user's identity key lives, and which key a game uses (SPEC §29.11).

One key per user by default, kept in the platform's config folder (platformdirs: on Linux
$XDG_CONFIG_HOME/asv, else ~/.config/asv; $ASV_HOME overrides, as for `asv keygen`), made
on first use: a friend's fingerprint is the same from game to game. `--key PATH` uses
another key; `--new-key` a throwaway key for one game, saved beside the log for --resume.
"""
from __future__ import annotations

import os
from pathlib import Path

from cli.errors import UserError
from protocol.crypto import Identity, KeyFileError, load_identity, save_identity

__all__ = ["user_key_path", "user_identity", "choose_identity"]


def user_key_path() -> Path:
    home = os.environ.get("ASV_HOME")
    if home:
        return Path(home) / "identity.key"
    import platformdirs  # here, so a venv made before the dependency still runs with ASV_HOME set
    return platformdirs.user_config_path("asv") / "identity.key"


def user_identity(name: str = "") -> tuple[Identity, bool]:
    """This user's key, made and saved (0600) on first use. Returns (identity, created)."""
    path = user_key_path()
    if path.exists():
        identity = load_identity(path)
        created = False
    else:
        identity = Identity.generate(name)
        try:
            save_identity(identity, path)
        except KeyFileError:       # another asv made it a moment ago: use that one
            return load_identity(path), False
        except OSError as exc:     # a config folder that cannot be written (SPEC §30)
            raise UserError(f"asv: cannot keep your identity key in {path.parent} ({exc.strerror or exc}); "
                             "play with --new-key (a key for this game only), or --key FILE, or set ASV_HOME "
                             "to a folder you can write") from None
        created = True
    return identity, created


def choose_identity(key: str | None, new_key: bool, name: str, default_name: str) -> tuple[Identity, str]:
    """The identity for a game and a line saying which one it is."""
    if key:
        identity, said = load_identity(key), f"key {key}"
    elif new_key:
        identity, said = Identity.generate(name or default_name), "a new key for this game only"
    else:
        identity, created = user_identity(name or default_name)
        said = f"{'new ' if created else ''}key {user_key_path()}"
    if name:
        identity.name = name
    elif not identity.name:
        identity.name = default_name
    return identity, said
