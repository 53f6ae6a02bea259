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
# part with the least so far. The weights are a file's seconds while the other part runs
# beside it (measured with --durations at a load of about 4; files not listed count PER_TEST
# seconds a test): they only balance the parts, a wrong one makes a part longer, never
# skips a test.
FILE_SECONDS = {
    "test_network_cli.py": 106, "test_engine_properties.py": 105, "test_network_play.py": 80,
    "test_network_robustness.py": 30, "test_repl.py": 25, "test_lan.py": 25, "test_leaving.py": 25,
    "test_specials_session.py": 20, "test_verify.py": 20, "test_log_tools_cli.py": 18,
    "test_asv_wiring.py": 16, "test_space_walk_network.py": 12, "test_abort.py": 12, "test_codec.py": 10,
    "test_repl_live.py": 8, "test_variants.py": 8, "test_regather.py": 8, "test_layers.py": 7,
    "test_search_bot.py": 6, "test_protocol_audit.py": 6, "test_bot_thinking.py": 6,
    "test_shuffle_proof.py": 5, "test_board.py": 5, "test_evidence.py": 3, "test_mental_poker.py": 3,
    # tests/conformance/ (file names there are distinct from tests/')
    "test_play.py": 16, "test_determinism.py": 8, "test_logged_game.py": 4,
}
PER_TEST = 0.1


def pytest_addoption(parser):
    parser.addoption("--part", metavar="I/N", default=None,
                     help="run only part I of N of the suite (whole files, balanced by their usual time)")


def part_of_files(files: dict[str, int], parts: int, collected: dict[str, int] | None = None) -> dict[str, int]:
    """Each file's part (0-based): `files` maps a file's name to its number of tests to run,
    `collected` to its number before filtering (the same when not given)."""
    load = [0.0] * parts
    owner = {}
    collected = collected or files
    weight = {name: FILE_SECONDS[name] * count / collected[name] if name in FILE_SECONDS else PER_TEST * count
              for name, count in files.items()}
    for name in sorted(files, key=lambda n: (-weight[n], n)):
        part = min(range(parts), key=lambda p: (load[p], p))
        owner[name] = part
        load[part] += weight[name]
    return owner


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config, items):
    """Split after every other filter (`-m "not e2e"`, `-k`) has run, so the parts share
    what is left; a file's weight is scaled by the share of its tests left to run."""
    collected: dict[str, int] = {}
    for item in items:
        collected[item.path.name] = collected.get(item.path.name, 0) + 1
    outcome = yield
    part = config.getoption("--part")
    if not part:
        return outcome
    index, parts = (int(x) for x in part.split("/"))
    if not 1 <= index <= parts:
        raise pytest.UsageError(f"--part {part}: want I/N with 1 <= I <= N")
    counts: dict[str, int] = {}
    for item in items:
        counts[item.path.name] = counts.get(item.path.name, 0) + 1
    owner = part_of_files(counts, parts, {name: collected[name] for name in counts})
    keep = [item for item in items if owner[item.path.name] == index - 1]
    other = [item for item in items if owner[item.path.name] != index - 1]
    if other:
        config.hook.pytest_deselected(items=other)
    items[:] = keep
    return outcome
