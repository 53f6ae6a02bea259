"""The 36 deed cards (SPEC §51): 32 planets and moons in eight planetary systems, and the
four Fuel Docks. The rulebook prints only one row (Ganymede: 140 alone, 400 with Io and
Amalthea); the rest is the project's design, kept as data here and in SPEC §51.
"""
from __future__ import annotations

from dataclasses import dataclass

# Rent for owning n deeds of a planetary group = the deed's base rent × RENT_LADDER[n-1] / 100,
# rounded to the nearest 10. The ladder is fixed by the printed row: 140 × 2.86 = 400.
RENT_LADDER = (100, 180, 286, 400, 535, 715)

# A Fuel Dock's fee is the landing player's second roll times this, by docks the owner holds.
DOCK_MULTIPLIERS = (10, 25, 50, 100)
DOCK_PRICE = 500

# (group, colour, [(name, kind, price, base rent)]) in board order; a planet first.
_SYSTEMS = (
    ("mercury", "grey", [("Mercury", "planet", 200, 50)]),
    ("venus", "yellow", [("Venus", "planet", 280, 70)]),
    ("mars", "red", [("Mars", "planet", 400, 100), ("Phobos", "moon", 320, 80), ("Deimos", "moon", 320, 80)]),
    ("jupiter", "orange", [("Jupiter", "planet", 600, 150), ("Io", "moon", 520, 130), ("Europa", "moon", 520, 130),
                           ("Ganymede", "moon", 560, 140), ("Callisto", "moon", 560, 140),
                           ("Amalthea", "moon", 440, 110)]),
    ("saturn", "tan", [("Saturn", "planet", 640, 160), ("Titan", "moon", 600, 150), ("Rhea", "moon", 560, 140),
                       ("Iapetus", "moon", 560, 140), ("Dione", "moon", 520, 130), ("Tethys", "moon", 520, 130)]),
    ("uranus", "cyan", [("Uranus", "planet", 680, 170), ("Titania", "moon", 640, 160), ("Oberon", "moon", 640, 160),
                        ("Umbriel", "moon", 600, 150), ("Ariel", "moon", 600, 150), ("Miranda", "moon", 560, 140)]),
    ("neptune", "blue", [("Neptune", "planet", 720, 180), ("Triton", "moon", 680, 170), ("Nereid", "moon", 640, 160),
                         ("Proteus", "moon", 600, 150), ("Larissa", "moon", 600, 150)]),
    ("pluto", "purple", [("Pluto", "planet", 800, 200), ("Charon", "moon", 720, 180), ("Nix", "moon", 680, 170),
                         ("Hydra", "moon", 680, 170)]),
)
DOCK_NAMES = ("Sunward Dock", "Belt Dock", "Ring Dock", "Kuiper Dock")
PLANET_GROUPS = tuple(g for g, _, _ in _SYSTEMS)
GROUPS = PLANET_GROUPS + ("docks",)
GROUP_COLOURS = {g: c for g, c, _ in _SYSTEMS} | {"docks": "white"}


def _ladder_rent(base: int, step: int) -> int:
    """base × step / 100, rounded to the nearest 10 (integers only)."""
    return (base * step + 500) // 1000 * 10


def _slug(name: str) -> str:
    return name.lower().replace(" ", "-")


@dataclass(frozen=True)
class Deed:
    index: int
    slug: str
    name: str
    group: str
    kind: str                 # "planet", "moon" or "dock"
    price: int
    rents: tuple[int, ...]    # by number of the group owned (1, 2, ...); for a dock, the multipliers


def _build() -> tuple[Deed, ...]:
    deeds: list[Deed] = []
    for group, _, members in _SYSTEMS:
        for name, kind, price, base in members:
            rents = tuple(_ladder_rent(base, step) for step in RENT_LADDER[:len(members)])
            deeds.append(Deed(len(deeds), _slug(name), name, group, kind, price, rents))
    for name in DOCK_NAMES:
        deeds.append(Deed(len(deeds), _slug(name), name, "docks", "dock", DOCK_PRICE, DOCK_MULTIPLIERS))
    return tuple(deeds)


DEEDS = _build()
DEED_BY_SLUG = {d.slug: d for d in DEEDS}
GROUP_DEEDS = {g: tuple(d.index for d in DEEDS if d.group == g) for g in GROUPS}
assert len(DEEDS) == 36


def rent(deed: Deed, owned_in_group: int) -> int:
    """Rent of a planet or moon whose owner holds `owned_in_group` deeds of its group."""
    return deed.rents[owned_in_group - 1]
