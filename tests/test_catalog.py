"""The catalogue (SPEC §5.9) and `asv catalog`."""
from __future__ import annotations

import json

import pytest

from cli.main import main
from p2p_asv.catalog import card_entries, catalog, quest_entries

CARD_KEYS = {"name", "category", "value", "copies", "home_planet", "effect", "response",
             "only_action", "continuing", "movement", "ship_extra", "bonus_value",
             "bonus_condition", "base_camp"}
TILE_KEYS = {"id", "kind", "copies", "planets", "galaxy", "path_shape", "wormhole", "black_hole"}


def test_card_entries_shape():
    entries = card_entries()
    assert len(entries) == 113
    assert sum(e["copies"] for e in entries) == 138
    for e in entries:
        assert CARD_KEYS <= set(e)
        assert isinstance(e["home_planet"], bool)
        assert e["home_planet"] is False or e["category"] == "planet"
    assert sum(e["home_planet"] for e in entries) == 11
    maxine = next(e for e in entries if e["name"] == "Madam Maxine")
    assert maxine["bonus_condition"] == {"kind": "planet_card", "names": ["X'am"]}


def test_quest_entries():
    assert [q["name"] for q in quest_entries()] == ["Peace Mission", "Strong Empire",
                                                   "Trade Mission"]


def test_catalog_round_trips_and_is_deterministic():
    data = catalog()
    assert set(data) == {"cards", "quests", "tiles"}
    text = json.dumps(data, sort_keys=True)
    assert json.loads(text) == data
    assert json.dumps(catalog(), sort_keys=True) == text


def test_catalog_tiles():
    tiles_mod = pytest.importorskip("p2p_asv.tiles")
    tiles = catalog()["tiles"]
    assert [t["id"] for t in tiles] == [t.id for t in tiles_mod.TILES]
    for t in tiles:
        assert TILE_KEYS <= set(t)
        assert all(isinstance(v, int) for v in t["planets"])
        assert isinstance(t["galaxy"], bool)
    assert sum(t["copies"] for t in tiles) == 88
    assert sum(t["copies"] for t in tiles if t["wormhole"]) == 2
    assert sum(t["copies"] for t in tiles if t["black_hole"]) == 1


def test_asv_catalog_json(capsys):
    pytest.importorskip("p2p_asv.tiles")
    assert main(["catalog", "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1  # one line
    data = json.loads(out)
    assert data == json.loads(json.dumps(catalog()))
    assert sum(c["copies"] for c in data["cards"]) == 138
    assert out.strip() == json.dumps(data, sort_keys=True, separators=(",", ":"))


def test_asv_catalog_table(capsys):
    pytest.importorskip("p2p_asv.tiles")
    assert main(["catalog"]) == 0
    out = capsys.readouterr().out
    assert "Planets (30 cards)" in out and "Space ship cards (30 cards)" in out
    assert "Teleport" in out and "R" in out.split("Teleport")[1].splitlines()[0]
    assert "Special Quests (3)" in out
    assert "Tiles (88 tiles" in out
