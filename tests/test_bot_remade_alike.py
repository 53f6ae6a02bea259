"""A bot seat's actions are remade alike (SPEC §23.4): the kit's BotAgent decides with a
bot seeded for the height alone, so a peer rebuilt from its log after a power cut that lost
its last actions chooses and signs each of them again byte for byte. Its record is kept in
the secrets file, and a resume with another agent is refused before anything is replayed."""
from __future__ import annotations

import os
import shutil

import pytest

import protocol.log.logfile as logfile
from cli.errors import UserError
from cli.games import kit_for
from cli.games.asv.adapter import AsvRules
from cli.netplay.resume_checks import resumed_bot, take_recorded_bot
from protocol.log import read_secrets, scan_log, secrets_path
from protocol.node import ResumeError, recorded_agent, restore_peer
from protocol.session import EventKind
from protocol.session.peer import REMADE_ALIKE
from cli.games.space_trading_race.adapter import TradingRaceRules
from tests.session_helpers import make_peers, step
from tests.str_session_helpers import str_peers

KIT = kit_for("asv")
REMADE_BEFORE = {"shares"}                      # remade alike before bots' actions were
UNSYNCED = REMADE_ALIKE | {"action"}            # what a bot seat may lose in a power cut


def greedy(k: int):
    return KIT.agent("greedy", f"remade/{k}")


def test_the_greedy_agent_decides_by_its_seed_and_the_height_alone():
    peers = make_peers(AsvRules(), 2, agent_for=greedy)
    while peers[0].phase != "play" or peers[0].pending_obligation() != EventKind.ACTION \
            and peers[1].pending_obligation() != EventKind.ACTION:
        step(peers)
    due = next(p for p in peers if p.pending_obligation() == EventKind.ACTION)
    seat = peers.index(due)
    fresh, used = greedy(seat), greedy(seat)
    for seq in range(40):   # an agent that has decided before answers as a fresh one
        used(due.state, due.view, seq=seq)
    answers = [fresh(due.state, due.view, seq=seq) for seq in range(100, 140)]
    assert answers == [used(due.state, due.view, seq=seq) for seq in range(100, 140)]
    assert answers == [fresh(due.state, due.view, seq=seq) for seq in range(100, 140)]
    assert len(set(answers)) > 1     # the height is part of the seed: ties fall differently
    assert fresh.record == {"bot": "greedy", "seed": f"remade/{seat}"} and not fresh.thinks
    assert KIT.agent("search", "s", iterations=2).record is None   # a thinking bot is not


GAMES = {   # the peers of a two-seat game whose seats are the kit's greedy bots, and its rules
    "asv": (lambda tmp: make_peers(AsvRules(), 2, agent_for=greedy, log_dir=str(tmp)), AsvRules),
    "space-trading-race": (lambda tmp: str_peers(2, tmp, {}), TradingRaceRules),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_bot_seat_rebuilt_after_a_power_cut_signs_its_lost_events_again(tmp_path, monkeypatch, game):
    """Its actions, and its dice chains and openings (SPEC §33.8: a function of the chain
    and the seed kept in the secrets file), are all it may lose, and it signs them again."""
    durable: dict[str, int] = {}

    def recording_fsync(fd: int) -> None:
        path = os.readlink(f"/proc/self/fd/{fd}")
        if os.path.isfile(path):
            durable[path.removesuffix(".tmp")] = os.fstat(fd).st_size

    monkeypatch.setattr(logfile, "_fsync", recording_fsync)
    make, rules = GAMES[game]
    rebuilt, remade = 0, set()
    for game_no in range(4):   # a game may end early (a short race): the next one goes on
        if rebuilt >= 6:
            break
        folder = tmp_path / f"game{game_no}"
        folder.mkdir()
        rebuilt += _cut_and_rebuild(make(folder), folder, durable, rules, remade, 6 - rebuilt)
    assert rebuilt == 6 and "action" in remade
    assert game != "space-trading-race" or "dice-open" in remade


def _cut_and_rebuild(peers, folder, durable, rules, remade, wanted: int) -> int:
    """Plays the game, cutting the power after each step; rebuilds a peer whose cut lost
    more than shares (at most `wanted` times, five steps apart: each replays the game so far)."""
    paths = [str(p.log.path.resolve()) for p in peers]
    assert all(read_secrets(path)["agent"]["bot"] == "greedy" for path in paths)
    rebuilt, last = 0, -5
    for cut in range(3000):
        if all(p.pending_obligation() is None for p in peers) or rebuilt >= wanted:
            break
        step(peers)
        for k, peer in enumerate(peers):
            events = peer.chain.events
            image = folder / f"cut{cut}-peer{k}.asvlog"
            shutil.copyfile(paths[k], image)
            os.truncate(image, durable[paths[k]])          # what a power cut leaves
            kept = scan_log(image).records
            lost = [i for i, ev in enumerate(events) if ev.author == peer.me and i >= len(kept)]
            assert all(events[i].kind in UNSYNCED for i in lost), (cut, k)
            if not any(events[i].kind not in REMADE_BEFORE for i in lost) or rebuilt >= wanted \
                    or cut - last < 5:
                continue
            shutil.copyfile(secrets_path(paths[k]), secrets_path(image))
            os.chmod(secrets_path(image), 0o600)
            back = restore_peer(peer.identity, rules(), image, agent=peer.agent)
            for i in range(len(kept), lost[-1] + 1):
                if i in lost:
                    assert back.act() == events[i].wire, (cut, k, i)
                    remade.add(str(events[i].kind))
                else:
                    back.receive(events[i].wire)
            back.log.close()
            back.secret_store.close()
            rebuilt, last = rebuilt + 1, cut
    for peer in peers:
        peer.log.close()
    return rebuilt


def test_a_resume_with_another_agent_is_refused_and_the_cli_takes_the_recorded_bot(tmp_path):
    peers = make_peers(AsvRules(), 2, agent_for=greedy, log_dir=str(tmp_path))
    for _ in range(30):
        step(peers)
    for p in peers:
        p.log.close()
        p.secret_store.close()
    path = str(peers[1].log.path)
    assert recorded_agent(path) == {"bot": "greedy", "seed": "remade/1"}
    for other in (None, KIT.agent("random", "remade/1"), KIT.agent("greedy", "another seed")):
        with pytest.raises(ResumeError, match="only the same agent makes them again alike"):
            restore_peer(peers[1].identity, AsvRules(), path, agent=other)
    back = restore_peer(peers[1].identity, AsvRules(), path, agent=greedy(1))
    assert back.chain.height == 30
    back.log.close()
    back.secret_store.close()

    class Args:
        resume, bot = path, None
    take_recorded_bot(Args)   # before the command picks a REPL or a bot seat
    assert (Args.bot, Args.bot_line) == ("greedy", "the seat is played by the greedy bot, as before")
    assert resumed_bot(Args, "a fresh tag") == ("greedy", "remade/1")
    Args.bot = "random"
    with pytest.raises(UserError, match="played by the greedy bot"):
        resumed_bot(Args, "a fresh tag")
    Args.bot = "random"
    take_recorded_bot(Args)   # a --bot given is left as it is (and refused above)
    assert (Args.bot, Args.bot_line) == ("random", None)
