"""Every test gets its own user config folder (ASV_HOME), so `asv host`/`asv join`'s
persistent identity key (SPEC §29.11) is made there, never in the real user's folder;
processes started by a test inherit it. Logs written by tests are thrown away, so they
skip fsync (ASV_NO_FSYNC=1, SPEC §23.4): a whole game fsyncs every event at every peer,
and those waits were a large part of `make test`. tests/test_logfile.py checks both ways."""
import os
import signal

import pytest
from hypothesis import HealthCheck, settings

os.environ["ASV_NO_FSYNC"] = "1"     # before any fixture: module-scoped ones write logs too

# Property tests judge answers, never speed (speed is benchmarks/' job): no per-example
# deadline and no too-slow health check, both of which fail a correct test when a loaded
# machine stalls it for a fraction of a second. A test's own @settings still apply.
settings.register_profile("asv", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("asv")

# A suite started in the background by a shell without job control (`make test &`, nohup)
# inherits SIGINT ignored, and so would every asv process a test starts: the Ctrl-C tests
# then failed (the child never saw the signal). A Python handler here is reset to the
# default in each child at exec, so the children get Ctrl-C as from a terminal.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def _own_asv_home(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("ASV_HOME", str(tmp_path_factory.mktemp("asv-home")))


# -- `make test` runs the suite as two pytest processes side by side (tests/run_parts.py) ------
# Whole files go to one part (a module's fixtures are built once), heaviest first, each to the
# part with the least so far. A file weighs the seconds of its tests left to run: its tests
# not marked e2e weigh FAST_SECONDS between them, its e2e ones E2E_SECONDS (`make check`
# leaves those out), a file not listed PER_TEST seconds a test. Measured with --durations
# while the other part ran beside it, at a load of about 4 (2 Dec 2026): they only balance the
# parts, a wrong one makes a part longer, never skips a test.
FAST_SECONDS = {
    "test_engine_properties.py": 33, "test_layers.py": 20, "test_play.py": 20, "test_repl.py": 19,
    "test_codec.py": 9, "test_tiles.py": 8, "test_notation.py": 8, "test_determinism.py": 8,
    "test_verify.py": 7, "test_purity.py": 6, "test_log_tools_cli.py": 6, "test_mental_poker.py": 5,
    "test_engine_scoring.py": 5, "test_specials.py": 5, "test_mesh.py": 5, "test_asv_wiring.py": 5,
    "test_board.py": 4, "test_weak_keys.py": 4, "test_protocol_audit.py": 4, "test_events.py": 4,
    "test_transport.py": 4, "test_logged_game.py": 4, "test_variants.py": 3, "test_specials_session.py": 3,
    "test_engine_turn.py": 3, "test_search_bot.py": 3, "test_logfile.py": 3, "test_space_walk_rules.py": 3,
    "test_cards.py": 3, "test_shuffle_proof.py": 2, "test_dice.py": 2, "test_space_trading_race_play.py": 5,
}
E2E_SECONDS = {
    "test_network_cli.py": 77, "test_network_play.py": 64, "test_regather.py": 30,
    "test_network_robustness.py": 25, "test_leaving.py": 22, "test_lan.py": 14, "test_abort.py": 9,
    "test_log_tools_cli.py": 8, "test_space_walk_network.py": 7, "test_bot_thinking.py": 6,
    "test_repl_live.py": 5, "test_first_hour.py": 3, "test_fault_trials.py": 16, "test_watch.py": 33,
    "test_two_terminals.py": 7, "test_clock_network.py": 22,
}
PER_TEST = 0.1


def pytest_addoption(parser):
    parser.addoption("--part", metavar="I/N", default=None,
                     help="run only part I of N of the suite (whole files, balanced by their usual time)")


def part_of_files(weights: dict[str, float], parts: int) -> dict[str, int]:
    """Each file's part (0-based), from each file's weight in seconds."""
    load = [0.0] * parts
    owner = {}
    for name in sorted(weights, key=lambda n: (-weights[n], n)):
        part = min(range(parts), key=lambda p: (load[p], p))
        owner[name] = part
        load[part] += weights[name]
    return owner


def is_e2e(item) -> bool:
    return item.get_closest_marker("e2e") is not None


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config, items):
    """Split after every other filter (`-m "not e2e"`, `-k`) has run, so the parts share
    what is left: each test weighs its file's seconds of its kind over the file's count."""
    collected: dict[tuple[str, bool], int] = {}
    for item in items:
        key = (item.path.name, is_e2e(item))
        collected[key] = collected.get(key, 0) + 1
    outcome = yield
    part = config.getoption("--part")
    if not part:
        return outcome
    index, parts = (int(x) for x in part.split("/"))
    if not 1 <= index <= parts:
        raise pytest.UsageError(f"--part {part}: want I/N with 1 <= I <= N")
    weights: dict[str, float] = {}
    for item in items:
        name, e2e = item.path.name, is_e2e(item)
        table = E2E_SECONDS if e2e else FAST_SECONDS
        share = table[name] / collected[name, e2e] if name in table else PER_TEST
        weights[name] = weights.get(name, 0.0) + share
    owner = part_of_files(weights, parts)
    keep = [item for item in items if owner[item.path.name] == index - 1]
    other = [item for item in items if owner[item.path.name] != index - 1]
    if other:
        config.hook.pytest_deselected(items=other)
    items[:] = keep
    return outcome
