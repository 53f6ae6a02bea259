"""A blind take from another seat's hand (SPEC §10.2): Pirate Crew (§15.7) and City of Banks (§8.10).

The holder's hand is reshuffled under fresh handles first (a `shuffle` of deck `hand` whose
`source` is the old hand; over the session every seat re-encrypts and permutes it with a
proof, §27.3), so the position the taker names picks a card that nobody can trace. The taker
is dealt the card it took and the holder the cards it kept, which tells the holder which card
left its hand, as at the table, and tells nobody else anything.
"""
from __future__ import annotations

from .state import ChanceRequest, GameState


def deal_hidden(state: GameState, deck: str, handles, seat: int) -> None:
    """Deal `handles` to `seat` alone, leaving out any card whose identity is public (a
    starting Star-T taken from Space Junk by The Scavenger): it lies under no deck's cipher,
    so no seat could make a share for it, and everyone knows it already (SPEC §10.2)."""
    hidden = tuple(h for h in handles if h not in state.names)
    if hidden:
        state.pending.append(ChanceRequest("deal", deck, hidden, seat=seat))


def take_blind(state: GameState, holder: int, position: int, taker: int) -> int:
    """Move the card at `position` of `holder`'s reshuffled hand to `taker`; its new handle."""
    source = tuple(state.players[holder].hand)
    fresh = list(range(state.next_handle, state.next_handle + len(source)))
    state.next_handle += len(source)
    state.pending.append(ChanceRequest("shuffle", "hand", tuple(fresh), source=source))
    taken = fresh.pop(position)
    state.players[holder].hand = fresh
    state.players[taker].hand.append(taken)
    state.pending.append(ChanceRequest("deal", "hand", (taken,), seat=taker))
    if fresh:
        state.pending.append(ChanceRequest("deal", "hand", tuple(fresh), seat=holder))
    return taken
