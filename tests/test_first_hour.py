"""A newcomer's first hour at the terminal (SPEC §30): each mistake below is one line that
says what to type instead, with a usage exit (2) for a bad argument and 1 otherwise; never
a traceback, and nothing started before the mistake is found. Loopback only, a few seconds."""
from __future__ import annotations

import errno

import pytest

from cli.netplay.error_lines import error_line
from cli.main import main
from protocol.net import CannotListen

FAKE_INVITE = "127.0.0.1:1/" + "0" * 32 + "/AAAA-AAAA-AAAA-AAAA"


def said(capsys, argv: list[str], code: int) -> str:
    """Run `asv ARGV`; its exit code must be `code`; returns what it printed on stderr."""
    with pytest.raises(SystemExit) as ended:
        raise SystemExit(main(argv))
    got = ended.value.code
    err = capsys.readouterr().err + (got if isinstance(got, str) else "")
    assert (1 if isinstance(got, str) else got) == code, (got, err)
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize("argv, words", [
    (["host", "--port", "99999"], "'99999' is not a port: a whole number from 1 to 65535"),
    (["join", "--port", "http"], "'http' is not a port"),
    (["host", "--timeout", "-5"], "'-5' is not a number of seconds above 0"),
    (["host", "--start-after", "-3"], "'-3' is not a number of seconds from 0"),
    (["join", "--resume", "x.asvlog", "--resume-wait", "0"], "'0' is not a number of seconds above 0"),
    (["selfplay", "--games", "0"], "'0' is not a whole number from 1"),
    (["demo", "--timeout", "nan"], "'nan' is not a number of seconds above 0"),
])
def test_a_bad_number_is_refused_before_anything_starts(capsys, argv, words):
    assert words in said(capsys, argv, 2)


def test_a_folder_that_cannot_be_written_is_one_line_at_the_start(capsys, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    for argv, option in [(["selfplay", "--players", "2", "--log-dir"], "--log-dir"),
                         (["demo", "--players", "2", "--out"], "--out"),
                         (["host", "--listen", "127.0.0.1", "--new-key", "--bot", "greedy", "--log-dir"], "--log-dir"),
                         (["join", FAKE_INVITE, "--listen", "127.0.0.1", "--new-key", "--bot", "greedy", "--log-dir"],
                          "--log-dir")]:
        err = said(capsys, argv + [str(blocker / "logs")], 1)
        assert f"cannot write into {option} {blocker / 'logs'}" in err and "give a folder you can write to" in err


def test_an_address_not_of_this_machine_says_to_give_one_of_its_own():
    """(A port in use and an invite where nothing listens: tests/test_network_robustness.py.)"""
    line = error_line(CannotListen("10.9.9.9", 0, "Cannot assign requested address", errno.EADDRNOTAVAIL))
    assert "10.9.9.9 is not an address of this machine" in line and "--listen" in line


def test_resume_of_no_file_a_folder_or_another_seats_log_says_which_file_to_give(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("ASV_HOME", str(tmp_path / "home"))
    base = ["join", "--listen", "127.0.0.1", "--bot", "greedy", "--resume"]
    err = said(capsys, base + [str(tmp_path / "nope.asvlog")], 1)
    assert "there is no file" in err and "--resume takes the log this seat wrote" in err
    assert main(["selfplay", "--game", "space-walk", "--players", "2", "--seed", "3",
                 "--log-dir", str(tmp_path / "logs")]) == 0
    capsys.readouterr()
    err = said(capsys, base + [str(tmp_path / "logs")], 1)
    assert "is a folder (it holds " in err and "-peer0.asvlog" in err
    log = sorted((tmp_path / "logs").glob("*.asvlog"))[0]
    err = said(capsys, base + [str(log)], 1)
    assert "is not a seat of the game in" in err and "--key FILE" in err, err


def test_a_config_folder_that_cannot_be_written_suggests_a_key_for_this_game(capsys, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("ASV_HOME", str(blocker / "asv"))
    err = said(capsys, ["host", "--listen", "127.0.0.1", "--bot", "greedy", "--log-dir", str(tmp_path)], 1)
    assert "cannot keep your identity key in" in err and "--new-key" in err, err


@pytest.mark.e2e
def test_ctrl_c_in_selfplay_is_one_line_not_a_traceback():
    """Ctrl-C in a command with nothing more to say (selfplay, demo, verify): one line, exit
    130 (SPEC §30); it printed a KeyboardInterrupt traceback."""
    import signal
    import subprocess
    import sys
    from pathlib import Path

    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "selfplay", "--players", "2", "--games", "1000"],
                            cwd=Path(__file__).resolve().parent.parent, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().startswith("{")     # a game played: well inside run()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, err
    assert "asv: interrupted (Ctrl-C); stopped" in err and "Traceback" not in err, err


@pytest.mark.e2e
def test_ctrl_d_in_the_hosts_lobby_leaves_rather_than_starting_a_game_alone(tmp_path):
    """Ctrl-D at the creator's terminal before anyone joined started a one-seat game;
    Ctrl-D leaves everywhere else (the REPL), so here too: one line, exit 1 (SPEC §29.2)."""
    import os
    import pty
    import subprocess
    import sys
    from pathlib import Path

    master, slave = pty.openpty()
    host = subprocess.Popen([sys.executable, "-m", "cli.main", "host", "--listen", "127.0.0.1", "--seats", "2",
                             "--bot", "greedy", "--new-key", "--log-dir", str(tmp_path)],
                            cwd=Path(__file__).resolve().parent.parent, stdin=slave, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    os.close(slave)
    try:
        seen = []
        while not any("quit or Ctrl-D: leave" in line for line in seen):
            seen.append(host.stdout.readline())
            assert seen[-1], "".join(seen)
        os.write(master, b"\x04")
        rest = host.communicate(timeout=60)[0]
    finally:
        if host.poll() is None:
            host.kill()
            host.communicate()
        os.close(master)
    assert host.returncode == 1, "".join(seen) + rest
    assert "asv host: left the lobby before the game started" in rest and "Traceback" not in rest, rest
    assert not list(tmp_path.iterdir())      # no game was begun: no log, and no throwaway key (SPEC §29.11)


def test_a_choice_outside_the_list_of_announced_games_says_how_to_go_on(capsys, monkeypatch):
    """`asv join` with no address lists the games on the LAN (SPEC §32.3); a number not on
    the list said only 'no game chosen'."""
    import io

    import cli.commands.join as cmd_join
    from cli.netplay.lan import Announcement
    from cli.main import build_parser

    games = [Announcement(f"127.0.0.1:4000{i}/{'ab' * 16}/AAAA-AAAA-AAAA-AAA{i}", f"host{i}", 2, 1) for i in (2, 3)]
    monkeypatch.setattr(cmd_join, "browse", lambda seconds, interfaces=None: games)
    monkeypatch.setattr("sys.stdin", io.StringIO("7\n"))
    args = build_parser().parse_args(["join", "--listen", "127.0.0.1", "--browse-seconds", "0.1"])
    assert cmd_join.pick_announced(args) is None
    err = capsys.readouterr().err
    assert "'7' is not a number of the list (1-2); run asv join again to pick one" in err, err
    monkeypatch.setattr("sys.stdin", io.StringIO("2\n"))
    assert cmd_join.pick_announced(args) == games[1].invite
