"""Money, debts and leaving the game (SPEC §55.3, §56): charges, the debt a player settles by
turning over deeds, bankruptcy, disabling, and the three wins."""
from __future__ import annotations

from .deeds import DEEDS
from .state import BANK, State


def collect(state: State, seat: int, amount: int) -> None:
    state.cash[seat] += amount


def give_tokens(state: State, seat: int, count: int) -> None:
    """From the bank's supply, as many as it still has (SPEC §54.8)."""
    got = min(count, state.bank_tokens)
    state.bank_tokens -= got
    state.tokens[seat] += got


def charge(state: State, debtor: int, creditor: int, amount: int) -> None:
    """`debtor` owes `amount` to a seat or the BANK (SPEC §56.1): cash first; what is left
    becomes a debt paid by turning over deeds, or bankruptcy when the deeds cannot cover it."""
    if amount <= 0 or not state.alive[debtor]:
        return
    paid = min(amount, state.cash[debtor])
    state.cash[debtor] -= paid
    if creditor != BANK:
        state.cash[creditor] += paid
    rest = amount - paid
    if rest == 0:
        return
    if state.deed_value(debtor) < rest:
        bankrupt(state, debtor, creditor)
    else:
        state.debts.append([debtor, creditor, rest])


def cede(state: State, deed: int) -> None:
    """The debtor of the first debt turns `deed` over at its face value; no change is given."""
    debt = state.debts[0]
    state.owner[deed] = debt[1]
    debt[2] -= DEEDS[deed].price
    if debt[2] <= 0:
        state.debts.pop(0)


def bankrupt(state: State, seat: int, creditor: int) -> None:
    """Out of the game (SPEC §56.1): every deed goes to the creditor (back to the bank when
    the creditor is the bank), laser tokens return to the bank."""
    for d in state.deeds_of(seat):
        state.owner[d] = creditor
    state.bank_tokens += state.tokens[seat]
    state.tokens[seat] = 0
    eliminate(state, seat, "bankrupt")


def disable(state: State, victims: list[int], shooter: int) -> None:
    """Totally disabled (SPEC §54.10): the shooter takes every Federon, deed and laser token."""
    for seat in victims:
        state.cash[shooter] += state.cash[seat]
        state.cash[seat] = 0
        for d in state.deeds_of(seat):
            state.owner[d] = shooter
        state.tokens[shooter] += state.tokens[seat]
        state.tokens[seat] = 0
        eliminate(state, seat, "disabled")


def eliminate(state: State, seat: int, why: str) -> None:
    """The seat leaves: it is never polled again; its mission leaves play unseen (SPEC §56.3)."""
    state.alive[seat] = False
    state.out[seat] = why
    state.stuck[seat] = False
    if state.hand[seat] >= 0:
        state.retired.append(state.hand[seat])
        state.hand[seat] = -1
    state.debts = [d for d in state.debts if d[0] != seat]
    for debt in state.debts:
        if debt[1] == seat:
            debt[1] = BANK
    state.shield = [s for s in state.shield if s != seat]
    if state.offer is not None and seat in (state.offer[0], state.offer[1].to):
        state.offer = None
    left = state.alive_seats()
    if len(left) == 1 and not state.over:
        finish(state, left, "last on the board")


def finish(state: State, winners: list[int], why: str) -> None:
    state.phase, state.stage, state.winners, state.end = "over", "", sorted(winners), why
    state.pending, state.shield, state.debts, state.offer, state.shots = [], [], [], None, None


def finish_by_assets(state: State) -> None:
    """The time limit (SPEC §56.4): the most assets among the ships still in the game wins."""
    left = state.alive_seats()
    best = max(state.assets(s) for s in left)
    finish(state, [s for s in left if state.assets(s) == best], "most assets at the time limit")
