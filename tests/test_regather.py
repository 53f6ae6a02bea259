"""Coming back to a game everyone has left (SPEC §29.15): the first to resume waits and
says for whom; the others' resumes find it at its old port; the game goes on to the end.
Real peers over loopback TCP through the cli's own host/join flows (Space Walk: short)."""
from __future__ import annotations

import io
import socket
from pathlib import Path

import pytest
import trio

from cli.main import build_parser
from cli.netplay.host import host_game
from cli.netplay.invite import Invite
from cli.netplay.join import join_game
from cli.netplay.printer import Printer
from cli.netplay.peer_book import own_port
from cli.netplay.regather import NobodyBack
from cli.games.space_walk.adapter import SpaceWalkRules
from tests.net_helpers import wait_until
from protocol.session import verify_log

# players who left finding each other again over TCP: end to end, so `make check` leaves it out (SPEC §35.4)
pytestmark = pytest.mark.e2e

LIMIT = 90   # the whole test, on a loaded machine


class Terminal(io.StringIO):
    """Output that says it is a terminal, so the wait draws its countdown in place."""

    def isatty(self) -> bool:
        return True


def lines_printer() -> tuple[Printer, list[str]]:
    printer, lines = Printer(None), []
    printer.say = lines.append
    return printer, lines


async def play_until_all_stop(tmp_path: Path, seats: int, height: int) -> list[Path]:
    """A Space Walk game of `seats` peers (host + joiners, random bots, each its own key and
    log folder); every peer is stopped at once when all hold `height` events."""
    nodes = []
    host_args = build_parser().parse_args(
        ["host", "--game", "space-walk", "--seats", str(seats), "--bot", "random", "--new-key", "--quiet",
         "--listen", "127.0.0.1", "--log-dir", str(tmp_path / "p0"), "--seed", "s0"])
    async with trio.open_nursery() as nursery:
        scopes = []

        async def run(flow, args, task_status=trio.TASK_STATUS_IGNORED):
            with trio.CancelScope() as scope:
                scopes.append(scope)
                await flow(args, printer=Printer(None), ready=task_status.started)

        host = await nursery.start(run, host_game, host_args)
        nodes.append(host)
        invite = Invite("127.0.0.1", host.mesh.address[1], host.game, host.identity.fingerprint).text()
        for i in range(1, seats):
            args = build_parser().parse_args(
                ["join", invite, "--bot", "random", "--new-key", "--quiet", "--listen", "127.0.0.1",
                 "--log-dir", str(tmp_path / f"p{i}"), "--seed", f"s{i}"])
            nodes.append(await nursery.start(run, join_game, args))
        await wait_until(lambda: all(n.height >= height for n in nodes), step=0.005)
        assert not any(n.over for n in nodes)
        for scope in scopes:      # everyone leaves
            scope.cancel()
    return [n.log_path for n in nodes]


def resume_args(log: Path, *extra: str, listen: bool = True):
    """A resume's arguments; listen=False leaves --listen out (the log's book decides)."""
    where = ["--listen", "127.0.0.1"] if listen else []
    return build_parser().parse_args(["join", "--resume", str(log), "--bot", "random", "--quiet", *where,
                                      "--log-dir", str(log.parent), *extra])


def resumer(said: list, finals: list, *extra: str, listen: bool = True):
    """A nursery task resuming a log with a bot: its printed lines go to `said`, its node,
    once the game is over, to `finals`."""
    async def resume(log, task_status=trio.TASK_STATUS_IGNORED):
        printer, lines = lines_printer()
        said.append(lines)
        task_status.started()
        finals.append(await join_game(resume_args(log, *extra, listen=listen), printer=printer))
    return resume


async def test_three_players_who_all_left_come_back_one_after_another_and_finish(tmp_path):
    with trio.fail_after(LIMIT):
        logs = await play_until_all_stop(tmp_path, 3, 40)
        ports = [own_port(log) for log in logs]
        assert all(ports)
        said: list[list[str]] = []
        finals = []
        async with trio.open_nursery() as nursery:
            resume = resumer(said, finals, "--resume-wait", "60")
            await nursery.start(resume, logs[0])
            await wait_until(lambda: any("nobody of this game is here yet" in t for t in said[0]))
            await trio.sleep(0.3)
            await nursery.start(resume, logs[1])
            await wait_until(lambda: any(" is back: the game goes on" in t for t in said[0]))
            await trio.sleep(0.3)
            await nursery.start(resume, logs[2])
    first = next(t for t in said[0] if "nobody of this game is here yet" in t)
    assert f"listening on port {ports[0]}" in first          # where the others kept it
    assert "waiting up to 1:00 for" in first and "Ctrl-C leaves" in first
    assert "blue" in first or "yellow" in first or "red" in first, first   # seats by colour, not keys
    assert any(t.endswith(" is here") for t in said[0]), said[0]          # the third, met later
    assert not any("(gone 0 s)" in t for lines in said for t in lines)   # nobody was lost here
    assert all(n.session.finished for n in finals)
    heads = set()
    for log in logs:
        report, _ = verify_log(log, SpaceWalkRules())
        assert report.valid and report.finished and report.exit_code == 0, report
        heads.add(report.head)
    assert len(heads) == 1


async def test_the_first_one_back_alone_never_aborts_and_leaves_its_log_as_it_was(tmp_path):
    """Two players: alone, the returner's own vote would be the whole abort (SPEC §29.6); it
    waits past the silent-peer timeout without voting, then leaves with a plain reason; its
    log is what it was plus, at most, moves of its own it owed meanwhile."""
    with trio.fail_after(LIMIT):
        logs = await play_until_all_stop(tmp_path, 2, 30)
        before = logs[0].read_bytes()
        screen = Terminal()
        printer = Printer(screen, turns=False)
        taken = socket.socket()          # something else took this seat's old port meanwhile
        old_port = own_port(logs[0])
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)   # past the old links' TIME_WAIT
        taken.bind(("127.0.0.1", old_port))
        taken.listen()
        try:
            await join_game(resume_args(logs[0], "--resume-wait", "1.5", "--timeout", "0.2"), printer=printer)
        except BaseException as exc:   # trio wraps what its nursery raised
            from cli.netplay.outcome import user_error
            found = user_error(exc, (NobodyBack,))
            assert found is not None, exc
        else:
            raise AssertionError("a resume with nobody back must end")
        finally:
            taken.close()
    assert "nobody came back within 0:01; your log keeps every event" in str(found)
    shown = screen.getvalue()
    assert f"port {old_port}, where you listened last time, is taken here; listening on " in shown, (old_port, shown)
    assert own_port(logs[0]) not in (0, old_port)    # the book now holds the port it used
    assert "nobody of this game is here yet: waiting up to 0:01 for " in shown
    assert "\rwaiting for " in shown and " left (Ctrl-C leaves)" in shown   # the countdown, in place
    assert "voted" not in shown and "abort" not in shown, shown
    assert logs[0].read_bytes().startswith(before)   # at most this seat's own moves were added
    report, session = verify_log(logs[0], SpaceWalkRules())
    assert report.exit_code == 2 and session.phase != "aborted"      # valid, unfinished, not aborted


def test_ctrl_c_while_waiting_leaves_cleanly_from_the_repl_seat(tmp_path):
    """The REPL seat waits before its prompt opens; Ctrl-C there is one line, exit 1, no
    traceback, and the log is as it was (SPEC §29.15)."""
    import signal
    import subprocess
    import sys
    import time

    logs = trio.run(play_until_all_stop, tmp_path, 2, 20)
    before = logs[0].read_bytes()
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "join", "--resume", str(logs[0]), "--listen",
                             "127.0.0.1", "--log-dir", str(logs[0].parent), "--no-color"],
                            cwd=root, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        deadline = time.monotonic() + 60
        seen = ""
        while "nobody of this game is here yet" not in seen and time.monotonic() < deadline:
            seen += proc.stdout.readline()
        assert "nobody of this game is here yet" in seen, seen
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 1, (out, err)
    assert "interrupted; your log keeps every event written so far" in err and "Traceback" not in err, err
    assert logs[0].read_bytes().startswith(before)


def hold_port(port: int) -> socket.socket:
    """Something else takes this port (past the old links' TIME_WAIT)."""
    taken = socket.socket()
    taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    taken.bind(("127.0.0.1", port))
    taken.listen()
    return taken


async def test_two_returners_who_both_lost_their_old_ports_find_each_other_on_spare_ports(tmp_path, monkeypatch):
    """Both old ports are taken: each listens on its first free spare port, which the other
    works out from the game id and its fingerprint and dials (SPEC §29.15); the game ends.
    Neither gives --listen: the game was played on 127.0.0.1, so each resumes there."""
    import cli.netplay.join
    options = cli.netplay.join.node_options

    def loopback_only(args, seats):   # refused before listening: this test never opens 0.0.0.0
        chosen = options(args, seats)
        assert chosen.host == "127.0.0.1", f"a resume of a 127.0.0.1 game listens on {chosen.host}"
        return chosen
    monkeypatch.setattr(cli.netplay.join, "node_options", loopback_only)
    with trio.fail_after(LIMIT):
        logs = await play_until_all_stop(tmp_path, 2, 30)
        held = [hold_port(own_port(log)) for log in logs]
        try:
            said: list[list[str]] = []
            finals = []
            async with trio.open_nursery() as nursery:
                resume = resumer(said, finals, "--resume-wait", "60", listen=False)
                await nursery.start(resume, logs[0])
                await wait_until(lambda: any("nobody of this game is here yet" in t for t in said[0]))
                await nursery.start(resume, logs[1])
        finally:
            for sock in held:
                sock.close()
    for lines in said:
        assert any("is taken here; listening on" in t and "spare ports" in t for t in lines), lines
    assert all(n.session.finished for n in finals)
    assert [n.mesh.address[0] for n in finals] == ["127.0.0.1", "127.0.0.1"]
    heads = {verify_log(log, SpaceWalkRules())[0].head for log in logs}
    assert len(heads) == 1


async def test_a_returner_whose_log_is_behind_catches_up_quietly_and_shows_where_the_game_is(tmp_path):
    """A log behind the others' (a copy from earlier, a lost tail) catches up many turns at
    once: no progress line for each of them, one line saying so and the current position
    (SPEC §29.7). It printed a 'turn N' line for every turn it caught up."""
    from protocol.log import LogWriter, parse_event
    with trio.fail_after(LIMIT):
        logs = await play_until_all_stop(tmp_path, 2, 60)
        writer = LogWriter(logs[1])
        authors = [parse_event(w).author for w in writer.records]
        behind = next(h for h in range(32, len(authors)) if authors[h] == authors[0])
        writer.truncate(behind)          # the next event is the other seat's: nothing to write alone
        writer.close()
        said: list[list[str]] = []
        async with trio.open_nursery() as nursery:
            async def resume(log, task_status=trio.TASK_STATUS_IGNORED):
                printer, lines = Printer(None, turns=True), []
                printer.say = lines.append
                said.append(lines)
                task_status.started()
                await join_game(resume_args(log, "--resume-wait", "60"), printer=printer)

            await nursery.start(resume, logs[0])
            await wait_until(lambda: any("nobody of this game is here yet" in t for t in said[0]))
            await trio.sleep(0.5)        # the first one back wrote what it owed meanwhile
            ahead = verify_log(logs[0], SpaceWalkRules())[1].state.turns   # where the game is
            await nursery.start(resume, logs[1])
    caught = [t for t in said[1] if t.startswith("caught up with the others")]
    assert len(caught) == 1, said[1]
    turns = [int(t.split()[1]) for t in said[1] if t.startswith("turn ")]
    assert turns and min(turns) >= ahead, (ahead, said[1])    # no line for a turn caught up
