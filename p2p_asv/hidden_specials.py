"""The Special Actions that move hidden cards (SPEC §14.9): Espionage, Science Outpost,
The Scavenger and Trading Post.

Every look and every blind pick goes through chance requests (SPEC §10.2), so in networked
play the mental-poker decks carry them: a private look is a deal to the looker (then a deal
back to the holder, so the protocol's record of who holds each card stays true), a blind pick
follows a reshuffle of the holder's hand under fresh handles. Each card's follow-up is a
one-seat window (`state.polls`) that the seat must answer: `discard …` or `pick …`.
"""
from __future__ import annotations

from itertools import combinations

from .actions import Discard, Pick, PlaySpecial
from .blind_take import deal_hidden
from .checks import require
from .special_rules import (AIMED_AT_A_SEAT, EFFECTS, _OWN_CHECKS, _arity, _handle, _seat_arg,
                            junk, tiles_done)
from .state import REFILL, ChanceRequest, GameState, Poll, Window
from .variants import may_exchange

ESPIONAGE, SCIENCE_OUTPOST = "Espionage", "Science Outpost"
SCAVENGER, TRADING_POST = "The Scavenger", "Trading Post"
ANSWER_KINDS = (Window.ESPIONAGE, Window.SCAVENGE, Window.TRADE)   # windows that must be answered, never passed


def _check_aimed(state: GameState, seat: int, action: PlaySpecial, redirect=False) -> tuple:
    _arity(action, 1)
    require(tiles_done(state), f"{action.name} is played after the tiles")
    target = _seat_arg(state, action.args[0])
    require(target != seat, f"{action.name} is played on another player")
    return (target,)


def _check_scavenger(state: GameState, seat: int, action: PlaySpecial, redirect=False) -> tuple:
    _arity(action, 0)
    require(tiles_done(state), "The Scavenger is played after the tiles")
    require(bool(state.decks["junk"]), "Space Junk is empty")
    return ()


def partners(state: GameState, a: int, b: int) -> bool:
    return not may_exchange(state.variants, a, b)


def _check_trading_post(state: GameState, seat: int, action: PlaySpecial, redirect=False) -> tuple:
    require(len(action.args) >= 2, "Trading Post names a player and the cards you give")
    require(state.variants.advanced and tiles_done(state) or state.phase == REFILL,
            "Trading Post is played after your other phases (phase 5)")
    target = _seat_arg(state, action.args[0])
    require(target != seat, "trade with another player")
    require(not partners(state, seat, target), "partners cannot exchange cards (SPEC §13.4)")
    given = [_handle(t) for t in action.args[1:]]
    hand = state.players[seat].hand
    require(len(set(given)) == len(given), "a card is named twice")
    require(all(h in hand and h != action.card for h in given), "give cards from your own hand")
    if not redirect:
        require(len(given) <= len(state.players[target].hand), "that player holds fewer cards")
    return (target,)


_OWN_CHECKS.update({ESPIONAGE: _check_aimed, SCIENCE_OUTPOST: _check_aimed, SCAVENGER: _check_scavenger,
                    TRADING_POST: _check_trading_post})
assert set(AIMED_AT_A_SEAT) == {ESPIONAGE, SCIENCE_OUTPOST, "Shift of Funds", TRADING_POST}


def _hidden(state: GameState, handles) -> tuple[int, ...]:
    """Handles whose identity is not public: only these need dealing for a look."""
    return tuple(h for h in handles if h not in state.names)


def _effect_espionage(state: GameState, seat: int, action: PlaySpecial, below) -> None:
    victim = int(action.args[0][1:])
    count = (len(state.players[victim].hand) + 1) // 2     # half, rounding up
    if count:
        state.polls.append(Poll(Window.ESPIONAGE, seat, (victim,), action, (count,)))


def _effect_science_outpost(state: GameState, seat: int, action: PlaySpecial, below) -> None:
    victim = int(action.args[0][1:])
    hand = _hidden(state, state.players[victim].hand)
    if hand:
        state.pending.append(ChanceRequest("deal", "look", hand, seat=seat))
        state.pending.append(ChanceRequest("deal", "look", hand, seat=victim))   # holder record


def _effect_scavenger(state: GameState, seat: int, action: PlaySpecial, below) -> bool:
    seen = _hidden(state, state.decks["junk"])
    if seen:
        state.pending.append(ChanceRequest("deal", "look", seen, seat=seat))
    state.polls.append(Poll(Window.SCAVENGE, seat, (seat,), action, ()))
    return True      # it goes to Space Junk once a card is taken for it


def _effect_trading_post(state: GameState, seat: int, action: PlaySpecial, below) -> None:
    target = int(action.args[0][1:])
    given = [h for h in (_handle(t) for t in action.args[1:]) if h in state.players[seat].hand]
    hand = state.players[target].hand
    count = min(len(given), len(hand))
    if not count:
        return
    fresh = list(range(state.next_handle, state.next_handle + len(hand)))
    state.next_handle += len(hand)
    state.pending.append(ChanceRequest("shuffle", "hand", tuple(fresh), source=tuple(hand)))
    state.pending.append(ChanceRequest("deal", "hand", tuple(fresh), seat=target))
    state.players[target].hand = fresh
    state.polls.append(Poll(Window.TRADE, seat, (seat,), PlaySpecial(action.card, action.name,
                                                                 action.args[:1] + tuple(
                                                                     f"#{h}" for h in given[:count])),
                            (target,)))


EFFECTS.update({ESPIONAGE: _effect_espionage, SCIENCE_OUTPOST: _effect_science_outpost,
                SCAVENGER: _effect_scavenger, TRADING_POST: _effect_trading_post})


# -- the follow-ups --------------------------------------------------------------------------
def do_forced_discard(state: GameState, seat: int, action: Discard) -> None:
    """Espionage: the victim discards exactly half its hand, face down, choosing which."""
    poll = state.polls[-1]
    count = poll.targets[0]
    hand = state.players[seat].hand
    require(len(action.cards) == count, f"discard exactly {count} cards (Espionage)")
    require(len(set(action.cards)) == count and all(h in hand for h in action.cards),
            "discard cards from your own hand, each once")
    for h in action.cards:
        hand.remove(h)
        junk(state, h)
    state.polls.pop()


def do_pick(state: GameState, seat: int, action: Pick) -> None:
    poll = state.polls[-1]
    require(len(set(action.cards)) == len(action.cards), "a card is named twice")
    if poll.kind == Window.SCAVENGE:
        require(len(action.cards) == 1, "The Scavenger takes one card")
        require(action.cards[0] in state.decks["junk"], "take a card that is in Space Junk")
        state.decks["junk"].remove(action.cards[0])
        state.players[seat].hand.append(action.cards[0])
        junk(state, poll.action.card)
        state.polls.pop()
        return
    target = poll.targets[0]
    given = [_handle(t) for t in poll.action.args[1:]]
    theirs = state.players[target].hand
    require(len(action.cards) == len(given), f"pick {len(given)} card(s), as many as you give")
    require(all(h in theirs for h in action.cards), "pick from that player's hand")
    mine = state.players[seat].hand
    for h in action.cards:
        theirs.remove(h)
        mine.append(h)
    for h in given:
        mine.remove(h)
        theirs.append(h)
    deal_hidden(state, "hand", action.cards, seat)
    deal_hidden(state, "hand", given, target)
    state.polls.pop()


def answer_actions(state: GameState, seat: int) -> list:
    """Legal answers in a one-seat window that must be answered."""
    poll = state.polls[-1]
    if poll.kind == Window.ESPIONAGE:
        return [Discard(c) for c in combinations(sorted(state.players[seat].hand), poll.targets[0])]
    if poll.kind == Window.SCAVENGE:
        return [Pick((h,)) for h in state.decks["junk"]]
    k = len(poll.action.args) - 1
    return [Pick(c) for c in combinations(sorted(state.players[poll.targets[0]].hand), k)]
