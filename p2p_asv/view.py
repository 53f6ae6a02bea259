"""A player's private view (SPEC §10.1): the identities of the handles that player has seen."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class PlayerView:
    seat: int
    known: dict[int, str] = field(default_factory=dict)

    def learn(self, handle: int, name: str) -> None:
        self.known[handle] = name

    def name_of(self, handle: int, public: dict[int, str]) -> str | None:
        """What this player knows `handle` to be: public knowledge first, then private."""
        return public.get(handle) or self.known.get(handle)
