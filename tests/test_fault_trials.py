"""The fault trials of issue 24 at small N (SPEC §29.19, §29.21): one trial of each
scenario of benchmarks/fault_trials.py (the same code, tests/fault_trial_helpers.py), and
the torn record that once left a resumed seat behind, made exact."""
from __future__ import annotations

import os
import random

import pytest
import trio

from protocol.log import parse_event
from protocol.log.logfile import scan_log
from tests.fault_trial_helpers import SCENARIOS, Trial, head_of, run_trial, wait_for

pytestmark = pytest.mark.e2e   # whole networked games over loopback TCP


@pytest.mark.parametrize("name", SCENARIOS)
def test_one_fault_trial_ends_without_a_fork_or_a_stall(tmp_path, name):
    forked, stalled = trio.run(run_trial, name, 0.5, random.Random(f"test/{name}"), tmp_path)
    assert (forked, stalled) == (False, False)


async def _torn_own_event(tmp_path, kinds=("shuffle", "shares")):
    """Seat 1 is killed as soon as another peer applied one of its own deck events; its log
    is cut inside that event's record (a torn tail: it and all after it go when the log is
    reopened), and it resumes 0.3 s later. Gives the three heads read back from the logs, the
    lost event, and whether the resumed seat's log holds it again."""
    with trio.fail_after(40):
        async with trio.open_nursery() as nursery:
            t = Trial(nursery, os.urandom(16), tmp_path, 1.0, random.Random(0))
            await t.open()
            victim = t.nodes[1]
            lost = []

            def hook(node, ev, note):
                if not lost and ev.author == victim.me and ev.kind in kinds:
                    lost.append(ev)
                    t.kill(victim)
            for i in (0, 2):
                t.nodes[i].on_applied = hook
            assert await wait_for(lambda: bool(lost), 20)
            await trio.sleep(0.05)   # the killed node closes its files
            scan = scan_log(victim.log_path)
            index = next(k for k, w in enumerate(scan.records) if parse_event(w).hash == lost[0].hash)
            with open(victim.log_path, "r+b") as fh:
                fh.truncate(scan.offsets[index] + 10)
            await trio.sleep(0.3)
            back = await t.resume(1, 0)
            assert await wait_for(lambda: all(n.over for n in t.nodes.values()), 25)
            await wait_for(lambda: len({n.session.chain.head for n in t.nodes.values()}) == 1, 4)
            await trio.sleep(0.2)
            heads = [head_of(n) for n in t.nodes.values()]
            kept = any(parse_event(w).hash == lost[0].hash for w in scan_log(back.log_path).records)
            nursery.cancel_scope.cancel()
    return heads, kept


async def test_a_seat_whose_torn_record_held_its_own_sent_event_catches_up(tmp_path):
    """SPEC §29.21: the others hold the event the torn record lost; the resumed seat asks
    before it writes, takes its own event back and ends at everyone's head (it used to sign
    a new one at that height, with fresh proof nonces, and stay apart for good)."""
    heads, kept = await _torn_own_event(tmp_path)
    assert len(set(heads)) == 1
    assert kept
