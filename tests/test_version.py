"""SPEC §30.1: installs pinned by requirements.lock with hashes, and `asv --version` naming the
program's version and the lock's hash."""
from __future__ import annotations

import hashlib
import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from cli import version
from cli.main import main

ROOT = Path(__file__).resolve().parent.parent


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_names(requirements: list[str]) -> set[str]:
    return {_normal(re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", r).group(0)) for r in requirements}


def test_asv_version_names_the_project_version_and_the_lock_hash(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    digest = hashlib.sha256((ROOT / "requirements.lock").read_bytes()).hexdigest()[:12]
    assert out.startswith(f"p2p-asv {metadata.version('p2p-asv')} (lock {digest}, Python ")


def test_the_lock_pins_every_dependency_and_extra_with_sha256_hashes():
    """A dependency added to pyproject.toml without `make lock` would install nowhere (SPEC §30.1)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    wanted = list(project["project"]["dependencies"]) + list(project["build-system"]["requires"])
    for extra in project["project"].get("optional-dependencies", {}).values():
        wanted += extra
    text = (ROOT / "requirements.lock").read_text()
    pins = {_normal(name) for name in version.lock_pins(text)}
    assert _requirement_names(wanted) <= pins
    # each pin is one block: `name==version \`, then one or more hash lines
    blocks = re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 1)[1] if text.startswith("#") else text)
    pinned = [b for b in blocks if "==" in b.split("\n", 1)[0]]
    assert len(pinned) == len(pins)
    for block in pinned:
        assert re.search(r"--hash=sha256:[0-9a-f]{64}", block), block.split("\n", 1)[0]


def test_the_test_environment_is_the_one_the_lock_pins():
    assert version.lock_drift() == []


def test_drift_names_each_package_at_another_version(tmp_path):
    lock = tmp_path / "requirements.lock"
    trio_version = metadata.version("trio")
    lock.write_text(f"trio=={trio_version} \\\n    --hash=sha256:{'0' * 64}\n"
                    f"msgpack==0.0.1 \\\n    --hash=sha256:{'1' * 64}\n"
                    f"no-such-dist==1.0 \\\n    --hash=sha256:{'2' * 64}\n")
    assert version.lock_drift(lock) == [f"msgpack 0.0.1 -> {metadata.version('msgpack')}",
                                        "no-such-dist 1.0 -> missing"]
    assert version.lock_hash(lock) == hashlib.sha256(lock.read_bytes()).hexdigest()[:12]
    assert version.lock_hash(tmp_path / "absent.lock") is None


def test_the_folder_names_give_the_versions_the_metadata_gives():
    """The drift check reads versions from the dist-info folders' names (one listing of each
    sys.path folder, not every METADATA file); for every pin and the project they agree."""
    from protocol.log import program
    names = [*program.lock_pins(program.LOCK_PATH.read_text()), program.DIST_NAME]
    assert len(names) > 10
    for name in names:
        assert program.listed_version(name) == metadata.version(name), name
    assert program.listed_version("no-such-dist") is None and program.installed_version("no-such-dist") is None
    assert program.project_version() == metadata.version(program.DIST_NAME)
