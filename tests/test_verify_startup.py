"""`asv verify`'s start-up (SPEC §35.8): in a fresh interpreter, verifying a log imports
neither the REPL (prompt_toolkit), the network (trio, zeroconf, the node), nor the other
games' engines and kits, nor the package metadata; the registry's key and rules family of
each game, which let it import one kit alone, are that kit's own."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cli.games import BOT_KINDS, REGISTRY, all_kits, game_of_log, kit_for, kit_for_rules

# modules (or packages) verify must not import, with what they are
NOT_IMPORTED = {
    "prompt_toolkit": "the REPL", "trio": "the network", "zeroconf": "mDNS", "protocol.node": "the node",
    "protocol.net": "the transport", "cli.repl": "the REPL", "cli.netplay": "network play",
    "space_walk": "another game's engine", "space_trading_race": "another game's engine",
    "cli.games.space_walk": "another game's kit", "importlib.metadata": "package metadata",
}

PROBE = """
import json, sys
from cli.main import main
code = main(["verify", sys.argv[1]])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def _selfplay_log(tmp_path) -> str:
    from cli.main import main
    assert main(["selfplay", "--players", "2", "--games", "1", "--seed", "5", "--log-dir", str(tmp_path)]) == 0
    return str(sorted(tmp_path.glob("*.asvlog"))[0])


@pytest.mark.e2e      # it starts an asv process (SPEC §35.4)
def test_verify_imports_neither_the_repl_nor_the_network_nor_other_games(tmp_path):
    log = _selfplay_log(tmp_path)
    done = subprocess.run([sys.executable, "-c", PROBE, log], capture_output=True, text=True, timeout=120,
                          check=False)
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["code"] == 0, done.stdout
    loaded = set(out["modules"])
    assert "protocol.session.verify" in loaded and "p2p_asv.engine" in loaded   # it did verify
    wrong = {m: why for m, why in NOT_IMPORTED.items() if any(x == m or x.startswith(m + ".") for x in loaded)}
    assert not wrong, wrong


def test_the_registry_names_each_kits_key_and_rules_family(tmp_path):
    kits = all_kits()
    assert [(kit.key, kit.rules_name.rpartition("/")[0]) for kit in kits] == [(k, f) for _, k, f in REGISTRY]
    assert {kit.key: kit.bot_kinds for kit in kits} == BOT_KINDS   # the --bot choices, without the kits
    for kit in kits:
        assert kit_for(kit.key) is kit and kit_for_rules(kit.rules_name) is kit
        family, _, version = kit.rules_name.rpartition("/")
        assert kit_for_rules(f"{family}/{int(version) + 1}") is None    # another version: unknown
    assert kit_for_rules(None) is None and kit_for_rules("no-such-game/1") is None
    assert game_of_log(_selfplay_log(tmp_path)).key == "asv"


JOIN_PROBE = """
import json, sys
from cli.main import build_parser
args = build_parser("join").parse_args(["join", "h:1/00/x", "--bot", "greedy"])
print(json.dumps({"bot": args.bot, "modules": sorted(sys.modules)}))
"""


def test_the_join_parser_imports_no_other_game_nor_the_package_metadata():
    """`asv join --bot` learns its game from the first hello: its parser (the --bot choices)
    imports no other game's engine or kit (issue 23: a bot peer's start-up)."""
    done = subprocess.run([sys.executable, "-c", JOIN_PROBE], capture_output=True, text=True, timeout=120,
                          check=True)
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["bot"] == "greedy"
    loaded = set(out["modules"])
    others = ("space_walk", "space_trading_race", "cli.games.space_walk", "cli.games.space_trading_race",
              "importlib.metadata")
    assert not [m for m in loaded if any(m == o or m.startswith(o + ".") for o in others)]
