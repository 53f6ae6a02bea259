"""Bots (SPEC §57.5): a random-legal player and a greedy one that buys, trades and fires by an
evaluation. A bot sees the public state and its own view (its mission), nothing more."""
from __future__ import annotations

from .actions import (ACCEPT, BUY, BYPASS, DECLINE, DRIFT, END, EXCHANGE, KEEP, LAND, PASS, REJECT, ROLL,
                      Claim, Fire, Offer, Pick)
from .board import AMALTHEA, SPACES
from .deeds import DEEDS, rent
from .engine import due, legal_actions
from .lasers import ships_at
from .missions import FORCE_FIELD, completed
from .seeded import SeededRandom
from .state import BANK, State
from .view import PlayerView

# Deeds a mission asks for: the greedy bot values them more (SPEC §57.5).
_MISSION_GROUPS = {"red-planet": ("mars",), "fuel-baron": ("docks",), "jovian-court": ("jupiter",),
                   "ring-lord": ("saturn",), "sky-father": ("uranus",), "sea-king": ("neptune",),
                   "frontier": ("pluto",), "inner-circuit": ("mercury", "venus"), "gas-giants": ("jupiter", "saturn")}
RESERVE = 300          # Federons the greedy bot keeps back when buying
TREASURY = 3000        # ... and what it keeps when its mission is the Federation treasury


def reserve(mission: str | None) -> int:
    return TREASURY if mission == "treasury" else RESERVE
TOKEN_WORTH = 120


class RandomBot:
    name = "random"

    def __init__(self, seed: int | str) -> None:
        self.rng = SeededRandom(seed, "random-bot")

    def choose(self, state: State, view: PlayerView):
        return self.rng.choice(legal_actions(state, view))


MISSION_BONUS = 300


def mission_bonus(state: State, seat: int, deed: int, mission: str | None) -> int:
    """How much the seat's mission wants this deed (SPEC §57.5)."""
    d = DEEDS[deed]
    if d.group in _MISSION_GROUPS.get(mission or "", ()):
        return MISSION_BONUS
    if mission == "moon-walker" and d.kind == "moon" or mission == "planet-hopper" and d.kind == "planet":
        return MISSION_BONUS
    if mission == "grand-tour" and d.kind != "dock" and state.owner[deed] != seat \
            and state.count_in_group(seat, d.group) == 0:
        return MISSION_BONUS
    if mission in ("tycoon", "land-baron", "outlast"):
        return MISSION_BONUS // 2
    return 0


def deed_worth(state: State, seat: int, deed: int, mission: str | None, owner_count: int | None = None) -> int:
    """What a deed is worth to `seat`: its price plus the rent it would earn, rising with the
    number of its group the seat holds, plus a bonus when its mission wants it."""
    d = DEEDS[deed]
    count = owner_count if owner_count is not None else state.count_in_group(seat, d.group)
    count = max(count, 1)
    earning = d.rents[count - 1] * 7 if d.kind == "dock" else rent(d, count)
    return d.price + earning + mission_bonus(state, seat, deed, mission)


def worth(state: State, seat: int, mission: str | None) -> int:
    """Cash, deeds by deed_worth and laser tokens: the greedy bot's evaluation of one seat."""
    if not state.alive[seat]:
        return -10**6
    total = state.cash[seat] + TOKEN_WORTH * state.tokens[seat]
    for d in state.deeds_of(seat):
        total += deed_worth(state, seat, d, mission)
    return total


class GreedyBot:
    """Claims a mission at once; buys what it can afford above a reserve; offers to buy the deed
    that adds most to its groups at face value; accepts a trade that raises its worth; fires
    whenever it may; lands or bypasses by the space's effect; cedes its least useful deed."""
    name = "greedy"

    def __init__(self, seed: int | str) -> None:
        self.rng = SeededRandom(seed, "greedy-bot")

    def choose(self, state: State, view: PlayerView):
        legal = legal_actions(state, view)
        seat, mission = view.seat, view.mission(state)
        kind = due(state)
        claims = [a for a in legal if isinstance(a, Claim)]
        if claims:
            return claims[0]
        if kind == "shield":
            return PASS
        if kind == "debt":
            return min(legal, key=lambda a: (deed_worth(state, seat, a.deed, mission), a.deed))
        if kind == "answer":
            return ACCEPT if self._trade_gain(state, seat, mission) > 0 else REJECT
        if kind in ("roll", "after"):
            fires = [a for a in legal if isinstance(a, Fire)] if mission != "arsenal" else []
            if fires:
                return max(fires, key=lambda a: (len(ships_at(state, a.space, seat)) * (2 if a.space == state.pos[seat] else 1), -a.space))
            offer = self._best_offer(state, seat, mission, [a for a in legal if isinstance(a, Offer)])
            if offer is not None:
                return offer
            return ROLL if kind == "roll" else END
        if kind == "free-fire":
            return max(legal, key=lambda a: (len(ships_at(state, a.space, seat)), -a.space))
        if kind == "buy":
            deed = DEEDS[SPACES[state.pos[seat]].deed]
            if mission == "treasury":
                return BUY if state.cash[seat] - deed.price >= TREASURY else DECLINE
            wanted = (state.cash[seat] - deed.price >= RESERVE or state.count_in_group(seat, deed.group) > 0
                      or mission_bonus(state, seat, deed.index, mission) > 0)
            return BUY if wanted else DECLINE
        if kind == "pick":
            picks = [a for a in legal if isinstance(a, Pick)]
            return max(picks, key=lambda a: (deed_worth(state, seat, a.deed, mission), -a.deed))
        if kind == "exchange":
            return EXCHANGE if mission in (FORCE_FIELD, "outlast") else KEEP
        if kind == "choose":
            if mission is not None and LAND in legal and self._completes_on_landing(state, seat, mission):
                return LAND
            return self._land_or_not(state, seat, legal)
        return self.rng.choice(legal)

    @staticmethod
    def _completes_on_landing(state: State, seat: int, mission: str) -> bool:
        trial = state.clone()
        trial.landed[seat] = True
        return mission != FORCE_FIELD and completed(trial, seat, mission)

    def _land_or_not(self, state: State, seat: int, legal: list):
        space = SPACES[state.pos[seat]]
        bad = False
        if space.deed is not None:
            owner = state.owner[space.deed]
            bad = owner not in (BANK, seat) or (owner == BANK and state.cash[seat] < DEEDS[space.deed].price)
        elif space.kind == "blue":
            bad = space.order[0] == "pay"
        if space.index == AMALTHEA and DRIFT in legal and (bad or state.owner[space.deed] != BANK):
            return DRIFT if not (BYPASS in legal) else BYPASS
        if bad and BYPASS in legal:
            return BYPASS
        return LAND

    def _trade_gain(self, state: State, seat: int, mission: str | None) -> int:
        offerer, offer = state.offer
        trial = state.clone()
        for d in offer.give:
            trial.owner[d] = seat
        for d in offer.get:
            trial.owner[d] = offerer
        trial.cash[seat] += offer.give_cash - offer.get_cash
        trial.cash[offerer] += offer.get_cash - offer.give_cash
        if trial.cash[seat] < reserve(mission):
            return -1                      # never trade itself short of its reserve
        mine = worth(trial, seat, mission) - worth(state, seat, mission)
        theirs = worth(trial, offerer, None) - worth(state, offerer, None)
        return mine - max(theirs, 0) // 2

    def _best_offer(self, state: State, seat: int, mission: str | None, offers: list[Offer]):
        best, best_gain = None, 0
        for offer in offers:
            if offer.give or offer.get_cash:       # the greedy bot only buys
                continue
            d = offer.get[0]
            if state.cash[seat] - offer.give_cash < reserve(mission):
                continue
            gain = deed_worth(state, seat, d, mission, state.count_in_group(seat, DEEDS[d].group) + 1) \
                - offer.give_cash - deed_worth(state, offer.to, d, None)
            if state.count_in_group(seat, DEEDS[d].group) == 0:
                continue
            if gain > best_gain:
                best, best_gain = offer, gain
        return best


BOTS = {"random": RandomBot, "greedy": GreedyBot}
