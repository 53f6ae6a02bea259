"""The rules engines are pure (SPEC §1, §40.1, §50.1, design brief): no I/O, clocks, randomness or protocol.

Every module of p2p_asv, space_walk and space_trading_race is parsed and its imports checked; a fresh
interpreter importing an engine must not load any of the forbidden modules either.
"""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "p2p_asv"
SPACE_WALK = ROOT / "space_walk"
TRADING_RACE = ROOT / "space_trading_race"
FORBIDDEN = ("protocol", "cli", "trio", "msgpack", "nacl", "cryptography", "prompt_toolkit",
             "socket", "asyncio", "random", "time", "os")
MODULES = (sorted(PACKAGE.rglob("*.py")) + sorted(SPACE_WALK.glob("*.py"))  # p2p_asv/search too
           + sorted(TRADING_RACE.glob("*.py")))


def imported_roots(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    roots = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots += [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.append(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            roots.append("__import__")
        elif isinstance(node, ast.Attribute) and node.attr == "import_module":
            roots.append("importlib.import_module")
    return roots


def test_the_package_has_modules():
    names = {p.stem for p in MODULES}
    assert {"engine", "state", "turn", "discovery", "movement", "endgame", "board"} <= names


def test_space_walk_has_modules_and_imports_no_other_game():
    names = {p.stem for p in SPACE_WALK.glob("*.py")}
    assert {"engine", "state", "moves", "cards", "scoring", "bots"} <= names
    for path in SPACE_WALK.glob("*.py"):
        assert "p2p_asv" not in imported_roots(path), path.name


def test_space_trading_race_has_modules_and_imports_no_other_game():
    names = {p.stem for p in TRADING_RACE.glob("*.py")}
    assert {"engine", "state", "board", "deeds", "missions", "bots", "leaving"} <= names
    for path in TRADING_RACE.glob("*.py"):
        assert not {"p2p_asv", "space_walk"} & set(imported_roots(path)), path.name


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_module_imports_nothing_forbidden(path):
    bad = sorted(set(imported_roots(path)) & set(FORBIDDEN + ("__import__", "importlib.import_module")))
    assert bad == [], f"{path.name} imports {bad}"


@pytest.mark.parametrize("imports", ["p2p_asv.engine, p2p_asv.selfplay, p2p_asv.bots, p2p_asv.dealer, p2p_asv.search",
                                     "space_walk.engine, space_walk.selfplay, space_walk.bots",
                                     "space_trading_race.engine, space_trading_race.selfplay, space_trading_race.bots"])
def test_importing_the_engine_loads_no_forbidden_module(imports):
    code = ("import sys, json\n"
            "before = set(sys.modules)\n"
            f"import {imports}\n"
            "print(json.dumps([sorted(set(sys.modules) - before), sorted(sys.modules)]))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=60, check=True)
    loaded, everything = json.loads(out.stdout)
    roots = {name.split(".")[0] for name in loaded}
    assert imports.split(".")[0] in roots
    # `random`, `time` and `os` may already be loaded by the interpreter itself, so only
    # modules that the import brought in are checked.
    assert not roots & set(FORBIDDEN), sorted(roots & set(FORBIDDEN))
    # the interpreter preloads os and time, but nothing else forbidden is present at all
    present = {name.split(".")[0] for name in everything}
    assert not present & (set(FORBIDDEN) - {"os", "time"})
