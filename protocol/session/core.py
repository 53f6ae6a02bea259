"""The transport-free lockstep session (SPEC §26): one replica of a game's chain.

A Session applies a game's signed events strictly in order and checks each before it is
accepted: signature and chain (SPEC §22), the one author allowed at this height and the
kind of event due, the body's fields, every commitment, key share, shuffle proof and
decryption proof, every claimed hidden card, the game's own rules, and the author's state
hash. A rejected event changes nothing and is never logged; an accepted one is logged.
Nothing is left to check at the end: a log is checked at every prefix.

Without an identity a Session is an observer (`asv verify` replays a log with one);
SessionPeer adds a seat: it writes its own events when they are due.

Phases of a game (SPEC §26.2): hello (lobby order) -> seat-commit, seat-reveal (lobby
order; seats = permutation of the joint value) -> key-commit, key-reveal (seat order) ->
play (actions, shuffles, shares, driven by the game) -> done.
"""
from __future__ import annotations

import copy
from typing import Any

from protocol.crypto import commit_reveal as cr
from protocol.crypto import group as g
from protocol.poker import deck as mp
from protocol.session.abort import ABORT_KIND, FORFEIT_KIND, check_abort
from protocol.session.clock_pass import PASS_KIND, receive_clock_pass
from protocol.session.dealing import DeckBook
from protocol.session.dice_table import DiceTable
from protocol.session.hand_over import accept_hand_over
from protocol.session.takeback import TAKEBACK_KIND, check_takeback
from protocol.session.halt import HALT_KIND, check_halt, convicting
from protocol.errors import BrokenChain, OutOfOrder, WrongAuthor
from protocol.log import Chain, SignedEvent, parse_event
from protocol.session.game_rules import CHANCE, DiceRequest, GameRuleError, GameRules
from protocol.session.phases import ENDED, SETUP_KINDS, DeckOp, EventKind, Phase
from protocol.crypto import WeakPublicKey, check_public_key, fingerprint
from protocol.poker import PUBLISHED_KEY_BYTES
from protocol.session.body import check_fields, is_bytes, want_bytes, want_list, want_map, want_str
from protocol.session.errors import (
    BadBody, BadKeyShare, DeckCorrupted, IllegalMove, OpeningMismatch, SessionError, SessionHalted,
    StateHashMismatch, UnexpectedKind,
)

__all__ = ["Session", "MAX_PLAYERS", "HASHED_PHASES", "card_table", "roster_problem"]

MAX_PLAYERS = 8
MAX_ACTION_TEXT = 512
HASHED_PHASES = (Phase.PLAY,)     # events of this phase carry the state hash "h"
SEAT_TAG = b"p2p-asv/seat-order/v1"
_TABLES: dict[tuple[str, ...], mp.CardTable] = {}


def card_table(labels) -> mp.CardTable:
    """The public label table; built once per label set (it is public and immutable)."""
    key = tuple(labels)
    if key not in _TABLES:
        _TABLES[key] = mp.CardTable(key)
    return _TABLES[key]


def roster_problem(roster: object, author: bytes) -> str | None:
    """Why `roster` cannot be a game's roster, or None (SPEC §26.2, §20.1): 1-8 distinct
    keys, the first one the author's, every one an acceptable Ed25519 key (a small-order
    key could be signed for by anyone), no two with one fingerprint (fingerprints name the
    participants of the commit-reveal rounds)."""
    if not (isinstance(roster, list) and 1 <= len(roster) <= MAX_PLAYERS and all(is_bytes(k, 32) for k in roster)
            and len(set(roster)) == len(roster) and roster[0] == author):
        return "roster must list 1-8 distinct public keys, the first one the author's"
    for i, key in enumerate(roster):
        try:
            check_public_key(key)
        except WeakPublicKey as exc:
            return f"roster key {i} is refused: {exc}"
    if len({fingerprint(k) for k in roster}) != len(roster):
        return "two roster keys share a fingerprint"
    return None


class Session:
    def __init__(self, rules: GameRules, game: bytes, *, roster: list[bytes] | None = None,
                 config: dict | None = None) -> None:
        self.rules = rules
        self.game = bytes(game)
        self.chain = Chain(self.game)
        self.roster = list(roster) if roster is not None else None
        self.config = dict(config) if config is not None else None
        self.names: list[str] = []
        self.phase = Phase.HELLO
        self.count = 0
        self.seat_keys: list[bytes] = []
        self.seat_of: dict[bytes, int] = {}
        self.publics: list[bytes] = []
        self.state: Any = None
        self.book: DeckBook | None = None
        self.dice: DiceTable | None = None      # the game's dice (SPEC §33.8)
        self.leaving: list[int] = []            # seats the game removed, to hand over (SPEC §26.13)
        self.notes: list[str] = []
        self.halted: SessionError | None = None
        self.evidence: tuple[SignedEvent, SessionError] | None = None   # the due author's refused event
        self._seat_round: cr.CommitRevealRound | None = None
        self._key_round: mp.KeySetupRound | None = None
        self._own = False
        self._last_read: tuple[str, Any] | None = None   # (text, action) of the latest read
        self._version = 0
        self._hash: tuple[int, bytes] = (-1, b"")
        # the head action's seq and a copy of the state before it, while it can be taken
        # back (SPEC §29.17): it played no hidden card and showed, dealt or rolled nothing
        self.undo_point: tuple[int, Any] | None = None
        self._pending_undo: tuple[int, Any] | None = None
        # whether an action's undo copy is taken (SPEC §35.7): a verifier that knows the next
        # record is no takeback turns it off for that record; the copy is then None, unused
        self.keep_undo = True

    # -- who and what is due -------------------------------------------------------------
    @property
    def players(self) -> int:
        return len(self.roster) if self.roster is not None else 0

    @property
    def finished(self) -> bool:
        return self.phase == Phase.DONE

    def next_author(self) -> bytes | None:
        """The one public key that may write the next event (None: anyone, only before
        the first hello names the roster, or nobody once done)."""
        if self.phase == Phase.HELLO:
            return None if self.roster is None else self.roster[self.count]
        if self.phase in (Phase.SEAT_COMMIT, Phase.SEAT_REVEAL):
            return self.roster[self.count]
        if self.phase in (Phase.KEY_COMMIT, Phase.KEY_REVEAL):
            return self.seat_keys[self.count]
        if self.phase == Phase.PLAY:
            if self.leaving:   # the refreshes a hand-over needs, then the hand-over (SPEC §26.13)
                return self.seat_keys[self.book.due_seat()]
            who = self.rules.to_move(self.state)
            if who == CHANCE:
                who = self.dice.due_seat() if self.dice.current is not None else self.book.due_seat()
            return self.seat_keys[who]
        return None

    def next_kind(self) -> EventKind | None:
        if self.phase == Phase.PLAY:
            if self.leaving:
                return EventKind(self.book.due_kind())
            if self.rules.to_move(self.state) != CHANCE:
                return EventKind.ACTION
            return self.dice.due_kind() if self.dice.current is not None else EventKind(self.book.due_kind())
        return SETUP_KINDS.get(self.phase)   # None once the game has ended

    def state_hash(self) -> bytes:
        if self._hash[0] != self._version:
            self._hash = (self._version, self.rules.state_hash(self.state))
        return self._hash[1]

    def result(self) -> dict | None:
        return None if self.state is None else self.rules.result(self.state)

    # -- receiving -----------------------------------------------------------------------
    def receive(self, wire: bytes | SignedEvent) -> SignedEvent:
        """Check and apply one event, or raise a typed EventError naming its author;
        a rejected event leaves this replica (and its log) unchanged (SPEC §26.3)."""
        ev = wire if isinstance(wire, SignedEvent) else parse_event(wire, expected_game=self.game)
        if self.halted is not None and not (ev.kind == HALT_KIND and self.evidence is not None):
            raise SessionHalted(f"session halted after: {self.halted}", seq=self.chain.height)
        if ev.game != self.game:
            return self.chain.append(ev)  # raises WrongGame
        if ev.seq != self.chain.height:
            self.chain.append(ev)  # raises ReplayedEvent, Equivocation or OutOfOrder
            raise OutOfOrder(f"expected seq {self.chain.height}", seq=ev.seq, author=ev.author)
        if ev.kind == ABORT_KIND and ev.prev == self.chain.head:
            self._accept(ev, check_abort(self, ev))  # SPEC §29.6: a silent peer is named
            self._next_phase(Phase.ABORTED)
            return ev
        if ev.kind == FORFEIT_KIND and ev.prev == self.chain.head:
            note = check_abort(self, ev)             # SPEC §26.14: named, and the game goes on without it
            try:
                self._forfeit(ev.seq, self.seat_of[ev.body["silent"]])
            except DeckCorrupted as exc:             # the event is sound, the game is not: halt alike
                self._accept(ev, "forfeit (the game refused it)")
                self.halted = exc
                raise
            self._accept(ev, note)
            return ev
        if ev.kind == HALT_KIND and ev.prev == self.chain.head:
            note = check_halt(self, ev)  # SPEC §29.10: a refused event convicts its author
            self._accept(ev, note)
            self._next_phase(Phase.HALTED)
            return ev
        if ev.kind == PASS_KIND and ev.prev == self.chain.head:
            return receive_clock_pass(self, ev)   # SPEC §29.20: the others pass a timed-out seat
        if self.phase in ENDED:
            raise UnexpectedKind(f"the game is {'over' if self.phase == Phase.DONE else self.phase}; "
                                 "nothing more may be written", seq=ev.seq, author=ev.author)
        want = self.next_author()
        if want is not None and ev.author != want:
            raise WrongAuthor(f"{fingerprint(want)} writes at this height", seq=ev.seq, author=ev.author)
        if ev.prev != self.chain.head:
            raise BrokenChain("prev is not the hash of the previous event", seq=ev.seq, author=ev.author)
        try:
            return self._receive_due(ev)
        except SessionError as exc:
            if convicting(exc) and exc.author == ev.author:  # the due author's own event, refused:
                self.evidence = (ev, exc)                      # keep it as signed evidence (§29.10)
            raise

    def _receive_due(self, ev: SignedEvent) -> SignedEvent:
        """The checks of the event due at this height, from its kind on (SPEC §26.3)."""
        kind = self.next_kind()
        if ev.kind != kind and not (ev.kind == TAKEBACK_KIND and kind == EventKind.ACTION):
            if kind == "refresh" and ev.kind == "shares":   # the event that would expose a card
                req = self.book.current.request
                raise UnexpectedKind(
                    f"a 'refresh' event is due, not 'shares': seat {req.seat} already published its share of "
                    + " ".join(f"#{h}" for h in self.book.refresh_due())
                    + ", so these shares would complete every seat's share of a card it was not shown "
                    "(SPEC §25.7)", seq=ev.seq, author=ev.author)
            if kind == "refresh" and ev.kind == "hand-over":
                raise UnexpectedKind(
                    "a 'refresh' event is due, not 'hand-over': every other seat's share of "
                    + " ".join(f"#{h}" for h in self.book.refresh_due())
                    + " is in the log, so the leaver's share would expose it (SPEC §26.13)", seq=ev.seq, author=ev.author)
            raise UnexpectedKind(f"a {kind!r} event is due, not {ev.kind!r}", seq=ev.seq, author=ev.author)
        body, claimed_hash = ev.body, None
        if self.phase in HASHED_PHASES:
            claimed_hash = body.get("h")
            if not is_bytes(claimed_hash, 32):
                raise BadBody('"h" must be the 32-byte state hash', seq=ev.seq, author=ev.author)
            body = {k: v for k, v in body.items() if k != "h"}
        try:
            note = self._apply(ev.seq, ev.author, ev.kind, body)
        except DeckCorrupted as exc:
            self._accept(ev, f"{ev.kind} (deck corrupted)")  # the event itself is valid
            self.halted = exc
            raise
        if claimed_hash is not None and claimed_hash != self.state_hash():
            self.halted = StateHashMismatch(
                f"author's state hash {claimed_hash.hex()[:16]} differs from {self.state_hash().hex()[:16]}",
                seq=ev.seq, author=ev.author)
            raise self.halted
        self._accept(ev, note)
        return ev

    def _accept(self, ev: SignedEvent, note: str) -> None:
        self.chain.append(ev)
        self.undo_point = self._pending_undo if ev.kind == EventKind.ACTION else None
        self._pending_undo = None
        self.notes.append(note)
        self._logged(ev)

    def _logged(self, ev: SignedEvent) -> None:
        """Hook: a peer appends the accepted event to its log file."""

    # -- applying ------------------------------------------------------------------------
    def _apply(self, seq: int, author: bytes, kind: str, body: dict) -> str:
        """Check the body and change the replica; raise before changing anything."""
        return getattr(self, "_on_" + kind.replace("-", "_"))(seq, author, body)

    def _on_hello(self, seq: int, author: bytes, body: dict) -> str:
        check_fields(body, {"name": want_str(64), "roster": want_list(), "rules": want_str(64),
                            "config": want_map()}, seq, author)
        roster = body["roster"]
        if self.count == 0:
            self._check_setup(seq, author, body)  # also when the roster was given up front
            if self.roster is None:
                self.roster, self.config = list(roster), dict(body["config"])
        if roster != self.roster or body["rules"] != self.rules.name or body["config"] != self.config:
            raise BadBody("hello disagrees with the game's roster, rules or config", seq=seq, author=author)
        self.names.append(body["name"])
        self.count += 1
        if self.count == self.players:
            self._next_phase(Phase.SEAT_COMMIT)
            self._seat_round = cr.CommitRevealRound(self._lobby_names(), g.lp(SEAT_TAG, self.game))
        return f"hello {body['name']!r}"

    def _check_setup(self, seq: int, author: bytes, body: dict) -> None:
        """The first hello's roster, rules and config (SPEC §26.2)."""
        reason = roster_problem(body["roster"], author)
        if reason is not None:
            raise BadBody(reason, seq=seq, author=author)
        if body["rules"] != self.rules.name:
            raise BadBody(f"game {body['rules']!r} is not {self.rules.name!r}", seq=seq, author=author)
        try:
            self.rules.new_state(len(body["roster"]), body["config"])
        except (GameRuleError, ValueError) as exc:
            raise BadBody(f"the game refuses this setup: {exc}", seq=seq, author=author) from None

    def _lobby_names(self) -> list[str]:
        return [fingerprint(k) for k in self.roster]

    def _next_phase(self, phase: Phase) -> None:
        self.phase, self.count = phase, 0

    def _on_seat_commit(self, seq: int, author: bytes, body: dict) -> str:
        check_fields(body, {"c": want_bytes(32)}, seq, author)
        self._seat_round.add_commit(fingerprint(author), body["c"])
        self.count += 1
        if self.count == self.players:
            self._next_phase(Phase.SEAT_REVEAL)
        return "commit to a seat-order value"

    def _on_seat_reveal(self, seq: int, author: bytes, body: dict) -> str:
        check_fields(body, {"r": want_bytes(32)}, seq, author)
        try:
            self._seat_round.add_reveal(fingerprint(author), body["r"])
        except cr.CommitMismatch:
            raise OpeningMismatch("seat-order value does not open its commitment", seq=seq, author=author) from None
        self.count += 1
        if self.count < self.players:
            return "reveal seat-order value"
        order = cr.permutation_from_seed(self._seat_round.joint_value(), self.players)
        self.seat_keys = [self.roster[i] for i in order]
        self.seat_of = {k: s for s, k in enumerate(self.seat_keys)}
        self._next_phase(Phase.KEY_COMMIT)
        self._key_round = mp.KeySetupRound([fingerprint(k) for k in self.seat_keys], self.game)
        self._seated()
        return "reveal seat-order value; seats " + " ".join(fingerprint(k) for k in self.seat_keys)

    def _seated(self) -> None:
        """Hook: a peer learns its seat."""

    def _on_key_commit(self, seq: int, author: bytes, body: dict) -> str:
        check_fields(body, {"c": want_bytes(32)}, seq, author)
        self._key_round.add_commit(fingerprint(author), body["c"])
        self.count += 1
        if self.count == self.players:
            self._next_phase(Phase.KEY_REVEAL)
        return "commit to a key share"

    def _on_key_reveal(self, seq: int, author: bytes, body: dict) -> str:
        check_fields(body, {"k": want_bytes(PUBLISHED_KEY_BYTES)}, seq, author)
        name = fingerprint(author)
        try:  # every check before the round records anything (SPEC §26.3)
            published = mp.PublishedKeyShare.from_bytes(body["k"], name)
            if not self._own:
                mp.verify_key_share(published, self.game, name)
            earlier = list(self.publics)
            joint = mp.joint_public_key([*earlier, published.public]) if self.count + 1 == self.players else None
            if published.public in earlier:
                raise mp.InvalidKeyShare(name, "same public share as another participant")
            self._key_round.add_reveal(name, published, own=True)  # proof checked above
            self.publics.append(published.public)
        except cr.CommitMismatch:
            raise OpeningMismatch("key share does not open its commitment", seq=seq, author=author) from None
        except mp.InvalidKeyShare as exc:
            raise BadKeyShare(exc.reason, seq=seq, author=author) from None
        self.count += 1
        if self.count < self.players:
            return "reveal key share"
        self.book = DeckBook(self.game, card_table(self.rules.deck_labels()),
                             [fingerprint(k) for k in self.seat_keys], self.publics, joint)
        self.dice = DiceTable(self.game, self.players)
        self.state = self.rules.new_state(self.players, self.config)
        self._version += 1
        self._next_phase(Phase.PLAY)
        self._sync(seq)
        return "reveal key share; joint key ready"

    # -- play ------------------------------------------------------------------------------
    def _read(self, text: str) -> Any:
        """The game's action for `text`, read once: the writer's claims and the check of
        its own event read the same text, and reuse the action (`read` sees no state)."""
        last = self._last_read
        if last is not None and last[0] == text:
            return last[1]
        action = self.rules.read(text)
        self._last_read = (text, action)
        return action

    def _engine(self, seat: int, action: Any) -> None:
        self.rules.apply_action(self.state, seat, action)
        self._version += 1
        self._departures()

    def _departures(self) -> None:
        """Seats the game has removed (its optional `departed(state)`, SPEC §26.13) leave the
        dice at once, between rolls, and owe a hand-over before anything else is dealt.
        Nothing is owed once the game is over."""
        departed = getattr(self.rules, "departed", None)
        if departed is None or self.rules.to_move(self.state) is None:
            return
        for seat in departed(self.state):
            if seat not in self.book.departed and seat not in self.leaving:
                self.leaving.append(seat)
                if seat in self.dice.ledger.active:
                    self.dice.ledger.forfeit(seat)
        self._next_hand_over()

    def _next_hand_over(self) -> None:
        """The first leaving seat's hand-over begins: the refreshes it needs, then its event."""
        if self.leaving and self.book.current is None:
            self.book.begin_hand_over(self.leaving[0], self.hand_over_handles())

    # -- a dice withholder forfeits (SPEC §26.14) ----------------------------------------
    def forfeit_lost(self, seat: int) -> list[int] | None:
        """The cards a forfeit of `seat` would take out of play, or None when its silence at
        this height must end the game by the abort: it is due a dice event (a withheld
        link), no hand-over is under way, and the game has the hooks `can_forfeit` and
        `forfeit` and agrees to drop every card that needed the seat's share."""
        can, hook = getattr(self.rules, "can_forfeit", None), getattr(self.rules, "forfeit", None)
        if (can is None or hook is None or self.phase != Phase.PLAY or self.leaving or self.dice is None
                or self.dice.current is None or self.book.current is not None
                or self.next_author() != self.seat_keys[seat] or len(self.dice.ledger.active) < 2):
            return None
        lost = self.book.needing(seat)
        return lost if can(self.state, seat, tuple(lost)) else None

    def _forfeit(self, seq: int, seat: int) -> None:
        """The seat leaves without a hand-over: its logged shares are dropped into the cards
        (they need the rest only), the cards only its share could open leave play by the
        game's hook, the dice draw the roll in progress again without it (§33.5 rule 6)."""
        lost = self.book.depart(seat)
        self.dice.ledger.forfeit(seat)
        self.dice.current = None        # the game says again which roll it waits for, if any
        try:
            self.rules.forfeit(self.state, seat, tuple(lost))
        except GameRuleError as exc:    # can_forfeit said yes: a game that disagrees with itself
            raise DeckCorrupted(f"the game refuses the forfeit of seat {seat} it allowed: {exc}", seq=seq) from None
        self._version += 1
        self._departures()
        self._sync(seq)

    def hand_over_handles(self) -> list[int]:
        """The cards a leaving seat must hand over: those the game may still deal or reveal."""
        return [h for h in self.rules.hidden_handles(self.state) if h in self.book.cipher and h not in self.book.lost]

    def _sync(self, seq: int) -> None:
        """Run the game forward over every deck operation whose obligations are met."""
        while True:
            who = self.rules.to_move(self.state)
            if who is None:  # every card that had to be shown was shown by shares (SPEC §26.7)
                self._next_phase(Phase.DONE)
                return
            if who != CHANCE or self.dice.current is not None or self.leaving:   # a roll finishes at its last opening
                return
            if self.book.current is None:
                request = self.rules.pending_chance(self.state)
                if isinstance(request, DiceRequest):
                    self.dice.begin(request)
                    return
                self.book.begin(request, seq)
            if not self.book.complete():
                return
            request = self.book.current.request
            if request.kind == DeckOp.DEAL:
                self._dealt(request, seq)
            revealed = self.book.finish(seq)
            try:
                self._engine(CHANCE, self._read(self.rules.chance_outcome(self.state, request, revealed)))
            except GameRuleError as exc:
                raise DeckCorrupted(f"the game refuses the outcome of {request.kind} {request.deck}: "
                                    f"{exc}", seq=seq) from None

    def _dealt(self, request, seq: int) -> None:
        """Hook: the receiver of a deal decrypts its cards."""

    def _on_shuffle(self, seq: int, author: bytes, body: dict) -> str:
        named = self.book.shuffle_input()   # the first shuffle names its input (SPEC §26.4)
        check_fields(body, {"d": want_bytes(), "p": want_bytes(),
                            **{k: want_list() if k == "labels" else want_bytes() for k in named}}, seq, author)
        if any(body[k] != v for k, v in named.items()):
            what = "the new deck's labels, in order" if "labels" in named else "the reshuffled cards, in order"
            raise BadBody(f'"{next(iter(named))}" must be {what}', seq=seq, author=author)
        deck = self.book.current.request.deck
        self.book.accept_shuffle(seq, self.seat_of[author], author, body["d"], body["p"], own=self._own)
        self._sync(seq)
        proof = "made" if self._own else "checked"
        return f"shuffle {deck} ({len(body['d']) // mp.CIPHERTEXT_BYTES} cards, proof {proof})"

    def _on_refresh(self, seq: int, author: bytes, body: dict) -> str:
        check_fields(body, {"d": want_bytes(), "p": want_bytes(), "for": want_list()}, seq, author)
        req, handles = self.book.current.request, self.book.refresh_due()
        self.book.accept_refresh(seq, self.seat_of[author], author, body["d"], body["p"], body["for"],
                                 own=self._own)
        self._sync(seq)
        why = f"the hand-over of seat {req.seat}" if req.kind == DeckOp.HAND_OVER else f"{req.deck} for seat {req.seat}"
        return (f"refresh {why}: " + " ".join(f"#{h}" for h in handles)
                + f" (proof {'made' if self._own else 'checked'})")

    def _on_shares(self, seq: int, author: bytes, body: dict) -> str:
        check_fields(body, {"s": want_list(), "for": want_list()}, seq, author)
        req = self.book.current.request
        self.book.accept_shares(seq, self.seat_of[author], author, body["s"], body["for"], own=self._own)
        self._sync(seq)
        to = "all" if req.kind == DeckOp.REVEAL else f"seat {req.seat}"
        return f"shares {req.kind} {req.deck} to {to}: " + " ".join(f"#{h}" for h in req.handles)

    def _on_hand_over(self, seq: int, author: bytes, body: dict) -> str:
        check_fields(body, {"s": want_list(), "for": want_list()}, seq, author)
        seat = self.seat_of[author]
        handles = self.book.hand_over_due()
        accept_hand_over(self.book, seq, seat, author, body, own=self._own)
        self.leaving.remove(seat)
        self._next_hand_over()
        self._sync(seq)
        return f"hand-over by seat {seat}: " + (" ".join(f"#{h}" for h in handles) or "no card")

    def _on_dice_chain(self, seq: int, author: bytes, body: dict) -> str:
        return self.dice.accept_chain(seq, self.seat_of[author], author, body)

    def _on_dice_open(self, seq: int, author: bytes, body: dict) -> str:
        request = self.dice.current
        faces = self.dice.accept_open(seq, self.seat_of[author], author, body)
        if faces is None:
            return f"dice open roll {self.dice.ledger.roll_index} by seat {self.seat_of[author]}"
        try:
            self._engine(CHANCE, self._read(self.rules.chance_outcome(self.state, request, faces)))
        except GameRuleError as exc:
            raise DeckCorrupted(f"the game refuses the roll {faces}: {exc}", seq=seq) from None
        self._sync(seq)
        return f"dice open roll {self.dice.ledger.roll_index - 1}: " + " ".join(map(str, faces))

    def _copy_state(self) -> Any:
        """A copy of the game state (the game's optional `copy_state`, else a deep copy)."""
        copier = getattr(self.rules, "copy_state", None)
        return copier(self.state) if copier is not None else copy.deepcopy(self.state)

    def _on_takeback(self, seq: int, author: bytes, body: dict) -> str:
        """The head action taken back (SPEC §29.17): the state from before it comes back."""
        _, note = check_takeback(self, seq, author, body)
        kept = self.undo_point[1]          # the copy kept when the action was applied
        if kept is None:                   # only a verifier told no takeback follows skips it
            raise RuntimeError("a takeback arrived after an action whose undo copy was skipped (keep_undo)")
        self.state = kept
        self._version += 1
        return note

    def _on_action(self, seq: int, author: bytes, body: dict) -> str:
        check_fields(body, {"a": want_str(MAX_ACTION_TEXT), "p": want_list()}, seq, author)
        seat, text = self.seat_of[author], body["a"]
        try:
            action = self._read(text)
            claims = self.rules.revealed_cards(self.state, seat, action)
        except GameRuleError as exc:
            raise IllegalMove(str(exc), seq=seq, author=author) from None
        except Exception as exc:  # a reader that breaks on hostile text refuses it (SPEC §26.5)
            raise IllegalMove(f"the game cannot read {text!r}: {type(exc).__name__}: {exc}",
                              seq=seq, author=author) from None
        if len(body["p"]) != len(claims):
            raise BadBody(f'"p" must hold one share per hidden card played ({len(claims)})', seq=seq, author=author)
        for (handle, label), raw in zip(claims, body["p"]):
            self.book.check_claim(seq, seat, author, handle, label, raw, own=self._own)
        before, version = self._copy_state() if self.keep_undo else None, self._version
        try:
            self._engine(seat, action)
        except GameRuleError as exc:
            raise IllegalMove(str(exc), seq=seq, author=author) from None
        self.book.shown.update(self.book.cipher[h].c1 for h, _ in claims)   # a claimed card is shown
        self._sync(seq)
        if (not claims and self._version == version + 1 and not self.leaving   # nothing seen, no outcome
                and self.rules.to_move(self.state) not in (None, CHANCE)):      # nor one under way
            self._pending_undo = (seq, before)
        return text + (" [proved " + " ".join(f"#{h}" for h, _ in claims) + "]" if claims else "")
