"""Space Trading Race session peers for tests and benchmarks (SPEC §59.2): bot peers in one
process, each with its own log and secrets file, exchanging real signed events through memory;
and the house rule the secrecy test and benchmarks/str_leaving_reads.py stage their games with."""
from __future__ import annotations

import os

from cli.games import kit_for
from cli.games.space_trading_race.adapter import TradingRaceRules
from protocol.crypto import Identity
from protocol.log import LogWriter, SecretsFile
from protocol.session import SessionPeer
from space_trading_race import legal_actions
from space_trading_race.actions import EXCHANGE

KIT = kit_for("space-trading-race")


def str_peers(n: int, tmp_path, config: dict, kinds=("greedy",), key_base: int = 40, *, rules_cls=TradingRaceRules,
              agent_for=None, name: str = "p", prefix: str = "peer") -> list[SessionPeer]:
    """n peers of one fresh game, keys from key_base; `agent_for(k)` makes seat k's agent
    (default: the kit's bot of kinds[k % len(kinds)]); logs are TMP/{prefix}{k}.asvlog."""
    game = os.urandom(16)
    ids = [Identity.from_seed(bytes([i + key_base]) * 32, f"{name}{i}") for i in range(n)]
    roster = [i.public_key_bytes for i in ids]
    peers = []
    for k, ident in enumerate(ids):
        path = os.path.join(tmp_path, f"{prefix}{k}.asvlog")
        agent = agent_for(k) if agent_for is not None else KIT.agent(kinds[k % len(kinds)], f"s/{k}")
        peers.append(SessionPeer(ident, rules_cls(), game, roster, dict(config),
                                 log=LogWriter(path, game), secrets=SecretsFile(path, game), agent=agent))
    return peers


class ExchangeAtEarth(TradingRaceRules):
    """A house rule: a seat that ends its round-1 turn still holding its setup mission
    (handles 0..n-1 are dealt at setup) is offered the exchange at Earth instead, so setup
    missions go under the pile with the other seats' shares of them in the log."""
    name = TradingRaceRules.name

    @staticmethod
    def offers_exchange(state, seat: int, text: str) -> bool:
        return text == "end" and state.round == 1 and 0 <= state.hand[seat] < state.players

    def apply_action(self, state, seat, action):
        text = action if isinstance(action, str) else action.text()
        if self.offers_exchange(state, seat, text):
            state.stage = "exchange"
            return
        super().apply_action(state, seat, action)


def exchanging(seed: str):
    """The greedy bot, except that it always takes the exchange when offered."""
    bot = KIT.agent("greedy", seed)

    def agent(state, view):
        return EXCHANGE.text() if EXCHANGE in legal_actions(state, view) else bot(state, view)
    agent.thinks = False
    return agent
