"""Imports point one way across the whole program (SPEC §35.3, §35.5)."""
from __future__ import annotations

from tests.import_helpers import ROOT, imported_names


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
