"""Entry point of the `asv` command: one subcommand per module in cli/commands/, registered below."""
from __future__ import annotations

import argparse
import importlib
import os
import re
import sys

from cli.errors import UserError
from cli.version import version_line

# Exit code after the reader of our output went away (`asv log show LOG | head`): the
# code of a process ended by SIGPIPE, as `cat` would end (SPEC §27.6).
EXIT_CLOSED_PIPE = 141
# Exit code after Ctrl-C in a command that has no more to say about it (selfplay, demo,
# verify...): the shell's 128 + SIGINT (SPEC §30).
EXIT_INTERRUPTED = 130

# name -> module in cli/commands/ that defines add_arguments(parser) and run(args) -> int
COMMANDS = {
    "selfplay": "selfplay",
    "demo": "demo",
    "catalog": "catalog",
    "keygen": "keygen",
    "verify": "verify",
    "log": "log",
    "replay": "replay",
    "play": "play",
    "learn": "learn",
    "host": "host",
    "join": "join",
}


def summary(doc: str | None) -> str | None:
    """A command's line in `asv --help`: the first sentence of its docstring's first
    paragraph, whole (its first source line alone stopped mid-sentence)."""
    if not doc:
        return None
    paragraph = " ".join(doc.strip().split("\n\n")[0].split())
    m = re.match(r"(.+?[.!?])(\s|$)", paragraph)
    return m.group(1) if m else paragraph


class VersionAction(argparse.Action):
    """argparse's "version" action, but the line (which hashes the lock and reads every pinned
    package's metadata) is made only when asked for."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(version_line())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="asv", description="Peer-to-peer Amazing Space Venture")
    parser.add_argument("--version", action=VersionAction, nargs=0,
                        help="the program's version and the hash of its lock file (SPEC §30.1)")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(f"cli.commands.{module_name}")
        p = sub.add_parser(name, help=summary(module.__doc__), description=summary(module.__doc__))
        module.add_arguments(p)
        p.set_defaults(_module=module)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        parser = build_parser()   # inside: on a loaded machine the imports take seconds
        if not argv:   # `asv` alone: what a newcomer types first gets the commands, not an error
            parser.print_help()
            return 0
        args = parser.parse_args(argv)
        return args._module.run(args) or 0
    except UserError as exc:   # what the user typed or chose is refused: its message, no traceback
        print(exc, file=sys.stderr)
        return exc.code
    except BrokenPipeError:
        # The reader closed the pipe: stop quietly. Point stdout at /dev/null so the
        # interpreter's final flush does not raise a second time.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):     # stdout without a descriptor (captured in tests)
            pass
        return EXIT_CLOSED_PIPE
    except KeyboardInterrupt:   # host/join/play say more themselves; the rest stop here, one line
        print("asv: interrupted (Ctrl-C); stopped", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
