"""Imports point one way across the whole program (SPEC §35.3, design brief "Layers").

Every module of the engines, protocol/ and cli/ is parsed (ast, so an import inside a
function counts as much as one at the top) and its imports resolved to the program's own
modules. Checked: no import cycle anywhere; an engine imports nothing of protocol/, cli/ or
another engine; protocol/ imports nothing of cli/ or any engine; under cli/, one game's kit
package never imports another's, only a game's kit imports an engine, and cli's parts import
in the order declared below (SPEC §34.2).
protocol/'s own inner layers are tests/test_layers.py's.
"""
from __future__ import annotations

import sys

from tests.import_helpers import ROOT, imported_names, package_modules

# -- the declared order (SPEC §34.2) ----------------------------------------------------------
ENGINES = ("p2p_asv", "space_walk", "space_trading_race")   # pure rules, one package a game
PROTOCOL = "protocol"
CLI = "cli"
PACKAGES = (*ENGINES, PROTOCOL, CLI)    # every top-level package pyproject installs
# cli/'s parts, lowest first: a module of one may import its own part and those listed before
# it, never one listed after it. GAME_KITS stands for every game's package cli/games/<game>/;
# "cli.games" is the rest of cli/games/ (the registry, the kit interface). Modules directly in
# cli/ are the top (cli.main), except those in CLI_BASE, which are below every part. A part
# counts once it is a folder.
GAME_KITS = "cli.games.<game>"
CLI_ORDER: tuple[str, ...] = (
    "cli.picture",      # the SVG document and shapes
    "cli.games",        # the registry, the kit interface, ScreenBase, options, table
    GAME_KITS,          # each game's kit: cli.games.asv, cli.games.space_walk
    "cli.repl",         # one REPL for every game
    "cli.netplay",      # network play for every game
    "cli.commands",     # one module a subcommand
)
CLI_BASE: frozenset[str] = frozenset({"cli", "cli.errors", "cli.terminal", "cli.arg_checks"})
GAMES = "cli.games"     # cli.games.<a> never imports cli.games.<b>

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
    if game_of(name, root):
        return CLI_ORDER.index(GAME_KITS)
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
    found = cycles(LINKS)
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


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


def test_only_a_game_kit_imports_an_engine():
    """Outside cli/games/<game>/ nothing of cli names a game's engine (SPEC §34.2)."""
    wrong = [(n, m) for n, found in LINKS.items() if package_of(n) == CLI and not game_of(n)
             for m in found if package_of(m) in ENGINES]
    assert wrong == []
    assert any(game_of(n) for n in LINKS)       # the kits are read too


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
