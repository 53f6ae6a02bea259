"""Imports point one way across the whole program (SPEC §35.3, design brief "Layers").

Every module of the engines, protocol/ and cli/ is parsed (ast, so an import inside a
function counts as much as one at the top) and its imports resolved to the program's own
modules. Checked: no import cycle anywhere; an engine imports nothing of protocol/, cli/ or
another engine; protocol/ imports nothing of cli/ or any engine; under cli/, one game's
package never imports another's, and the sub-packages import in the order declared below.
protocol/'s own inner layers are tests/test_layers.py's.
"""
from __future__ import annotations

import sys

import pytest

from tests.import_helpers import ROOT, imported_names, package_modules

# -- the declared order -------------------------------------------------------------------
ENGINES = ("p2p_asv", "space_walk")     # pure rules, one package a game (SPEC §1, §40.1)
PROTOCOL = "protocol"
CLI = "cli"
PACKAGES = (*ENGINES, PROTOCOL, CLI)    # every top-level package pyproject installs
# cli/'s sub-packages, lowest first: a module of one may import its own sub-package and those
# listed before it, never one listed after it. Modules directly in cli/ are the top (the
# command's entry), except those in CLI_BASE, which are below every sub-package. While cli/
# is flat (no sub-package yet) every module is at the top and the order holds trivially.
CLI_ORDER: tuple[str, ...] = (
    "cli.picture",      # the SVG document and shapes
    "cli.games",        # the kit interface and the registry; cli.games.<game> are the kits
    "cli.repl",         # one REPL for every game
    "cli.netplay",      # one network driver for every game
    "cli.commands",     # one module a subcommand
)
CLI_BASE: frozenset[str] = frozenset({"cli"})   # cli/__init__.py
GAMES = "cli.games"     # cli.games.<a> never imports cli.games.<b>
# Cycles known today, removed by the branch named; each is an xfail below until it lands.
KNOWN_CYCLES = {
    "cli/net_driver.py -> cli/net_peer.py -> cli/sw_net.py -> cli/net_driver.py (issue 20; the kit branch)":
        frozenset({"cli.net_driver", "cli.net_peer", "cli.sw_net"}),
}

MODULES = {name: path for package in PACKAGES for name, path in package_modules(package).items()}


def edges(name: str) -> list[str]:
    """The program's own modules `name` imports (a name that is no module of ours, like
    `os` or a function imported from a module, resolves to the module it comes from)."""
    found = []
    for target in imported_names(name, MODULES[name], MODULES):
        while target and target not in MODULES:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.append(target)
    return sorted(set(found))


def graph(modules: dict) -> dict[str, list[str]]:
    return {name: edges(name) for name in modules}


def cycles(links: dict[str, list[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted:
    every import cycle lies inside one."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in links.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(links) + 100))
    try:
        for node in sorted(links):
            if node not in index:
                visit(node)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(found)


def package_of(name: str) -> str:
    return name.split(".")[0]


def is_package_dir(name: str, root=ROOT) -> bool:
    return (root / name.replace(".", "/") / "__init__.py").is_file()


def cli_rank(name: str, root=ROOT) -> int | None:
    """A cli module's place in CLI_ORDER (-1 for CLI_BASE), None for the top of cli/. A
    flat module of the same name as a listed sub-package (today's cli/games.py) is the top."""
    if name in CLI_BASE:
        return -1
    for rank, sub in enumerate(CLI_ORDER):
        if (name == sub or name.startswith(sub + ".")) and is_package_dir(sub, root):
            return rank
    return None


def game_of(name: str, root=ROOT) -> str | None:
    """`cli.games.asv` for any module of cli/games/asv/, None outside a game's kit package."""
    parts = name.split(".")
    prefix = GAMES.split(".")
    if parts[: len(prefix)] == prefix and len(parts) > len(prefix):
        kit = ".".join(parts[: len(prefix) + 1])
        if is_package_dir(kit, root):
            return kit
    return None


LINKS = graph(MODULES)


def test_every_package_is_read():
    for package in PACKAGES:
        assert (ROOT / package / "__init__.py").is_file(), package
        assert sum(package_of(n) == package for n in MODULES) > 5, package
    on_disk = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests", "benchmarks"}
    assert on_disk <= set(PACKAGES), f"add {sorted(on_disk - set(PACKAGES))} to PACKAGES and its rules"


def test_no_import_cycle_anywhere():
    """Besides the known cycles (each checked on its own below)."""
    known = set(KNOWN_CYCLES.values())
    new = [c for c in cycles(LINKS) if frozenset(c) not in known]
    assert new == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in new)


@pytest.mark.parametrize("cycle", sorted(KNOWN_CYCLES))
@pytest.mark.xfail(strict=True, reason="a known import cycle (issue 20): the kit branch removes it")
def test_known_cycle_is_gone(cycle):
    members = KNOWN_CYCLES[cycle]
    stuck = [c for c in cycles(LINKS) if members & set(c)]
    assert stuck == [], f"import cycle: {cycle}"


def engine_violations(links: dict[str, list[str]]) -> list[tuple[str, str]]:
    """No protocol, no cli, no other game: an engine stands alone."""
    return [(n, m) for n, found in links.items() if package_of(n) in ENGINES
            for m in found if package_of(m) != package_of(n)]


def protocol_violations(links: dict[str, list[str]]) -> list[tuple[str, str]]:
    return [(n, m) for n, found in links.items() if package_of(n) == PROTOCOL
            for m in found if package_of(m) != PROTOCOL]


def order_violations(links: dict[str, list[str]], root=ROOT) -> list[tuple[str, str]]:
    """cli imports that point up CLI_ORDER (or from a sub-package to the top of cli/)."""
    wrong = []
    for name, found in links.items():
        mine = cli_rank(name, root)
        if package_of(name) != CLI or mine is None:     # the top of cli/ may import any of cli
            continue
        wrong += [(name, m) for m in found if package_of(m) == CLI
                  and (cli_rank(m, root) is None or cli_rank(m, root) > mine)]
    return wrong


def game_violations(links: dict[str, list[str]], root=ROOT) -> list[tuple[str, str]]:
    return [(n, m) for n, found in links.items() if game_of(n, root)
            for m in found if game_of(m, root) not in (None, game_of(n, root))]


def test_an_engine_imports_only_itself():
    assert sum(package_of(n) in ENGINES for n in LINKS) > 40
    assert engine_violations(LINKS) == []


def test_protocol_imports_no_game_and_no_cli():
    assert protocol_violations(LINKS) == []


def test_cli_sub_packages_import_in_the_declared_order():
    assert order_violations(LINKS) == []


def test_a_game_kit_never_imports_another_game():
    assert game_violations(LINKS) == []


def test_the_checks_see_function_level_imports_and_cycles(tmp_path):
    """The checks above would catch a mistake of the known kind: an import inside a function
    closing a cycle, and a kit importing another game's kit."""
    def write(rel: str, text: str) -> None:
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    write("cli/__init__.py", "")
    write("cli/games/__init__.py", "")
    write("cli/games/one/__init__.py", "def f():\n    from cli.games.two import kit\n")
    write("cli/games/two/__init__.py", "")
    write("cli/games/two/kit.py", "from ..one import f\n")
    modules = package_modules("cli", tmp_path)
    links = {}
    for name, path in modules.items():
        found = [t for t in imported_names(name, path, modules)]
        links[name] = sorted({t if t in modules else t.rpartition(".")[0] for t in found})
    assert links["cli.games.one"] == ["cli.games.two.kit"]
    assert links["cli.games.two.kit"] == ["cli.games.one"]
    assert cycles(links) == [["cli.games.one", "cli.games.two.kit"]]
    assert game_violations(links, tmp_path) == [("cli.games.one", "cli.games.two.kit"),
                                                ("cli.games.two.kit", "cli.games.one")]


def test_the_order_check_sees_an_import_up_the_table(tmp_path):
    for rel, text in {"cli/__init__.py": "", "cli/main.py": "from cli.commands import play\n",
                      "cli/picture/__init__.py": "", "cli/picture/svg.py": "def f():\n    import cli.repl.loop\n",
                      "cli/repl/__init__.py": "", "cli/repl/loop.py": "from cli.picture import svg\n",
                      "cli/commands/__init__.py": "", "cli/commands/play.py": "from cli import main\n"}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    modules = package_modules("cli", tmp_path)
    links = {name: [t for t in imported_names(name, path, modules) if t in modules]
             for name, path in modules.items()}
    assert sorted(order_violations(links, tmp_path)) == [("cli.commands.play", "cli.main"),
                                                         ("cli.picture.svg", "cli.repl.loop")]


def test_test_helpers_are_imported_one_way():
    """`from tests.x import ...`, never a bare `x`: a bare name is a second module object for
    the same file (SPEC §35.5), and only works where pytest put tests/ on sys.path."""
    tests = ROOT / "tests"
    ours = {p.stem for p in tests.rglob("*.py")} | {p.name for p in tests.iterdir() if p.is_dir()}
    bare = []
    for path in sorted(tests.rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        bare += [(path.name, m) for m in imported_names(name, path) if m.split(".")[0] in ours]
    assert bare == []
