"""The board (SPEC §50): every space of the flight path in order, the orbits and their black
dots, and the moves over them. The rulebook does not print the board; this is the design.

Spaces are numbered 0…N−1 along the white arrows, Earth is 0, and the numbers are the
notation (`fire 31`). White arrows are not spaces. A system with an orbit is a ring of
orbit spaces followed by its black dots; Earth and Venus have black dots but no orbit.
"""
from __future__ import annotations

from dataclasses import dataclass

from .deeds import DEED_BY_SLUG

EARTH = 0

# Blue-dot instructions (SPEC §50.3): (kind, amount).
NONE, PAY, COLLECT, TOKEN, FIRE, TO_EARTH, TO_DOCK, CLAIM = (
    "drift", "pay", "collect", "token", "fire", "to-earth", "to-dock", "claim")


@dataclass(frozen=True)
class Space:
    index: int
    kind: str                    # earth, planet, moon, dock, station, blue, dot
    name: str
    system: str | None           # the planetary system whose orbit (or dots) it is in
    deed: int | None = None      # the deed sold here
    order: tuple = ()            # a blue dot's instruction (kind, amount), a station's (cash, tokens)


# The flight path as (system, [items]); an item is a deed slug, ("blue", kind, amount),
# ("station", name, cash, tokens), ("dots", k) or "earth". A system whose name is in
# ORBITS has an orbit: its items before the dots form the ring.
_PATH = (
    ("earth", ["earth", ("dots", 2)]),
    (None, [("blue", NONE, 0), ("station", "Lunar Base", 100, 1), "sunward-dock", ("blue", PAY, 50)]),
    ("mercury", ["mercury", ("blue", PAY, 100), ("dots", 2)]),
    (None, [("blue", COLLECT, 100)]),
    ("venus", ["venus", ("dots", 2)]),
    (None, [("blue", TOKEN, 1), ("station", "Venus Relay", 100, 1)]),
    ("mars", ["mars", "phobos", ("blue", NONE, 0), "deimos", ("dots", 2)]),
    (None, [("blue", PAY, 200), "belt-dock", ("blue", FIRE, 0), ("station", "Ceres Station", 200, 0)]),
    ("jupiter", ["jupiter", "io", "europa", ("station", "Jovian Station", 0, 1), "ganymede", "callisto",
                 "amalthea", ("blue", NONE, 0), ("dots", 3)]),
    (None, [("blue", TO_DOCK, 0)]),
    ("saturn", ["saturn", "titan", "rhea", ("blue", PAY, 150), "iapetus", "dione",
                ("station", "Cassini Station", 100, 1), "tethys", ("dots", 3)]),
    (None, [("blue", NONE, 0), "ring-dock", ("blue", COLLECT, 200)]),
    ("uranus", ["uranus", "titania", "oberon", ("blue", FIRE, 0), "umbriel", "ariel", "miranda", ("dots", 3)]),
    (None, [("station", "Herschel Station", 100, 1), ("blue", CLAIM, 0)]),
    ("neptune", ["neptune", "triton", "nereid", ("blue", NONE, 0), "proteus", "larissa", ("dots", 2)]),
    (None, [("blue", PAY, 100)]),
    ("pluto", ["pluto", "charon", ("blue", NONE, 0), "nix", "hydra", ("dots", 2)]),
    (None, ["kuiper-dock", ("station", "Outer Rim Station", 300, 0), ("blue", TO_EARTH, 0), ("blue", NONE, 0)]),
)
NO_ORBIT = ("earth", "venus")   # SPEC §50.2: black dots but no orbit: a short roll lands on the planet


def _build():
    spaces: list[Space] = []
    rings: dict[str, tuple[int, ...]] = {}
    dots: dict[str, int] = {}
    for system, items in _PATH:
        ring: list[int] = []
        for item in items:
            i = len(spaces)
            if item == "earth":
                spaces.append(Space(i, "earth", "Earth", system))
                ring.append(i)
            elif isinstance(item, str):
                deed = DEED_BY_SLUG[item]
                spaces.append(Space(i, deed.kind, deed.name, system, deed.index))
                ring.append(i)
            elif item[0] == "dots":
                dots[system] = item[1]
                for k in range(item[1]):
                    spaces.append(Space(i + k, "dot", f"{system} black dot {k + 1}", system))
            elif item[0] == "blue":
                spaces.append(Space(i, "blue", "blue dot", system, None, (item[1], item[2])))
                ring.append(i)
            else:
                spaces.append(Space(i, "station", item[1], system, None, (item[2], item[3])))
                ring.append(i)
        if system is not None:
            rings[system] = tuple(ring)
    return tuple(spaces), rings, dots


SPACES, RINGS, DOT_COUNT = _build()
N_SPACES = len(SPACES)
DEED_SPACE = {s.deed: s.index for s in SPACES if s.deed is not None}
AMALTHEA = DEED_SPACE[DEED_BY_SLUG["amalthea"].index]
DOCK_SPACES = tuple(s.index for s in SPACES if s.kind == "dock")
STATION_SPACES = tuple(s.index for s in SPACES if s.kind == "station")
# The last orbit space of a system with an orbit, and the planet of a system without one:
# the space from which a ship must be able to clear every black dot or stay (SPEC §50.2).
_GATE = {RINGS[s][-1]: s for s in RINGS if s not in NO_ORBIT} | {RINGS[s][0]: s for s in NO_ORBIT}
assert AMALTHEA + 1 == RINGS["jupiter"][-1] and SPACES[AMALTHEA + 1].kind == "blue"


@dataclass(frozen=True)
class Walk:
    end: int
    passed_earth: int      # times the ship moved onto Earth on the way (pays $500 each)
    pulled_back: bool      # stopped on Earth or Venus by their black dots: must land


def walk(start: int, steps: int) -> Walk:
    """Move `steps` spaces from `start` by the rules of black dots (SPEC §50.2)."""
    pos, passed = start, 0
    while steps > 0:
        system = _GATE.get(pos)
        if system is not None and steps < DOT_COUNT[system] + 1:
            if system in NO_ORBIT:
                return Walk(pos, passed, True)      # cannot clear the dots: back onto the planet
            pos = RINGS[system][0]                  # cannot clear the dots: round the orbit again
        else:
            pos = (pos + 1) % N_SPACES
        steps -= 1
        if pos == EARTH:
            passed += 1
    return Walk(pos, passed, False)


def next_of_kind(start: int, kind: str) -> tuple[int, bool]:
    """The next space of `kind` straight ahead (a blue dot's jump), and whether it passes Earth."""
    pos, passed = start, False
    while True:
        pos = (pos + 1) % N_SPACES
        passed = passed or pos == EARTH
        if SPACES[pos].kind == kind:
            return pos, passed


def _neighbours() -> tuple[tuple[int, ...], ...]:
    near = [{(i - 1) % N_SPACES, (i + 1) % N_SPACES} for i in range(N_SPACES)]
    for system, ring in RINGS.items():
        if system not in NO_ORBIT:          # the orbit closes: its last space touches its first
            near[ring[-1]].add(ring[0])
            near[ring[0]].add(ring[-1])
    return tuple(tuple(sorted(n)) for n in near)


NEIGHBOURS = _neighbours()


def distance_at_most_one(a: int, b: int) -> int | None:
    """0 on the same space, 1 next to it along the path or across an orbit's closing, else None."""
    if a == b:
        return 0
    return 1 if b in NEIGHBOURS[a] else None
