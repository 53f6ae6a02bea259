"""Determinisation (SPEC §12.3): one complete world drawn consistently with a seat's view.

The engine's state holds handles; identities are public (`state.names`), known to one seat
(its `PlayerView`), or hidden. A world gives every hidden handle an identity such that:
- every handle the view or the public state names keeps that name;
- each deck shuffled at setup holds exactly its contents (the layout is read from a fresh
  `new_game` with the same seats and options, so new decks are covered without code here);
- no card name is held by more handles than the game has copies of it: a reshuffle's fresh
  handles (Space Junk into Refuel, a hand before a blind take, Space Port after Captain
  Rookie) get the copies of the card list that are neither on the table (`table_cards`) nor
  under another live handle, so a card public before it was junked (a played Special
  Action) is among them and a one-copy card never appears twice;
- a seat that moved onto an undiscovered planet and has yet to play its planet card holds
  one: the move claimed it in public (SPEC §7.1), so a world without one could not go on.
Nothing here reads anything but the public state and the one view.
"""
from __future__ import annotations

from ..actions import PlaySpecial
from ..cards import CARD_BY_NAME, PLANET, STARTING_SHIP
from ..setup import ROOKIE_ROLE, new_game
from ..state import GameState, Stage
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
    Once a reshuffle has made fresh handles, every handle is drawn at once: the fresh ones
    get what the setup handles left over (`_fill_fresh`).
    """

    def __init__(self, state: GameState, view: PlayerView) -> None:
        groups, first_fresh = setup_layout(len(state.players), state.variants)
        names, known = state.names, view.known
        live = live_handles(state)
        self.base: dict[int, str] = {}
        self.slots: list[tuple[list[int], list[str]]] = []   # (unknown handles, their cards)
        self.group_of: dict[int, int] = {}                   # a lazily drawn handle's slot
        self.fresh = sorted(h for h in live if h >= first_fresh)
        self.fresh_known = {h: names.get(h) or known.get(h) for h in self.fresh
                            if (names.get(h) or known.get(h)) is not None}
        self.feeder_slots: list[int] = []   # slots of live feeder handles, with fresh handles
        self.leaver_slots: list[tuple[list[int], list[str]]] = []
        copies = _copies_in_play(state, groups) if self.fresh else {}
        # left[n]: copies of n that may sit under an unknown live handle (card list minus the
        # known live handles and the table); seen_fresh[n]: copies known to have left setup
        # handles (named under a fresh handle), so no unknown setup handle can still hold them.
        left, seen_fresh = dict(copies), {}
        if self.fresh:
            for h in sorted(live):
                name = names.get(h) or known.get(h)
                if name in left:
                    left[name] -= 1
            for name, count in table_cards(state, live).items():
                if name in left:
                    left[name] -= count
            for name in self.fresh_known.values():
                seen_fresh[name] = seen_fresh.get(name, 0) + 1
            for h in range(first_fresh, state.next_handle):
                name = names.get(h) or known.get(h)
                if name is not None and h not in live:
                    seen_fresh[name] = max(1, seen_fresh.get(name, 0))
        self.left = {n: max(0, c) for n, c in left.items()}
        for deck, handles, contents in groups:
            counts: dict[str, int] = {}
            for n in contents:
                counts[n] = counts.get(n, 0) + 1
            unknown, gone = [], []
            named_gone: dict[str, int] = {}
            for h in handles:
                name = names.get(h) or known.get(h)
                if name is not None and _take(counts, name):
                    self.base[h] = name
                    if h not in live:
                        named_gone[name] = named_gone.get(name, 0) + 1
                elif self.fresh and deck in JUNK_FEEDERS and h not in live:
                    gone.append(h)   # its card went into a reshuffle: a fresh handle holds it
                else:
                    unknown.append(h)
            if self.fresh and deck in JUNK_FEEDERS:
                # copies that may still be under this deck's live unknown handles; the rest
                # left unseen (into a reshuffle) and only name the retired handles
                cap = {n: max(0, min(c - max(0, seen_fresh.get(n, 0) - named_gone.get(n, 0)),
                                     self.left.get(n, 0)))
                       for n, c in counts.items()}
                pool, rest = [], []
                for n in contents:  # contents order, so the draw depends on the rng alone
                    if counts.get(n, 0) > 0:
                        counts[n] -= 1
                        if cap[n] > 0:
                            cap[n] -= 1
                            pool.append(n)
                        else:
                            rest.append(n)
                self.feeder_slots.append(len(self.slots))
                self.leaver_slots.append((gone, rest))
            else:
                pool = []
                for n in contents:
                    if counts.get(n, 0) > 0:
                        pool.append(n)
                        counts[n] -= 1
            self.slots.append((unknown, pool))
        for k, (gone, _) in enumerate(self.leaver_slots):
            self.group_of.update((h, len(self.slots) + k) for h in gone)
        if not self.fresh:  # after a reshuffle every handle is drawn at once instead
            held = {h for p in state.players for h in p.hand + p.quests}
            for i, (unknown, pool) in enumerate(self.slots):
                self.slots[i] = ([h for h in unknown if h in held], pool)
                self.group_of.update((h, i) for h in unknown if h not in held)
        self.spare = [n for deck, _, contents in groups if deck in JUNK_FEEDERS for n in contents]
        self.claimed = _claimed_planet_card(state, view)

    def sample(self, rng) -> "Draws":
        """One determinisation, drawn with `rng`: the held cards now, the rest on demand."""
        identity = dict(self.base)
        pools = []
        for handles, pool in self.slots:
            left = list(pool)
            for h in handles:
                # an empty pool means the view holds what no true game can: any card will do
                identity[h] = _pop_random(left, rng) if left else rng.choice(self.spare)
            pools.append(left)
        if self.claimed and not any(_is_planet(identity.get(h)) for h in self.claimed):
            self._give_planet_card(rng, identity, pools)
        if self.fresh:
            self._fill_fresh(rng, identity, pools)
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

    def _fill_fresh(self, rng, identity: dict[int, str], pools: list[list[str]]) -> None:
        """Fresh handles hold the copies no other live handle or the table holds (`left`
        less what this world gave the setup decks' unknown live handles); the retired setup
        handles whose cards went into the reshuffles are named from what their deck has left."""
        counts = dict(self.left)
        for i in self.feeder_slots:
            for h in self.slots[i][0]:
                name = identity[h]
                if counts.get(name, 0) > 0:
                    counts[name] -= 1
        unknown = []
        for h in self.fresh:
            name = self.fresh_known.get(h)
            if name is not None:
                identity[h] = name
            else:
                unknown.append(h)
        pool = [n for n, c in counts.items() for _ in range(c)]   # card-list order
        rng.shuffle(pool)
        for i, h in enumerate(unknown):
            # fewer copies left than unknown fresh handles only if the view holds what no
            # true game can: any card will do
            identity[h] = pool[i] if i < len(pool) else rng.choice(self.spare)
        for k, (gone, rest) in enumerate(self.leaver_slots):
            # the retired handles are named only on demand (`Draws.complete`): no playout asks
            pools.append(rest + pools[self.feeder_slots[k]])


def _copies_in_play(state: GameState, groups) -> dict[str, int]:
    """How many copies of each card name a reshuffle may hold: the decks that feed Space Junk,
    the seats' starting Star-T ships, and Captain Rookie once he is dealt as a role."""
    copies: dict[str, int] = {}
    for deck, _, contents in groups:
        if deck in JUNK_FEEDERS:
            for n in contents:
                copies[n] = copies.get(n, 0) + 1
    for _ in state.players:
        copies[STARTING_SHIP] = copies.get(STARTING_SHIP, 0) + 1
    if any(p.role == ROOKIE_ROLE for p in state.players) and ROOKIE_ROLE not in copies:
        copies[ROOKIE_ROLE] = 1
    return copies


def table_cards(state: GameState, live: set[int]) -> dict[str, int]:
    """The cards lying on the table (out of every deck, pile and hand), by name: ships and
    their extras, the personal piles and continuing cards, a Special Action card waiting in a
    window, and every planet card played (public and no longer live: a planet card never goes
    back to Space Junk, and a destroyed planet's card stays out of play)."""
    table: dict[str, int] = {}

    def add(name: str) -> None:
        table[name] = table.get(name, 0) + 1

    for _, ship in sorted(state.ships.items()):
        add(ship.name)
        for name in ship.extras:
            add(name)
    for h, name in sorted(state.names.items()):
        if h not in live and _is_planet(name):
            add(name)
    for p in state.players:
        for name in p.pile + p.continuing:   # the Binary System's planet card is counted above
            if name in CARD_BY_NAME and not _is_planet(name):
                add(name)
    waiting: list[int] = []
    for poll in state.polls:
        action = poll.action
        if type(action) is PlaySpecial and action.card not in live and action.card not in waiting:
            waiting.append(action.card)
            add(action.name)
    return table


def _is_planet(name: str | None) -> bool:
    card = CARD_BY_NAME.get(name or "")
    return card is not None and card.category == PLANET


def _claimed_planet_card(state: GameState, view: PlayerView) -> list[int]:
    """The hidden hand handles of another seat that owes a planet card, or []."""
    d = state.discovery
    if d is None or d.stage != Stage.PLANET or d.planet_card or d.discoverer == view.seat:
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
