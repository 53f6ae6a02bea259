"""The variant options shared by the commands that start a game (SPEC §13, §34): `--variant`
takes the variants of every registered game, each kit adds its own options, and the chosen
game's kit turns them into its engine config."""
from __future__ import annotations

from cli.errors import UserError
from cli.games import all_kits, game_of


def add_variant_arguments(parser) -> None:
    kits = all_kits()
    names = sorted({name for kit in kits for name in kit.variants})
    others = "; ".join(f"{kit.key}: {', '.join(kit.variants)}" for kit in kits[1:] if kit.variants)
    parser.add_argument("--variant", action="append", default=[], choices=names,
                        help="play a rulebook variant (repeat for several)" + (f"; {others}" if others else ""))
    for kit in kits:
        kit.add_options(parser)


def _a(title: str) -> str:
    return ("an " if title[:1] in "AEIOU" else "a ") + title


def config_from(args) -> dict:
    """The chosen game's engine config; refuses another game's variant or option, and
    impossible combinations, with a clear message (UserError)."""
    kit = game_of(args)
    for name in args.variant:
        if name not in kit.variants:
            owner = next(k for k in all_kits() if name in k.variants)
            raise UserError(f"asv: --variant {name} is {_a(owner.title)} variant (add --game {owner.key})")
    for other in all_kits():
        for flag, dest in getattr(other, "options", {}).items():
            if other is not kit and getattr(args, dest, None):
                raise UserError(f"asv: {flag} is {_a(other.title)} option (add --game {other.key})")
    players = getattr(args, "players", None) or getattr(args, "seats", None)
    return kit.config_from(args.variant, args, players)
