"""SPEC §12.3: every world the search bot samples is a rearrangement of the true cards. Seeded
greedy games (Special Actions, discards, Space Junk reshuffled into Refuel, blind takes,
Trading Post, The Scavenger, Espionage come up in them) are stopped at many decisions and a
world is drawn from every seat's view: no card name is held by more handles than the card
list has copies of it once the cards on the table are counted, and every identity the view
or the public knows is kept."""
from __future__ import annotations

from collections import Counter

import pytest

from p2p_asv.bots import GreedyBot
from p2p_asv.cards import REFUEL_DECK, SPACE_PORT_DECK
from p2p_asv.dealer import LocalDealer
from p2p_asv.engine import apply, to_move
from p2p_asv.search.determinise import live_handles, sample_identities, setup_layout, table_cards
from p2p_asv.search.rng import FastRandom
from p2p_asv.setup import ROOKIE_ROLE, new_game
from p2p_asv.state import CHANCE
from p2p_asv.view import PlayerView

CARD_LIST = Counter(REFUEL_DECK + SPACE_PORT_DECK)

# (players, seed, config): each has a Space Junk reshuffle and public cards junked before it;
# the old determiniser (reshuffles drawn only from cards that left play unseen) gave a second
# copy of a card in the 3- and 4-player games.
GAMES = [(3, 2, {}), (4, 3, {}), (2, 4, {}), (3, 7, {"role_play": True, "captain_rookie": True})]


def _cards(identity: dict, state, live) -> Counter:
    """Card names under live handles (tiles and quests left out) plus the cards on the table."""
    held = Counter(identity[h] for h in live if identity.get(h) in CARD_LIST)
    return held + Counter(table_cards(state, live))


def _card_list(state) -> Counter:
    """The card list; in role play the explorers are roles, out of the decks (Captain Rookie
    too, unless dealt)."""
    groups, _ = setup_layout(len(state.players), state.variants)
    decks = Counter(n for deck, _, contents in groups if deck in ("refuel", "port") for n in contents)
    decks["Star-T Ship"] += len(state.players)
    if any(p.role == ROOKIE_ROLE for p in state.players):
        decks[ROOKIE_ROLE] += 1
    return decks


@pytest.mark.parametrize("players, seed, config", GAMES)
def test_every_world_holds_each_card_no_more_often_than_the_game_has_it(players, seed, config):
    state, dealer = new_game(players, config), LocalDealer(seed)
    views = [PlayerView(s) for s in range(players)]
    bots = [GreedyBot(f"{seed}/{s}") for s in range(players)]
    decisions = checked = fresh_checked = 0
    while not state.over:
        seat = to_move(state)
        if seat != CHANCE:
            decisions += 1
            if decisions % 11 == 0:
                live = live_handles(state)
                whole = _card_list(state)
                truth = {h: dealer.identity.get(h) or state.names.get(h) for h in live}
                assert _cards(truth, state, live) == whole   # the true game: the count is exact
                for s, view in enumerate(views):
                    identity = sample_identities(state, view, FastRandom(seed, f"{decisions}/{s}"))
                    held = _cards(identity, state, live)
                    assert all(held[n] <= CARD_LIST[n] for n in held), held - CARD_LIST
                    assert held == whole, (held - whole, whole - held)
                    for h in live:
                        name = state.names.get(h) or view.known.get(h)
                        assert name is None or identity[h] == name
                    checked += 1
                    fresh_checked += any(h >= setup_layout(players, state.variants)[1] for h in live)
        action = dealer.outcome(state, views) if seat == CHANCE else bots[seat].choose(state, views[seat])
        apply(state, seat, action)
    assert checked > 20 and fresh_checked > 5   # the checks ran, after reshuffles too
