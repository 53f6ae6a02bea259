"""Determinisation (SPEC §12.3): one complete world drawn consistently with a seat's view.

The engine's state holds handles; identities are public (`state.names`), known to one seat
(its `PlayerView`), or hidden. A world gives every hidden handle an identity such that:
- every handle the view or the public state names keeps that name;
- each deck shuffled at setup holds exactly its contents (the layout is read from a fresh
  `new_game` with the same seats and options, so new decks are covered without code here);
- cards reshuffled from Space Junk under fresh handles are exactly the cards that left the
  setup decks unseen (discards), including any the view has seen;
- a seat that moved onto an undiscovered planet and has yet to play its planet card holds
  one: the move claimed it in public (SPEC §7.1), so a world without one could not go on.
Nothing here reads anything but the public state and the one view.
"""
from __future__ import annotations

from ..cards import CARD_BY_NAME, PLANET
from ..setup import new_game
from ..state import GameState
from ..view import PlayerView

JUNK_FEEDERS = ("refuel", "port")  # decks whose cards may be discarded and reshuffled (SPEC §6.5)

_LAYOUTS: dict = {}


def setup_layout(players: int, variants) -> tuple[list[tuple[str, tuple[int, ...], tuple[str, ...]]], int]:
    """The shuffles a new game asks for (deck, handles, contents) and its first fresh handle."""
    key = (players, tuple(variants.plain()))
    if key not in _LAYOUTS:
        fresh = new_game(players, variants.to_config())
        groups = [(r.deck, r.handles, r.contents) for r in fresh.pending
                  if r.kind == "shuffle" and r.contents is not None]
        _LAYOUTS[key] = (groups, fresh.next_handle)
    return _LAYOUTS[key]


def live_handles(state: GameState) -> set[int]:
    """Handles that still stand for a card or tile somewhere (decks, piles, hands, quests)."""
    live: set[int] = set(state.drawn)
    for deck in state.decks.values():
        live.update(deck)
    for pile in state.piles:
        live.update(pile)
    for p in state.players:
        live.update(p.hand)
        live.update(p.quests)
    return live


def _take(counts: dict[str, int], name: str) -> bool:
    if counts.get(name, 0) > 0:
        counts[name] -= 1
        return True
    return False


class Determiniser:
    """Everything the view fixes, worked out once per decision; `sample` then only draws.

    Hidden cards in hands and quests are drawn at once (the seats' choices need them); the
    hidden handles of decks and piles are drawn lazily, when a playout reveals or deals them
    (`Draws`), which is the same random arrangement but costs only the cards a playout uses.
    """

    def __init__(self, state: GameState, view: PlayerView) -> None:
        groups, first_fresh = setup_layout(len(state.players), state.variants)
        names, known = state.names, view.known
        live = live_handles(state)
        self.base: dict[int, str] = {}
        self.slots: list[tuple[list[int], list[str]]] = []   # (unknown handles, their cards)
        self.group_of: dict[int, int] = {}                   # a lazily drawn handle's slot
        # Fresh handles (reshuffled junk) that the view or the public already knows: the setup
        # decks' unseen leavers must include those cards, so they are given them first.
        self.fresh = sorted(h for h in live if h >= first_fresh)
        need: dict[str, int] = {}
        for h in self.fresh:
            name = names.get(h) or known.get(h)
            if name is not None:
                need[name] = need.get(name, 0) + 1
        self.leavers: list[int] = []  # setup-deck handles whose cards went back into a reshuffle
        for deck, handles, contents in groups:
            counts: dict[str, int] = {}
            for n in contents:
                counts[n] = counts.get(n, 0) + 1
            unknown = []
            for h in handles:
                name = names.get(h) or known.get(h)
                if name is not None and _take(counts, name):
                    self.base[h] = name
                else:
                    unknown.append(h)
            if deck in JUNK_FEEDERS:
                gone = [h for h in handles if h not in live and h not in names]
                self.leavers += gone
                for h in gone:  # a known leaver already covers one needed fresh card
                    if h in self.base and need.get(self.base[h], 0) > 0:
                        need[self.base[h]] -= 1
                for h in [h for h in gone if h not in self.base]:
                    wanted = next((n for n in need if need[n] > 0 and counts.get(n, 0) > 0), None)
                    if wanted is None:
                        break
                    need[wanted] -= 1
                    counts[wanted] -= 1
                    self.base[h] = wanted
                unknown = [h for h in unknown if h not in self.base]
            pool = []
            for n in contents:  # contents order, so the draw depends on the rng alone
                if counts.get(n, 0) > 0:
                    pool.append(n)
                    counts[n] -= 1
            self.slots.append((unknown, pool))
        if not self.fresh:  # after a Space Junk reshuffle every handle is drawn at once instead
            held = {h for p in state.players for h in p.hand + p.quests}
            for i, (unknown, pool) in enumerate(self.slots):
                self.slots[i] = ([h for h in unknown if h in held], pool)
                self.group_of.update((h, i) for h in unknown if h not in held)
        self.fresh_known = {h: names.get(h) or known.get(h) for h in self.fresh
                            if (names.get(h) or known.get(h)) is not None}
        self.spare = [n for deck, _, contents in groups if deck in JUNK_FEEDERS for n in contents]
        self.claimed = _claimed_planet_card(state, view)


    def sample(self, rng) -> "Draws":
        """One determinisation, drawn with `rng`: the held cards now, the rest on demand."""
        identity = dict(self.base)
        pools = []
        for handles, pool in self.slots:
            left = list(pool)
            for h in handles:
                identity[h] = _pop_random(left, rng)
            pools.append(left)
        if self.fresh:
            self._fill_fresh(rng, identity)
        if self.claimed and not any(_is_planet(identity.get(h)) for h in self.claimed):
            self._give_planet_card(rng, identity, pools)
        return Draws(identity, self.group_of, pools, rng, self.spare)

    def _give_planet_card(self, rng, identity: dict[int, str], pools: list[list[str]]) -> None:
        """Swap a planet card into the claimant's hidden hand: from what its deck has left
        undrawn, else from another hidden hand card of the same deck. Counts stay exact."""
        for i, (handles, _) in enumerate(self.slots):
            mine = [h for h in self.claimed if h in handles]
            if not mine:
                continue
            h = mine[rng.below(len(mine))]
            spots = [k for k, n in enumerate(pools[i]) if _is_planet(n)]
            if spots:
                k = spots[rng.below(len(spots))]
                identity[h], pools[i][k] = pools[i][k], identity[h]
                return
            others = [o for o in handles if o not in mine and _is_planet(identity.get(o))]
            if others:
                o = others[rng.below(len(others))]
                identity[h], identity[o] = identity[o], identity[h]
                return

    def _fill_fresh(self, rng, identity: dict[int, str]) -> None:
        """Fresh handles hold the cards of the setup-deck leavers, the known ones fixed."""
        counts: dict[str, int] = {}
        for h in self.leavers:
            if h in identity:
                counts[identity[h]] = counts.get(identity[h], 0) + 1
        unknown = []
        for h in self.fresh:
            name = self.fresh_known.get(h)
            if name is not None:
                identity[h] = name
                _take(counts, name)
            else:
                unknown.append(h)
        pool = [n for n, c in counts.items() for _ in range(c)]
        rng.shuffle(pool)
        for i, h in enumerate(unknown):
            # more unknown fresh handles than leavers only if the layout missed a deck: any card will do
            identity[h] = pool[i] if i < len(pool) else rng.choice(self.spare)


def _is_planet(name: str | None) -> bool:
    card = CARD_BY_NAME.get(name or "")
    return card is not None and card.category == PLANET


def _claimed_planet_card(state: GameState, view: PlayerView) -> list[int]:
    """The hidden hand handles of another seat that owes a planet card, or []."""
    d = state.discovery
    if d is None or d.stage != "planet" or d.planet_card or d.discoverer == view.seat:
        return []
    hand = state.players[d.discoverer].hand
    if any(_is_planet(state.names.get(h) or view.known.get(h)) for h in hand):
        return []
    return [h for h in hand if h not in state.names and h not in view.known]


def _pop_random(items: list, rng):
    i = rng.below(len(items))
    items[i], items[-1] = items[-1], items[i]
    return items.pop()


class Draws:
    """The identities of one world: `identity` holds every name drawn so far; `name(h)` draws
    a deck or pile handle's card from what its deck has left the first time it is needed."""
    __slots__ = ("identity", "_group_of", "_pools", "_rng", "_spare")

    def __init__(self, identity, group_of, pools, rng, spare) -> None:
        self.identity, self._group_of, self._pools = identity, group_of, pools
        self._rng, self._spare = rng, spare

    def name(self, handle: int) -> str:
        name = self.identity.get(handle)
        if name is None:
            group = self._group_of.get(handle)
            pool = self._pools[group] if group is not None else None
            # a handle outside the layout with nothing left to draw cannot occur in a sound
            # game; any card keeps the playout going
            name = _pop_random(pool, self._rng) if pool else self._rng.choice(self._spare)
            self.identity[handle] = name
        return name

    def complete(self) -> dict[int, str]:
        """Every handle of the layout named (tests; playouts never need it)."""
        for handle in list(self._group_of):
            self.name(handle)
        return self.identity


def sample_identities(state: GameState, view: PlayerView, rng) -> dict[int, str]:
    """One determinisation's complete handle -> identity map (see Determiniser)."""
    return Determiniser(state, view).sample(rng).complete()
