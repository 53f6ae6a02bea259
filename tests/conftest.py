"""Every test gets its own user config folder (ASV_HOME), so `asv host`/`asv join`'s
persistent identity key (SPEC §29.11) is made there, never in the real user's folder;
processes started by a test inherit it. Logs written by tests are thrown away, so they
skip fsync (ASV_NO_FSYNC=1, SPEC §23.4): a whole game fsyncs every event at every peer,
and those waits were a large part of `make test`. tests/test_logfile.py checks both ways."""
import os

import pytest

os.environ["ASV_NO_FSYNC"] = "1"     # before any fixture: module-scoped ones write logs too


@pytest.fixture(autouse=True)
def _own_asv_home(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("ASV_HOME", str(tmp_path_factory.mktemp("asv-home")))
