"""Helpers for the network-play tests (SPEC §29): bot nodes on loopback, started and
stopped by the test itself."""
from __future__ import annotations

from pathlib import Path

import trio

from cli.games import kit_for
from cli.games.asv.adapter import AsvRules
from protocol.crypto import Identity
from protocol.node import Node, NodeOptions

bot_agent = kit_for("asv").agent   # a session Agent for a bot seat


def bot_node(i: int, game: bytes, log_dir: Path, *, seats: int | None = None, peer=None, identity=None,
             creator: "Node | None" = None, **opts) -> Node:
    """A creator (no `creator` given) or a joiner of `creator`'s game (SPEC §29.2)."""
    options = NodeOptions(**{"seats": seats, "keepalive": 0.5, "peer_timeout": 5.0, **opts})
    identity = identity or Identity.generate(f"bot{i}")
    return Node(identity, AsvRules(), game, log_dir, agent=bot_agent("greedy", f"test/{i}"),
                options=options, peer=peer, creator=None if creator is None else creator.identity.fingerprint)


class Runner:
    """Starts nodes in a nursery, each under its own cancel scope (so one can be killed)."""

    def __init__(self, nursery: trio.Nursery) -> None:
        self.nursery = nursery
        self.scopes: dict[int, trio.CancelScope] = {}

    async def start(self, node: Node) -> Node:
        async def run(task_status=trio.TASK_STATUS_IGNORED):
            with trio.CancelScope() as scope:
                self.scopes[id(node)] = scope
                await node.run(task_status=task_status)
        await self.nursery.start(run)
        return node

    def kill(self, node: Node) -> None:
        self.scopes[id(node)].cancel()


async def open_game(runner: Runner, n: int, game: bytes, log_dir: Path, *, make=bot_node, **opts) -> list[Node]:
    """A creator and n-1 joiners through the creator; started once the seats are full.
    `make(i, game, log_dir, seats=, creator=, **opts)` makes seat i's node (bot_node's
    signature; the fault trials pass their own)."""
    creator = await runner.start(make(0, game, log_dir, seats=n, **opts))
    nodes = [creator]
    for i in range(1, n):
        node = await runner.start(make(i, game, log_dir, creator=creator, **opts))
        await node.connect(*creator.mesh.address)
        nodes.append(node)
    creator.start(await creator.wait_lobby_full())
    return nodes


async def wait_until(predicate, step: float = 0.02) -> None:
    while not predicate():
        await trio.sleep(step)
