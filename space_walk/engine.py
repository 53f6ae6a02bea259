"""The front door of the Space Walk engine (SPEC §41-§46): who moves, what is legal, apply.

`apply` validates first and mutates only a legal action, so a refused action (a typed
SpaceWalkError) leaves the state exactly as it was.
"""
from __future__ import annotations

from .actions import Action, Move, Pass, Place, PlayCard, TokenMove, TokenStep, parse_action
from .cards import card_plays, check_card, discard, own_group_moves, own_steps
from .errors import IllegalAction, MalformedAction, OutOfTurn
from .moves import check_group, check_step, move_group, move_one
from .orbit import COLOURS, SIZES
from .scoring import check_end, finish, turn_limit_reached
from .state import Due, Phase, State

__all__ = ["to_move", "legal_actions", "apply", "parse_action", "can_use_token"]


def to_move(state: State) -> int | None:
    """The seat that writes next, or None when the game is over (there is no chance)."""
    if state.over:
        return None
    return state.window[0] if state.due == Due.WINDOW else state.seat


def can_use_token(state: State, seat: int) -> bool:
    """One token a round, while any are left and the seat has a ship to use it on (SPEC §43.3)."""
    return (not state.action_cards and state.tokens[seat] > 0 and not state.token_used[seat]
            and bool(state.ships_in_orbit(seat)))


def legal_actions(state: State, seat: int) -> list[Action]:
    """Every legal action of `seat` now, in a fixed order; [] when it is not due."""
    if to_move(state) != seat:
        return []
    if state.due == Due.PLACE:
        return [Place(SIZES[rank], sq) for sq in range(state.orbit.length) if not state.orbit.is_hole(sq)
                for rank in range(len(SIZES))
                if state.reserve[seat][rank] and all(r != rank for r, _ in state.squares[sq])]
    if state.due == Due.TURN and state.action_cards:
        return card_plays(state, seat)
    if state.due in (Due.TURN, Due.SECOND):
        return own_group_moves(state, seat)
    actions: list[Action] = [Pass()]
    actions += [TokenStep(s) for s in own_steps(state, seat)]
    if state.extra_turn_seat == seat:
        actions += [TokenMove(m) for m in own_group_moves(state, seat)]
    return actions


def apply(state: State, seat: int, action: Action) -> None:
    """Apply one action of `seat`; raises MalformedAction, OutOfTurn or IllegalAction."""
    due = to_move(state)
    if due is None:
        raise OutOfTurn("the game is over")
    if seat != due:
        raise OutOfTurn(f"{COLOURS[due]} (seat {due}) acts now, not seat {seat}")
    handler = _HANDLERS.get((state.due, type(action)))
    if state.due == Due.TURN and (type(action) is PlayCard) != state.action_cards:
        handler = None
    if handler is None:
        raise OutOfTurn(f"{type(action).__name__} is not what is due now: {_due_words(state)}")
    handler(state, seat, action)
    state.events += 1


def _due_words(state: State) -> str:
    if state.due == Due.WINDOW:
        extra = ", `token move SQUARE`" if state.extra_turn_seat == state.window[0] else ""
        return f"use a token (`token step SIZE SQUARE`{extra}) or `pass`"
    return {Due.PLACE: "place a ship (`place SIZE SQUARE`)",
            Due.TURN: "play a card (`card ...`)" if state.action_cards else "move a group (`move SQUARE`)",
            Due.SECOND: "the second group move of twice (`move SQUARE`)"}[state.due]


# -- placement (SPEC §42.1) -----------------------------------------------------------------
def _place(state: State, seat: int, action: Place) -> None:
    rank = SIZES.index(action.size)
    if not 0 <= action.square < state.orbit.length:
        raise IllegalAction(f"there is no square {action.square + 1} (the orbit has {state.orbit.length})")
    if state.orbit.is_hole(action.square):
        raise IllegalAction(f"square {action.square + 1} is a black hole")
    if state.reserve[seat][rank] == 0:
        raise IllegalAction(f"all your {action.size} ships are placed")
    if any(r == rank for r, _ in state.squares[action.square]):
        raise IllegalAction(f"square {action.square + 1} already holds a {action.size} ship")
    state.reserve[seat][rank] -= 1
    state.squares[action.square].append((rank, seat))
    state.squares[action.square].sort()
    if any(any(r) for r in state.reserve):
        state.seat = (seat + 1) % state.players
        return
    # every ship is out: the others may use a token before the first turn (SPEC §43.2)
    state.phase = Phase.PLAY
    _open_window(state, [s for s in range(1, state.players)], None, next_mover=0)


# -- turns and the token window (SPEC §42.2, §43) --------------------------------------------
def _move(state: State, seat: int, action: Move) -> None:
    order = check_group(state, seat, action)
    move_group(state, action.square, order)
    if check_end(state):
        return
    if state.due == Due.SECOND or state.action_cards:
        _begin_turn(state, (seat + 1) % state.players)
        return
    n = state.players  # right after the turn: the mover, then everyone but the next mover
    _open_window(state, [seat] + [(seat + i) % n for i in range(2, n)], seat, next_mover=(seat + 1) % n)


def _open_window(state: State, seats: list[int], mover: int | None, next_mover: int) -> None:
    state.due, state.window, state.extra_turn_seat = Due.WINDOW, seats, mover
    state.seat = (next_mover - 1) % state.players  # the turn passes on from here
    _poll_next(state)


def _poll_next(state: State) -> None:
    """Skip seats that cannot use a token (they would only pass); close an empty window."""
    while state.window and not can_use_token(state, state.window[0]):
        _drop_head(state)
    if not state.window:
        _begin_turn(state, (state.seat + 1) % state.players)


def _drop_head(state: State) -> None:
    if state.window.pop(0) == state.extra_turn_seat:
        state.extra_turn_seat = None


def _begin_turn(state: State, seat: int) -> None:
    state.seat, state.due, state.window, state.extra_turn_seat = seat, Due.TURN, [], None
    state.token_used[seat] = False  # a seat's round starts with its own turn
    state.turns += 1
    if turn_limit_reached(state):
        finish(state, "the turn limit was reached")


def _window_answer(state: State, seat: int, action) -> None:
    if isinstance(action, TokenMove):
        if state.extra_turn_seat != seat:
            raise IllegalAction("a token turn is only for the player right after their own turn")
        order = check_group(state, seat, action.move)
        _spend(state, seat)
        move_group(state, action.move.square, order)
    elif isinstance(action, TokenStep):
        ship = check_step(state, seat, action.step)
        _spend(state, seat)
        move_one(state, action.step.square, ship)
    if check_end(state):
        return
    _drop_head(state)
    _poll_next(state)


def _spend(state: State, seat: int) -> None:
    state.tokens[seat] -= 1
    state.token_used[seat] = True


# -- the action-card variant (SPEC §44) ---------------------------------------------------
def _card(state: State, seat: int, play: PlayCard) -> None:
    need = check_card(state, seat, play)
    discard(state, seat, play)
    if play.effect in ("move", "twice"):
        move_group(state, play.move.square, need)
    elif play.effect == "step":
        move_one(state, play.step.square, need)
    if check_end(state):
        return
    if play.effect == "twice":
        state.due = Due.SECOND
    else:
        _begin_turn(state, (seat + 1) % state.players)


_HANDLERS = {
    (Due.PLACE, Place): _place,
    (Due.TURN, Move): _move,
    (Due.TURN, PlayCard): _card,
    (Due.SECOND, Move): _move,
    (Due.WINDOW, Pass): _window_answer,
    (Due.WINDOW, TokenStep): _window_answer,
    (Due.WINDOW, TokenMove): _window_answer,
}


def apply_text(state: State, seat: int, text: str) -> Action:
    """Parse and apply; the text must be canonical (one action, one text)."""
    action = parse_action(text)
    if action.text() != text:
        raise MalformedAction(f"{text!r} is not in canonical notation ({action.text()!r})")
    apply(state, seat, action)
    return action
