"""Grouped fsyncs lose nothing signed by the peer (SPEC §23.4): a peer fsyncs its own
event before it is sent, and the events of others only with its next own event or at
close. A power cut keeps of a file exactly what was fsynced; this test models one after
every event of a game, at every peer, and checks that the image still holds every event
the peer signed (and sent), is a prefix of its chain, and reopens cleanly."""
from __future__ import annotations

import os
import shutil

import protocol.log.logfile as logfile
from protocol.log import LogWriter, scan_log
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
            own = [i for i, ev in enumerate(peer.chain.events) if ev.author == peer.me]
            assert not own or len(kept) > own[-1], (cut, k)  # every event it signed is kept
            LogWriter(image).close()                         # and the image reopens
    assert cut > 20 and fsyncs < appends                   # a real game, and fewer fsyncs
    for peer in peers:
        peer.log.close()                                   # close() fsyncs the rest
    for k, peer in enumerate(peers):
        assert durable[paths[k]] == os.path.getsize(paths[k])
        assert scan_log(paths[k]).records == [ev.wire for ev in peer.chain.events]
