"""The information-set Monte Carlo tree search bot (SPEC §12.3).

Each iteration draws one world consistent with the bot's view (determinise.py), walks the
tree of the bot's own decisions in that world, plays out to a cut-off with the greedy playout
policy and scores the position (playout.py). Chance outcomes and other seats' moves are
branches of the tree keyed by what the bot would observe; only the bot's own decisions are
chosen by UCB, with progressive widening over the playout policy's ranking so that a small
budget refines the greedy choice instead of spreading over hundreds of tile placements.

The bot reads only (state, view); it never changes either. For a given seed, state and view
the choice depends only on the number of iterations: a time budget needs a clock, which the
engine does not have, so the caller passes one in (`clock`, e.g. time.monotonic).
"""
from __future__ import annotations

import math

from ..actions import ChanceDeal, DrawTile
from ..engine import legal_actions, to_move
from ..errors import EngineError
from ..state import CHANCE, GameState
from ..view import PlayerView
from .determinise import Determiniser
from .playout import evaluate, policy_action, ranked
from .rng import FastRandom
from .world import ImpossibleWorld, World

DEFAULT_THINK = 1.0        # seconds a decision, with a clock (SPEC §12.3)
DEFAULT_ITERATIONS = 200   # iterations a decision without a clock (reproducible selfplay)
EXPLORATION = 0.5          # UCB constant, rewards lie in [0, 1]
HORIZON_TURNS = 0          # playouts stop when this many turns have ended after the current one
DEEP_WIDENING = 8          # below the root a node's k-th child waits for 8·k² visits: greedy first


class Node:
    __slots__ = ("visits", "total", "children", "untried")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.children: dict = {}
        self.untried: list | None = None

    def widen(self, per: int = 1) -> bool:
        """Progressive widening: one more child each time visits / per pass a square."""
        return bool(self.untried) and len(self.children) <= math.isqrt(self.visits // per)

    def best_ucb(self):
        log_n = math.log(self.visits + 1)
        best, chosen = -1.0, None
        for action, child in self.children.items():
            u = child.total / child.visits + EXPLORATION * math.sqrt(log_n / child.visits)
            if u > best:
                best, chosen = u, action
        return chosen


class SearchBot:
    name = "search"

    def __init__(self, seed: int | str, think: float | None = None, iterations: int | None = None,
                 clock=None, horizon: int = HORIZON_TURNS) -> None:
        self.seed = str(seed)
        self.think = DEFAULT_THINK if think is None else think
        self.iterations = iterations
        self.clock = clock
        self.horizon = horizon
        self.last_iterations = 0   # how many the last decision ran (benchmarks, tests)
        self.last_actions = 0      # events it simulated in them

    def _budget(self):
        """(iteration cap, deadline or None): no clock means a fixed count, reproducibly."""
        if self.clock is None:
            return (self.iterations or DEFAULT_ITERATIONS), None
        return self.iterations, self.clock() + self.think

    def choose(self, state: GameState, view: PlayerView):
        options = legal_actions(state, view)
        if len(options) == 1 or all(type(a) is DrawTile for a in options):
            # one choice, or only which face-down pile to draw from: nothing to search
            self.last_iterations = self.last_actions = 0
            return options[0]
        stream = f"{view.seat}/{state.step}"
        root = Node()
        root.untried = ranked(state, view, options, FastRandom(self.seed, stream))
        default = root.untried[0]   # the playout policy's own choice
        rewards: dict = {}          # root action -> reward of its k-th visit, k = 0, 1, ...
        cap, deadline = self._budget()
        determiniser = Determiniser(state, view)
        done = simulated = 0
        while (cap is None or done < cap) and (deadline is None or done == 0 or self.clock() < deadline):
            action = root.untried.pop(0) if root.widen() else root.best_ucb()
            child = root.children.setdefault(action, Node())
            # Common random numbers: the k-th visit of every root action plays in the same
            # world with the same playout randomness, so they are compared on equal terms.
            rng = FastRandom(self.seed, f"{stream}/{child.visits}")
            world = World.sample(state, determiniser, rng)
            world.play(view.seat, action)
            reward = self._iterate([root, child], world, view.seat, state.turn + self.horizon)
            rewards.setdefault(action, []).append(reward)
            done += 1
            simulated += world.actions
        self.last_iterations, self.last_actions = done, simulated
        return _paired_choice(default, rewards)

    def _iterate(self, path: list[Node], world: World, me: int, last_turn: int) -> float:
        """Walk on from path[-1] in `world`, add at most one node, play out, back up."""
        try:
            self._walk(path, world, me, last_turn)
        except ImpossibleWorld:
            pass   # scored as the failed event left it
        reward = evaluate(world.state, me, world.identity)
        for n in path:
            n.visits += 1
            n.total += reward
        return reward

    def _walk(self, path: list[Node], world: World, me: int, last_turn: int) -> None:
        """Down the tree from path[-1] (adding at most one node to `path`), then play out."""
        state = world.state
        node = path[-1]
        expanded = node.visits == 0
        while not expanded and not state.over and state.turn <= last_turn:
            seat = to_move(state)
            if seat == CHANCE:
                action = world.play_chance()
                key = (_observed(action, me, world.identity), _my_hand(state, me, world.draws))
            elif seat != me:
                action = policy_action(world, seat)
                world.play(seat, action)
                key = (action, _my_hand(state, me, world.draws))
            else:
                if node.untried is None:
                    options = legal_actions(state, world.views[me])
                    node.untried = ranked(state, world.views[me], options, world.rng)
                forced = len(node.untried) + len(node.children) == 1
                if forced and node.untried:
                    action = node.untried.pop(0)   # a forced step is no decision: walk through
                elif forced:
                    action = next(iter(node.children))
                elif node.widen(DEEP_WIDENING):
                    action = node.untried.pop(0)
                    expanded = True
                else:
                    action = node.best_ucb()
                try:
                    world.play(me, action)
                except EngineError:
                    break   # cannot happen when legality depends on the view alone; stop safely
                key = action
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = Node()
                expanded = expanded or seat != me
            node = child
            path.append(node)
        while not state.over and state.turn <= last_turn:
            seat = to_move(state)
            if seat == CHANCE:
                world.play_chance()
            else:
                world.play(seat, policy_action(world, seat))


MIN_PAIRED = 4   # visits a root action needs before it may replace the default
# Standard errors by which it must beat the default: with one, noise alone switched the choice
# among a dozen candidates too often; two won 21.5 of 40 games at 0.2 s against greedy where
# one won 20 (the same seeds, SPEC §12.3).
PAIRED_Z = 2.0


def _paired_choice(default, rewards: dict):
    """The root action to play: the playout policy's choice unless another action beat it on
    the same worlds (common random numbers) by more than one standard error of the paired
    differences; then the one that beat it by the most. Noise alone rarely moves the choice."""
    base = rewards.get(default, [])
    best, best_margin = default, 0.0
    for action, mine in rewards.items():
        n = min(len(mine), len(base))
        if action == default or n < MIN_PAIRED:
            continue
        diffs = [mine[k] - base[k] for k in range(n)]
        mean = sum(diffs) / n
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
        if mean - PAIRED_Z * spread > best_margin:
            best, best_margin = action, mean - PAIRED_Z * spread
    return best


def _my_hand(state: GameState, me: int, draws) -> tuple:
    """The bot's own hand, handle and name, which it always sees. Part of every key below the
    root because a hidden event (a blind pick from the hand, its re-shuffle) changes the hand
    differently in different worlds: one node must not serve two hands, or an action listed
    in one world would be played with the other world's cards."""
    return tuple((h, draws.name(h)) for h in state.players[me].hand)   # drawn if not yet


def _observed(action, me: int, identity: dict[int, str]):
    """A chance outcome as the bot would see it: a deal to the bot shows the cards' names."""
    if type(action) is ChanceDeal and action.seat == me:
        return ("deal", tuple(identity[h] for h in action.cards))
    return action
