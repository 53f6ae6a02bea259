"""`asv replay` and `asv log export` on a real signed log (SPEC §27.7, §27.8)."""
from __future__ import annotations

import json
import re

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
    # a note is the action text, plus " [proved #h]" for a hidden card it plays (SPEC §26.5)
    assert actions and all(e["note"].split(" [proved ")[0] == e["body"]["a"] for e in actions[:5])
    assert events[-1]["kind"] == "action" and not any(e["kind"] == "open" for e in events)


def test_tools_say_why_a_file_is_not_a_log(tmp_path, capsys):
    """SPEC §27.6: a file that cannot be read exits 3 and is never called INVALID (1 is the
    code of a tampered log)."""
    junk = tmp_path / "junk.asvlog"
    junk.write_bytes(b"not a log at all")   # no log magic: not a log file
    missing = str(tmp_path / "missing.asvlog")
    for argv in (["verify", str(junk)], ["replay", str(junk)], ["log", "show", str(junk)],
                 ["verify", missing], ["log", "show", missing], ["replay", missing]):
        assert main(argv) == 3, argv
        out = capsys.readouterr().out
        assert "BadHeader" in out or "No such file" in out, (argv, out)
        assert "INVALID" not in out and out.count("cannot read") == 1, out   # the file named once
    assert main(["verify", "--json", missing]) == 3
    report = json.loads(capsys.readouterr().out)
    assert report["readable"] is False and report["exit_code"] == 3 and "No such file" in report["reason"]


def test_verify_names_the_players_by_colour_name_and_fingerprint(log, capsys):
    capsys.readouterr()
    assert main(["verify", str(log)]) == 0
    out = capsys.readouterr().out.splitlines()
    line = next(x for x in out if x.startswith("players"))
    assert "blue bot" in line and "green bot" in line and line.count(" (") == 3   # the heading and one fingerprint a seat
    # the scores and the winner by colour and name too, not 'scores [62, 101]  winners [1]'
    scores = next(x for x in out if x.startswith("scores"))
    assert re.fullmatch(r"scores: blue bot\d\S* \d+, green bot\d\S* \d+", scores), scores
    assert re.fullmatch(r"winner: (blue|green) bot\d\S*( and (blue|green) bot\d\S*)?", out[-1]), out[-1]


def test_replay_draws_the_position_as_an_svg_picture(log, tmp_path, capsys):
    """SPEC §27.8, §31.7: --svg writes the board at that height instead of printing it."""
    import xml.etree.ElementTree as ET
    capsys.readouterr()
    picture = tmp_path / "board.svg"
    assert main(["replay", str(log), "--to", "400", "--svg", str(picture)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("after seq 400") and f"board picture written to {picture}" in out
    assert "A    B    C" not in out                      # the picture replaces the text board
    root = ET.parse(picture).getroot()
    g = "{http://www.w3.org/2000/svg}g"
    tiles = [e for e in root.iter(g) if e.get("class") == "tile"]
    seats = [e for e in root.iter(g) if e.get("class") == "seat"]
    assert len(tiles) > 9 and [s.get("data-seat") for s in seats] == ["blue", "green"]
    assert f"after seq 400 of {log.name}" in ET.tostring(root, encoding="unicode")
    # each seat names its player from the log's hello; the seat order is drawn at random (SPEC §24)
    names = [re.search(r"bot\d", ET.tostring(s, encoding="unicode")) for s in seats]
    assert sorted(m.group() for m in names if m) == ["bot0", "bot1"]
    # an unwritable place is refused before the replay, with nothing written
    assert main(["replay", str(log), "--svg", str(tmp_path / "no" / "b.svg")]) == 2
    assert "cannot write" in capsys.readouterr().err and not (tmp_path / "no").exists()


def test_replay_refuses_a_height_outside_the_log(log, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["replay", str(log), "--to", "-5"])
    assert exc.value.code == 2
    assert "not an event height" in capsys.readouterr().err
    assert main(["replay", str(log), "--to", "999999"]) == 2
    assert "past the end" in capsys.readouterr().err


def test_zero_tiles_per_turn_is_refused(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["play", "--tiles-per-turn", "0"])
    assert exc.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


@pytest.mark.e2e
@pytest.mark.parametrize("argv", [["log", "show"], ["log", "export"], ["replay"]])
def test_log_tools_end_quietly_when_the_reader_closes_the_pipe(log, argv):
    """`asv log show LOG | head -1`: no BrokenPipeError traceback (SPEC §27.7)."""
    import subprocess
    import sys
    from pathlib import Path
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", *argv, str(log)],
                            cwd=Path(__file__).resolve().parents[1],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()                      # the reader goes away, as head does
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) in (0, 141), err
    assert "Traceback" not in err and "BrokenPipe" not in err, err


def test_keygen_into_an_unwritable_place_is_a_clear_error(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["keygen", "--out", str(blocker / "sub" / "identity.key")]) == 1
    assert "asv keygen: cannot write" in capsys.readouterr().err


def _log_of_rules(tmp_path, name: str) -> str:
    """A two-peer asv log, two steps long, whose signed hello names the rules `name`."""
    from cli.games.asv.adapter import AsvRules
    from tests.session_helpers import make_peers, step

    class OtherRules(AsvRules):
        pass
    OtherRules.name = name
    peers = make_peers(OtherRules(), 2, log_dir=str(tmp_path))
    for _ in range(2):
        step(peers)
    for p in peers:
        p.log.close()
    return str(tmp_path / "peer0.asvlog")


def test_a_log_of_rules_this_asv_does_not_know_cannot_be_checked_and_is_not_invalid(tmp_path, capsys):
    """SPEC §27.6: a log played under another version of the rules (its signed first hello
    names them) is exit 3, 'cannot check', never INVALID (1, the code of a tampered log);
    `asv join --resume` of it says why instead of failing at seq 0."""
    path = _log_of_rules(tmp_path, "amazing-space-venture/0")
    capsys.readouterr()
    for argv in (["verify", path], ["log", "show", path], ["replay", path]):
        assert main(argv) == 3, argv
        out = capsys.readouterr().out
        assert "INVALID" not in out and "rules 'amazing-space-venture/0'" in out, out
        assert "Ed25519 points, now they are ristretto255" in out, out
    assert main(["verify", "--json", path]) == 3
    assert json.loads(capsys.readouterr().out)["readable"] is False
    assert main(["log", "export", path]) == 3
    assert json.loads(capsys.readouterr().out)["verdict"]["exit_code"] == 3
    assert main(["join", "--resume", path, "--listen", "127.0.0.1", "--bot", "greedy",
                 "--log-dir", str(tmp_path / "again")]) == 1
    assert re.search(r"cannot resume .*'amazing-space-venture/0'", capsys.readouterr().err)


def test_a_log_from_before_the_commitment_form_shuffle_proofs_says_so(tmp_path, capsys):
    """A version-9 log (shuffle proofs that carried their challenge, SPEC §25.10) is
    "cannot check" (exit 3) with the reason, never INVALID."""
    path = _log_of_rules(tmp_path, "amazing-space-venture/9")
    capsys.readouterr()
    assert main(["verify", path]) == 3
    out = capsys.readouterr().out
    assert "INVALID" not in out and "a shuffle proof carried its challenge" in out, out
