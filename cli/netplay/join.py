"""`asv join`'s flow (SPEC §29.5, §29.7, §29.12, §29.15): join through any peer of the game,
or rejoin from --resume LOG through any peer it knows, and play to the end."""
from __future__ import annotations

from typing import Callable

import trio

from cli.arg_checks import writable_folder
from cli.errors import UserError
from cli.games import DEFAULT_KEY, GameKit, kit_for, kit_for_rules
from cli.netplay.identity_file import choose_identity
from cli.netplay.lan import invite_host
from cli.netplay.net_args import listen_host
from cli.netplay.peer_book import PeerBook, kept_entries, load_peers, own_listen, own_port
from cli.netplay.peer_names import namer, remembering
from cli.netplay.regather import DEFAULT_RESUME_WAIT, dial_all, gather, met, resume_port, spare_addresses, spare_ports
from cli.netplay.resume_checks import check_resume_log, check_resume_seat, resumed_bot
from protocol.crypto import fingerprint
from protocol.log import scan_log
from protocol.net import NotConnected, TransportError, plain_reason
from protocol.node import Node, restore_peer

from cli.netplay.invite import parse_invite
from cli.netplay.outcome import GameOver
from cli.netplay.printer import Printer
from cli.netplay.wiring import (clocked, game_chooser, keep_fresh_key, keeping_book, make_identity, node_options,
                                noting_book, resume_key, seat_agent)


async def join_game(args, *, printer: Printer, ready: Callable[[Node], None] | None = None,
                    rules=None, rules_for: Callable[[GameKit], object] | None = None) -> Node:
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
            raise UserError("asv join: " + other_rules_reason(args.resume, other).replace(
                "cannot check", "cannot resume", 1).replace("check it with", "resume it with", 1))
        resumed = game_of_log(args.resume)
        if rules is None or rules.name != resumed.rules_name:
            rules = rules_for(resumed) if rules_for is not None else resumed.session_rules()
    rules = rules or kit_for(DEFAULT_KEY).session_rules()
    peer = None
    new_key = getattr(args, "new_key", False)
    if args.resume:
        saved = args.key or resume_key(args.resume)
        identity, which = (make_identity(saved, args.name), f"key {saved}") if saved else \
            choose_identity(None, False, args.name, "player")
        check_resume_seat(args.resume, identity.public_key_bytes, which)
        game = scan_log(args.resume).game
        if invite is not None and invite.game is not None and invite.game != game:
            raise UserError(f"asv join: {args.resume} is for game {game.hex()}, the invite for {invite.game.hex()}")
        bot, seed_tag = resumed_bot(args, f"{args.seed or game.hex()}/{identity.name}")
        resumed_agent = seat_agent(bot, seed_tag, getattr(args, "think", None), kit_for_rules(rules.name))
        peer = restore_peer(identity, rules, args.resume, agent=resumed_agent)
        if peer.finished or peer.phase == "aborted":
            raise GameOver(peer, args.resume)
        printer.say(f"resumed from {args.resume}: {peer.chain.height} events replayed")
        if getattr(args, "bot_line", None):
            printer.say(args.bot_line)
        if getattr(args, "listen", None) is None:   # a game kept on 127.0.0.1 stays there (SPEC §29.15)
            args.listen = own_listen(args.resume)
        addresses = ([(invite.host, invite.port)] if invite is not None else []) + \
            [a for a in load_peers(args.resume) if invite is None or a != (invite.host, invite.port)]
        if not addresses:
            raise UserError(f"asv join: no address of the game's peers is known for {args.resume}; "
                             "ask a player for theirs: asv join HOST:PORT --resume LOG")
    else:
        if args.log_dir is not None:
            writable_folder(args.log_dir, "join", "--log-dir")   # before the game is reached (SPEC §30)
        if invite is None or invite.game is None or invite.creator is None:
            raise UserError("asv join: the invite needs the game id and the creator's fingerprint "
                             "(HOST:PORT/GAMEID/FINGERPRINT, as `asv host` prints it), or use --resume LOG")
        identity, which = choose_identity(args.key, new_key, args.name, "player")
        if identity.fingerprint == invite.creator:
            raise UserError(f"asv join: the game's creator is you: its key is yours ({identity.fingerprint}). "
                             "For a second seat on this machine add --new-key (or --key FILE).")
        game = invite.game
        addresses = [(invite.host, invite.port)]
    book = PeerBook(addresses[0], kept_entries(args.resume) if args.resume else None)
    tag = f"{args.seed or game.hex()}/{identity.name}"
    options = node_options(args, None)
    was = own_port(args.resume) if args.resume else 0   # read now: the node rewrites the book once it runs
    if args.resume:   # listen where this peer did before: the others kept that address (SPEC §29.15)
        options.port = resume_port(args.resume, options.host, options.port, game, identity.fingerprint)
    node = Node(identity, rules, game, args.log_dir,
                agent=peer.agent if peer is not None else
                seat_agent(args.bot, tag, getattr(args, "think", None), kit_for_rules(rules.name)),
                options=options, peer=peer, on_applied=keeping_book(book, remembering(printer.applied)),
                creator=None if invite is None else invite.creator,
                choose_game=game_chooser(args, tag, rules_for))
    node.on_note = noting_book(book, node, printer.say)
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
