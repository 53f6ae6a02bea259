"""What an applied event did, in words (SPEC §59.3): the screen's notes after an action, from
the public state before and after it: moves, money, deeds, laser tokens, seats that left,
missions shown and the end. Only public facts: a mission is named once a claim showed it."""
from __future__ import annotations

from space_trading_race.deeds import DEEDS
from space_trading_race.state import State

from .render import COLOURS, space_label

__all__ = ["notes"]


def _money(delta: int) -> str:
    return f"+${delta}" if delta > 0 else f"-${-delta}"


def notes(was: State | None, state: State) -> tuple[str, ...]:
    if was is None:
        return ()
    out: list[str] = []
    for seat in range(state.players):
        colour = COLOURS[seat]
        if state.pos[seat] != was.pos[seat] and state.alive[seat]:
            out.append(f"{colour} moves to {space_label(state.pos[seat])}")
        elif was.landed[seat] != state.landed[seat] and not state.landed[seat]:
            out.append(f"{colour} bypasses {space_label(state.pos[seat])}")
        gained = [DEEDS[d].name for d in state.deeds_of(seat) if was.owner[d] != seat]
        lost = [DEEDS[d].name for d in was.deeds_of(seat) if state.owner[d] != seat]
        if gained:
            out.append(f"{colour} now owns {', '.join(gained)}")
        if lost:
            out.append(f"{colour} gives up {', '.join(lost)}")
        if state.cash[seat] != was.cash[seat]:
            out.append(f"{colour} {_money(state.cash[seat] - was.cash[seat])} (${state.cash[seat]})")
        if state.tokens[seat] != was.tokens[seat]:
            out.append(f"{colour} laser tokens {was.tokens[seat]} -> {state.tokens[seat]}")
        if was.alive[seat] and not state.alive[seat]:
            out.append(f"{colour} is out ({state.out[seat]})")
    for handle, slug in sorted(state.names.items()):
        if handle not in was.names:
            out.append(f"mission #{handle} shown: {slug}")
    if state.offer is not None and was.offer is None:
        offerer, offer = state.offer
        out.append(f"{COLOURS[offerer]} offers {COLOURS[offer.to]}: {offer.text()}")
    if state.over and not was.over:
        out.append(f"game over: {', '.join(COLOURS[s] for s in state.winners)} won ({state.end})")
    return tuple(out)
