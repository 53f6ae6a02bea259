"""protocol/ is layered and its imports point down only (SPEC Part II, introduction).

Every module of protocol/ is parsed (ast, so imports inside functions count too) and its
imports resolved to protocol modules. Checked: each layer imports only the layers below it,
no import cycle exists between protocol modules, no module imports its own package's
`__init__` (that is what other layers import), and nothing of p2p_asv or cli is imported.
"""
from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from tests.import_helpers import imported_names

ROOT = Path(__file__).resolve().parent.parent
PROTOCOL = ROOT / "protocol"

# Modules directly in protocol/: the base below everything; the node package above everything
# (its private `_x` modules sit behind its curated `__init__`, as trio's do).
BASE = {"protocol", "protocol.errors", "protocol.codec", "protocol.fingerprint"}
TOP = {"protocol.node"}
PACKAGES = ("crypto", "log", "poker", "session", "net")
EXPORTING = PACKAGES + ("node",)
# What each layer may import (besides itself). log and poker are side by side, as are
# session and net: neither of a pair imports the other.
ALLOWED = {
    "base": set(),
    "crypto": {"base"},
    "log": {"base", "crypto"},
    "poker": {"base", "crypto"},
    "session": {"base", "crypto", "log", "poker"},
    "net": {"base", "crypto", "log"},
    "node": {"base", "crypto", "log", "poker", "session", "net"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PROTOCOL.rglob("*.py"))}


def is_package(name: str) -> bool:
    return MODULES.get(name, Path()).name == "__init__.py"


def layer(name: str) -> str:
    if name in BASE:
        return "base"
    if name in TOP or any(name.startswith(top + ".") for top in TOP):
        return "node"
    parts = name.split(".")
    if len(parts) >= 3 or is_package(name):
        if parts[1] in PACKAGES:
            return parts[1]
    raise AssertionError(f"{name} belongs to no layer: add it to BASE, TOP or a sub-package")


def imports(name: str) -> list[str]:
    """Every absolute module name `name` imports (relative imports resolved; `from pkg import
    sub` counts as the module pkg.sub when there is one): the reader tests/test_imports.py uses."""
    return imported_names(name, MODULES[name], MODULES)


def protocol_edges(name: str) -> list[str]:
    return [m for m in imports(name) if m in MODULES]


def test_every_module_has_a_layer_and_the_old_flat_names_are_gone():
    assert len(MODULES) > 30
    for name in MODULES:
        layer(name)
    flat = sorted(n for n in MODULES if n.count(".") == 1 and n not in BASE | TOP)
    assert flat == [name for name in flat if name.split(".")[1] in PACKAGES], flat


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_point_down_only(name):
    mine = layer(name)
    wrong = sorted({m for m in protocol_edges(name) if layer(m) != mine and layer(m) not in ALLOWED[mine]})
    assert wrong == [], f"{name} ({mine}) imports {[(m, layer(m)) for m in wrong]}"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_nothing_of_the_engine_or_the_cli(name):
    roots = {m.split(".")[0] for m in imports(name)}
    assert not roots & {"p2p_asv", "cli"}, f"{name} imports {sorted(roots & {'p2p_asv', 'cli'})}"


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.count(".") >= 2))
def test_a_module_never_imports_its_own_package_init(name):
    """Siblings are imported by module path; a package's __init__ is for other layers, and
    importing it from inside would run the package's imports in a circle."""
    parts = name.split(".")
    ancestors = {".".join(parts[:i]) for i in range(2, len(parts))}
    assert not ancestors & set(protocol_edges(name)), f"{name} imports {sorted(ancestors & set(protocol_edges(name)))}"


def test_no_import_cycle():
    graph = {name: sorted(set(protocol_edges(name))) for name in MODULES}
    state: dict[str, int] = {}     # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in graph[node]:
            if state.get(nxt) == 1:
                cycle = path[path.index(nxt):] + [nxt]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for name in graph:
        if name not in state:
            visit(name)


def test_the_finder_sees_a_cycle_and_a_function_level_import(tmp_path, monkeypatch):
    """The checks above would catch today's kind of mistake: a local import inside a function."""
    pkg = tmp_path / "protocol"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "errors.py").write_text("def f():\n    from protocol.codec import x\n")
    (pkg / "codec.py").write_text("from protocol import errors\nx = 1\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "MODULES", {module_name(p): p for p in pkg.rglob("*.py")})
    assert protocol_edges("protocol.errors") == ["protocol.codec"]
    assert protocol_edges("protocol.codec") == ["protocol.errors"]
    with pytest.raises(AssertionError, match="import cycle"):
        test_no_import_cycle()


def test_the_node_is_a_package_of_private_modules():
    assert is_package("protocol.node")
    parts = sorted(n for n in MODULES if n.startswith("protocol.node."))
    assert len(parts) >= 5 and all(n.rpartition(".")[2].startswith("_") for n in parts), parts


def test_nothing_outside_the_node_imports_its_private_modules():
    """cli/, tests/ and the rest of protocol/ import `protocol.node`, never `protocol.node._x`."""
    offenders = []
    for path in sorted([*ROOT.joinpath("cli").rglob("*.py"), *ROOT.joinpath("tests").rglob("*.py"),
                        *PROTOCOL.rglob("*.py")]):
        if path.is_relative_to(PROTOCOL / "node"):
            continue
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            offenders += [(path.name, n) for n in names if n.startswith("protocol.node._")]
    assert offenders == []


@pytest.mark.parametrize("package", EXPORTING)
def test_each_package_exports_what_it_lists(package):
    mod = importlib.import_module(f"protocol.{package}")
    assert mod.__all__ and len(set(mod.__all__)) == len(mod.__all__)
    missing = [n for n in mod.__all__ if not hasattr(mod, n)]
    assert missing == []


def test_every_module_imports_first_in_a_fresh_interpreter():
    """Import order must not matter: each module, imported first, loads without a circular
    import error (one interpreter, protocol modules dropped between imports)."""
    code = ("import importlib, sys\n"
            f"for name in {sorted(MODULES)!r}:\n"
            "    for m in [m for m in sys.modules if m == 'protocol' or m.startswith('protocol.')]:\n"
            "        del sys.modules[m]\n"
            "    importlib.import_module(name)\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]
