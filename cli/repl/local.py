"""The local seat driver: one human seat against bots in one process, chance from the game's
local dealer; written once for every game, through its kit (SPEC §34).

It implements cli.repl.loop.SeatDriver; the network driver (cli.netplay.driver) implements
the same interface, with events arriving from peers instead of from local bots.
"""
from __future__ import annotations

from cli.games import DEFAULT_KEY, GameKit, kit_for
from cli.games.kit import Happened

from protocol.session import CHANCE

__all__ = ["LocalGame", "seat_bot_kinds"]


def seat_bot_kinds(players: int, seat: int, bots: list[str | None] | str, known) -> list[str | None]:
    """One bot kind per seat (None for the human), checked against the game's `known` bots;
    ValueError names what is wrong."""
    if not 0 <= seat < players:
        raise ValueError(f"seat {seat} does not exist in a {players}-player game (0..{players - 1})")
    kinds = [bots] * players if isinstance(bots, str) else list(bots)
    if len(kinds) != players:
        raise ValueError(f"{len(kinds)} bot kinds named for {players} seats")
    for kind in kinds:
        if kind is not None and kind not in known:
            raise ValueError(f"unknown bot {kind!r}; choose from {', '.join(known)}")
    return kinds


MAX_EVENTS_BETWEEN_TURNS = 100_000  # a bot loop that never hands back is a bug; fail loudly


class LocalGame:
    """Seat `seat` is the human; every other seat is a bot of kind `bots[i]` (None for the
    human) of the game `kit` (the default game unless said)."""

    def __init__(self, players: int, seat: int, seed: int, bots: list[str | None] | str = "greedy",
                 config: dict | None = None, think: float | None = None, *, kit: GameKit | None = None) -> None:
        self.kit = kit = kit or kit_for(DEFAULT_KEY)
        kinds = seat_bot_kinds(players, seat, bots, kit.bot_kinds)
        self.seat = seat
        self.seed = seed
        self._state = kit.new_state(players, dict(config or {}))
        self._dealer = kit.dealer(seed)
        self._views = [kit.new_view(s) for s in range(players)]
        # a search bot thinks `think` seconds a decision (SPEC §12.3); None: a fixed iteration count
        self._bots = {s: kit.bot(kinds[s] or "greedy", f"{seed}/{s}", think=think)
                      for s in range(players) if s != seat}
        self.labels = [("you" if s == seat else f"{self._bots[s].name} bot") for s in range(players)]
        self.colours = list(kit.seat_colours(players))
        self._own: list[Happened] = []   # this seat's applied actions, told with the next events
        self._applied = 0                # events applied: the legal actions are computed once each

    # -- SeatDriver ---------------------------------------------------------------------------
    def state(self):
        return self._state

    def view(self):
        return self._views[self.seat]

    def legal(self) -> list:
        """Legal actions of this seat, computed once per state: the prompt and the toolbar
        ask on every redraw."""
        key = (id(self._state), self._applied)
        if getattr(self, "_legal_key", None) != key:
            over = self.kit.is_over(self._state)
            self._legal_key = key
            self._legal = [] if over else self.kit.legal_actions(self._state, self.view())
        return self._legal

    def is_over(self) -> bool:
        return self.kit.is_over(self._state)

    def my_turn(self) -> bool:
        return not self.is_over() and self.kit.to_move(self._state) == self.seat

    def submit(self, action) -> None:
        """Apply the human's action; a refusal (one of the kit's engine errors) leaves the
        state as it was (the engines check before they change anything). Any other failure
        restores a snapshot and re-raises."""
        snapshot = self.kit.copy_state(self._state)
        try:
            self._own.append(self._apply(self.seat, action))
        except Exception:
            self._state = snapshot
            raise

    def _apply(self, seat: int, action) -> Happened:
        was = self.kit.before(self._state)
        self.kit.apply(self._state, seat, action)
        self._applied += 1
        return self.kit.happened(was, self._state, seat, action)

    def wait_for_turn(self) -> list[Happened]:
        """Play chance and bot events until the human is due or the game is over."""
        happened, self._own = self._own, []
        while not self.kit.is_over(self._state):
            due = self.kit.to_move(self._state)
            if due == self.seat:
                break
            if due == CHANCE:
                action = self._dealer.outcome(self._state, self._views)
            else:
                action = self._bots[due].choose(self._state, self._views[due])
            happened.append(self._apply(due, action))
            if len(happened) > MAX_EVENTS_BETWEEN_TURNS:
                raise RuntimeError("the other seats did not hand the turn back")
        return happened
