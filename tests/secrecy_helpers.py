"""A staged Amazing Space Venture game that moves hidden cards between players early and
often, for the card-secrecy tests (SPEC §25.7, issue 24).

Stacking: every shuffle keeps its order (an honest, proven shuffle whose permutation is the
identity), and the Refuel deck's contents are reordered so that each seat's opening hand
holds hidden-card Special Actions (Science Outpost, Trading Post, Espionage, The Scavenger);
every seat starts with Automata (looks at the Space Port deck) and City of Banks (blind take
and `give`) in front of it, and the Space Port deck holds only its first eight cards. Bots
play those whenever they can. So within a few hundred events cards pass from one player's
knowledge to another's in every way the game has.
"""
from __future__ import annotations

import dataclasses

from cli.games.asv.adapter import AsvRules
from p2p_asv import actions as A
from p2p_asv.bots import GreedyBot
from p2p_asv.engine import legal_actions
from protocol.poker import deck as mp
from tests.session_helpers import make_peers, step

HIDDEN = ("Science Outpost", "Trading Post", "Espionage", "The Scavenger")
PORT_CARDS = 8


class StagedRules(AsvRules):
    def new_state(self, players, config):
        st = super().new_state(players, config)
        for p in st.players:
            p.continuing.extend(["Automata", "City of Banks"])
        i = next(k for k, r in enumerate(st.pending) if r.deck == "refuel")
        contents = list(st.pending[i].contents)
        for seat in range(players):   # the opening hands are dealt ten a seat from the top
            for j, name in enumerate((HIDDEN * 2)[seat:seat + 3]):
                contents.remove(name)
                contents.insert(seat * 10 + j, name)
        st.pending[i] = dataclasses.replace(st.pending[i], contents=tuple(contents))
        # a short Space Port deck, so the cards an Automata look showed soon reach another seat
        i = next(k for k, r in enumerate(st.pending) if r.deck == "port")
        port = st.pending[i]
        st.decks["port"] = st.decks["port"][:PORT_CARDS]
        st.pending[i] = dataclasses.replace(port, handles=port.handles[:PORT_CARDS], contents=port.contents[:PORT_CARDS])
        return st


def eager_agent(seed: str):
    """A greedy bot that moves hidden cards whenever it can, seeded by its seat (the seats
    are drawn by commit-reveal, so a lobby seed would make every run another game)."""
    bots: dict[int, GreedyBot] = {}

    def agent(state, view):
        for action in legal_actions(state, view):
            if (isinstance(action, A.PlaySpecial) and action.name in HIDDEN
                    or isinstance(action, (A.Bank, A.LookAutomata))):
                return action.text()
        bot = bots.setdefault(view.seat, GreedyBot(f"{seed}/{view.seat}"))
        return bot.choose(state, view).text()
    return agent


def play_staged(monkeypatch, players: int, events: int, log_dir=None):
    """The peers of a staged game after `events` events (or its end)."""
    from protocol.poker.shuffle import shuffle_deck as shuffle
    monkeypatch.setattr(mp, "shuffle_deck", lambda deck, key: shuffle(deck, key, permutation=range(len(deck))))
    peers = make_peers(StagedRules(), players, agent_for=lambda k: eager_agent("staged"),
                       game=bytes(16), log_dir=log_dir)
    for _ in range(events):
        if not any(p.pending_obligation() is not None for p in peers):
            break
        step(peers)
    return peers
