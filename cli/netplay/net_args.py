"""Options shared by `asv host` and `asv join` (SPEC §29.8 lists the defaults)."""
from __future__ import annotations

from cli.arg_checks import port_number, positive_seconds
from cli.games import all_bot_kinds, default_kit
from cli.repl.flags import add_auto_pass, add_plain   # not the REPL: no prompt_toolkit for a bot seat
from protocol.node import DEFAULT_TIMEOUT

DEFAULT_LISTEN = "0.0.0.0"   # every interface: a game on a LAN


def listen_host(args) -> str:
    """The address to listen on: --listen as given, else the default (SPEC §29.8)."""
    return getattr(args, "listen", None) or DEFAULT_LISTEN


def add_common(parser) -> None:
    parser.add_argument("--name", default="", help="your display name in the game (max 64 chars)")
    parser.add_argument("--key", metavar="PATH", default=None,
                        help="identity key file (asv keygen); default: your key in the user config "
                             "folder, made on first use")
    parser.add_argument("--new-key", action="store_true",
                        help="a throwaway key for this game only (e.g. a second seat on one machine)")
    parser.add_argument("--log-dir", metavar="DIR", default="asv-logs",
                        help="where this peer writes its .asvlog and .secrets (default ./asv-logs)")
    parser.add_argument("--bot", choices=sorted(all_bot_kinds()), default=None,
                        help="play this seat with a bot instead of the REPL")
    parser.add_argument("--timeout", type=positive_seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"abort the game when the peer due to write is silent this long "
                             f"(default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--port", type=port_number, default=0, metavar="P",
                        help="port to listen on, 1-65535 (default: any free)")
    parser.add_argument("--listen", default=None, metavar="HOST",
                        help=f"address to listen on (default {DEFAULT_LISTEN}: every interface; 127.0.0.1: "
                             "this machine only; a resume: where this seat listened before)")
    parser.add_argument("--advertise", default=None, metavar="HOST",
                        help="address others should dial, printed in the invite (default: this "
                             "machine's LAN address, or --listen when it names one)")
    parser.add_argument("--no-color", action="store_true", help="plain text in the REPL")
    add_auto_pass(parser)
    add_plain(parser)
    parser.add_argument("--quiet", action="store_true", help="no turn-by-turn progress lines")
    parser.add_argument("--verbose", action="store_true",
                        help="a progress line for every setup step (each deck shuffle), not one a stage")
    think = default_kit().default_think
    parser.add_argument("--think", type=float, default=think, metavar="S",
                        help=f"seconds a search bot thinks a decision (default {think:g})")
    parser.add_argument("--seed", default=None, metavar="S",
                        help="seed of the bots' choices (the deals are always fresh, from the joint shuffle)")
    parser.add_argument("--timings", metavar="FILE", default=None, help="write event timings as JSON (benchmarks)")

