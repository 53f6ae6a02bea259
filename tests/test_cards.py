"""The 138 cards and the 3 Special Quests against the rulebook's counts (SPEC §5)."""
from __future__ import annotations

from collections import Counter

import pytest

from p2p_asv import cards as C
from p2p_asv.cards import (
    CARD_BY_NAME, CARDS, CATEGORIES, REFUEL_DECK, SPACE_PORT_DECK, STARTING_SHIP, BonusCondition,
    Card, UnknownCard, card, cards_of, effective_movement, lookup,
)
from p2p_asv.quests import QUEST_DECK, QUESTS, UnknownQuest, quest


def total(category: str) -> int:
    return sum(c.copies for c in cards_of(category))


def value_split(category: str) -> dict:
    return dict(Counter(c.value for c in cards_of(category) for _ in range(c.copies)))


def names(pred) -> list[str]:
    return [c.name for c in CARDS if pred(c)]


# --- SPEC §5.1 totals and decks -----------------------------------------------------------

def test_category_totals_make_138():
    totals = {cat: total(cat) for cat in CATEGORIES}
    assert totals == {"planet": 30, "environment": 16, "life_form": 30,
                      "special_action": 26, "explorer": 6, "space_ship": 30}
    assert sum(totals.values()) == 138


def test_decks_hold_every_copy_once():
    assert len(REFUEL_DECK) == 108 and len(SPACE_PORT_DECK) == 30
    every = Counter(REFUEL_DECK) + Counter(SPACE_PORT_DECK)
    assert every == Counter({c.name: c.copies for c in CARDS})
    assert all(CARD_BY_NAME[n].category != "space_ship" for n in REFUEL_DECK)
    assert all(CARD_BY_NAME[n].category == "space_ship" for n in SPACE_PORT_DECK)


def test_decks_are_in_a_fixed_order():
    # Copies sit together, card types in CARDS order: peers must agree before shuffling.
    assert REFUEL_DECK[:3] == ("Alystron", "Badzhanyan", "Cephei")
    assert REFUEL_DECK.count("Plasma Spores") == 8
    i = REFUEL_DECK.index("Plasma Spores")
    assert REFUEL_DECK[i:i + 8] == ("Plasma Spores",) * 8
    assert SPACE_PORT_DECK[-4:] == (STARTING_SHIP,) * 4


def test_names_unique_and_typed():
    assert len(CARD_BY_NAME) == len(CARDS) == 113
    assert all(isinstance(c, Card) for c in CARDS)
    for c in CARDS:
        with pytest.raises(AttributeError):
            c.value = 99  # frozen


def test_names_as_printed():
    for n in ("KC's Star", "X'am", "Öorts", "Geo-Gaia", "99% Pure Atmosphere", "Very Cold!",
              "U.F.O.", "The Scavenger", "Gavin's Raiders", "Nano-computer", "Star-T Ship"):
        assert card(n).name == n


# --- SPEC §5.2 planets --------------------------------------------------------------------

def test_planet_values():
    assert value_split("planet") == {1: 3, 2: 22, 3: 4, 4: 1}
    assert sorted(names(lambda c: c.category == "planet" and c.value == 1)) == [
        "Badzhanyan", "Farqhani", "Llemmer"]
    assert sorted(names(lambda c: c.category == "planet" and c.value == 3)) == [
        "Eden One", "Galileo", "Magellan", "Pyrrhis"]
    assert card("Geo-Gaia").value == 4


def test_eleven_home_planets_all_worth_two():
    homes = names(lambda c: c.home_planet)
    assert homes == ["Alystron", "Eridani", "KC's Star", "Mattaimee", "Noraster", "Otto",
                     "Sherco", "Ulurulu", "Valkriegon", "Woden", "X'am"]
    assert {card(h).value for h in homes} == {2}
    assert all(c.category == "planet" for c in CARDS if c.home_planet)


def test_three_base_camps_match_explorer_bonuses():
    camps = {c.name: c.base_camp for c in CARDS if c.base_camp}
    assert camps == {"Sherco": "Dr. Nevets Yahsel", "Valkriegon": "Lord DeWar",
                     "X'am": "Madam Maxine"}
    for planet, explorer in camps.items():
        cond = card(explorer).bonus_condition
        assert cond == BonusCondition(C.BONUS_PLANET_CARD, (planet,))
        assert card(planet).home_planet


# --- SPEC §5.3 environments ---------------------------------------------------------------

def test_environment_values():
    assert value_split("environment") == {2: 2, 1: 2, 0: 5, -1: 5, -2: 2}
    assert sorted(names(lambda c: c.category == "environment" and c.value == 0)) == [
        "Binary System", "Bio-etheric Bubbles", "Electromagnetic Web", "Very Cold!", "Very Hot!"]


def test_life_form_blockers():
    assert names(lambda c: c.blocks_life_form) == ["Gamma Rays", "Poisonous Atmosphere"]
    assert {card(n).value for n in ("Gamma Rays", "Poisonous Atmosphere")} == {-2}


# --- SPEC §5.4 life forms -----------------------------------------------------------------

def test_life_form_values():
    assert value_split("life_form") == {-2: 1, -1: 9, 0: 14, 1: 5, 2: 1}
    assert card("Space Monster").value == -2 and card("Space Capital").value == 2
    assert card("Plasma Spores").copies == 8
    assert names(lambda c: c.many_per_planet) == ["Plasma Spores"]
    others = [c for c in cards_of("life_form") if c.name != "Plasma Spores"]
    assert all(c.copies == 1 for c in others)


def test_four_life_forms_continue():
    assert names(lambda c: c.category == "life_form" and c.continuing) == [
        "Alien Artifact", "Alien Ruins", "Automata", "City of Banks"]
    assert all(card(n).value == 0 for n in ("Alien Artifact", "Alien Ruins", "Automata",
                                            "City of Banks"))


# --- SPEC §5.5 special actions ------------------------------------------------------------

def test_special_actions():
    sa = cards_of("special_action")
    assert len(sa) == 24 and total("special_action") == 26
    assert {c.name: c.copies for c in sa if c.copies != 1} == {"Teleport": 2, "Time Warp": 2}
    assert all(c.value is None for c in sa)


def test_response_and_only_action_cards():
    r = [n for n in REFUEL_DECK if card(n).response]
    assert r == ["Conspiracy", "Peace Talks", "Space Virus", "Teleport", "Teleport",
                 "Time Warp", "Time Warp"]
    assert names(lambda c: c.category == "special_action" and c.only_action) == [
        "Shift of Funds", "Supernova"]
    assert names(lambda c: c.only_action) == ["Shift of Funds", "Supernova", "Laser Beam"]


# --- SPEC §5.6 explorers ------------------------------------------------------------------

def test_explorers():
    ex = {c.name: (c.value, c.bonus_value) for c in cards_of("explorer")}
    assert ex == {"Dr. Nevets Yahsel": (3, 6), "Gavin's Raiders": (5, None),
                  "Giant Meema": (3, 9), "Lord DeWar": (4, 8), "Madam Maxine": (5, 10),
                  "The Kaygus": (6, None)}
    meema = card("Giant Meema").bonus_condition
    assert meema == BonusCondition(C.BONUS_LIFE_FORM, ("Automata", "Society of Robots"))
    assert all(card(n).category == "life_form" for n in meema.names)
    assert card("The Kaygus").played_on == C.ON_OPPONENT_PLANET
    assert all(c.played_on == C.ON_OWN_DISCOVERY for c in cards_of("explorer")
               if c.name != "The Kaygus")


# --- SPEC §5.7 space ships ----------------------------------------------------------------

def test_ship_cards():
    ships = {c.name: (c.copies, c.movement) for c in cards_of("space_ship") if c.is_ship}
    assert ships == {"Star-T Ship": (4, 1), "Scout Ship": (4, 1), "Space Shuttle": (2, 0),
                     "Fighter Ship": (8, 2), "Flying Saucer": (2, 2), "Star Cruiser": (2, 3),
                     "Colony Ship": (1, 4)}
    assert sum(n for n, _ in ships.values()) == 23
    assert set(ships) == set(C.SHIP_NAMES)
    assert card(STARTING_SHIP).movement == 1


def test_ship_extras():
    extras = [c for c in cards_of("space_ship") if c.ship_extra]
    assert [c.name for c in extras] == ["Captain Rookie", "Flash-jets", "Fleet Admiral",
                                        "Laser Beam", "Nano-computer", "Photon Torpedo",
                                        "Pirate Crew"]
    assert all(c.copies == 1 and c.movement is None and c.continuing for c in extras)
    assert card("Laser Beam").fits == card("Photon Torpedo").fits == ("Fighter Ship",
                                                                      "Star Cruiser")
    assert "Space Shuttle" not in card("Captain Rookie").fits
    assert "Colony Ship" not in card("Flash-jets").fits
    assert all(set(c.fits) <= set(C.SHIP_NAMES) for c in extras)


def test_deep_space_and_path_only_ships():
    assert names(lambda c: c.deep_space_stop) == ["Flying Saucer", "Scout Ship"]
    assert names(lambda c: c.path_only) == ["Space Shuttle"]


def test_effective_movement():
    assert effective_movement("Colony Ship", ("Captain Rookie",)) == 3
    assert effective_movement("Star-T Ship", ("Captain Rookie",)) == 0
    assert effective_movement("Star Cruiser", ("Flash-jets",)) == 4
    assert effective_movement("Fighter Ship", ("Flash-jets", "Captain Rookie")) == 2
    with pytest.raises(ValueError, match="cannot be attached"):
        effective_movement("Colony Ship", ("Flash-jets",))
    with pytest.raises(ValueError, match="cannot be attached"):
        effective_movement("Space Shuttle", ("Captain Rookie",))
    with pytest.raises(ValueError, match="not a ship"):
        effective_movement("Laser Beam")


def test_continuing_cards_are_life_forms_and_extras_only():
    cats = {c.category for c in CARDS if c.continuing}
    assert cats == {"life_form", "space_ship"}
    assert not card("Electromagnetic Web").continuing  # SPEC §5.3 Decision


# --- lookups and validation ---------------------------------------------------------------

def test_card_lookup_errors_say_why():
    with pytest.raises(UnknownCard, match="no card named 'teleport'; did you mean 'Teleport'"):
        card("teleport")
    with pytest.raises(KeyError):
        card("Pluto")


def test_forgiving_lookup():
    assert lookup("oorts").name == "Öorts"
    assert lookup("kc\u2019s star").name == "KC's Star"
    assert lookup("kaygus").name == "The Kaygus"
    with pytest.raises(UnknownCard, match="ambiguous"):
        lookup("Star")
    with pytest.raises(UnknownCard, match="no card"):
        lookup("Pluto")


def test_bad_cards_are_refused():
    with pytest.raises(ValueError, match="category"):
        Card("X", "weapon", None)
    with pytest.raises(ValueError, match="value must be an int"):
        Card("X", "planet", None)
    with pytest.raises(ValueError, match="only planets"):
        Card("X", "life_form", 0, home_planet=True)
    with pytest.raises(ValueError, match="ship with movement or an extra"):
        Card("X", "space_ship", None)
    with pytest.raises(ValueError, match="go together"):
        Card("X", "explorer", 1, bonus_value=2, played_on=C.ON_OWN_DISCOVERY)
    with pytest.raises(ValueError, match="category"):
        cards_of("weapon")


def test_every_card_with_rules_text_has_an_effect():
    for c in CARDS:
        if c.category in ("special_action", "explorer") or c.continuing or c.blocks_life_form:
            assert c.effect, c.name


# --- SPEC §5.8 quests ---------------------------------------------------------------------

def test_quests():
    assert QUEST_DECK == ("Peace Mission", "Strong Empire", "Trade Mission")
    assert quest("Peace Mission").score() == 5
    assert quest("Strong Empire").score() == 5
    assert quest("Strong Empire").sector_planets == 6
    assert quest("Trade Mission").score(path_tiles=4) == 4
    with pytest.raises(ValueError, match="at least 2"):
        quest("Trade Mission").score(path_tiles=1)
    with pytest.raises(UnknownQuest, match="no Special Quest"):
        quest("Pluto")
    assert all(q.description for q in QUESTS)
