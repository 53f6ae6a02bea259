"""What the host and join flows share (SPEC §29.3-§29.14): the identity and its throwaway
key, the node's options, a bot seat's agent for the chosen game, the joiner's game chooser,
and the node's hooks (turn clock, address book)."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from cli.errors import UserError
from cli.games import DEFAULT_KEY, GameKit, kit_for, kit_for_rules
from cli.netplay.net_args import listen_host
from cli.netplay.node_notes import words
from cli.netplay.peer_book import PeerBook
from cli.netplay.turn_clock import TurnClock
from protocol.crypto import Identity, load_identity, save_identity
from protocol.node import Node, NodeOptions, Note


def make_identity(key: str | None, name: str) -> Identity:
    """The identity in a key file (`--key`, or a game's throwaway key), renamed by --name."""
    identity = load_identity(key)
    if name:
        identity.name = name
    return identity


def keep_fresh_key(identity: Identity, log_dir, game: bytes) -> None:
    """A throwaway key (--new-key) is saved (0600) beside the log, so `--resume LOG` can
    find it: <log dir>/<game12>-<fingerprint>.key (SPEC §29.7, §29.11)."""
    if log_dir is not None:
        Path(log_dir).mkdir(parents=True, exist_ok=True)
        save_identity(identity, Path(log_dir) / f"{game.hex()[:12]}-{identity.fingerprint}.key", force=True)


def resume_key(log: str) -> str | None:
    """The throwaway key saved beside LOG, if this seat joined with one."""
    path = Path(log).with_suffix(".key")
    return str(path) if path.exists() else None


def node_options(args, seats: int | None) -> NodeOptions:
    return NodeOptions(host=listen_host(args), port=getattr(args, "port", 0) or 0,
                       timeout=args.timeout, seats=seats)


def seat_agent(kind: str | None, tag: str, think: float | None = None, game: GameKit | None = None):
    if kind is None:
        return None
    game = game or kit_for(DEFAULT_KEY)
    if kind not in game.bot_kinds:
        raise UserError(f"asv: unknown {game.title} bot {kind!r}; choose from {', '.join(game.bot_kinds)}")
    if think is not None and not think > 0:
        raise UserError(f"asv: --think must be a positive number of seconds, not {think:g}")
    return game.agent(kind, tag, think=think)


def game_chooser(args, tag: str, rules_for: Callable[[GameKit], object] | None = None):
    """A joiner's Node hook (SPEC §47.7): the rules and bot of the game the first hello names."""
    def choose(name: str):
        game = kit_for_rules(name)
        if game is None:
            return None
        rules = rules_for(game) if rules_for is not None else game.session_rules()
        return rules, seat_agent(args.bot, tag, getattr(args, "think", None), game)
    return choose


def clocked(node: Node) -> TurnClock:
    """Give a node the turn clock of SPEC §29.14 (it reads the clock's length from the
    game config; a game without one is never over time)."""
    clock = TurnClock(node)
    node.overtime = clock
    applied = node.on_applied

    def on_applied(n: Node, ev, note: str) -> None:
        if ev.kind == "abort":
            clock.aborted(ev)
        clock.observe()
        if applied is not None:
            applied(n, ev, note)
    node.on_applied = on_applied
    return clock


def keeping_book(book: PeerBook, applied):
    """on_applied that also keeps the log's address book (SPEC §29.12) up to date."""
    def on_applied(node: Node, ev, note: str) -> None:
        book.update(node)
        applied(node, ev, note)
    return on_applied


def noting_book(book: PeerBook, node: Node, say):
    """on_note that also keeps the log's address book: a note comes with each peer that
    joins, leaves or comes back (maybe on a new port), and a seat that quits before the next
    event must still find it on `--resume` (SPEC §29.12)."""
    def on_note(note: Note) -> None:
        book.update(node)
        say(words(note, node.who))
    return on_note
