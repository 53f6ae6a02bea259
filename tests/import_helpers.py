"""Who imports whom, read from the source (ast, so imports inside functions count too):
tests/test_imports.py's layer rules and the conformance suite's purity check use it."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_modules(package: str, root: Path = ROOT) -> dict[str, Path]:
    """Every module of a top-level package, by dotted name (sub-packages included)."""
    return {module_name(p, root): p for p in sorted((root / package).rglob("*.py"))}


def imported_names(name: str, path: Path, known: dict[str, Path] | set[str] = frozenset()) -> list[str]:
    """Every absolute module name module `name` (at `path`) imports, relative imports
    resolved; `from pkg import sub` counts as importing `pkg.sub` when that is a module in
    `known`, and as `pkg` otherwise. `__import__(...)` and `importlib.import_module(...)`
    are reported as those two names, since what they load cannot be read."""
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.split(".")[: len(here.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            subs = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known]
            found += subs if len(subs) == len(node.names) else [base] + subs
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            found.append("__import__")
        elif isinstance(node, ast.Attribute) and node.attr == "import_module":
            found.append("importlib.import_module")
    return found


def import_roots(name: str, path: Path) -> set[str]:
    """The top-level names module `name` imports (`os`, `protocol`, ...)."""
    return {m.split(".")[0] for m in imported_names(name, path)}
