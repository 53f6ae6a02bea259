"""Grouped fsyncs lose nothing signed by the peer (SPEC §23.4): a peer fsyncs its own
event before it is sent, but for its shares events, and the events of others only with
its next synced own event or at close. A power cut keeps of a file exactly what was
fsynced; this test models one after every event of a game, at every peer, and checks that
the image is a prefix of its chain and reopens cleanly, and that it still holds every
event the peer signed, or, for the shares events it may have lost, that the peer rebuilt
from the image signs each of them again byte for byte (no second event at a height)."""
from __future__ import annotations

import os
import shutil

import protocol.log.logfile as logfile
from protocol.log import LogWriter, scan_log, secrets_path
from protocol.node._resume import restore_peer
from protocol.session.peer import REMADE_ALIKE
from tests.session_helpers import make_peers, step
from tests.toy_game import ToyRules, play_own_card


def test_a_power_cut_after_any_event_keeps_every_event_the_peer_signed(tmp_path, monkeypatch):
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
    peers = make_peers(ToyRules(), 3, agent_for=lambda k: play_own_card, log_dir=str(tmp_path))
    paths = [str(p.log.path.resolve()) for p in peers]
    remade = 0
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
            assert all(peer.chain.events[i].kind in REMADE_ALIKE for i in lost), (cut, k)
            LogWriter(image).close()                         # and the image reopens
            if lost:   # rebuilt from the image and the others' events, it signs the same again
                shutil.copyfile(secrets_path(paths[k]), secrets_path(image))
                os.chmod(secrets_path(image), 0o600)
                os.truncate(secrets_path(image), durable[str(secrets_path(paths[k]))])
                back = restore_peer(peer.identity, ToyRules(), image, agent=play_own_card)
                for i in range(len(kept), lost[-1] + 1):
                    if i in lost:
                        assert back.act() == chain[i], (cut, k, i)
                        remade += 1
                    else:
                        back.receive(chain[i])
                back.log.close()
    assert cut > 20 and fsyncs < appends                   # a real game, and fewer fsyncs
    assert remade > 0                                      # a shares event was lost, and signed again
    for peer in peers:
        peer.log.close()                                   # close() fsyncs the rest
    for k, peer in enumerate(peers):
        assert durable[paths[k]] == os.path.getsize(paths[k])
        assert scan_log(paths[k]).records == [ev.wire for ev in peer.chain.events]
