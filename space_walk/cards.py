"""The action-card variant (SPEC §44): eight cards each, a face-up pile of one's own, copy."""
from __future__ import annotations

from .actions import Move, PlayCard, Step
from .errors import IllegalAction
from .moves import check_group, check_step, group_moves
from .orbit import CARD_KINDS, SIZES
from .state import State


def copied_effect(state: State, seat: int) -> str | None:
    """What `copy` does now: the effect of the card the previous seat used last (a copied copy
    is what that copy did), or None before that seat has played a card (SPEC §44.3)."""
    return state.last_effect[(seat - 1) % state.players]


def check_card(state: State, seat: int, play: PlayCard):
    """Validate a card play; returns the group order or the stepping ship it needs."""
    kind = CARD_KINDS.index(play.card)
    if state.hands[seat][kind] == 0:
        raise IllegalAction(f"you have no {play.card} card in hand (it is on your discard pile)")
    if play.card == "copy":
        want = copied_effect(state, seat)
        if want is None:
            raise IllegalAction("copy needs a card the previous player used; none yet")
        if play.effect != want:
            raise IllegalAction(f"the previous player's card was {want}, so copy does {want}")
    if play.effect in ("move", "twice"):
        return check_group(state, seat, play.move)
    if play.effect == "step":
        return check_step(state, seat, play.step)
    return None


def discard(state: State, seat: int, play: PlayCard) -> None:
    """The card goes face up on the seat's own pile; an empty hand takes the pile back."""
    kind = CARD_KINDS.index(play.card)
    state.hands[seat][kind] -= 1
    state.discards[seat][kind] += 1
    if sum(state.hands[seat]) == 0:
        state.hands[seat], state.discards[seat] = state.discards[seat], [0] * len(CARD_KINDS)
    state.last_effect[seat] = play.effect


def own_steps(state: State, seat: int) -> list[Step]:
    seen = []
    for square, rank in state.ships_in_orbit(seat):
        step = Step(SIZES[rank], square)
        if step not in seen:
            seen.append(step)
    return seen


def own_group_moves(state: State, seat: int) -> list[Move]:
    return [m for sq, ships in enumerate(state.squares) if any(s == seat for _, s in ships)
            for m in group_moves(state, sq)]


def card_plays(state: State, seat: int) -> list[PlayCard]:
    plays: list[PlayCard] = []
    for kind, count in zip(CARD_KINDS, state.hands[seat]):
        if count == 0:
            continue
        effect = copied_effect(state, seat) if kind == "copy" else kind
        if effect in ("move", "twice"):
            plays += [PlayCard(kind, effect, move=m) for m in own_group_moves(state, seat)]
        elif effect == "step":
            plays += [PlayCard(kind, effect, step=s) for s in own_steps(state, seat)]
        elif effect == "skip":
            plays.append(PlayCard(kind, effect))
    return plays
