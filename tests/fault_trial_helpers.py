"""The fault trials of SPEC §29.19 and §29.21, shared by `benchmarks/fault_trials.py` (20
trials of each, the counts printed) and `tests/test_fault_trials.py` (one of each, asserted).

Each trial is a three-seat game of the toy card game (tests/toy_game.py, 35 events) between
in-process Nodes over loopback TCP, with a short silent-peer timeout, and one fault injected:

  think-illegal     the seat due at a random action stays connected and "thinks" for
                    2.5 timeouts, then signs an illegal action
  think-disconnect  the same seat thinks 2.5 timeouts, then disconnects for good
  vote-and-refuse   the seat due is late at one peer only (its turn clock ran out there);
                    a third seat votes it silent, applies its event anyway, refuses the
                    vote, and writes the abort with both votes
  lost-halt         a seat signs an illegal action; the first halt writer's halt is lost
                    on its way (it reached nobody)
  crashed-voter     the due seat disconnects; the first abort writer crashes right after
                    its vote went out, and resumes later
  kill-two          two seats are killed at a random height (cancelled, sockets closed)
                    and resumed from their logs
  torn-record       one seat is killed at a random height, the last record of its log is
                    torn (a random number of its bytes cut), and it resumes

`run_trial` gives (forked, stalled): honest forks are honest peers whose logs, read back
from disk after the game settled, end at different heads; a stall is an honest peer not
done within the bound (12 timeouts + 12 s). A killed seat is honest once resumed: its
resumed log counts. "kill" is in-process (the node's task cancelled, its connections
closed), not an OS kill -9: every event a node logged is on disk (fsync before send),
which is what a kill -9 leaves too; the torn record stands for a write cut short, or a
disk that lost the last write after it was sent.
"""
from __future__ import annotations

import os
import random
import time
from pathlib import Path

import trio

from protocol.crypto import Identity
from protocol.log import sign_event
from protocol.node import Node, NodeOptions, restore_peer
from protocol.session.abort import ABORT_KIND, VOTE_BASE, abort_writers, make_vote, voters
from protocol.session.halt import HALT_KIND
from protocol.session.verify import verify_log
from tests.net_helpers import Runner, open_game
from tests.session_helpers import craft
from tests.toy_game import ToyRules, play_own_card

__all__ = ["SCENARIOS", "Trial", "run_trial", "head_of", "wait_for"]

RULES = ToyRules()
SCENARIOS = ["think-illegal", "think-disconnect", "vote-and-refuse", "lost-halt", "crashed-voter",
             "kill-two", "torn-record"]


class Trial(Runner):
    """One game: its nodes (by seat index), how to kill and restart them, the fault plan."""

    def __init__(self, nursery: trio.Nursery, game: bytes, log_dir: Path, timeout: float, rng: random.Random):
        super().__init__(nursery)
        self.game, self.log_dir, self.timeout, self.rng = game, log_dir, timeout, rng
        self.identities = [Identity.from_seed(os.urandom(32), f"seat{i}") for i in range(3)]
        self.nodes: dict[int, Node] = {}      # the live (or last) node of each seat
        self.honest: set[int] = {0, 1, 2}
        self.killed: set[int] = set()        # id() of the nodes killed
        self.returning: set[int] = set()     # seats to be resumed shortly
        self.crash_after: tuple[int, str] | None = None   # (seat whose first writer crashes, on what kind)

    def crashes(self, node: Node) -> str | None:
        """The kind of wire at whose sending `node` crashes: it is the first writer after
        the seat named in `crash_after`, once the roster is known."""
        if self.crash_after is None or node.session is None or node.session.roster is None:
            return None
        bad, kind = self.crash_after
        first = abort_writers(node.session.roster, self.identities[bad].public_key_bytes)[0]
        return kind if node.me == first else None

    def options(self, seats=None) -> NodeOptions:
        t = self.timeout
        return NodeOptions(seats=seats, keepalive=0.2, peer_timeout=max(1.0, 2 * t), timeout=t,
                           resync=min(0.5, t), linger=max(3.0, 6 * t))

    def kill(self, node: Node) -> None:
        super().kill(node)
        self.killed.add(id(node))

    def crash_and_return(self, node: Node, after: float = 0.3) -> None:
        """Kill `node` now and resume its seat from its log `after` seconds later."""
        self.kill(node)
        self.returning.add(node.seat_index)

        async def later():
            await trio.sleep(after)
            live = [j for j, n in self.nodes.items() if id(n) not in self.killed]
            await self.resume(node.seat_index, live[0])
            self.returning.discard(node.seat_index)
        self.nursery.start_soon(later)

    async def open(self, kinds: dict[int, type] | None = None) -> None:
        """Seat i is a `kinds[i]` (a Node subclass below), else a plain Node."""
        kinds = kinds or {}

        def make(i, game, log_dir, *, seats=None, creator=None):
            node = kinds.get(i, Node)(self.identities[i], RULES, game, log_dir, agent=play_own_card,
                                      options=self.options(seats=seats),
                                      creator=None if creator is None else creator.identity.fingerprint)
            node.trial, node.seat_index = self, i
            return node
        for i, node in enumerate(await open_game(self, 3, self.game, self.log_dir, make=make)):
            self.nodes[i] = node

    async def resume(self, i: int, via: int) -> Node:
        old = self.nodes[i]
        peer = restore_peer(old.identity, RULES, old.log_path, agent=play_own_card)
        node = Node(old.identity, RULES, self.game, self.log_dir, agent=play_own_card, options=self.options(),
                    peer=peer)
        await self.start(node)
        try:
            await node.connect(*self.nodes[via].mesh.address)
        except Exception:   # noqa: BLE001 - that peer may have closed: try the other
            other = next(j for j in range(3) if j not in (i, via))
            await node.connect(*self.nodes[other].mesh.address)
        self.nodes[i] = node
        return node

    def seat_of_key(self, key: bytes) -> int:
        return next(i for i, ident in enumerate(self.identities) if ident.public_key_bytes == key)


def action_due(node: Node) -> bool:
    s = node.session
    return s is not None and s.phase == "play" and s.pending_obligation() == "action"


class Insider(Node):
    """Stays connected and thinks 2.5 timeouts at its `trigger`-th action, then signs an
    illegal action ("illegal") or disconnects ("disconnect"); writes nothing after."""
    mode = "illegal"
    trigger = 0

    async def _act_while_due(self) -> None:
        if getattr(self, "fired", False):
            return
        if action_due(self):
            if self.trigger > 0:
                self.trigger -= 1
            else:
                self.fired = True
                await trio.sleep(2.5 * self.options.timeout)
                if self.mode == "illegal":
                    await self.mesh.broadcast(craft(self.session, lambda b: b.update(a="play #99:card:z")))
                else:
                    self.trial.kill(self)
                return
        await super()._act_while_due()


class Cheater(Node):
    """Signs an illegal action at its first action, at once."""

    async def _act_while_due(self) -> None:
        if getattr(self, "fired", False):
            return
        if action_due(self):
            self.fired = True
            await self.mesh.broadcast(craft(self.session, lambda b: b.update(a="play #99:card:z")))
            return
        await super()._act_while_due()


class CrashOnSend(Node):
    """If it is the first writer the trial names: its first halt is lost on the way (it
    stays up), or it crashes right after its abort vote went out and resumes 0.3 s later."""

    def _wrap(self) -> None:
        crash_on = self.trial.crashes(self)
        if getattr(self, "_wrapped", False) or crash_on is None:
            return
        self._wrapped = True
        real = self.mesh.broadcast

        async def broadcast(ev, **options):
            kind = getattr(ev, "kind", None)
            if kind == HALT_KIND and crash_on == HALT_KIND and not getattr(self, "lost_one", False):
                self.lost_one = True
                return 0                   # the halt is lost on its way: nobody gets it
            n = await real(ev, **options)
            if kind == "abort-vote" and crash_on == "abort-vote":
                await trio.sleep(0.05)     # the vote leaves, then the crash
                self.trial.crash_and_return(self)
                await trio.sleep_forever()
            return n
        self.mesh.broadcast = broadcast

    async def _act_while_due(self) -> None:
        self._wrap()
        await super()._act_while_due()


class Vanisher(Node):
    """Disconnects for good at its `trigger`-th action."""
    trigger = 0

    async def _act_while_due(self) -> None:
        if action_due(self):
            if self.trigger > 0:
                self.trigger -= 1
            else:
                self.trial.kill(self)
                await trio.sleep_forever()
        await super()._act_while_due()


class SlowOnce(Node):
    """Thinks 1.5 timeouts at its first action, then writes it as usual (an honest seat
    that is merely late; one peer's turn clock says it ran out)."""

    async def _act_while_due(self) -> None:
        if action_due(self) and not getattr(self, "slowed", False):
            self.slowed = True
            self.trial.late = (self.me, self.height)
            await trio.sleep(1.5 * self.options.timeout)
        await super()._act_while_due()


class Liar(Node):
    """Votes the late seat silent as soon as another seat's vote arrives, yet applies its
    event and refuses the vote when it comes (the honest refusal, §29.6), then writes the
    abort carrying its own vote and the other's."""

    def _on_statement(self, ev) -> None:
        late = getattr(self.trial, "late", None)
        if ev.kind == "abort-vote" and late is not None and ev.author != self.me \
                and ev.seq == VOTE_BASE + late[1] and not hasattr(self, "stolen"):
            self.stolen = ev
            s = self.session
            prev = s.chain.events[late[1] - 1].hash
            self.own_vote = make_vote(self.identity, self.game, late[1], prev, late[0])
            self._outbox.append(self.own_vote)
        super()._on_statement(ev)

    async def _act_while_due(self) -> None:
        if hasattr(self, "stolen") and not hasattr(self, "aborted_at") and self.height > self.trial.late[1]:
            self.aborted_at = time.monotonic()
            await trio.sleep(0.3)    # the refusal goes first
            silent, h = self.trial.late
            s = self.session
            by = {self.me: self.own_vote, self.stolen.author: self.stolen}
            abort = sign_event(self.identity, self.game, h, s.chain.events[h - 1].hash if h else bytes(32),
                               ABORT_KIND, {"silent": silent,
                                            "votes": [by[k].wire for k in voters(s.roster, silent)]})
            await self.mesh.broadcast(abort)
        await super()._act_while_due()


def head_of(node: Node) -> str:
    report, _ = verify_log(node.log_path, RULES)
    return report.head


async def wait_for(pred, limit: float) -> bool:
    with trio.move_on_after(limit):
        while not pred():
            await trio.sleep(0.02)
        return True
    return False


async def run_trial(name: str, timeout: float, rng: random.Random, log_dir: Path) -> tuple[bool, bool]:
    """(forked, stalled) for one trial of scenario `name`."""
    bound = 12 * timeout + 12.0
    async with trio.open_nursery() as nursery:
        t = Trial(nursery, os.urandom(16), log_dir, timeout, rng)
        everyone = {i: CrashOnSend for i in range(3)}
        if name in ("think-illegal", "think-disconnect"):
            bad = rng.randrange(3)
            Insider.mode = "illegal" if name == "think-illegal" else "disconnect"
            Insider.trigger = 0
            await t.open({bad: Insider})
            t.honest.discard(bad)
        elif name == "vote-and-refuse":
            late, liar = rng.sample(range(3), 2)
            await t.open({late: SlowOnce, liar: Liar})
            other = next(i for i in range(3) if i not in (late, liar))
            voter = t.nodes[other]
            voter.overtime = lambda key: (10 * timeout if getattr(t, "late", None) == (key, voter.height) else 0.0)
            t.honest.discard(liar)
        elif name == "lost-halt":
            bad = rng.randrange(3)
            t.crash_after = (bad, HALT_KIND)
            await t.open({**everyone, bad: Cheater})
            t.honest.discard(bad)
        elif name == "crashed-voter":
            gone = rng.randrange(3)
            t.crash_after = (gone, "abort-vote")
            await t.open({**everyone, gone: Vanisher})
            t.honest.discard(gone)
        else:   # kill-two, torn-record
            await t.open()
            at = rng.randrange(6, 34)
            victims = rng.sample(range(3), 2 if name == "kill-two" else 1)
            killed = []

            def kill_at(node, ev, note):   # at once: polling let a fast game end first
                if not killed and ev.seq + 1 >= at:
                    killed.append(ev.seq)
                    for i in victims:
                        t.kill(t.nodes[i])
            for n in t.nodes.values():
                n.on_applied = kill_at
            await wait_for(lambda: bool(killed), bound)
            await trio.sleep(0.05)
            if name == "torn-record":
                path = t.nodes[victims[0]].log_path
                size = path.stat().st_size
                if size > 200:
                    with open(path, "r+b") as fh:
                        fh.truncate(size - rng.randrange(1, 60))
            await trio.sleep(1.6 * timeout)
            survivor = next(i for i in range(3) if i not in victims)
            for i in victims:
                await t.resume(i, survivor)
        stalled = not await wait_for(lambda: not t.returning and all(t.nodes[i].over for i in t.honest), bound)
        # let competing ends settle while the peers linger, then read every honest log back
        await wait_for(lambda: len({n.session.chain.head for n in (t.nodes[i] for i in t.honest)}) == 1,
                       3 * timeout + 1.0)
        await trio.sleep(0.3)
        heads = {head_of(t.nodes[i]) for i in t.honest}
        nursery.cancel_scope.cancel()
    return len(heads) > 1, stalled
