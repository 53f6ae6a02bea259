"""A player's private view (SPEC §53.1): the identities of the mission handles it was dealt."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class PlayerView:
    seat: int
    known: dict[int, str] = field(default_factory=dict)

    def learn(self, handle: int, name: str) -> None:
        self.known[handle] = name

    def mission(self, state) -> str | None:
        """What this seat's own mission card is, if it holds one it has seen."""
        handle = state.hand[self.seat]
        return state.names.get(handle) or self.known.get(handle)
