"""Shared builders for the engine tests: a rigged local dealer and a small game driver.

Positions are built by applying real actions. The only rigging is in the dealer: it shuffles
like LocalDealer, then moves named cards and tiles to the front of a deck, so a test decides
which tiles pile 1 yields and which cards each seat is dealt (SPEC §10.5).
"""
from __future__ import annotations

from p2p_asv import actions as A
from p2p_asv.dealer import LocalDealer
from p2p_asv.engine import apply, legal_actions, to_move
from p2p_asv.setup import HAND_SIZE, new_game
from p2p_asv.specials import OFFER_KINDS
from p2p_asv.state import CHANCE, DISCARD, MOVE, PLACE_PIECE, REFILL, TILES
from p2p_asv.view import PlayerView


def _front(contents: list[str], wanted: list[str | None]) -> None:
    """Put wanted[i] at position i (None leaves a position to chance), keeping the rest in
    shuffled order."""
    rest = list(contents)
    for name in wanted:
        if name is not None:
            rest.remove(name)
    out = [name if name is not None else rest.pop(0) for name in wanted] + rest
    contents[:] = out[:len(contents)]


class RiggedDealer(LocalDealer):
    """A LocalDealer whose shuffles put chosen identities first.

    tiles: the first tiles of pile 1, in draw order. hands: per seat, cards placed first in
    that seat's opening hand. refuel/port: the order of the decks after the opening deal.
    """

    def __init__(self, seed, tiles=(), hands=(), refuel=(), port=()) -> None:
        super().__init__(seed)
        self.order = {"tiles": list(tiles), "port": list(port)}
        refuel_order: list[str | None] = []
        for hand in hands:
            refuel_order += list(hand) + [None] * (HAND_SIZE - len(hand))
        self.seats = len(hands)
        self.refuel_after = list(refuel)
        self.order["refuel"] = refuel_order
        self.shuffled: set[str] = set()

    def outcome(self, state, views):
        request = state.pending[0]
        if request.kind == "shuffle" and request.contents is not None and request.deck not in self.shuffled:
            self.shuffled.add(request.deck)
            contents = list(request.contents)
            self._rng.shuffle(contents)
            wanted = list(self.order.get(request.deck, []))
            if request.deck == "refuel":
                wanted += [None] * (HAND_SIZE * len(state.players) - len(wanted)) + self.refuel_after
            _front(contents, wanted)
            self.identity.update(zip(request.handles, contents))
            return A.ChanceShuffle(request.deck)
        return super().outcome(state, views)


def chebyshev(a, b) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


class Game:
    """A game driven by explicit actions; chance events are answered as soon as they are due."""

    def __init__(self, players: int, seed: int = 1, dealer: LocalDealer | None = None,
                 config: dict | None = None, auto_pass: bool = True) -> None:
        self.state = new_game(players, config)
        self.dealer = dealer or LocalDealer(seed)
        self.views = [PlayerView(s) for s in range(players)]
        # Like a client's automatic pass (SPEC §14.2): every response window is passed unless
        # a test turns this off to answer windows itself. Offers (SPEC §8.2) are the tests' own.
        self.auto_pass = auto_pass
        self.settle()

    # -- driving -----------------------------------------------------------------------
    def settle(self) -> None:
        while not self.state.over:
            seat = to_move(self.state)
            if seat == CHANCE:
                apply(self.state, CHANCE, self.dealer.outcome(self.state, self.views))
            elif self.auto_pass and self.state.polls and self.state.polls[-1].kind not in OFFER_KINDS:
                apply(self.state, seat, A.Pass())
            else:
                return

    def act(self, action, seat: int | None = None):
        seat = to_move(self.state) if seat is None else seat
        if isinstance(action, str):
            from p2p_asv.engine import parse_action
            action = parse_action(action)
        apply(self.state, seat, action)
        self.settle()
        return action

    @property
    def seat(self) -> int:
        return to_move(self.state)

    def legal(self, seat: int | None = None) -> list:
        seat = to_move(self.state) if seat is None else seat
        return legal_actions(self.state, self.views[seat])

    def hand_named(self, seat: int, name: str) -> int:
        """A handle in seat's hand that the seat knows to be `name`."""
        for h in self.state.players[seat].hand:
            if self.views[seat].name_of(h, self.state.names) == name:
                return h
        raise AssertionError(f"seat {seat} holds no {name}")

    def hand_names(self, seat: int) -> list[str]:
        return [self.views[seat].name_of(h, self.state.names) for h in self.state.players[seat].hand]

    # -- phase 1 -----------------------------------------------------------------------
    def draw_all(self) -> list[int]:
        while self.state.phase == TILES and any(isinstance(a, A.DrawTile) for a in self.legal()):
            self.act(A.DrawTile(0))
        return list(self.state.drawn)

    def place_far(self, handle: int, away: list) -> None:
        """Place a drawn tile on the legal spot farthest from the squares in `away`."""
        options = [a for a in self.legal() if isinstance(a, (A.PlaceTile, A.ScrapTile)) and a.tile == handle]
        assert options, f"no way to place tile #{handle}"
        if away:
            options.sort(key=lambda a: -min(chebyshev(a.square, s) for s in away)
                         if isinstance(a, A.PlaceTile) else 0)
        self.act(options[0])

    def tiles(self, plan=(), away=()) -> None:
        """Draw this turn's tiles, then place each drawn tile named in `plan` (tile id, square,
        rotation), in plan order; the others go far from `away` and the planned squares."""
        self.draw_all()
        plan = list(plan)
        avoid = list(away) + [sq for _, sq, _ in plan]
        for tile_id, sq, rot in plan:
            h = next(h for h in self.state.drawn if self.state.names[h] == tile_id)
            self.act(A.PlaceTile(h, sq, rot))
        while self.state.phase == TILES:
            self.place_far(self.state.drawn[0], avoid)

    def to_phase(self, phase: int) -> None:
        """Say Next until the active seat reaches `phase` of this turn."""
        assert self.state.phase != TILES and self.state.discovery is None
        while self.state.phase != phase:
            assert self.state.phase < phase, "phase already passed"
            self.act(A.Next())

    def end_turn(self) -> None:
        assert self.state.phase != TILES
        start = self.state.turn
        while self.state.turn == start and not self.state.over:
            self.act(A.Next())

    def quiet_turn(self, away=()) -> None:
        """A whole turn that places tiles far from `away` and does nothing else."""
        self.tiles(away=away)
        self.end_turn()


__all__ = ["RiggedDealer", "Game", "chebyshev", "TILES", "PLACE_PIECE", "MOVE", "DISCARD", "REFILL"]
