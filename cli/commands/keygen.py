"""Create your identity key pair (Ed25519) and print its fingerprint.

The key file is written with mode 0600 to --out, or to $ASV_HOME/identity.key, or to
the user config folder (platformdirs, e.g. ~/.config/asv/identity.key; SPEC §20.3,
§29.11); `asv host` and `asv join` use it by default. An existing key is never replaced without --force.
"""
from __future__ import annotations

import argparse
import sys

from cli.netplay.identity_file import user_key_path
from protocol.crypto import MAX_NAME_LEN, Identity, KeyFileError, KeyFileExists, load_identity, save_identity


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", metavar="PATH", help="where to write the key file "
                        "(default: $ASV_HOME/identity.key, else identity.key in the user config folder, "
                        "e.g. ~/.config/asv; asv host/join use it)")
    parser.add_argument("--name", default="", help=f"display name stored with the key (max {MAX_NAME_LEN} chars)")
    parser.add_argument("--force", action="store_true", help="replace an existing key file")


def run(args: argparse.Namespace) -> int:
    path = args.out or user_key_path()
    try:
        saved = save_identity(Identity.generate(args.name), path, force=args.force)
    except KeyFileExists as exc:
        print(f"asv keygen: {exc}; use --force to replace it", file=sys.stderr)
        return 1
    except KeyFileError as exc:
        print(f"asv keygen: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"asv keygen: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    identity = load_identity(saved)  # read back: proves the file is usable
    print(f"fingerprint: {identity.fingerprint}")
    print(f"key file:    {saved}")
    return 0
