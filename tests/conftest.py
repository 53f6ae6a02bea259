"""Every test gets its own user config folder (ASV_HOME), so `asv host`/`asv join`'s
persistent identity key (SPEC §29.11) is made there, never in the real user's folder;
processes started by a test inherit it."""
import pytest


@pytest.fixture(autouse=True)
def _own_asv_home(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("ASV_HOME", str(tmp_path_factory.mktemp("asv-home")))
