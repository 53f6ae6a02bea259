"""The variant options shared by the commands that start a game (SPEC §13)."""
from __future__ import annotations

from p2p_asv.variants import Variants

FLAGS = {"nine-planets": "nine_planets", "role-play": "role_play", "partnership": "partnership",
         "advanced": "advanced", "captain-rookie": "captain_rookie"}


def add_variant_arguments(parser) -> None:
    parser.add_argument("--variant", action="append", default=[], choices=sorted([*FLAGS, "action-cards"]),
                        help="play a rulebook variant (repeat for several); space-walk: action-cards")
    parser.add_argument("--tiles-per-turn", type=int, default=None, choices=range(1, 4), metavar="N",
                        help="tiles drawn a turn, 1-3 (default: the rulebook's 3 or 2)")


def config_from(args) -> dict:
    """The engine's config map; refuses impossible combinations with a clear message."""
    if getattr(args, "game", "asv") == "space-walk":
        from cli.games import space_walk_config
        return space_walk_config(args.variant, args.tiles_per_turn)
    if "action-cards" in args.variant:
        raise SystemExit("asv: --variant action-cards is a Space Walk variant (add --game space-walk)")
    config = {FLAGS[name]: True for name in args.variant}
    if args.tiles_per_turn:
        config["tiles_per_turn"] = args.tiles_per_turn
    try:
        variants = Variants.from_config(config)
        players = getattr(args, "players", None) or getattr(args, "seats", None)
        if players:
            variants.check_players(players)
    except ValueError as exc:
        raise SystemExit(f"asv: {exc}") from None
    return variants.to_config()
