"""The 20 mission cards (SPEC §53.3). Each is a condition anyone can check from public state
at the moment its holder claims it: deeds held, Federons, laser tokens, the public counts of
laps and laser hits, and where the holder's ship rests (landed, not bypassed). The rulebook
names one card, "Invented a new force field"; the other nineteen are the project's design.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .board import EARTH, RINGS, SPACES, STATION_SPACES
from .deeds import DEED_BY_SLUG, DEEDS, PLANET_GROUPS
from .state import State

FORCE_FIELD = "force-field"


def _on(state: State, seat: int, spaces) -> bool:
    return state.landed[seat] and state.pos[seat] in spaces


def _in_system(system: str) -> tuple[int, ...]:
    return RINGS[system]


def _owns(state: State, seat: int, *slugs: str) -> bool:
    return all(state.owner[DEED_BY_SLUG[s].index] == seat for s in slugs)


def _kind_count(state: State, seat: int, kind: str) -> int:
    return sum(1 for d in state.deeds_of(seat) if DEEDS[d].kind == kind)


def _group_mission(group: str, need: int) -> Callable[[State, int], bool]:
    return lambda st, s: st.count_in_group(s, group) >= need and _on(st, s, _in_system(group))


@dataclass(frozen=True)
class Mission:
    slug: str
    title: str
    text: str
    check: Callable[[State, int], bool]


MISSIONS = (
    Mission(FORCE_FIELD, "Invented a new force field",
            "Survive a laser shot of double six fired at your ship: you win at once.",
            lambda st, s: False),
    Mission("red-planet", "Colonize the red planet",
            "Own Mars and one of its moons and rest on Mars.",
            lambda st, s: _owns(st, s, "mars") and st.count_in_group(s, "mars") >= 2
            and _on(st, s, (SPACES_BY_DEED["mars"],))),
    Mission("fuel-baron", "Fuel baron", "Own three Fuel Docks.",
            lambda st, s: st.count_in_group(s, "docks") >= 3),
    Mission("jovian-court", "The Jovian court", "Own three deeds of Jupiter and rest in Jupiter's orbit.",
            _group_mission("jupiter", 3)),
    Mission("ring-lord", "Lord of the rings", "Own three deeds of Saturn and rest in Saturn's orbit.",
            _group_mission("saturn", 3)),
    Mission("sky-father", "The sky father", "Own three deeds of Uranus and rest in Uranus's orbit.",
            _group_mission("uranus", 3)),
    Mission("sea-king", "King of the blue sea", "Own two deeds of Neptune and rest in Neptune's orbit.",
            _group_mission("neptune", 2)),
    Mission("frontier", "The last frontier", "Own two deeds of Pluto and rest in Pluto's orbit.",
            _group_mission("pluto", 2)),
    Mission("inner-circuit", "The inner circuit", "Own Mercury and Venus and rest on Venus.",
            lambda st, s: _owns(st, s, "mercury", "venus") and _on(st, s, (SPACES_BY_DEED["venus"],))),
    Mission("treasury", "Federation treasury", "Hold $3000 in Federons and rest on Earth.",
            lambda st, s: st.cash[s] >= 3000 and _on(st, s, (EARTH,))),
    Mission("tycoon", "Tycoon", "Own eleven deeds.", lambda st, s: len(st.deeds_of(s)) >= 11),
    Mission("grand-tour", "The grand tour", "Own a deed in six different planetary systems and rest on Earth.",
            lambda st, s: sum(1 for g in PLANET_GROUPS if st.count_in_group(s, g)) >= 6 and _on(st, s, (EARTH,))),
    Mission("arsenal", "The arsenal", "Hold five laser tokens and rest on a Federation Station.",
            lambda st, s: st.tokens[s] >= 5 and _on(st, s, STATION_SPACES)),
    Mission("sharpshooter", "Sharpshooter", "Damage an opposing ship with a laser shot and rest on a Federation Station.",
            lambda st, s: st.hits[s] >= 1 and _on(st, s, STATION_SPACES)),
    Mission("land-baron", "Land baron", "Own deeds with a face value of $7000 or more.",
            lambda st, s: st.deed_value(s) >= 7000),
    Mission("moon-walker", "Moon walker", "Own eight moons.", lambda st, s: _kind_count(st, s, "moon") >= 8),
    Mission("planet-hopper", "Planet hopper", "Own four planets and rest on a planet.",
            lambda st, s: _kind_count(st, s, "planet") >= 4 and _on(st, s, PLANET_SPACES)),
    Mission("voyager", "Voyager", "Complete three laps (move onto Earth three times) and rest on Earth.",
            lambda st, s: st.laps[s] >= 3 and _on(st, s, (EARTH,))),
    Mission("gas-giants", "The gas giants", "Own the planets Jupiter and Saturn and rest on either.",
            lambda st, s: _owns(st, s, "jupiter", "saturn")
            and _on(st, s, (SPACES_BY_DEED["jupiter"], SPACES_BY_DEED["saturn"]))),
    Mission("outlast", "Outlast", "Own five deeds after at least one other ship has left the game.",
            lambda st, s: len(st.deeds_of(s)) >= 5 and not all(st.alive)),
)
PLANET_SPACES = tuple(sp.index for sp in SPACES if sp.kind == "planet")
SPACES_BY_DEED = {DEEDS[sp.deed].slug: sp.index for sp in SPACES if sp.deed is not None}
MISSION_BY_SLUG = {m.slug: m for m in MISSIONS}
MISSION_SLUGS = tuple(m.slug for m in MISSIONS)
assert len(MISSIONS) == 20 and len(MISSION_BY_SLUG) == 20


def completed(state: State, seat: int, slug: str) -> bool:
    """Whether `seat` meets mission `slug` now (never true of the force field: it reacts)."""
    return state.alive[seat] and MISSION_BY_SLUG[slug].check(state, seat)
