"""A seated peer's client (SPEC §26.6): a Session that also writes its own events.

The peer keeps its secrets (seat-order value, key share x_i) in its SecretsFile beside
the log, never in the log; they are never published. A shuffle's witness is used for its
proof (SPEC §25.10) and then dropped. Its own
events go through exactly the checks a received event goes through, before they are
signed; then they are appended to its chain and log and handed out as wire bytes.
"""
from __future__ import annotations

from protocol.crypto import commit_reveal as cr
from protocol.crypto.dice import DiceSeat
from protocol.crypto import group as g
from protocol.poker import deck as mp
from protocol.log import LogWriter, SecretsFile, sign_event
from protocol.session.game_rules import Agent, GameRuleError, GameRules, agent_record
from protocol.crypto import Identity, fingerprint
from protocol.session.core import HASHED_PHASES, SEAT_TAG, Session
from protocol.session.errors import DeckCorrupted, SessionError
from protocol.session.hand_over import make_hand_over
from protocol.session.phases import EventKind, Phase

__all__ = ["SessionPeer", "NotYourTurn", "REMADE_ALIKE"]

# Kinds of own event that a peer rebuilt from its log would sign again byte for byte, so
# they need not reach the disk before they are sent (SPEC §23.4): a shares event is a
# function of the chain before it and the key share (its proofs' nonces are derived,
# §25.2), a dice chain or opening of the chain and the seed kept in the secrets file before
# the chain is sent (§33.8), and Ed25519 signatures are deterministic. An action is too when
# a remade-alike agent chose it (a bot seat: agent_record), its record kept in the secrets file.
REMADE_ALIKE = frozenset({EventKind.SHARES.value, EventKind.DICE_CHAIN.value, EventKind.DICE_OPEN.value})


class NotYourTurn(SessionError):
    """act() was called when this peer owes no event."""
    spec = "§26.6"   # the SPEC section it enforces (§36.3)


class SessionPeer(Session):
    def __init__(self, identity: Identity, rules: GameRules, game: bytes, roster: list[bytes],
                 config: dict, *, log: LogWriter | None = None, secrets: SecretsFile | None = None,
                 agent: Agent | None = None) -> None:
        super().__init__(rules, game, roster=roster, config=config)
        if identity.public_key_bytes not in roster:
            raise ValueError("the peer's identity is not in the roster")
        self.identity = identity
        self.me = identity.public_key_bytes
        self.log = log
        self.secret_store = secrets
        self.agent = agent
        self.seat: int | None = None
        self.view = None
        self._seat_value = cr.fresh_value()
        self._key = mp.KeyShare.generate()
        self._kept: dict = {}          # secrets adopted on resume: the dice seeds among them
        self._dice_seat: DiceSeat | None = None
        self._dice_seat_chains: DiceSeat | None = None   # a rewound copy's chains (made, not yet seated)
        self._remade_own = False       # the event being written is one this peer remakes alike
        record = agent_record(agent)   # kept (synced) before any action it chooses goes unsynced
        self._keep({"seat_value": self._seat_value, "key": self._key.secret,
                    **({"agent": record} if record is not None else {})})

    def adopt_secrets(self, kept: dict) -> None:
        """Resume (SPEC §29.7): take back the secrets this peer drew before a restart (seat
        value and key share, as merged from its SecretsFile) in place of the fresh ones
        drawn in __init__. Call before replaying the log."""
        self._seat_value = kept["seat_value"]
        self._key = mp.KeyShare.generate(kept["key"])
        self._kept = dict(kept)

    def write_halt(self) -> bytes:
        """Write the halt carrying the refused event kept in `evidence` (SPEC §29.10) and
        return its wire, already logged; this peer then takes nothing more."""
        from protocol.session.halt import make_halt
        if self.evidence is None or self.phase == Phase.HALTED:
            raise NotYourTurn("no refused event to write a halt for", seq=self.chain.height, author=self.me)
        evidence, error = self.evidence
        ev = make_halt(self.identity, self, evidence, error)
        self._accept(ev, f"halt: {fingerprint(evidence.author)} at seq {ev.seq}: {type(error).__name__}: "
                         f"{error.reason}"[:380])
        self._next_phase(Phase.HALTED)
        return ev.wire

    def rewound(self, height: int) -> "SessionPeer":
        """A copy of this peer holding only its first `height` events, with the same secrets
        and no files: every event is checked again. Used when an abort co-signed by every
        other seat shows that this peer's own events from `height` on reached nobody
        (SPEC §29.6)."""
        peer = SessionPeer(self.identity, self.rules, self.game, self.roster, self.config, agent=self.agent)
        peer._seat_value, peer._key, peer._kept = self._seat_value, self._key, self._kept
        if self._dice_seat is not None:   # the chains this peer made, for the openings it owes again
            peer._dice_seat_chains = self._dice_seat
        for ev in self.chain.events[:height]:
            peer.receive(ev)
        return peer

    def _keep(self, entry: dict) -> None:
        if self.secret_store is not None:
            self.secret_store.append(entry)

    # -- hooks ---------------------------------------------------------------------------
    def _logged(self, ev) -> None:
        if self.log is not None:
            # SPEC §23.4: own events reach the disk before they are sent, but for those this
            # peer would sign again byte for byte (its shares, a bot's actions); others' events are fsynced
            # with the next own one that is synced (or at close), in groups
            own = ev.author == self.me
            self.log.append(ev.wire, sync=own and not self._remade_own and ev.kind not in REMADE_ALIKE)

    def _seated(self) -> None:
        self.seat = self.seat_of[self.me]
        self.view = self.rules.new_view(self.seat)
        made = self._dice_seat_chains
        self._dice_seat = made if made is not None else DiceSeat.from_secrets(self.game, self.seat, self._kept)

    def _dealt(self, request, seq: int) -> None:
        if request.seat == self.seat:
            for handle, label in self.book.private_labels(self._key, self.seat, seq):
                self.rules.learn(self.view, handle, label)

    # -- writing -------------------------------------------------------------------------
    def pending_obligation(self) -> EventKind | None:
        """The kind of event this peer owes now, or None."""
        if self.halted is not None or self.phase == Phase.DONE or self.next_author() != self.me:
            return None
        return self.next_kind()

    def act(self, action: str | None = None) -> bytes:
        """Write this peer's due event (an action from `action` or the agent) and return
        its wire bytes, already applied to this replica and logged. If the event completes
        a deck operation that exposes a corrupted deck, it is still valid: it is logged and
        returned, and this peer halts (`halted` is the DeckCorrupted), as every receiver will."""
        kind = self.pending_obligation()
        if kind is None:
            raise NotYourTurn("this peer owes no event now", seq=self.chain.height, author=self.me)
        seq, phase = self.chain.height, self.phase
        body = self._body(kind, seq, action)
        self._own = True
        corrupted = None
        try:
            note = self._apply(seq, self.me, kind, body)
        except DeckCorrupted as exc:  # our valid shares exposed a bad deck: publish them, halt
            corrupted, note = exc, f"{kind} (deck corrupted)"
        finally:
            self._own = False
        if phase in HASHED_PHASES:
            body["h"] = self.state_hash()
        ev = sign_event(self.identity, self.game, seq, self.chain.head, kind, body)
        self._remade_own = kind == EventKind.ACTION and action is None and agent_record(self.agent) is not None
        try:
            self._accept(ev, note)
        finally:
            self._remade_own = False
        if corrupted is not None:
            self.halted = corrupted  # every receiver halts on the same event
        return ev.wire

    def _body(self, kind: str, seq: int, action: str | None) -> dict:
        if kind == EventKind.HELLO:
            return {"name": self.identity.name[:64], "roster": list(self.roster),
                    "rules": self.rules.name, "config": dict(self.config)}
        if kind == EventKind.SEAT_COMMIT:
            return {"c": cr.commit(self._seat_value, g.lp(SEAT_TAG, self.game))}
        if kind == EventKind.SEAT_REVEAL:
            return {"r": self._seat_value}
        if kind == EventKind.KEY_COMMIT:
            return {"c": mp.key_commitment(self._key, self.game)}
        if kind == EventKind.KEY_REVEAL:
            return {"k": mp.publish_key_share(self._key, self.game, self.identity.fingerprint).to_bytes()}
        if kind == EventKind.SHUFFLE:
            named = self.book.shuffle_input()
            deck, proof = self.book.make_shuffle(seq, self.me)
            return {"d": deck, "p": proof, **named}
        if kind == EventKind.REFRESH:
            inputs = self.book.refresh_inputs()
            cards, refresh_proofs = self.book.make_refresh(seq, self.seat, self.me)
            return {"d": cards, "p": refresh_proofs, "for": inputs}
        if kind == EventKind.SHARES:
            return {"s": self.book.make_shares(self._key, seq, self.seat), "for": self.book.answered()}
        if kind == EventKind.HAND_OVER:
            return make_hand_over(self.book, self._key, seq, self.seat)
        if kind == EventKind.DICE_CHAIN:
            body = self._dice_seat.chain_body(self.dice.ledger)
            self._keep(self._dice_seat.secret_entry(body["gen"]))   # the seed before the head is sent
            return body
        if kind == EventKind.DICE_OPEN:
            return self._dice_seat.open_body(self.dice.ledger)
        if kind == EventKind.ACTION:
            text = action if action is not None else self._choose(seq)
            try:   # read once: _apply's check of this event reuses the action
                claims = self.rules.revealed_cards(self.state, self.seat, self._read(text))
            except GameRuleError:
                claims = []  # _apply will refuse the text with the rules' reason
            proofs = [self.book.make_claim_share(self._key, seq, self.seat, h)
                      for h, _ in claims if self.book.dealt_to.get(h) == self.seat]
            return {"a": text, "p": proofs}
        raise ValueError(f"unknown event kind {kind!r}")  # pragma: no cover

    def _choose(self, seq: int) -> str:
        if self.agent is None:
            raise NotYourTurn("an action is due and this peer has no agent; pass the action text",
                              seq=self.chain.height, author=self.me)
        if agent_record(self.agent) is not None:   # its answer is a function of the height too
            return self.agent(self.state, self.view, seq=seq)
        return self.agent(self.state, self.view)
