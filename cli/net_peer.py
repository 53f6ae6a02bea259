"""Amazing Space Venture peers on the network (SPEC §29): invites, progress lines, the
scoreboard, and the host/join flows shared by `asv host`, `asv join` and `asv demo`.

A bot filling a seat of `asv host --bots N` is a separate mesh node with its own identity
and its own log, running in the host's process (SPEC §29.3); `asv demo` runs every bot in
its own OS process instead.
"""
from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TextIO

import trio

from cli.arg_checks import writable_folder
from cli.asv_adapter import AsvRules
from cli.error_lines import error_line
from cli.net_args import listen_host
from cli.games import GAMES, Game, by_rules_name, game_of
from cli.identity_file import choose_identity
from cli.lan import announce, invite_host, mdns_interfaces
from cli.peer_book import PeerBook, kept_entries, load_peers, own_listen, own_port
from cli.peer_names import colours_of, namer, remembering
from cli.node_notes import speaker, words
from cli.resume_checks import check_resume_log, check_resume_seat
from cli.regather import DEFAULT_RESUME_WAIT, NobodyBack, dial_all, gather, met, resume_port, spare_addresses, spare_ports
from cli.turn_clock import CLOCK_KEY, TurnClock, check_clock
from cli.variant_args import config_from
from p2p_asv.geometry import seat_colours
from p2p_asv.state import TILES
from protocol.errors import ProtocolError
from protocol.crypto import Identity, KeyFileError, fingerprint, load_identity, save_identity
from protocol.node import Node, NodeOptions, Note, NotInRoster, ResumeError, restore_peer
from protocol.net import NotConnected, TransportError, plain_reason
from protocol.log import scan_log

__all__ = ["Invite", "parse_invite", "Printer", "scoreboard", "exit_code", "make_identity",
           "host_game", "join_game", "write_timings", "run_peer", "user_error"]

INVITE_PREFIX = "asv join "
FINGERPRINT = re.compile(r"[A-Z2-7]{4}(-[A-Z2-7]{4}){3}")   # SPEC §20.2


class LeftLobby(Exception):
    """The creator left its lobby (Ctrl-D or quit) before the game started (SPEC §29.2)."""


# Failures a user can cause or fix (unreachable address, port in use, refused key, bad
# log...): reported in one line, exit 1. Anything else is a bug and keeps its traceback.
EXPECTED_ERRORS = (ProtocolError, OSError, ValueError, NotInRoster, ResumeError, KeyFileError, NobodyBack,
                   LeftLobby)
INTERRUPTED = "interrupted; your log keeps every event written so far"


@dataclass(frozen=True)
class Invite:
    host: str
    port: int
    game: bytes | None = None
    creator: str | None = None     # fingerprint of the peer at host:port, if known

    def text(self) -> str:
        parts = [f"{self.host}:{self.port}"]
        if self.game is not None:
            parts.append(self.game.hex())
            if self.creator:
                parts.append(self.creator)
        return "/".join(parts)


def parse_invite(text: str) -> Invite:
    """HOST:PORT[/GAMEID[/FINGERPRINT]], as printed by `asv host` (SPEC §29.2)."""
    text = text.strip()
    if text.startswith(INVITE_PREFIX):
        text = text[len(INVITE_PREFIX):].strip()
    parts = text.split("/")
    host, sep, port = parts[0].rpartition(":")
    if not sep or not host or not (port.isascii() and port.isdigit()) or not 0 < int(port) < 65536:
        raise ValueError(f"{parts[0]!r} is not HOST:PORT")
    game = None
    if len(parts) > 1:
        try:
            game = bytes.fromhex(parts[1])
        except ValueError:
            raise ValueError(f"game id {parts[1]!r} is not hex") from None
        if len(game) not in (16, 32):
            raise ValueError("a game id is 16 or 32 bytes (32 or 64 hex digits)")
    creator = parts[2].upper() if len(parts) > 2 else None
    if creator is not None and not FINGERPRINT.fullmatch(creator):
        raise ValueError(f"{parts[2]!r} is not a key fingerprint (XXXX-XXXX-XXXX-XXXX)")
    if len(parts) > 3:
        raise ValueError("an invite is HOST:PORT/GAMEID/FINGERPRINT")
    return Invite(host, int(port), game, creator)


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


def scoreboard(session) -> str:
    """The final scoreboard of a finished game, seat by seat, best first."""
    res = session.result()
    n = session.players
    colours = colours_of(session)
    names = [session.names[session.roster.index(k)] for k in session.seat_keys]
    lines = ["Final scoreboard"]
    for seat in sorted(range(n), key=lambda s: -res["scores"][s]):
        parts = ", ".join(f"{k} {v}" for k, v in res.get("breakdown", [{}] * n)[seat].items())
        lines.append(f"  {colours[seat]:6s} {names[seat][:16]:16s} {res['scores'][seat]:4d}   ({parts})")
    if "team_scores" in res:  # partnership (SPEC §13.4)
        lines.append("Teams: " + "  ".join(f"{'+'.join(colours[s] for s in team)} {total}"
                                          for team, total in zip(res["teams"], res["team_scores"])))
    winners = " and ".join(colours[s] for s in res["winners"])
    title = f", {res['title']}" if res.get("title") else ""
    how = " (nine planets)" if res.get("victory") == "nine planets" else ""
    lines.append(f"Winner: {winners}{title}{how}.")
    return "\n".join(lines)


def exit_code(node: Node) -> int:
    """0 finished; 2 aborted (a silent peer was named); 1 anything else."""
    s = node.session
    if s is not None and s.finished:
        return 0
    if s is not None and s.phase == "aborted":
        return 2
    return 1


class Printer:
    """Progress lines for a bot peer (or a quiet one): turns, tiles left, scores, and the
    long steps (key setup, shuffles)."""

    def __init__(self, out: TextIO | None = sys.stdout, *, prefix: str = "", turns: bool = True) -> None:
        self.out = out
        self.prefix = prefix
        self.turns = turns
        self._turn = 0

    def say(self, text: str) -> None:
        if self.out is not None:
            print(self.prefix + text, file=self.out, flush=True)

    def applied(self, node: Node, ev, note: str) -> None:
        s = node.session
        if ev.kind == "hello" and ev.seq == 0:
            self.say(f"game {s.game.hex()} started: {s.players} seats")
        elif ev.kind == "seat-reveal" and s.phase == "key-commit":
            colours = colours_of(s)
            seats = ", ".join(f"{colours[i]}: {s.names[s.roster.index(k)]}" for i, k in enumerate(s.seat_keys))
            self.say(f"seats fixed by commit-reveal ({seats}); key setup...")
        elif ev.kind == "key-reveal" and s.phase == "play":
            self.say("joint key ready" + ("; shuffling the decks" if s.rules.deck_labels() else ""))
        elif ev.kind == "shuffle":
            self.say(f"  {note} by seat {s.seat_of[ev.author] + 1} of {s.players}")
        elif ev.kind in ("abort", "halt") and ev.author != node.me:   # its writer's node said it already
            self.say(note)
        if self.turns and s.phase == "play" and not getattr(node, "catching_up", False):
            self._say_turn(s, at_start=True)   # a catch-up ends with one line instead

    def caught_up(self, node: Node, before: int) -> None:
        """After a catch-up (a resume, a reconnect): one line, not one per turn it held, then
        where the game is now (SPEC §29.7)."""
        s = node.session
        if not self.turns or s is None or s.phase != "play":
            return
        if node.height - before < 2:   # a gap of one lost gossip: nothing to sum up
            self._say_turn(s, at_start=True)
            return
        self.say(f"caught up with the others: {node.height - before} events they wrote while this peer "
                 f"was away (now at event {node.height})")
        self._say_turn(s, at_start=False)

    def _say_turn(self, s, *, at_start: bool) -> None:
        """The progress line of the turn in play, once a turn: at its start (`at_start`), or
        wherever the turn is (after a catch-up)."""
        if s.rules.name != AsvRules.name:
            turn = getattr(s.state, "turns", self._turn)
            if turn != self._turn and (getattr(s.state, "due", "") == "turn" or not at_start):
                from cli.sw_net import progress_line
                self._turn = turn
                self.say(progress_line(s.state))
            return
        if s.state.turn != self._turn and (s.state.phase == TILES or not at_start):
            self._turn = s.state.turn
            colours = seat_colours(s.players)
            scores = "  ".join(f"{c}:{p.score}" for c, p in zip(colours, s.state.players))
            self.say(f"turn {s.state.turn:3d}  {colours[s.state.active]:6s} to play  "
                     f"tiles left {s.state.tiles_left():2d}  scores {scores}")


def _options(args, seats: int | None) -> NodeOptions:
    return NodeOptions(host=listen_host(args), port=getattr(args, "port", 0) or 0,
                       timeout=args.timeout, seats=seats)


def _agent(kind: str | None, tag: str, think: float | None = None, game: Game = GAMES["asv"]):
    if kind is None:
        return None
    if kind not in game.bots():
        raise SystemExit(f"asv: unknown {game.title} bot {kind!r}; choose from {', '.join(game.bots())}")
    if think is not None and not think > 0:
        raise SystemExit(f"asv: --think must be a positive number of seconds, not {think:g}")
    return game.bot_agent(kind, tag, think=think)


def game_chooser(args, tag: str, rules_for: Callable[[Game], object] | None = None):
    """A joiner's Node hook (SPEC §47.7): the rules and bot of the game the first hello names."""
    def choose(name: str):
        game = by_rules_name(name)
        if game is None:
            return None
        rules = rules_for(game) if rules_for is not None else game.rules()
        return rules, _agent(args.bot, tag, getattr(args, "think", None), game)
    return choose


async def host_game(args, *, printer: Printer, ready: Callable[[Node], None] | None = None,
                    bot_printer: Printer | None = None, rules=None) -> Node:
    """Open a game, print the invite, fill seats with in-process bot nodes, start when
    the seats are full, play to the end. Returns the host's node."""
    seats = args.seats
    game_kind = game_of(args)
    if args.log_dir is not None:
        writable_folder(args.log_dir, "host", "--log-dir")   # before anyone joins (SPEC §30)
    if not game_kind.min_players <= seats <= game_kind.max_players or not 0 <= args.bots < seats:
        raise SystemExit(f"asv host: {game_kind.title} needs {game_kind.min_players}-{game_kind.max_players} "
                         "seats and fewer bots than seats")
    config = config_from(args) if hasattr(args, "variant") else {}
    if getattr(args, "turn_clock", None) is not None:
        try:
            config[CLOCK_KEY] = check_clock(args.turn_clock)
        except ValueError as exc:
            raise SystemExit(f"asv host: --turn-clock: {exc}") from None
    listen = listen_host(args)
    advertised = invite_host(listen, getattr(args, "advertise", None))
    identity, which = choose_identity(args.key, getattr(args, "new_key", False), args.name, "host")
    game = os.urandom(16)
    book = PeerBook()
    node = Node(identity, rules or game_kind.rules(), game, args.log_dir, config=config,
                agent=_agent(args.bot, f"{args.seed or game.hex()}/host", getattr(args, "think", None), game_kind),
                options=_options(args, seats), on_applied=_keeping(book, remembering(printer.applied)))
    node.on_note = _noting(book, node, printer.say)
    node.on_caught_up = printer.caught_up   # one line for a catch-up, not one a turn (SPEC §29.7)
    node.namer = namer(node)   # notes name peers "green bob" (issue 8)
    clocked(node)
    async with trio.open_nursery() as nursery:
        await nursery.start(node.run)
        port = node.mesh.address[1]
        invite = Invite(advertised, port, game, identity.fingerprint)
        printer.say(f"invite: {INVITE_PREFIX}{invite.text()}")
        printer.say(f"you are {identity.fingerprint} ({identity.name}, {which}); listening on "
                    f"{advertised}:{port}; waiting for {seats - 1 - args.bots} player(s) and {args.bots} bot(s)")
        if ready is not None:
            ready(node)
        for i in range(args.bots):
            bot = Node(Identity.generate(f"bot{i + 1}-{args.bot_kind}"), game_kind.rules(), game, args.log_dir,
                       agent=_agent(args.bot_kind, f"{args.seed or game.hex()}/{i + 1}",
                                    getattr(args, "think", None), game_kind),
                       options=_options(args, None), creator=identity.public_key_bytes)
            bot.on_note = speaker(bot, (bot_printer or Printer(None)).say)
            bot.options.port = 0
            clocked(bot)
            await nursery.start(bot.run)
            # dialled at this machine's own address, so the others learn one they can reach
            await bot.connect(invite_host(listen, None), port)
        announcer = None
        if getattr(args, "announce", False) and seats - 1 - args.bots > 0:
            announcer = await trio.to_thread.run_sync(
                lambda: announce(advertised, port, game, identity.fingerprint, identity.name, seats,
                                 seats - len(node.lobby), interfaces=mdns_interfaces(listen)))
            printer.say(f"announced on the LAN as {identity.name}'s game (asv join with no address finds it)")
        try:
            async with trio.open_nursery() as lobby:
                if announcer is not None:
                    lobby.start_soon(_announce_free_seats, announcer, node, seats)
                roster = await wait_for_start(node, args, printer)
                lobby.cancel_scope.cancel()
        finally:
            if announcer is not None:   # a started game takes nobody more: stop announcing
                await trio.to_thread.run_sync(announcer.close)
        if getattr(args, "new_key", False):   # before the log exists; none for a lobby left or never opened
            keep_fresh_key(identity, args.log_dir, game)
        node.start(roster)
    return node


async def _announce_free_seats(announcer, node: Node, seats: int) -> None:
    """Re-announce when the lobby changes, so `asv join` lists the seats still free (SPEC §32.2)."""
    shown = len(node.lobby)
    while True:
        await trio.sleep(1.0)
        if len(node.lobby) != shown:
            shown = len(node.lobby)
            await trio.to_thread.run_sync(announcer.update, max(0, seats - shown))


def clocked(node: Node) -> TurnClock:
    """Give a node the turn clock of SPEC §29.14 (it reads the clock's length from the
    game config; a game without one is never over time)."""
    clock = TurnClock(node)
    node.overtime = clock
    applied = node.on_applied

    def on_applied(n: Node, ev, note: str) -> None:
        clock.observe()
        if applied is not None:
            applied(n, ev, note)
    node.on_applied = on_applied
    return clock


def _keeping(book: PeerBook, applied):
    """on_applied that also keeps the log's address book (SPEC §29.12) up to date."""
    def on_applied(node: Node, ev, note: str) -> None:
        book.update(node)
        applied(node, ev, note)
    return on_applied


def _noting(book: PeerBook, node: Node, say):
    """on_note that also keeps the log's address book: a note comes with each peer that
    joins, leaves or comes back (maybe on a new port), and a seat that quits before the next
    event must still find it on `--resume` (SPEC §29.12)."""
    def on_note(note: Note) -> None:
        book.update(node)
        say(words(note, node.who))
    return on_note


async def wait_for_start(node: Node, args, printer: Printer) -> list[bytes]:
    """SPEC §29.2: the game starts when the seats are full, or earlier when the creator says
    so: after --start-after seconds, or by typing 'start' at the host's terminal."""
    if len(node.lobby) >= (node.options.seats or 0):   # one seat (solitaire): full already
        return list(node.lobby)
    async with trio.open_nursery() as nursery:
        async def when_full() -> None:
            await node.wait_lobby_full()
            nursery.cancel_scope.cancel()

        async def after(seconds: float) -> None:
            await trio.sleep(seconds)
            nursery.cancel_scope.cancel()

        async def typed_start() -> None:
            # Wait on the descriptor rather than a reading thread: a thread left blocked in
            # readline would swallow the first line typed into the REPL after the start.
            fd = sys.stdin.fileno()
            while True:
                await trio.lowlevel.wait_readable(fd)
                text = os.read(fd, 1024).decode(errors="replace")
                words = text.lower().split()
                if not text or "quit" in words or "exit" in words:   # Ctrl-D leaves, as in the REPL
                    raise LeftLobby("left the lobby before the game started; nothing was played. "
                                    "Open a game again with asv host")
                if "start" in words:
                    nursery.cancel_scope.cancel()
                    return

        nursery.start_soon(when_full)
        if getattr(args, "start_after", None) is not None:
            nursery.start_soon(after, args.start_after)
        if sys.stdin is not None and sys.stdin.isatty():  # CI runs with no stdin at all
            printer.say("type 'start' and Enter to start with the players here (quit or Ctrl-D: leave)")
            nursery.start_soon(typed_start)
    roster = list(node.lobby)
    if len(roster) < (node.options.seats or len(roster)):
        printer.say(f"starting early with {len(roster)} of {node.options.seats} seats")
    return roster


class GameOver(Exception):
    """--resume of a game whose log already ends (finished or aborted): nothing to join."""

    def __init__(self, peer, log: str) -> None:
        super().__init__(log)
        self.peer, self.log = peer, log


async def join_game(args, *, printer: Printer, ready: Callable[[Node], None] | None = None,
                    rules=None, rules_for: Callable[[Game], object] | None = None) -> Node:
    """Join through any peer of the game (or rejoin from --resume LOG through any peer it
    knows: the address given, then every address kept beside the log) and play to the end.
    The game is the one the first hello names (`rules_for(game)` makes its rules, e.g. a
    recording REPL's); a resumed peer's log names it too."""
    invite = parse_invite(args.address) if args.address else None
    if args.resume:   # the log names its game (SPEC §47.7)
        from cli.games import game_of_log, other_rules_reason, unknown_rules
        check_resume_log(args.resume)
        other = unknown_rules(args.resume)
        if other is not None:
            raise SystemExit("asv join: " + other_rules_reason(args.resume, other).replace(
                "cannot check", "cannot resume", 1).replace("check it with", "resume it with", 1))
        resumed = game_of_log(args.resume)
        if rules is None or rules.name != resumed.rules_name:
            rules = rules_for(resumed) if rules_for is not None else resumed.rules()
    rules = rules or AsvRules()
    peer = None
    new_key = getattr(args, "new_key", False)
    if args.resume:
        saved = args.key or resume_key(args.resume)
        identity, which = (make_identity(saved, args.name), f"key {saved}") if saved else \
            choose_identity(None, False, args.name, "player")
        check_resume_seat(args.resume, identity.public_key_bytes, which)
        game = scan_log(args.resume).game
        if invite is not None and invite.game is not None and invite.game != game:
            raise SystemExit(f"asv join: {args.resume} is for game {game.hex()}, the invite for {invite.game.hex()}")
        peer = restore_peer(identity, rules, args.resume,
                            agent=_agent(args.bot, f"{args.seed or game.hex()}/{identity.name}",
                                         getattr(args, "think", None), by_rules_name(rules.name) or GAMES["asv"]))
        if peer.finished or peer.phase == "aborted":
            raise GameOver(peer, args.resume)
        printer.say(f"resumed from {args.resume}: {peer.chain.height} events replayed")
        if getattr(args, "listen", None) is None:   # a game kept on 127.0.0.1 stays there (SPEC §29.15)
            args.listen = own_listen(args.resume)
        addresses = ([(invite.host, invite.port)] if invite is not None else []) + \
            [a for a in load_peers(args.resume) if invite is None or a != (invite.host, invite.port)]
        if not addresses:
            raise SystemExit(f"asv join: no address of the game's peers is known for {args.resume}; "
                             "ask a player for theirs: asv join HOST:PORT --resume LOG")
    else:
        if args.log_dir is not None:
            writable_folder(args.log_dir, "join", "--log-dir")   # before the game is reached (SPEC §30)
        if invite is None or invite.game is None or invite.creator is None:
            raise SystemExit("asv join: the invite needs the game id and the creator's fingerprint "
                             "(HOST:PORT/GAMEID/FINGERPRINT, as `asv host` prints it), or use --resume LOG")
        identity, which = choose_identity(args.key, new_key, args.name, "player")
        if identity.fingerprint == invite.creator:
            raise SystemExit(f"asv join: the game's creator is you: its key is yours ({identity.fingerprint}). "
                             "For a second seat on this machine add --new-key (or --key FILE).")
        game = invite.game
        addresses = [(invite.host, invite.port)]
    book = PeerBook(addresses[0], kept_entries(args.resume) if args.resume else None)
    tag = f"{args.seed or game.hex()}/{identity.name}"
    options = _options(args, None)
    was = own_port(args.resume) if args.resume else 0   # read now: the node rewrites the book once it runs
    if args.resume:   # listen where this peer did before: the others kept that address (SPEC §29.15)
        options.port = resume_port(args.resume, options.host, options.port, game, identity.fingerprint)
    node = Node(identity, rules, game, args.log_dir,
                agent=_agent(args.bot, tag, getattr(args, "think", None), by_rules_name(rules.name) or GAMES["asv"]),
                options=options, peer=peer, on_applied=_keeping(book, remembering(printer.applied)),
                creator=None if invite is None else invite.creator,
                choose_game=game_chooser(args, tag, rules_for))
    node.on_note = _noting(book, node, printer.say)
    node.on_caught_up = printer.caught_up   # one line for a catch-up, not one a turn (SPEC §29.7)
    node.namer = namer(node)   # notes name peers "green bob" (issue 8)
    node.votes_held = bool(args.resume)   # nobody is late before this peer is back in the mesh
    clocked(node)
    async with trio.open_nursery() as nursery:
        await nursery.start(node.run)
        if args.resume:
            if was and not getattr(args, "port", 0) and node.mesh.listen_port != was:
                spare = node.mesh.listen_port in spare_ports(game, identity.fingerprint)
                printer.say(f"port {was}, where you listened last time, is taken here; listening on "
                            f"{node.mesh.listen_port}" + (
                                ", one of this seat's spare ports, which the others' resumes try too"
                                if spare else ": the others' resumes cannot find you, but you dial theirs"))
            book.update(node)   # its own (maybe new) port, for the next resume
            try:
                key = await _reach(node, addresses, printer, resuming=True,
                                   spares=[a for a in spare_addresses(args.resume, game) if a not in addresses])
            except NotConnected:   # everyone left: wait here for the first to come back
                key = await gather(node, args.resume, printer.say, live=_live_line(printer),
                                   wait=getattr(args, "resume_wait", DEFAULT_RESUME_WAIT))
            node.votes_held = False
        else:
            key = await _reach(node, addresses, printer)
        if not args.resume and new_key:
            keep_fresh_key(identity, args.log_dir, game)   # only once the game was reached
        if invite is not None and invite.creator and fingerprint(key) != invite.creator and not args.resume:
            printer.say(f"note: the peer at {invite.host}:{invite.port} is {fingerprint(key)}, "
                        f"not the creator {invite.creator}")
        port = node.mesh.address[1]
        printer.say(f"connected to {fingerprint(key)}; you are {identity.fingerprint} ({identity.name}, {which}); "
                    f"listening on {invite_host(listen_host(args), getattr(args, 'advertise', None))}:{port}")
        book.update(node)
        if ready is not None:
            ready(node)
    return node


def _live_line(printer: Printer):
    """A countdown rewritten in place on a terminal; None elsewhere (logs get lines)."""
    out = printer.out
    if out is None or not getattr(out, "isatty", lambda: False)():
        return None

    def live(text: str) -> None:
        print("\r" + (printer.prefix + text if text else "").ljust(78), end="" if text else "\n",
              file=out, flush=True)
    return live


async def _reach(node: Node, addresses: list[tuple[str, int]], printer: Printer, *,
                 resuming: bool = False, spares: list[tuple[str, int]] = ()) -> bytes:
    """Connect through the first address that answers (SPEC §29.12); one line per miss;
    then, without a line each, the others' spare ports (a returner whose old port was
    taken listens on one, SPEC §29.15). A resume that reaches nobody says how to go on,
    even with one address known."""
    failures = []
    for host, port in addresses:
        if resuming and met(node) is not None:   # another returner reached this one meanwhile
            return met(node)
        try:
            with trio.fail_after(10):
                return await node.connect(host, port)
        except (TransportError, OSError, trio.TooSlowError) as exc:
            if len(addresses) == 1 and not resuming and not isinstance(exc, trio.TooSlowError):
                raise
            failures.append(f"{host}:{port}")
            if len(failures) < len(addresses):
                why = plain_reason(exc) if isinstance(exc, TransportError) else (str(exc) or "too slow")
                printer.say(f"no answer at {host}:{port} ({why}); trying the next peer")
    if resuming:
        await dial_all(node, list(spares))
        if met(node) is not None:
            return met(node)
    raise NotConnected(f"no peer of the game answered at {', '.join(failures)}; ask a player for a live "
                       "address: asv join HOST:PORT --resume LOG", side="remote")


def write_timings(node: Node, path: str | None) -> None:
    if path:
        Path(path).write_text(json.dumps({"signed": node.timing.signed, "applied": node.timing.applied}))


def user_error(exc: BaseException, kinds=EXPECTED_ERRORS) -> BaseException | None:
    """The error of one of `kinds` inside `exc`, looking through trio's exception groups
    (a failure in a nursery arrives wrapped), or None."""
    if isinstance(exc, BaseExceptionGroup):
        for sub in exc.exceptions:
            found = user_error(sub, kinds)
            if found is not None:
                return found
        return None
    return exc if isinstance(exc, kinds) else None


def run_peer(command: str, flow) -> "Node | int":
    """trio.run(flow) for `asv host`/`asv join`: the node, or an exit code after a
    one-line message when the user interrupted (Ctrl-C) or an expected error ended it.
    Every event written so far is already fsynced, so the log stays valid (SPEC §29.7)."""
    try:
        return trio.run(flow)
    except BaseException as exc:
        if user_error(exc, (KeyboardInterrupt,)) is not None:
            print(INTERRUPTED, file=sys.stderr)
            return 1
        over = user_error(exc, (GameOver,))
        if over is not None:
            raise over from None
        err = user_error(exc)
        if err is None:
            raise
        print(f"asv {command}: {error_line(err)}", file=sys.stderr)
        return 1
