"""Special Action cards and the response windows they open (SPEC §14.2-§14.3), and the
discovery's offers (SPEC §8.2), all on one poll stack.

One mechanism carries every out-of-turn answer: a Poll asks seats in order, each passing or
playing a card. A card played anywhere goes on top as a "respond" poll that asks every other
seat from the player's left; when all have passed the card takes effect, unless a cancel
answered it. Moment windows (after a move, a planet card, a negative environment, a life
form, a scored planet) ask who may play a card that fits that moment. An offer asks the
discoverer, then every other seat from its left, for an environment or a life form card.
"""
from __future__ import annotations

from .actions import Discard, Pass, PlaySpecial
from .cards import CARD_BY_NAME, SPECIAL_ACTION
from .checks import card_claim, play_from_hand, require
from .special_rules import (CANCELS, CONSPIRACY, EFFECTS, ONLY_IF_CANCELLED, SNEAK_ATTACK, check,
                            counts_against_limit, junk, may_play_another, redirected)
from .state import GameState, Poll, Window
from . import hidden_specials  # noqa: F401  (registers the hidden-card rules, SPEC §14.9)
from .hidden_specials import ANSWER_KINDS, do_forced_discard, do_pick

LORD_DEWAR = "Lord DeWar"
RESUME: dict = {}   # what an interrupted turn does when a window closes; filled by discovery
# The discovery's offers (SPEC §8.2): windows answered with an environment or life form card.
OFFER_KINDS = (Window.ENVIRONMENT, Window.LIFE_FORM)


def others_from_left(state: GameState, seat: int) -> tuple[int, ...]:
    n = len(state.players)
    return tuple((seat + i) % n for i in range(1, n))


def _unsneaked(state: GameState, seats) -> tuple[int, ...]:
    """SPEC §14.4: after Sneak Attack nobody but the active seat answers anything this turn."""
    return tuple(s for s in seats if not state.sneak or s == state.active)


def open_moment(state: GameState, kind: str, origin: int, seats, resume: str | None = None,
                action=None, targets=()) -> None:
    """Ask `seats` in order whether they play a card fitting this moment (SPEC §14.5); with
    nobody to ask the turn goes straight on."""
    seats = _unsneaked(state, seats)
    if not seats:
        _resume(state, resume)
        return
    state.polls.append(Poll(kind, origin, seats, action, tuple(targets), 0, resume))


def open_offer(state: GameState, kind: str, discoverer: int, resume: str) -> None:
    """SPEC §8.2: ask the discoverer, then every other seat from its left. Sneak Attack does
    not shorten an offer: answering it is not a response to a Special Action (SPEC §14.4)."""
    state.polls.append(Poll(kind, discoverer, (discoverer,) + others_from_left(state, discoverer),
                            resume=resume))


def offer_open(state: GameState, kind: str) -> bool:
    return bool(state.polls) and state.polls[-1].kind == kind


def close_offer(state: GameState) -> None:
    """The first card played closes the offer: every seat counts as answered, so the offer
    leaves the stack (and the discovery goes on) once the windows the card opens are settled."""
    top = state.polls[-1]
    top.asked = len(top.seats)


def _resume(state: GameState, resume: str | None) -> None:
    if resume is not None:
        RESUME[resume](state)


def polled(state: GameState) -> int:
    top = state.polls[-1]
    return top.seats[top.asked]


def do_special(state: GameState, seat: int, action: PlaySpecial) -> None:
    card_claim(state, seat, action.card, action.name, SPECIAL_ACTION)
    poll = state.polls[-1] if state.polls else None
    if poll is not None:
        require(seat == polled(state), "it is not your turn to answer")
    limited = counts_against_limit(action.name) and not (poll is not None and poll.kind == Window.RESPOND)
    require(not limited or may_play_another(state, seat),
            "one Special Action a turn (Sneak Attack allows a second)")
    targets = check(state, seat, action, poll)
    play_from_hand(state, seat, action.card, action.name)
    if limited:
        state.specials_used.append(seat)
    if CARD_BY_NAME[action.name].only_action and action.name not in ONLY_IF_CANCELLED:
        state.only_action = action.name     # cancelled or not (SPEC §14.4)
    player = state.players[seat]
    if player.role == LORD_DEWAR and not state.variants.advanced:
        player.gain(1, "role")          # SPEC §14.7: +1 for every Special Action card played
    if poll is not None:
        poll.asked += 1                 # this seat has answered the window
    open_response(state, seat, action, targets)


def open_response(state: GameState, seat: int, action: PlaySpecial, targets) -> None:
    """The card's respond window over itself, asking every other seat from the player's left
    (none after Sneak Attack); with nobody to ask, the card takes effect at once."""
    answer = Poll(Window.RESPOND, seat, _unsneaked(state, others_from_left(state, seat)), action, tuple(targets))
    if action.name == SNEAK_ATTACK or not answer.seats:
        _resolve(state, answer)
    else:
        state.polls.append(answer)


def do_poll_pass(state: GameState, seat: int, action: Pass) -> None:
    require(seat == polled(state), "it is not your turn to answer")
    require(state.polls[-1].kind not in ANSWER_KINDS, "this window must be answered, not passed")
    state.polls[-1].asked += 1
    settle(state)


def do_answer(state: GameState, seat: int, action) -> None:
    """The one-seat follow-up of Espionage, The Scavenger or Trading Post (SPEC §14.9)."""
    require(bool(state.polls) and state.polls[-1].kind in ANSWER_KINDS and seat == polled(state),
            "nothing of yours to answer with that")
    kind = state.polls[-1].kind
    require((kind == Window.ESPIONAGE) == isinstance(action, Discard),
            "answer Espionage with discard, The Scavenger and Trading Post with pick")
    (do_forced_discard if kind == Window.ESPIONAGE else do_pick)(state, seat, action)
    settle(state)


def settle(state: GameState) -> None:
    """Close every window that has asked all its seats, innermost first."""
    while state.polls and state.polls[-1].asked >= len(state.polls[-1].seats):
        top = state.polls.pop()
        if top.kind == Window.RESPOND:
            _resolve(state, top)
        else:
            _resume(state, top.resume)   # may open a new window, asked from its start


def _resolve(state: GameState, poll: Poll) -> None:
    """A card that nobody cancelled takes effect (SPEC §14.3)."""
    action, seat = poll.action, poll.seat
    below = state.polls[-1] if state.polls else None
    if action.name in CANCELS or (action.name == CONSPIRACY and not action.args):
        cancelled = state.polls.pop()   # the card this one answered
        junk(state, cancelled.action.card)
        junk(state, action.card)
        if cancelled.action.name in ONLY_IF_CANCELLED and cancelled.seat == state.active:
            state.only_action = cancelled.action.name   # SPEC §14.4: only tiles are left
    elif action.name == CONSPIRACY:
        new = int(action.args[0][1:])
        below.action = redirected(below.action, new)
        below.targets, below.asked = (new,), 0   # the new target may answer in turn
        junk(state, action.card)
    elif not EFFECTS[action.name](state, seat, action, below):
        junk(state, action.card)
    settle(state)
