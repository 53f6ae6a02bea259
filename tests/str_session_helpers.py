"""Space Trading Race session peers for tests (SPEC §59.2): bot peers in one process, each with
its own log and secrets file, exchanging real signed events through memory."""
from __future__ import annotations

import os

from cli.games import kit_for
from cli.games.space_trading_race.adapter import TradingRaceRules
from protocol.crypto import Identity
from protocol.log import LogWriter, SecretsFile
from protocol.session import SessionPeer

KIT = kit_for("space-trading-race")


def str_peers(n: int, tmp_path, config: dict, kinds=("greedy",), key_base: int = 40) -> list[SessionPeer]:
    game = os.urandom(16)
    ids = [Identity.from_seed(bytes([i + key_base]) * 32, f"p{i}") for i in range(n)]
    roster = [i.public_key_bytes for i in ids]
    peers = []
    for k, ident in enumerate(ids):
        path = os.path.join(tmp_path, f"peer{k}.asvlog")
        peers.append(SessionPeer(ident, TradingRaceRules(), game, roster, dict(config),
                                 log=LogWriter(path, game), secrets=SecretsFile(path, game),
                                 agent=KIT.agent(kinds[k % len(kinds)], f"s/{k}")))
    return peers
