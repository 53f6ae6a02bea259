"""`asv host`'s flow (SPEC §29.2-§29.3): open a game, print the invite, fill seats with
in-process bot nodes, announce on the LAN, start when full (or early), play to the end.

A bot filling a seat of `asv host --bots N` is a separate mesh node with its own identity
and its own log, running in the host's process (SPEC §29.3); `asv demo` runs every bot in
its own OS process instead."""
from __future__ import annotations

import os
import sys
from typing import Callable

import trio

from cli.arg_checks import writable_folder
from cli.errors import UserError
from cli.games import game_of
from cli.games.options import config_from
from cli.netplay.identity_file import choose_identity
from cli.netplay.lan import announce, invite_host, mdns_interfaces
from cli.netplay.net_args import listen_host
from cli.netplay.node_notes import speaker
from cli.netplay.peer_book import PeerBook
from cli.netplay.peer_names import namer, remembering
from cli.netplay.turn_clock import CLOCK_KEY, ON_CLOCK_KEY, check_clock
from protocol.crypto import Identity
from protocol.node import Node

from cli.netplay.invite import INVITE_PREFIX, WATCH_PREFIX, Invite, spectator_invite
from cli.netplay.outcome import LeftLobby
from cli.netplay.printer import Printer
from cli.netplay.wiring import clocked, keep_fresh_key, keeping_book, node_options, noting_book, seat_agent


async def host_game(args, *, printer: Printer, ready: Callable[[Node], None] | None = None,
                    bot_printer: Printer | None = None, rules=None) -> Node:
    """Open a game, print the invite, fill seats with in-process bot nodes, start when
    the seats are full, play to the end. Returns the host's node."""
    seats = args.seats
    game_kind = game_of(args)
    if args.log_dir is not None:
        writable_folder(args.log_dir, "host", "--log-dir")   # before anyone joins (SPEC §30)
    if not game_kind.min_players <= seats <= game_kind.max_players or not 0 <= args.bots < seats:
        raise UserError(f"asv host: {game_kind.title} needs {game_kind.min_players}-{game_kind.max_players} "
                         "seats and fewer bots than seats")
    config = config_from(args) if hasattr(args, "variant") else {}
    config.update(clock_config(args))
    listen = listen_host(args)
    advertised = invite_host(listen, getattr(args, "advertise", None))
    identity, which = choose_identity(args.key, getattr(args, "new_key", False), args.name, "host")
    game = os.urandom(16)
    book = PeerBook()
    node = Node(identity, rules or game_kind.session_rules(), game, args.log_dir, config=config,
                agent=seat_agent(args.bot, f"{args.seed or game.hex()}/host", getattr(args, "think", None), game_kind),
                options=node_options(args, seats), on_applied=keeping_book(book, remembering(printer.applied)))
    node.on_note = noting_book(book, node, printer.say)
    node.on_caught_up = printer.caught_up   # one line for a catch-up, not one a turn (SPEC §29.7)
    node.namer = namer(node)   # notes name peers "green bob" (issue 8)
    clocked(node)
    async with trio.open_nursery() as nursery:
        await nursery.start(node.run)
        port = node.mesh.address[1]
        invite = Invite(advertised, port, game, identity.fingerprint)
        printer.say(f"invite: {INVITE_PREFIX}{invite.text()}")
        printer.say(f"spectators: {WATCH_PREFIX}{spectator_invite(invite).text()}  (watch only: takes no seat)")
        printer.say(f"you are {identity.fingerprint} ({identity.name}, {which}); listening on "
                    f"{advertised}:{port}; waiting for {seats - 1 - args.bots} player(s) and {args.bots} bot(s)")
        if ready is not None:
            ready(node)
        for i in range(args.bots):
            bot_options = node_options(args, None)
            bot_options.port = 0   # --port is the host's own; a bot listens on any free port
            bot = Node(Identity.generate(f"bot{i + 1}-{args.bot_kind}"), game_kind.session_rules(), game, args.log_dir,
                       agent=seat_agent(args.bot_kind, f"{args.seed or game.hex()}/{i + 1}",
                                    getattr(args, "think", None), game_kind),
                       options=bot_options, creator=identity.public_key_bytes)
            bot.on_note = speaker(bot, (bot_printer or Printer(None)).say)
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


def clock_config(args) -> dict:
    """The table's clock options for the game config (SPEC §29.14, §29.20): `turn_clock`, and
    `on_clock` (default "pass") beside it; --on-clock without a clock is refused."""
    seconds, on_clock = getattr(args, "turn_clock", None), getattr(args, "on_clock", None)
    if seconds is None:
        if on_clock is not None:
            raise UserError("asv host: --on-clock needs --turn-clock S (a clock to run out)")
        return {}
    try:
        return {CLOCK_KEY: check_clock(seconds), ON_CLOCK_KEY: on_clock or "pass"}
    except ValueError as exc:
        raise UserError(f"asv host: --turn-clock: {exc}") from None


async def _announce_free_seats(announcer, node: Node, seats: int) -> None:
    """Re-announce when the lobby changes, so `asv join` lists the seats still free (SPEC §32.2)."""
    shown = len(node.lobby)
    while True:
        await trio.sleep(1.0)
        if len(node.lobby) != shown:
            shown = len(node.lobby)
            await trio.to_thread.run_sync(announcer.update, max(0, seats - shown))


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
