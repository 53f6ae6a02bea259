"""A registered game's engine package does no I/O (SPEC §35.2, design brief "The engine"):
none of its modules imports a module that reaches the outside world, a clock or randomness,
nor protocol/ or cli/, at the top or inside a function (read by ast). The package is the one
the kit's state comes from, so a new game is checked by registering."""
from __future__ import annotations

import pytest

from protocol.session import CHANCE
from tests.conformance.cases import KITS
from tests.import_helpers import import_roots, package_modules

FORBIDDEN = frozenset({
    "socket", "ssl", "select", "selectors", "asyncio", "trio", "os", "io", "pathlib", "shutil", "tempfile",
    "subprocess", "signal", "threading", "multiprocessing", "concurrent", "time", "datetime", "random",
    "secrets", "uuid", "urllib", "http", "email", "sqlite3", "pickle", "shelve", "logging", "sys",
    "msgpack", "nacl", "cryptography", "prompt_toolkit", "zeroconf", "platformdirs",
    "protocol", "cli", "importlib", "__import__",
})


def engine_package(kit) -> str:
    return type(kit.new_state(kit.min_players, {})).__module__.split(".")[0]


@pytest.mark.parametrize("kit", KITS, ids=lambda k: k.key)
def test_the_engine_imports_no_io(kit):
    package = engine_package(kit)
    modules = package_modules(package)
    assert len(modules) > 3, package
    bad = {name: sorted(import_roots(name, path) & FORBIDDEN) for name, path in modules.items()}
    assert {name: found for name, found in bad.items() if found} == {}


@pytest.mark.parametrize("kit", KITS, ids=lambda k: k.key)
def test_actions_and_state_come_from_the_engine(kit):
    """The engine package checked above is the one that plays: state, actions and errors."""
    package = engine_package(kit)
    state = kit.new_state(kit.min_players, {})
    views = [kit.new_view(s) for s in range(kit.min_players)]
    dealer = kit.dealer(1)
    while kit.to_move(state) == CHANCE:          # the opening deals, if the game has chance
        kit.apply(state, CHANCE, dealer.outcome(state, views))
    action = kit.legal_actions(state, views[kit.to_move(state)])[0]
    assert type(action).__module__.split(".")[0] == package
    assert all(error.__module__.split(".")[0] == package for error in kit.engine_errors)
