"""`asv replay` and `asv log export` on a real signed log (SPEC §27.7, §27.8)."""
from __future__ import annotations

import json

import pytest

from cli.main import main


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    out = tmp_path_factory.mktemp("logs")
    assert main(["selfplay", "--players", "2", "--seed", "3", "--log-dir", str(out)]) == 0
    return sorted(out.glob("*peer0.asvlog"))[0]


def test_replay_shows_the_board_and_scores_at_a_height(log, capsys):
    capsys.readouterr()
    assert main(["replay", str(log), "--to", "400"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("after seq 400")
    assert "A    B    C" in out and " 4● " in out       # grid labels and blue's home on D-4
    # the deals are real mental-poker shuffles, so which ships are left varies: seats and scores do not
    assert out.count(" score ") == 2 and "hand" in out


def test_export_writes_the_verified_chain_as_json_lines(log, capsys):
    capsys.readouterr()
    assert main(["log", "export", str(log)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    events, verdict = lines[:-1], lines[-1]["verdict"]
    assert verdict == {"valid": True, "events": len(events), "exit_code": 0, "reason": None}
    assert [e["seq"] for e in events] == list(range(len(events)))
    assert events[0]["prev"] == "00" * 32 and events[0]["kind"] == "hello"
    assert all(b["prev"] == a["hash"] for a, b in zip(events, events[1:]))   # the hash chain
    actions = [e for e in events if e["kind"] == "action"]
    assert actions and all(e["body"]["a"] == e["note"] for e in actions[:5])
    assert events[-1]["kind"] == "open"


def test_tools_say_why_a_file_is_not_a_log(tmp_path, capsys):
    junk = tmp_path / "junk.asvlog"
    junk.write_bytes(b"not a log at all")
    for argv in (["verify", str(junk)], ["replay", str(junk)], ["log", "show", str(junk)],
                 ["verify", str(tmp_path / "missing.asvlog")]):
        assert main(argv) == 1
        out = capsys.readouterr().out
        assert "BadHeader" in out or "No such file" in out, (argv, out)


def test_keygen_into_an_unwritable_place_is_a_clear_error(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["keygen", "--out", str(blocker / "sub" / "identity.key")]) == 1
    assert "asv keygen: cannot write" in capsys.readouterr().err
