"""`asv demo`, `asv host`/`asv join` as separate OS processes, and the REPL seat over the
network driver (SPEC §29.5, §29.9)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input

from cli.main import build_parser
from cli.netplay.seat import play_networked
from cli.netplay.invite import parse_invite
from protocol.session import verify_log
from cli.games.asv.adapter import AsvRules
from tests.log_helpers import verify_logs
from tests.test_repl import ScriptedRepl, plain_turn_line, window_line

# asv processes playing over TCP: end to end, so `make check` leaves it out (SPEC §35.4)
pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[1]


def asv(*argv: str) -> list[str]:
    return [sys.executable, "-m", "cli.main", *argv]


def test_asv_demo_plays_over_tcp_between_processes_and_verifies(tmp_path):
    out = tmp_path / "logs"
    done = subprocess.run(asv("demo", "--players", "2", "--out", str(out)), cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    text = done.stdout
    assert "turn   1" in text and "tiles left" in text and "scores" in text
    assert "Final scoreboard" in text and "Winner:" in text
    assert "verdict: all 2 logs valid with the same head" in text
    # one line per setup stage, then the game (issue 22 item 9): no line per shuffle or join
    setup = text[:text.index("turn   1")]
    assert " by seat " not in text and text.count("decks shuffled: ") == 1, text
    assert "all 2 peers joined" in setup and "joined (" not in text and "you are " not in text
    # the title, the logs, and six stages; the host's spectator invite (SPEC §29.16) is one more
    assert len([ln for ln in setup.splitlines() if ln.strip()]) <= 9, setup
    logs = sorted(out.glob("*.asvlog"))
    assert len(logs) == 2
    reports = verify_logs(logs, AsvRules)
    assert all(r.exit_code == 0 for r in reports) and len({r.head for r in reports}) == 1


@pytest.mark.parametrize("text, host, port, game, who", [
    ("asv join 10.0.0.5:4242/" + "ab" * 16 + "/MFRG-GZDF-MZTW-Q2LK", "10.0.0.5", 4242, bytes([0xab]) * 16,
     "MFRG-GZDF-MZTW-Q2LK"),
    ("127.0.0.1:9", "127.0.0.1", 9, None, None),
])
def test_invites_parse(text, host, port, game, who):
    inv = parse_invite(text)
    assert (inv.host, inv.port, inv.game, inv.creator) == (host, port, game, who)
    assert parse_invite(inv.text()) == inv


@pytest.mark.parametrize("bad", ["nohost", "h:0/ab", "h:1/zz", "h:1/abcd", "h:1/" + "00" * 16 + "/f/x"])
def test_bad_invites_say_why(bad):
    with pytest.raises(ValueError):
        parse_invite(bad)


def one_network_turn(repl) -> str:
    """Play the human seat's first turn with the first legal choices; quit when it is
    due again in a later turn (the bot has then played over the network)."""
    state, seat = repl.driver.state(), repl.driver.seat
    if state.active != seat:               # asked in the bot's turn: a window, a discovery, its card (SPEC §14.2)
        repl.answers = [*getattr(repl, "answers", []), len(repl.typed)]    # the index this line gets
        return window_line(repl)
    first = getattr(repl, "first_turn", None)
    if first is None:
        first = repl.first_turn = state.turn
    if state.turn > first:
        return "quit"
    return plain_turn_line(repl)


def test_repl_seat_plays_a_full_turn_against_a_bot_peer(tmp_path):
    args = build_parser().parse_args(["host", "--listen", "127.0.0.1", "--seats", "2", "--bots", "1", "--name", "alice",
                                      "--log-dir", str(tmp_path)])
    from prompt_toolkit.output import DummyOutput
    with create_pipe_input() as pipe:
        code = play_networked(args, host=True, input=pipe, output=DummyOutput(), color=False,
                              repl_class=lambda driver, **kw: ScriptedRepl(driver, pipe, one_network_turn,
                                                                           history=kw["history"]))
    repl = play_networked.last_repl
    typed, text = repl.typed, "\n".join(repl.transcript)
    assert code == 1                           # the human left before the end
    own = [t for i, t in enumerate(typed) if i not in getattr(repl, "answers", [])]   # this seat's turn
    assert own[0].startswith("draw-tile") and "next" in typed and typed[-1] == "quit"
    assert any(t.startswith(("place", "scrap")) for t in typed)
    assert "you: next" in text and "left the game" in text
    bot_colour = [c for i, c in enumerate(repl.driver.colours) if i != repl.driver.seat][0]
    assert f"{bot_colour} [{bot_colour[0].upper()}] (bot1-greedy): draw-tile" in text       # the bot peer played its turn
    assert "you receive: #" in text                                 # dealt to this seat only
    # the human's own log holds its signed actions and verifies as a valid prefix
    logs = [p for p in tmp_path.glob("*.asvlog")]
    assert len(logs) == 2
    for p in logs:
        report, session = verify_log(p, AsvRules())
        assert report.valid and report.exit_code == 2


def test_a_joiner_killed_with_sigkill_resumes_through_a_peer_other_than_the_host(tmp_path):
    """A host process with one in-process bot and a joiner process: three peers; the
    joiner learns the bot's address from the host (peer exchange). kill -9 mid-game, then
    `asv join --resume LOG` with no address: the peers kept beside the log are tried in
    turn (a dead one, then the host's bot, the host's own address left out), the game
    finishes, both processes exit 0 and all three logs verify with one head (SPEC §29.7,
    §29.12); resuming the finished game says so and exits 0. (A joiner that plays to the
    end uninterrupted: test_lan's join with no address.)"""
    import json
    import signal
    import socket
    import time
    host = subprocess.Popen(asv("host", "--listen", "127.0.0.1", "--seats", "3", "--bots", "1", "--bot", "greedy", "--quiet",
                                "--log-dir", str(tmp_path), "--timeout", "60"),
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    mine = tmp_path / "joiner"
    try:
        line = host.stdout.readline()
        assert line.startswith("invite: asv join "), line
        invite = line.split("invite: asv join ", 1)[1].strip()
        assert parse_invite(invite).creator is not None
        joiner = subprocess.Popen(asv("join", invite, "--new-key", "--listen", "127.0.0.1", "--bot", "greedy", "--quiet", "--log-dir", str(mine)),
                                  cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            logs = list(mine.glob("*.asvlog"))
            if logs and logs[0].stat().st_size > 60_000:
                break
            time.sleep(0.05)
        joiner.send_signal(signal.SIGKILL)
        joiner.wait()
        log = next(mine.glob("*.asvlog"))
        assert verify_log(log, AsvRules())[0].exit_code == 2        # a valid prefix
        book = Path(str(log) + ".peers")
        host_port = int(invite.split("/")[0].rsplit(":", 1)[1])
        others = [e for e in json.loads(book.read_text()) if e["port"] != host_port]
        assert others, book.read_text()                             # the bot, learnt by peer exchange
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        dead = s.getsockname()[1]
        s.close()
        book.write_text(json.dumps([{"fingerprint": "", "host": "127.0.0.1", "port": dead}, *others]))
        # no --bot: the seat goes on with the bot its secrets file names (SPEC §23.4)
        back = subprocess.run(asv("join", "--listen", "127.0.0.1", "--resume", str(log),
                                  "--quiet", "--log-dir", str(mine)),
                              cwd=ROOT, capture_output=True, text=True, timeout=240)   # the rest of a 3-seat game, on a loaded machine
        assert back.returncode == 0, back.stdout + back.stderr
        assert "events replayed" in back.stdout
        assert "the seat is played by the greedy bot, as before" in back.stdout
        assert f"no answer at 127.0.0.1:{dead}" in back.stdout and "trying the next peer" in back.stdout
        assert host.wait(timeout=30) == 0
    finally:
        if host.poll() is None:
            host.kill()
        host.stdout.close()
    reports = verify_logs([*tmp_path.glob("*.asvlog"), *mine.glob("*.asvlog")], AsvRules)
    assert len(reports) == 3 and all(r.exit_code == 0 for r in reports)
    assert len({r.head for r in reports}) == 1
    again = subprocess.run(asv("join", "--listen", "127.0.0.1", "--resume", str(log), "--bot", "greedy"),
                           cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert again.returncode == 0 and "Traceback" not in again.stderr, again.stdout + again.stderr
    assert "is already over; nothing to rejoin" in again.stdout and "Final scoreboard" in again.stdout


def test_the_creator_starts_early_with_the_players_present(tmp_path):
    """SPEC §29.2: `--start-after` starts before the seats are full; the game runs with the
    seats actually taken (host + one in-process bot of four seats offered)."""
    done = subprocess.run(asv("host", "--listen", "127.0.0.1", "--seats", "4", "--bots", "1", "--bot", "greedy", "--quiet",
                              "--start-after", "0.5", "--log-dir", str(tmp_path)),
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "starting early with 2 of 4 seats" in done.stdout
    reports = verify_logs(sorted(tmp_path.glob("*.asvlog")), AsvRules)
    assert len(reports) == 2 and all(r.exit_code == 0 for r in reports)
    assert len({r.head for r in reports}) == 1


def test_the_creator_types_start_at_its_terminal(tmp_path):
    """SPEC §29.2: a host at a terminal starts the game by typing 'start'."""
    import os
    import pty
    master, slave = pty.openpty()
    host = subprocess.Popen(asv("host", "--listen", "127.0.0.1", "--seats", "3", "--bots", "1", "--bot", "greedy", "--quiet",
                                "--log-dir", str(tmp_path)),
                            cwd=ROOT, stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    os.close(slave)
    try:
        seen = []
        while not any("type 'start'" in line for line in seen):
            seen.append(host.stdout.readline())
            assert seen[-1], "".join(seen)
        os.write(master, b"start\n")
        rest = host.communicate(timeout=120)[0]
        assert host.returncode == 0, "".join(seen) + rest
        assert "starting early with 2 of 3 seats" in rest
    finally:
        if host.poll() is None:
            host.kill()
        os.close(master)
    assert len(list(tmp_path.glob("*.asvlog"))) == 2


def test_a_solitaire_host_starts_at_once_and_finishes(tmp_path):
    """SPEC §13.1, §29.3: one seat is a full lobby; the game must not wait for joiners."""
    done = subprocess.run(asv("host", "--listen", "127.0.0.1", "--seats", "1", "--bot", "greedy", "--quiet", "--log-dir", str(tmp_path)),
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    [log] = tmp_path.glob("*.asvlog")
    assert verify_log(log, AsvRules())[0].exit_code == 0
