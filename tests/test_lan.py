"""Playing on a LAN (SPEC §29.11, §32): the persistent identity, the invite's address, and
games announced and found by mDNS on 127.0.0.1 only."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from cli.errors import UserError
from cli.netplay.identity_file import choose_identity, user_key_path
from cli.netplay.lan import announce, browse, invite_host, lan_address, mdns_interfaces
from protocol.crypto import Identity

ROOT = Path(__file__).resolve().parents[1]
# seconds to listen for announcements: on loopback the answer to the first query comes in
# well under 0.5 s even on a loaded machine (`asv join` waits 3 s on a real LAN)
BROWSE = 1.0


def test_the_users_key_is_made_once_and_kept(tmp_path, monkeypatch):
    monkeypatch.delenv("ASV_HOME")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    first, said = choose_identity(None, False, "alice", "player")
    assert user_key_path() == tmp_path / "config" / "asv" / "identity.key"
    assert "new key" in said and stat.S_IMODE(os.stat(user_key_path()).st_mode) == 0o600
    again, said = choose_identity(None, False, "", "player")
    assert again.fingerprint == first.fingerprint and "new" not in said   # same friend, same fingerprint
    assert again.name == "alice"
    throwaway, said = choose_identity(None, True, "", "player")
    assert throwaway.fingerprint != first.fingerprint and "this game only" in said


@pytest.mark.e2e
def test_joining_ones_own_game_with_ones_own_key_says_what_to_do(tmp_path):
    me, _ = choose_identity(None, False, "", "player")
    invite = f"127.0.0.1:9/{'ab' * 16}/{me.fingerprint}"
    done = subprocess.run([sys.executable, "-m", "cli.main", "join", invite, "--bot", "greedy", "--listen", "127.0.0.1",
                           "--log-dir", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "the game's creator is you" in done.stderr and "--new-key" in done.stderr


def test_an_invite_never_carries_a_wildcard_address():
    assert invite_host("0.0.0.0", None) == lan_address() != "0.0.0.0"
    assert invite_host("127.0.0.1", None) == "127.0.0.1"
    assert invite_host("0.0.0.0", "192.168.1.20") == "192.168.1.20"
    with pytest.raises(UserError, match="not an address others can dial"):
        invite_host("0.0.0.0", "0.0.0.0")


def test_mdns_goes_only_where_the_game_listens():
    assert mdns_interfaces("127.0.0.1") == ["127.0.0.1"]
    assert mdns_interfaces("0.0.0.0") is None


@pytest.mark.e2e
def test_a_game_announced_on_loopback_is_found_with_its_invite():
    # SAFETY: announce and browse on 127.0.0.1 only (issue 8 item 4)
    game, creator = os.urandom(16), Identity.generate().fingerprint
    announcer = announce("127.0.0.1", 40123, game, creator, "alice", 3, 2, interfaces=["127.0.0.1"])
    try:
        found = browse(BROWSE, interfaces=["127.0.0.1"])
    finally:
        announcer.close()
    mine = [g for g in found if g.invite == f"127.0.0.1:40123/{game.hex()}/{creator}"]
    assert len(mine) == 1
    assert mine[0].host_name == "alice" and (mine[0].seats, mine[0].free) == (3, 2)
    assert "1/3 seats taken" in mine[0].line() and "asv join 127.0.0.1:40123/" in mine[0].line()


@pytest.mark.e2e
def test_join_with_no_address_finds_the_announced_game_and_plays_it(tmp_path):
    """`asv host --announce` and `asv join` with no address, both on 127.0.0.1 only."""
    host = subprocess.Popen([sys.executable, "-m", "cli.main", "host", "--listen", "127.0.0.1", "--announce",
                             "--seats", "2", "--bot", "greedy", "--quiet", "--log-dir", str(tmp_path)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = []
        while not any("announced on the LAN" in line for line in lines):
            line = host.stdout.readline()
            assert line, "".join(lines)
            lines.append(line)
        invite = next(line for line in lines if line.startswith("invite: ")).split("asv join ")[1].strip()
        assert invite.startswith("127.0.0.1:")
        joiner = subprocess.Popen([sys.executable, "-m", "cli.main", "join", "--listen", "127.0.0.1", "--new-key",
                                   "--browse-seconds", str(BROWSE), "--bot", "greedy", "--quiet", "--log-dir", str(tmp_path)],
                                  cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True)
        hang_guard = threading.Timer(120, joiner.kill)
        hang_guard.start()
        try:
            # Loopback mDNS is shared by every process on the machine: another test run's game
            # announced meanwhile is listed too, and then `asv join` asks which (SPEC §32.3).
            # This game's number is answered; alone on the list it is joined without asking.
            said = []
            for line in iter(joiner.stdout.readline, ""):
                said.append(line)
                if f"asv join {invite}" in line and line.strip()[:1].isdigit():
                    joiner.stdin.write(line.strip().split(".", 1)[0] + "\n")
                    joiner.stdin.close()
                    break
            said.append(joiner.stdout.read())
            joiner.wait()
        finally:
            hang_guard.cancel()
            if joiner.poll() is None:
                joiner.kill()
                joiner.wait()
            joiner.stdout.close()
        said = "".join(said)
        assert joiner.returncode == 0, said
        assert f"'s game: asv join {invite}" in said, said          # this game, whatever else was listed
        assert any(f"asv join {invite}" in line and "1/2 seats taken" in line for line in said.splitlines()), said
        assert host.wait(timeout=30) == 0
    finally:
        if host.poll() is None:
            host.kill()
        host.stdout.close()
    assert len(list(tmp_path.glob("*.asvlog"))) == 2


@pytest.mark.e2e
def test_an_announcement_says_how_many_seats_are_still_free():
    game, creator = os.urandom(16), Identity.generate().fingerprint
    announcer = announce("127.0.0.1", 40124, game, creator, "carol", 4, 3, interfaces=["127.0.0.1"])
    try:
        announcer.update(1)
        found = [g for g in browse(BROWSE, interfaces=["127.0.0.1"]) if game.hex() in g.invite]
    finally:
        announcer.close()
    assert [(g.seats, g.free) for g in found] == [(4, 1)]
