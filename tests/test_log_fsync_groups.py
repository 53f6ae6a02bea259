"""Grouped fsyncs lose nothing signed by the peer (SPEC §23.4): a peer fsyncs its own
event before it is sent, but for its shares events and the actions of a remade-alike
agent (a bot seat), and the events of others only with its next synced own event or at
close. A power cut keeps of a file exactly what was fsynced; this test models one after
every event of a game, at every peer, and checks that the image is a prefix of its chain
and reopens cleanly, and that it still holds every event the peer signed, or, for the
events it may have lost, that the peer rebuilt from the image signs each of them again
byte for byte (no second event at a height)."""
from __future__ import annotations

import hashlib
import os
import shutil

import pytest

import protocol.log.logfile as logfile
from protocol.log import LogWriter, scan_log, secrets_path
from protocol.node import restore_peer
from protocol.session import EventKind
from protocol.session.peer import REMADE_ALIKE
from tests.session_helpers import make_peers, step
from tests.toy_game import ToyRules, play_own_card


class SeededToyBot:
    """A remade-alike toy agent: plays its card or passes, by a hash of its seed and the
    height alone (as cli.games.kit.BotAgent decides by a bot seeded for the height)."""
    thinks = False

    def __init__(self, seed: str) -> None:
        self.record = {"bot": "toy", "seed": seed}

    def __call__(self, state, view, *, seq: int) -> str:
        if hashlib.sha256(f"{self.record['seed']}@{seq}".encode()).digest()[0] & 1:
            return play_own_card(state, view)
        return "pass"


@pytest.mark.parametrize("seats", ["plain agents", "remade-alike bots"])
def test_a_power_cut_after_any_event_keeps_every_event_the_peer_signed(tmp_path, monkeypatch, seats):
    durable: dict[str, int] = {}   # path -> bytes on the disk (as of its last fsync)
    appends = fsyncs = 0

    def recording_fsync(fd: int) -> None:
        nonlocal fsyncs
        fsyncs += 1
        path = os.readlink(f"/proc/self/fd/{fd}")
        if os.path.isfile(path):                     # a header is fsynced as NAME.tmp, then renamed
            durable[path.removesuffix(".tmp")] = os.fstat(fd).st_size

    real_append = logfile.LogWriter.append

    def counting_append(self, wire, *, sync=True):
        nonlocal appends
        appends += 1
        real_append(self, wire, sync=sync)

    monkeypatch.setattr(logfile, "_fsync", recording_fsync)
    monkeypatch.setattr(logfile.LogWriter, "append", counting_append)
    bots = seats == "remade-alike bots"
    def agent_for(k: int):
        return SeededToyBot(f"toy/{k}") if bots else play_own_card
    unsynced = REMADE_ALIKE | {EventKind.ACTION} if bots else REMADE_ALIKE
    peers = make_peers(ToyRules(), 3, agent_for=agent_for, log_dir=str(tmp_path))
    paths = [str(p.log.path.resolve()) for p in peers]
    remade: dict[str, int] = {}
    for cut in range(10_000):
        if all(p.pending_obligation() is None for p in peers):
            break
        step(peers)
        for k, peer in enumerate(peers):
            image = tmp_path / f"cut{cut}-peer{k}.asvlog"
            shutil.copyfile(paths[k], image)
            os.truncate(image, durable[paths[k]])          # what a power cut leaves
            kept = scan_log(image).records
            chain = [ev.wire for ev in peer.chain.events]
            assert kept == chain[:len(kept)]                # a prefix: nothing reordered
            lost = [i for i, ev in enumerate(peer.chain.events) if ev.author == peer.me and i >= len(kept)]
            assert all(peer.chain.events[i].kind in unsynced for i in lost), (cut, k)
            LogWriter(image).close()                         # and the image reopens
            if lost:   # rebuilt from the image and the others' events, it signs the same again
                shutil.copyfile(secrets_path(paths[k]), secrets_path(image))
                os.chmod(secrets_path(image), 0o600)
                os.truncate(secrets_path(image), durable[str(secrets_path(paths[k]))])
                back = restore_peer(peer.identity, ToyRules(), image, agent=agent_for(k))
                for i in range(len(kept), lost[-1] + 1):
                    if i in lost:
                        assert back.act() == chain[i], (cut, k, i)
                        kind = str(peer.chain.events[i].kind)
                        remade[kind] = remade.get(kind, 0) + 1
                    else:
                        back.receive(chain[i])
                back.log.close()
    assert cut > 20 and fsyncs < appends                   # a real game, and fewer fsyncs
    assert remade.get("shares", 0) > 0                     # a shares event was lost, and signed again
    assert (remade.get("action", 0) > 0) == bots            # and a bot's action, but never a plain agent's
    for peer in peers:
        peer.log.close()                                   # close() fsyncs the rest
    for k, peer in enumerate(peers):
        assert durable[paths[k]] == os.path.getsize(paths[k])
        assert scan_log(paths[k]).records == [ev.wire for ev in peer.chain.events]
