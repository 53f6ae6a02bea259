"""`asv verify`, `asv log show`, `asv replay` on real logs and tampered ones (SPEC §27.6-§27.8).

Decision (SPEC §27.6): verification is strict. Any framing damage (a flipped byte, a
truncated final record, trailing garbage) is exit 1 naming the record, even though a
writer reopening the file would drop a torn tail; exit 2 is only for a clean log of a
game that has not finished.
"""
from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from cli.netplay.local_peers import play_logged_game
from cli.main import main
from protocol.log.logfile import LOG_MAGIC, LogWriter, _record, scan_log


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """Two 2-player games: the one under test and a donor for splicing."""
    base = tmp_path_factory.mktemp("games")
    first = play_logged_game(2, 5, ["greedy", "greedy"], base / "a")
    second = play_logged_game(2, 6, ["random", "random"], base / "b")
    return Path(first["logs"][0]), Path(second["logs"][0]), first


def verify_json(path, capsys) -> tuple[int, dict]:
    code = main(["verify", str(path), "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_valid_finished_log(logs, capsys):
    log, _, summary = logs
    code, report = verify_json(log, capsys)
    assert code == 0 and report["valid"] and report["finished"]
    assert report["game_id"] == summary["game_id"] and report["head"] == summary["head"]
    assert set(report) >= {"valid", "game_id", "events", "head", "finished", "scores"}
    assert "audit" not in report                     # nothing is left for the end (SPEC §26.10)
    assert main(["verify", str(log)]) == 0 and "every proof checked" in capsys.readouterr().out


def _with_records(path: Path, src: Path, records: list[bytes], tail: bytes = b"") -> Path:
    game = scan_log(src).game
    with LogWriter(path, game) as w:
        for r in records:
            w.append(r)
    with open(path, "ab") as fh:
        fh.write(tail)
    return path


def test_unfinished_prefix_exits_2(logs, capsys, tmp_path):
    log, _, _ = logs
    records = scan_log(log).records
    prefix = _with_records(tmp_path / "prefix.asvlog", log, records[:300])
    code, report = verify_json(prefix, capsys)
    assert code == 2 and report["valid"] and not report["finished"] and report["events"] == 300


def _expect_invalid(path, capsys, seq=None, author=None):
    code, report = verify_json(path, capsys)
    assert code == 1 and not report["valid"] and report["reason"], report
    if seq is not None:
        assert report["seq"] == seq, report
    if author is not None:
        assert report["author"] == author
    return report


def test_flipped_bytes_are_caught(logs, capsys, tmp_path):
    log, _, _ = logs
    data = log.read_bytes()
    scan = scan_log(log)
    rng = random.Random(7)
    early_end = scan.offsets[40]
    positions = [0, 7, 20] + rng.sample(range(24, early_end), 40) + [len(data) - 3, len(data) - 200]
    for pos in positions:
        bad = bytearray(data)
        bad[pos] ^= 1 << rng.randrange(8)
        path = tmp_path / "flip.asvlog"
        path.write_bytes(bytes(bad))
        if pos < len(LOG_MAGIC):    # no log magic: not a log file at all (SPEC §27.6, exit 3)
            assert verify_json(path, capsys)[0] == 3
            continue
        _expect_invalid(path, capsys)


def test_payload_change_with_fixed_framing_fails_the_signature(logs, capsys, tmp_path):
    log, _, _ = logs
    records = scan_log(log).records
    for seq in (0, 15, 200):
        rec = bytearray(records[seq])
        rec[len(rec) // 2] ^= 0x10
        path = _with_records(tmp_path / f"resigned{seq}.asvlog", log, records[:seq] + [bytes(rec)] + records[seq + 1:])
        _expect_invalid(path, capsys, seq=seq)


def test_truncated_record_and_trailing_garbage(logs, capsys, tmp_path):
    log, _, _ = logs
    data = log.read_bytes()
    cut = tmp_path / "cut.asvlog"
    cut.write_bytes(data[:-10])
    count = len(scan_log(log).records)
    _expect_invalid(cut, capsys, seq=count - 1)
    junk = tmp_path / "junk.asvlog"
    shutil.copy(log, junk)
    with open(junk, "ab") as fh:
        fh.write(b"\x00\x00\x01\x00garbage!")
    _expect_invalid(junk, capsys, seq=count)


def test_record_spliced_from_another_game(logs, capsys, tmp_path):
    log, donor, _ = logs
    records, foreign = scan_log(log).records, scan_log(donor).records
    for seq in (0, 40):
        path = _with_records(tmp_path / f"splice{seq}.asvlog", log,
                             records[:seq] + [foreign[seq]] + records[seq + 1:])
        _expect_invalid(path, capsys, seq=seq)


def test_reordered_and_duplicated_records(logs, capsys, tmp_path):
    log, _, _ = logs
    records = scan_log(log).records
    swapped = records[:50] + [records[51], records[50]] + records[52:]
    _expect_invalid(_with_records(tmp_path / "swap.asvlog", log, swapped), capsys, seq=50)
    doubled = records[:50] + [records[49]] + records[50:]
    _expect_invalid(_with_records(tmp_path / "dup.asvlog", log, doubled), capsys, seq=50)


def test_log_show_and_replay(logs, capsys):
    log, _, _ = logs
    assert main(["log", "show", str(log)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(scan_log(log).records)
    assert lines[0].split()[0] == "0" and "hello" in lines[0]
    assert any(" action " in ln and "draw-tile" in ln for ln in lines)
    shuffles = [ln for ln in lines if " shuffle " in ln]
    assert shuffles and all("proof checked" in ln for ln in shuffles)
    assert main(["replay", str(log), "--to", "120"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("after seq 120")
    grid = [ln for ln in out.splitlines() if ln[:4].strip().isdigit()]
    # the REPL's board: each row labelled at both ends (SPEC §27.8)
    assert len(grid) == 13 and all(ln.split()[0] == ln.split()[-1] for ln in grid)
    assert "score" in out


def test_record_helper_matches_the_file_format(logs):
    log, _, _ = logs
    scan = scan_log(log)
    assert log.read_bytes()[scan.offsets[1]:scan.offsets[2]] == _record(scan.records[1])
