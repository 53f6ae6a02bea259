"""The static catalogue of cards and tiles as plain JSON-ready data (SPEC §5.9)."""
from __future__ import annotations

from .cards import CARDS
from .quests import QUESTS


def card_entries() -> list[dict]:
    """One dict per card type, in CARDS order (SPEC §5.9)."""
    return [c.to_dict() for c in CARDS]


def quest_entries() -> list[dict]:
    """One dict per Special Quest, in QUEST_DECK order (SPEC §5.8)."""
    return [q.to_dict() for q in QUESTS]


def tile_entries() -> list[dict]:
    """One dict per tile type, in TILES order (SPEC §5.9)."""
    # Imported here so that the card half of the catalogue does not depend on the tile set.
    from .tile_model import GALAXY
    from .tiles import TILES

    out = []
    for t in TILES:
        out.append({
            "id": t.id,
            "kind": t.kind,
            "copies": t.copies,
            "sides": "".join(t.sides),
            "planets": list(t.planets),
            "galaxy": bool(t.galaxies) or GALAXY in t.sides,
            "path_shape": t.path_shape,
            "paths": len(t.paths),
            "wormhole": t.wormhole,
            "black_hole": t.black_hole,
            "home_colour": t.home_colour,
        })
    return out


def catalog() -> dict:
    """{"cards": [...], "quests": [...], "tiles": [...]}: deterministic and JSON-serialisable."""
    return {"cards": card_entries(), "quests": quest_entries(), "tiles": tile_entries()}
