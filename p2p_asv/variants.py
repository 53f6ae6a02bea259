"""Game options (SPEC §13): the rulebook's variants that the engine plays, chosen at setup."""
from __future__ import annotations

from dataclasses import dataclass, fields

MAX_TILES_PER_TURN = 3  # the rulebook: never more than three tiles a player a turn


@dataclass(frozen=True)
class Variants:
    nine_planets: bool = False     # Variant 2: nine planets win at once
    role_play: bool = False        # Variant 3: an explorer role dealt face up to each seat
    partnership: bool = False      # Variant 4: seats 0+2 against 1+3, team totals
    advanced: bool = False         # Variant 1: energy points, phases in any order
    tiles_per_turn: int = 0        # 0: the rulebook's 3 (one or two players) or 2
    captain_rookie: bool = False   # Variant 3 extra: Captain Rookie dealt among the roles (SPEC §15.6)

    @classmethod
    def from_config(cls, config: dict | None) -> "Variants":
        """From the session's config map; unknown keys or wrong types are refused (ValueError)."""
        config = dict(config or {})
        known = {f.name: f.type for f in fields(cls)}
        for key, value in config.items():
            if key not in known:
                raise ValueError(f"unknown game option {key!r}; known: {', '.join(sorted(known))}")
            want = int if key == "tiles_per_turn" else bool
            if type(value) is not want:
                raise ValueError(f"game option {key!r} takes a {want.__name__}, not {value!r}")
        variants = cls(**config)
        if variants.captain_rookie and not variants.role_play:
            raise ValueError("captain_rookie is a role-play option: it needs role_play")
        if not 0 <= variants.tiles_per_turn <= MAX_TILES_PER_TURN:
            raise ValueError(f"tiles_per_turn must be 1 to {MAX_TILES_PER_TURN} (0 for the default)")
        return variants

    def to_config(self) -> dict:
        """Only the options that differ from the basic game, so the basic game's config is {}."""
        default = Variants()
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != getattr(default, f.name)}

    def check_players(self, players: int) -> None:
        if self.partnership and players != 4:
            raise ValueError("the partnership variant needs four players")

    def plain(self) -> list:
        return [self.nine_planets, self.role_play, self.partnership, self.tiles_per_turn,
                self.advanced, self.captain_rookie]


TEAMS = ((0, 2), (1, 3))  # partnership: partners sit opposite (SPEC §2.3)


def may_exchange(variants: Variants, a: int, b: int) -> bool:
    """SPEC §13.4: cards never pass between two different seats who are partners."""
    return a != b and not (variants.partnership and (a - b) % 2 == 0)
