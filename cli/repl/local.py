"""The local seat driver: one human seat against bots in one process, chance from LocalDealer.

It implements cli.repl.loop.SeatDriver; a network driver implements the same interface later, with
events arriving from peers instead of from local bots.
"""
from __future__ import annotations

import time

from p2p_asv.bots import BOTS, make_bot
from p2p_asv.dealer import LocalDealer
from p2p_asv.engine import apply, legal_actions, to_move
from p2p_asv.geometry import seat_colours
from p2p_asv.setup import new_game
from p2p_asv.state import CHANCE, GameState
from p2p_asv.view import PlayerView

from cli.games.asv.narrate import before, score_lines, settled
from cli.repl.loop import Happened


def seat_bot_kinds(players: int, seat: int, bots: list[str | None] | str, known) -> list[str | None]:
    """One bot kind per seat (None for the human), checked against the game's `known` bots;
    ValueError names what is wrong. Shared by both games' local drivers."""
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
    """Seat `seat` is the human; every other seat is a bot of kind `bots[i]` (None for the human)."""

    def __init__(self, players: int, seat: int, seed: int, bots: list[str] | str = "greedy",
                 config: dict | None = None, think: float | None = None) -> None:
        kinds = seat_bot_kinds(players, seat, bots, BOTS)
        self.seat = seat
        self.seed = seed
        self._state = new_game(players, config)
        self._dealer = LocalDealer(seed)
        self._views = [PlayerView(s) for s in range(players)]
        # a search bot thinks `think` seconds a decision (SPEC §12.3); None: a fixed iteration count
        clock = time.monotonic if think is not None else None
        self._bots = {s: make_bot(kinds[s], f"{seed}/{s}", think=think, clock=clock)
                      for s in range(players) if s != seat}
        colours = seat_colours(players)
        self.labels = [("you" if s == seat else f"{self._bots[s].name} bot") for s in range(players)]
        self.colours = list(colours)
        self._own: list[Happened] = []   # this seat's applied actions, told with the next events

    # -- SeatDriver ---------------------------------------------------------------------------
    def state(self) -> GameState:
        return self._state

    def view(self) -> PlayerView:
        return self._views[self.seat]

    def legal(self) -> list:
        """Legal actions of this seat, computed once per state: the prompt and the toolbar
        ask on every redraw."""
        key = (id(self._state), self._state.step)
        if getattr(self, "_legal_key", None) != key:
            self._legal_key, self._legal = key, legal_actions(self._state, self.view())
        return self._legal

    def is_over(self) -> bool:
        return self._state.over

    def my_turn(self) -> bool:
        return to_move(self._state) == self.seat

    def submit(self, action) -> None:
        """Apply the human's action; an EngineError leaves the state as it was (engine.apply
        validates before it mutates). Any other failure restores a snapshot and re-raises."""
        snapshot = self._state.clone()
        try:
            self._own.append(self._apply(self.seat, action))
        except Exception:
            self._state = snapshot
            raise

    def _apply(self, seat: int, action) -> Happened:
        was = before(self._state)
        apply(self._state, seat, action)
        return Happened(seat, action, score_lines(was, self._state, action),
                        settled(was, self._state, action, seat))

    def wait_for_turn(self) -> list[Happened]:
        """Play chance and bot events until the human is due or the game is over."""
        happened, self._own = self._own, []
        while not self._state.over:
            due = to_move(self._state)
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
