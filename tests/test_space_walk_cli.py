"""`asv ... --game space-walk`: selfplay, catalog, and the log tools reading the game from the
log (SPEC §47)."""
from __future__ import annotations

import json
import re

import pytest

from cli.games import game_of_log
from cli.main import main
from cli.games.space_walk.adapter import SpaceWalkRules
from protocol.session import CHANCE, GameRuleError


def lines(capsys) -> list[dict]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_selfplay_plays_every_seat_count_to_the_end(players, capsys):
    args = ["selfplay", "--game", "space-walk", "--players", str(players), "--games", "2", "--seed", "4",
            "--bots", "random", "--json"]
    assert main(args) == 0
    first = lines(capsys)
    assert main(args) == 0
    assert lines(capsys) == first                      # same arguments, same games
    assert [g["seed"] for g in first] == [4, 5]
    for game in first:
        assert len(game["scores"]) == players and 0 in game["scores"] and game["winners"]
        assert "no ship left" in game["end"] and game["variant"] == "basic"


def test_selfplay_action_cards_and_mixed_bots(capsys):
    assert main(["selfplay", "--game", "space-walk", "--players", "3", "--variant", "action-cards",
                 "--bots", "greedy,random,greedy", "--seed", "1"]) == 0
    game, = lines(capsys)
    assert game["variant"] == "action-cards" and game["bots"] == ["greedy", "random", "greedy"]


@pytest.mark.parametrize("args, message", [
    (["--game", "space-walk", "--players", "6"], "2 to 5 players"),
    (["--game", "space-walk", "--players", "2", "--variant", "advanced"], "is an Amazing Space Venture variant \\(add --game asv\\)"),
    (["--players", "2", "--variant", "action-cards"], "add --game space-walk"),
    (["--game", "space-walk", "--players", "2", "--bots", "clever"], "unknown bot"),
])
def test_selfplay_refuses_what_the_game_does_not_have(args, message, capsys):
    assert main(["selfplay", *args]) == 1   # a UserError: its message, no traceback
    assert re.search(message, capsys.readouterr().err)


def test_catalog_json(capsys):
    assert main(["catalog", "--game", "space-walk", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "space-walk"
    assert [(o["squares"], o["black_holes"]) for o in data["orbits"]] == [(14, [7, 14]), (21, [7, 14, 21])]
    assert [(s["size"], s["points"], s["per_player"]) for s in data["ships"]] == [("L", 4, 3), ("M", 3, 3), ("S", 1, 3)]
    assert sum(c["copies"] for c in data["action_cards"]) == 8
    assert data["tokens"]["per_player"] == {"2": 4, "3": 4, "4": 4, "5": 3}
    assert main(["catalog", "--game", "space-walk"]) == 0
    assert "black holes on 7, 14, 21" in capsys.readouterr().out


def test_adapter_refuses_chance_and_uncanonical_text():
    rules = SpaceWalkRules()
    state = rules.new_state(2, {})
    assert rules.deck_labels() == () and rules.to_move(state) == 0
    for text in ("place L 05", "place  L 5", "draw-tile 1"):
        with pytest.raises(GameRuleError):
            rules.apply_action(state, 0, text)
    with pytest.raises(GameRuleError):
        rules.apply_action(state, CHANCE, "chance shuffle tiles")
    with pytest.raises(GameRuleError, match="2 to 5"):
        rules.new_state(1, {})
    rules.apply_action(state, 0, "place L 5")
    assert rules.revealed_cards(state, 1, "place L 5") == [] and rules.to_move(state) == 1


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    out = tmp_path_factory.mktemp("swlogs")
    assert main(["selfplay", "--game", "space-walk", "--players", "2", "--seed", "2", "--bots", "random",
                 "--log-dir", str(out)]) == 0
    return sorted(out.glob("*.asvlog"))


def test_logged_game_verifies_from_the_log_alone(logs, capsys):
    capsys.readouterr()
    assert len(logs) == 2 and game_of_log(logs[0]).key == "space-walk"
    heads = set()
    for log in logs:
        assert main(["verify", "--json", str(log)]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["valid"] and report["finished"] and "audit" not in report
        heads.add(report["head"])
    assert len(heads) == 1


def test_log_show_and_replay_read_the_game_from_the_log(logs, capsys):
    capsys.readouterr()
    assert main(["log", "show", str(logs[0])]) == 0
    out = capsys.readouterr().out
    assert " action      place L " in out and " open " not in out     # no end-of-game opening
    assert main(["replay", str(logs[0]), "--to", "40"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("after seq 40") and "14 (@) hole" in out and "small orbit" in out


def test_replay_draws_the_orbit_as_an_svg_picture(logs, tmp_path, capsys):
    """SPEC §27.8, §31.7: a Space Walk log's picture is its orbit, squares and holes."""
    import xml.etree.ElementTree as ET
    picture = tmp_path / "orbit.svg"
    assert main(["replay", str(logs[0]), "--to", "40", "--svg", str(picture)]) == 0
    assert f"board picture written to {picture}" in capsys.readouterr().out
    g = "{http://www.w3.org/2000/svg}g"
    root = ET.parse(picture).getroot()
    squares = [e for e in root.iter(g) if e.get("class") == "square"]
    assert [e.get("data-square") for e in squares] == [str(n) for n in range(1, 15)]
    assert [e.get("data-square") for e in squares if e.get("data-hole")] == ["7", "14"]
    assert [e.get("data-seat") for e in root.iter(g) if e.get("class") == "seat"] == ["blue", "yellow"]


def test_a_log_of_an_unknown_game_cannot_be_checked_and_is_named(logs, tmp_path, capsys):
    """SPEC §27.6: rules this asv does not know are 'cannot check' (exit 3), not a tampered log."""
    from protocol.crypto import Identity
    from protocol.log import LogWriter
    from protocol.session import SessionPeer
    from cli.games.space_walk.adapter import SpaceWalkRules as Rules

    class Other(Rules):
        name = "no-such-game/1"
    me = Identity.generate("x")
    game = bytes(16)
    log = LogWriter(tmp_path / "other.asvlog", game)
    peer = SessionPeer(me, Other(), game, [me.public_key_bytes, Identity.generate("y").public_key_bytes],
                       {}, log=log)
    peer.act()
    log.close()
    capsys.readouterr()
    assert main(["verify", str(tmp_path / "other.asvlog")]) == 3
    out = capsys.readouterr().out
    assert "no-such-game/1" in out and "cannot check" in out and "INVALID" not in out


def test_the_registry_follows_the_adapters():
    from cli.games.asv.adapter import RULES_NAME as ASV
    from cli.games import kit_for, kit_for_rules
    from cli.games.space_walk.adapter import RULES_NAME as SW
    assert kit_for_rules(ASV) is kit_for("asv") and kit_for_rules(SW) is kit_for("space-walk")
    assert kit_for_rules("chess/1") is None
    assert kit_for("space-walk").seat_colours(5) == ("blue", "yellow", "green", "red", "purple")


def test_verify_names_players_by_the_logs_colours(logs, capsys):
    capsys.readouterr()
    assert main(["verify", str(logs[0])]) == 0
    out = capsys.readouterr().out
    assert "blue bot" in out and "yellow bot" in out
