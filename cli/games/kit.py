"""The game kit interface (SPEC §34): everything the rest of `cli/` may know about a game.

A game is a pure engine package (no I/O) plus a kit package `cli/games/<game>/` whose module
exposes `KIT`, an object with the members below; one line in `cli/games/__init__.py`
registers it. The command, the REPL, network play and the log tools are written once
against this interface and never name a game. The engine-facing part (the first block) is
what the conformance suite drives; the rest is the command line's and the screen's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol, runtime_checkable

from cli.errors import UserError

__all__ = ["GameKit", "Bot", "BotAgent", "Dealer", "Happened", "KitBase"]


@dataclass(frozen=True)
class Happened:
    """One event applied, as the screen tells it: seat CHANCE (-1) for a deck operation.
    `notes` are the lines the event earns besides its own (score changes with their reasons,
    SPEC §31.3); `settled` what it cancelled or redirected (the game's own records)."""
    seat: int
    action: object
    notes: tuple[str, ...] = ()
    settled: tuple = ()


class Bot(Protocol):
    name: str

    def choose(self, state: Any, view: Any) -> Any: ...


class Dealer(Protocol):
    def outcome(self, state: Any, views: list[Any]) -> Any: ...


@runtime_checkable
class GameKit(Protocol):
    # -- the engine-facing part (the agreed minimum, /work/kit-interface.md) ---------------
    key: str                          # the --game value: "asv"
    title: str                        # "Amazing Space Venture"
    min_players: int
    max_players: int
    rules_name: str                   # the session's `rules` (SPEC §26.2)
    group_since: int                  # first version of `rules` on ristretto255 (SPEC §25.1)
    proofs_since: int                 # first version whose shuffle proofs carry their commitments (§25.10)
    bot_kinds: tuple[str, ...]        # includes "random" and "greedy"
    engine_errors: tuple[type[Exception], ...]   # what apply/parse raise for a refused action

    def variant_configs(self, players: int) -> list[tuple[str, dict]]: ...
    def new_state(self, players: int, config: dict) -> Any: ...
    def to_move(self, state: Any) -> int: ...          # a seat, or CHANCE (-1)
    def is_over(self, state: Any) -> bool: ...
    def new_view(self, seat: int) -> Any: ...
    def legal_actions(self, state: Any, view: Any) -> list: ...
    def apply(self, state: Any, seat: int, action: Any) -> None: ...
    def parse_action(self, text: str) -> Any: ...
    def state_hash(self, state: Any) -> str: ...
    def result(self, state: Any) -> dict: ...
    def dealer(self, seed: int) -> Dealer: ...
    def bot(self, kind: str, seed: str, *, think: float | None = None,
            iterations: int | None = None) -> Bot: ...
    def session_rules(self) -> Any: ...               # a protocol.session GameRules

    # -- the command line -------------------------------------------------------------------
    variants: tuple[str, ...]         # the --variant names it plays
    options: dict[str, str]           # its own command-line options: flag -> argparse dest
    default_think: float | None       # seconds a thinking bot takes a decision (None: none thinks)
    default_iterations: int | None

    def add_options(self, parser: Any) -> None: ...   # adds `options` to a command's parser
    def config_from(self, variants: list[str], args: Any, players: int | None) -> dict: ...  # UserError
    def seat_colours(self, players: int) -> tuple[str, ...]: ...
    def agent(self, kind: str, seed: str, *, think: float | None = None,
              iterations: int | None = None) -> Any: ...   # a session Agent for a bot seat
    def check_players(self, players: int, command: str = "asv") -> None: ...   # UserError
    def selfplay(self, players: int, seed: int, kinds: list[str], config: dict,
                 bot_options: dict) -> dict: ...      # one bot game in-process: selfplay's JSON
    def catalog_json(self) -> str: ...
    def catalog_lines(self) -> list[str]: ...
    def turn_line(self, state: Any, *, at_start: bool) -> tuple[int, str] | None: ...  # progress
    def render_board(self, state: Any) -> str: ...    # plain text (`asv replay`)
    def picture(self, state: Any, *, caption: str = "", labels: list[str] | None = None) -> str: ...

    # -- the screen ---------------------------------------------------------------------------
    def copy_state(self, state: Any) -> Any: ...
    def before(self, state: Any) -> Any: ...          # what `happened` compares with
    def happened(self, was: Any, state: Any, seat: int, action: Any) -> Happened: ...
    def screen(self, driver: Any, repl: Any = None) -> Any: ...   # its part of the REPL (cli.games.screen)
    def tutorial(self) -> Any: ...                    # asv learn's lessons, or None


class BotAgent:
    """A session Agent, (state, view) -> action text, from a kit bot. `thinks`: the bot may
    take long, so a networked peer runs it in a worker thread (SPEC §12.3).

    A bot that answers at once is remade alike (SPEC §23.4): given `remake` (the kit's bot
    for a seed), its `record` names it, and asked with the height (`seq`) it decides with a
    bot seeded for that height alone, so its answer is a function of the state, its view,
    the seed and the height, and a peer rebuilt from its log makes the same choice."""

    def __init__(self, bot: Bot, thinks: bool = False, *, kind: str | None = None,
                 remake: Callable[[str], Bot] | None = None, seed: str | None = None) -> None:
        self.bot = bot
        self.thinks = thinks
        self._remake = remake
        self.record = {"bot": kind, "seed": seed} if remake is not None and not thinks else None

    def __call__(self, state: Any, view: Any, *, seq: int | None = None) -> str:
        bot = self.bot
        if seq is not None and self._remake is not None and self.record is not None:
            bot = self._remake(f"{self.record['seed']}@{seq}")
        return bot.choose(state, view).text()


class KitBase:
    """What every kit derives the same way from its own members."""
    key: str
    title: str
    min_players: int
    max_players: int
    thinking_bots: tuple[str, ...] = ()   # bot kinds that think for a while (search)

    def agent(self, kind: str, seed: str, *, think: float | None = None, iterations: int | None = None):
        bot = self.bot(kind, seed, think=think, iterations=iterations)  # type: ignore[attr-defined]
        if kind in self.thinking_bots:
            return BotAgent(bot, thinks=True)
        return BotAgent(bot, kind=kind, seed=seed,
                        remake=lambda at: self.bot(kind, at))  # type: ignore[attr-defined]

    def check_players(self, players: int, command: str = "asv") -> None:
        if not self.min_players <= players <= self.max_players:
            raise UserError(f"{command}: {self.title} is for {self.min_players} to {self.max_players} "
                            f"players, not {players}")

    def copy_state(self, state):
        return state.clone()

    def tutorial(self):
        """The lessons of `asv learn` (SPEC §31.10), or None: this game has none yet."""
        return None

    def before(self, state):
        return None

    def happened(self, was, state, seat: int, action) -> Happened:
        return Happened(seat, action)

    def __repr__(self) -> str:
        return f"<kit {self.key}>"

