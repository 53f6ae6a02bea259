"""The front door of the engine (SPEC §52-§57): who writes next, what is legal, apply.

`apply` validates first and changes the state only for a legal action, so a refused action
(a typed TradingRaceError) leaves the state and its hash exactly as they were.
"""
from __future__ import annotations

from .actions import (ACCEPT, BUY, BYPASS, DECLINE, DRIFT, END, EXCHANGE, KEEP, LAND, PASS, REJECT, ROLL,
                      CHANCE_ACTIONS, Action, Cede, ChanceDeal, ChanceDice, ChanceShuffle, Claim, Fire, Offer,
                      Pick, Word, parse_action, sort_key)
from .board import AMALTHEA, SPACES
from .deeds import DEEDS
from .errors import IllegalAction, MalformedAction, OutOfTurn, require
from .lasers import laser_targets, shield_passed, shot, start_fire
from .missions import FORCE_FIELD, MISSION_BY_SLUG, completed
from .money import cede, finish
from .state import BANK, CHANCE, ChanceRequest, State
from .trade import accept, check_offer, face_value_offers, make_offer
from .turn import advance, finish_landing, fuel_fee, land, move_roll, next_turn, start_turn
from .view import PlayerView

__all__ = ["to_move", "legal_actions", "chance_outcomes", "apply", "apply_text", "CHANCE"]

# What the mover may do at each stage of its turn (SPEC §54).
_STAGE_ACTIONS = {
    "roll": (Word, Fire, Offer, Claim),
    "after": (Word, Fire, Offer, Claim),
    "choose": (Word,), "buy": (Word,), "exchange": (Word,), "pick": (Pick, Word), "free-fire": (Fire,),
}
_STAGE_WORDS = {"roll": {"roll"}, "after": {"end"}, "choose": {"land", "bypass", "drift"},
                "buy": {"buy", "decline"}, "exchange": {"exchange", "keep"}, "pick": {"decline"}}


def to_move(state: State) -> int | None:
    """The seat that writes next, CHANCE (−1) while a chance outcome is due, None when over."""
    if state.over:
        return None
    if state.pending:
        return CHANCE
    if state.shield:
        return state.shield[0]
    if state.debts:
        return state.debts[0][0]
    if state.offer is not None:
        return state.offer[1].to
    return state.seat


def due(state: State) -> str:
    """What kind of decision is due: shield, debt, answer, or the mover's stage."""
    if state.pending:
        return "chance"
    if state.shield:
        return "shield"
    if state.debts:
        return "debt"
    if state.offer is not None:
        return "answer"
    return state.stage


def chance_outcomes(state: State) -> list[Action]:
    """Every outcome of the due chance request (36 for dice, in order); [] when none is due."""
    if not state.pending:
        return []
    request = state.pending[0]
    if request.kind == "dice":
        return [ChanceDice(a, b) for a in range(1, 7) for b in range(1, 7)]
    if request.kind == "shuffle":
        return [ChanceShuffle()]
    return [ChanceDeal(request.seat, request.handle)]


def _claim_possible(state: State, seat: int, mission: str | None) -> bool:
    return mission is not None and mission != FORCE_FIELD and completed(state, seat, mission)


def legal_actions(state: State, view: PlayerView) -> list[Action]:
    """Every legal action of view.seat, sorted by text; [] when it is not that seat's move.
    Trade offers are listed at face value only (SPEC §55.2)."""
    seat = view.seat
    if to_move(state) != seat or seat == CHANCE:
        return []
    kind = due(state)
    found: list[Action] = []
    if kind == "shield":
        found = [PASS] + ([Claim(state.hand[seat], FORCE_FIELD)] if view.mission(state) == FORCE_FIELD else [])
    elif kind == "debt":
        found = [Cede(d) for d in state.deeds_of(seat)]
    elif kind == "answer":
        found = [ACCEPT, REJECT]
    elif kind in ("roll", "after"):
        found = [ROLL if kind == "roll" else END]
        if state.tokens[seat] > 0:
            found += [Fire(sp) for sp in laser_targets(state, seat)]
        found += face_value_offers(state, seat)
        if _claim_possible(state, seat, view.mission(state)):
            found.append(Claim(state.hand[seat], view.mission(state)))
    elif kind == "choose":
        found = [LAND] + ([BYPASS] if state.doubles else []) + ([DRIFT] if state.pos[seat] == AMALTHEA else [])
    elif kind == "buy":
        found = [BUY, DECLINE]
    elif kind == "exchange":
        found = [EXCHANGE, KEEP]
    elif kind == "pick":
        found = [DECLINE] + [Pick(d) for d, o in enumerate(state.owner) if o == BANK]
    elif kind == "free-fire":
        found = [Fire(sp) for sp in laser_targets(state, seat)]
    return sorted(set(found), key=sort_key)


# ---- validation (no change) --------------------------------------------------------------

def _check_chance(state: State, action) -> None:
    request = state.pending[0]
    wanted = {"dice": ChanceDice, "shuffle": ChanceShuffle, "deal": ChanceDeal}[request.kind]
    if not isinstance(action, wanted):
        raise IllegalAction(f"the due chance event is {request.kind}, not {action.text()}")
    if isinstance(action, ChanceDeal):
        require((action.seat, action.handle) == (request.seat, request.handle),
                f"the due deal is #{request.handle} to seat {request.seat}")


def _check_claim(state: State, seat: int, action: Claim, shield: bool) -> None:
    require(action.handle == state.hand[seat], f"your mission card is #{state.hand[seat]}")
    mission = MISSION_BY_SLUG.get(action.mission)
    if mission is None:
        raise MalformedAction(f"{action.mission!r} is not a mission")
    public = state.names.get(action.handle)
    require(public in (None, action.mission), f"#{action.handle} is {public}")
    if shield:
        require(action.mission == FORCE_FIELD, "only the force field answers a double-six shot")
    else:
        require(action.mission != FORCE_FIELD, "the force field wins only when a double-six shot hits you")
        require(completed(state, seat, action.mission), f"{mission.title}: not completed ({mission.text})")


def _check_player(state: State, seat: int, action) -> None:
    kind = due(state)
    if kind == "shield":
        if action == PASS:
            return
        if not isinstance(action, Claim):
            raise OutOfTurn("a double six hit you: `pass`, or claim the force field")
        _check_claim(state, seat, action, shield=True)
        return
    if kind == "debt":
        if not isinstance(action, Cede):
            raise OutOfTurn(f"you owe ${state.debts[0][2]}: turn over a deed (`cede DEED`)")
        require(state.owner[action.deed] == seat, f"you do not own {DEEDS[action.deed].name}")
        return
    if kind == "answer":
        if action not in (ACCEPT, REJECT):
            raise OutOfTurn("answer the offer: `accept` or `reject`")
        return
    if not isinstance(action, _STAGE_ACTIONS[kind]) or (
            isinstance(action, Word) and action.word not in _STAGE_WORDS.get(kind, ())):
        raise OutOfTurn(f"{action.text()!r} is not due now (due: {kind})")
    if isinstance(action, Fire):
        free = kind == "free-fire"
        require(free or state.tokens[seat] > 0, "you have no laser token")
        require(action.space in laser_targets(state, seat),
                "no opponent within one space there (and never from or at Earth)")
    elif isinstance(action, Offer):
        check_offer(state, seat, action)
    elif isinstance(action, Claim):
        _check_claim(state, seat, action, shield=False)
    elif isinstance(action, Pick):
        require(state.owner[action.deed] == BANK, f"{DEEDS[action.deed].name} is owned")
    elif action == BYPASS:
        require(state.doubles, "only a roll of doubles may bypass a space")
    elif action == DRIFT:
        require(state.pos[seat] == AMALTHEA, "only at Amalthea may you drift on to the blue dot")


def validate(state: State, seat: int, action) -> None:
    if state.over:
        raise OutOfTurn("the game is over")
    writer = to_move(state)
    if isinstance(action, CHANCE_ACTIONS):
        if seat != CHANCE or writer != CHANCE:
            raise OutOfTurn("no chance outcome is due now" if writer != CHANCE else "only chance writes this")
        _check_chance(state, action)
        return
    if writer != seat or seat == CHANCE:
        raise OutOfTurn("a chance outcome is due" if writer == CHANCE else f"it is seat {writer}'s move")
    _check_player(state, seat, action)


# ---- application -----------------------------------------------------------------------

def _apply_chance(state: State, action) -> None:
    request = state.pending.pop(0)
    if isinstance(action, ChanceDice):
        {"move": move_roll, "fuel": fuel_fee, "shot": shot}[request.purpose](state, action.a, action.b)
    elif isinstance(action, ChanceDeal):
        old = state.hand[action.seat]
        state.hand[action.seat] = action.handle
        state.deck.remove(action.handle)
        if old >= 0:                     # an exchange: the old card goes under the pile
            state.deck.append(old)
        if state.phase == "setup":
            if not state.pending:
                state.phase = "play"
                start_turn(state, 0)
        else:
            state.stage = "settle"


def _apply_player(state: State, seat: int, action) -> None:
    kind = due(state)
    if kind == "shield":
        if action == PASS:
            shield_passed(state)
        else:
            state.names[action.handle] = action.mission
            finish(state, [seat], f"mission: {MISSION_BY_SLUG[action.mission].title}")
    elif kind == "debt":
        cede(state, action.deed)
    elif kind == "answer":
        if action == ACCEPT:
            accept(state)
        else:
            state.offer = None
    elif isinstance(action, Fire):
        start_fire(state, action.space, free=kind == "free-fire")
        if kind == "free-fire":
            state.stage = "settle"
    elif isinstance(action, Offer):
        make_offer(state, seat, action)
    elif isinstance(action, Claim):
        state.names[action.handle] = action.mission
        finish(state, [seat], f"mission: {MISSION_BY_SLUG[action.mission].title}")
    elif isinstance(action, Pick):
        state.owner[action.deed] = seat
        state.stage = "settle"
    elif action == ROLL:
        state.pending.append(ChanceRequest("dice", "move", seat=seat))
    elif action == END:
        next_turn(state)
    elif action == LAND:
        land(state)
    elif action == BYPASS:
        finish_landing(state)
    elif action == DRIFT:
        state.pos[seat] += 1
        state.visits[state.pos[seat]] += 1
        land(state)
    elif action == BUY:
        _buy(state, seat)
    elif action in (DECLINE, KEEP):
        state.stage = "settle"
    elif action == EXCHANGE:
        state.pending.append(ChanceRequest("deal", seat=seat, handle=state.deck[0]))


def _buy(state: State, seat: int) -> None:
    deed = DEEDS[SPACES[state.pos[seat]].deed]
    state.cash[seat] -= deed.price
    state.owner[deed.index] = seat
    state.stage = "settle"


def apply(state: State, seat: int, action) -> State:
    """Validate, then apply `action` by `seat` (CHANCE for chance outcomes); returns the state.
    Raises MalformedAction, OutOfTurn or IllegalAction and then changes nothing."""
    if isinstance(action, str):
        action = parse_action(action)
    validate(state, seat, action)
    if isinstance(action, CHANCE_ACTIONS):
        _apply_chance(state, action)
    else:
        _apply_player(state, seat, action)
    state.step += 1
    advance(state)
    return state


def apply_text(state: State, seat: int, text: str) -> State:
    return apply(state, seat, parse_action(text))
