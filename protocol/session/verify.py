"""Verify a game from one `.asvlog` alone (SPEC §26.10): framing, signatures, chain,
every proof (each shuffle proof and decryption share as it is read), the game's rules
and state hashes, and that no card becomes readable to an outsider unless it was shown to
the table (SPEC §25.7). Finished, unfinished and aborted logs are checked alike.

Strict: any framing problem (flipped byte, truncated record, trailing garbage) makes the
log invalid, naming the record; only a clean log of an unfinished game is a "valid
prefix". Game-agnostic: the caller passes the game's rules.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from protocol.errors import EventError, LogError
from protocol.session.game_rules import GameRules
from protocol.crypto import fingerprint
from protocol.crypto.proof_batch import ProofBatch, deferring
from protocol.crypto.sig_batch import BATCH_SIZE
from protocol.log import SignedEvent, parse_events, scan_log
from protocol.session.chat_check import check_chat
from protocol.session.core import Session
from protocol.session.errors import CardExposed
from protocol.session.outsider import OutsiderReader
from protocol.session.phases import ENDED, EventKind

__all__ = ["FILE_FIELDS", "error_spec", "VerifyReport", "LogChecker", "verify_log",
           "EXIT_VALID", "EXIT_INVALID", "EXIT_UNFINISHED"]

EXIT_VALID, EXIT_INVALID, EXIT_UNFINISHED = 0, 1, 2
_TAKEBACK_TEXT = EventKind.TAKEBACK.value.encode()   # the kind's text, in every takeback's wire (§22.1)
# Fields that describe the log file rather than the game (SPEC §23.2): a watcher, fed the
# events over the network, has no file and leaves them null.
FILE_FIELDS = ("program", "log_format")


@dataclass
class VerifyReport:
    valid: bool
    game_id: str | None
    events: int = 0
    head: str | None = None
    finished: bool = False
    scores: list | None = None
    winners: list | None = None
    seq: int | None = None               # first bad record, when invalid
    author: str | None = None
    reason: str | None = None
    aborted: str | None = None           # the abort record's note, when a silent peer was named (SPEC §29.6)
    halted: str | None = None            # the halt record's note, when a refused event convicts (SPEC §29.10)
    culprit: dict | None = None          # {"seq", "author", "reason", "kind", "spec"} of the convicted event
    players: list[str] = field(default_factory=list)  # fingerprints, seat order (lobby order before seating)
    kind: str | None = None              # the error's class, when invalid (SPEC §36.3)
    spec: str | None = None              # the SPEC section the error enforces, when invalid
    program: str | None = None           # the header's program line (SPEC §23.2); None in format 1
    log_format: int | None = None        # the header's format version
    chat: dict | None = None             # the chat sidecar's check (SPEC §29.18), None without one
    notes: list[str] = field(default_factory=list, repr=False)

    @property
    def exit_code(self) -> int:
        if not self.valid:
            return EXIT_INVALID
        return EXIT_VALID if self.finished else EXIT_UNFINISHED

    def to_json(self) -> dict:
        out = {"valid": self.valid, "game_id": self.game_id, "events": self.events, "head": self.head,
               "finished": self.finished, "scores": self.scores,
               "winners": self.winners, "aborted": self.aborted, "players": self.players,
               "halted": self.halted, "culprit": self.culprit, "chat": self.chat,
               "program": self.program, "log_format": self.log_format}
        if not self.valid:
            out.update({"seq": self.seq, "author": self.author, "reason": self.reason,
                        "kind": self.kind, "spec": self.spec})
        return out


def error_spec(error: BaseException) -> str | None:
    """The SPEC section an error enforces (its class's `spec`, SPEC §36.3)."""
    return getattr(type(error), "spec", None)


def _author(raw: bytes | None) -> str | None:
    try:
        return fingerprint(raw) if raw is not None else None
    except ValueError:
        return raw.hex()


class LogChecker:
    """The verifier's replay one event at a time (SPEC §26.10, §29.16): `verify_log` feeds it
    a log's records, a spectator the events as they arrive. After a refused event it
    accepts nothing more; `report()` is the verdict on what it was fed."""

    def __init__(self, rules: GameRules, game: bytes) -> None:
        self.session = Session(rules, game)
        self.verdict = VerifyReport(True, bytes(game).hex())
        self.fed = 0
        self.reader = OutsiderReader()   # the log as an outsider reads it (SPEC §25.7)

    @property
    def failed(self) -> bool:
        return not self.verdict.valid

    @property
    def over(self) -> bool:
        """Nothing more can follow: refused, or the game finished, aborted or halted."""
        return self.failed or self.session.phase in ENDED

    def feed(self, wire: bytes | SignedEvent, *, provisional: bool = False) -> bool:
        """Check and apply the record at the next height; False (and the verdict names it)
        when it is refused. `provisional`: a refusal is only held (`held`) and the height
        stays open, since a live game may still log another event there (the halt that
        convicts the refused one's author, SPEC §29.10); `conclude()` makes it the verdict."""
        if self.failed:
            return False
        index = self.fed
        try:
            ev = self.session.receive(wire)
            _check_secrecy(self.session, self.reader, ev)
        except CardExposed as exc:   # applied, then found to expose a card: final even live
            self.fed += 1
            self._refuse(index, exc)
            return False
        except EventError as exc:
            if provisional:
                self.held = self.held or (index, exc)
                return False
            self.fed += 1
            self._refuse(index, exc)
            return False
        self.fed += 1
        self.held = None
        return True

    held: tuple[int, EventError] | None = None

    def conclude(self) -> None:
        """Nothing more will arrive: a held refusal becomes the verdict, as `asv verify`
        would give it on the log with that event appended."""
        if self.held is not None and not self.failed:
            self._refuse(*self.held)

    def _refuse(self, index: int, exc: EventError) -> None:
        v = self.verdict
        v.valid = False
        v.seq = index  # the height where the log goes wrong; the event's own seq is in the reason
        v.author, v.reason = _author(exc.author), str(exc)
        v.kind, v.spec = type(exc).__name__, error_spec(exc)

    def report(self) -> VerifyReport:
        session, report = self.session, self.verdict
        # an event that exposes a card was applied before the outsider's check refused it
        accepted = session.chain.events[:report.seq] if report.seq is not None else session.chain.events
        report.events = len(accepted)
        report.head = (accepted[-1].hash if accepted else bytes(32)).hex()
        report.finished = session.finished
        report.notes = list(session.notes)
        # who played: a forged game between other keys verifies too, so say whose game it is
        report.players = [fingerprint(k) for k in (session.seat_keys or session.roster or [])]
        if session.phase == "aborted":
            report.aborted = session.notes[-1]
        if session.phase == "halted" and session.evidence is not None:
            report.halted = session.notes[-1]
            evidence, error = session.evidence   # checked again here from the log alone
            # a conviction's evidence is a statement about the halt's height (SPEC §29.19)
            report.culprit = {"seq": error.seq if error.seq is not None else evidence.seq,
                              "author": _author(evidence.author),
                              "reason": f"{type(error).__name__}: {error.reason}",
                              "kind": type(error).__name__, "spec": error_spec(error)}
        result = session.result()
        if result is not None:
            report.scores, report.winners = result.get("scores"), result.get("winners")
        return report


def _check_secrecy(session: Session, reader: OutsiderReader, ev) -> None:
    """SPEC §25.7, checked as an outsider reads the log: an event after which every seat's
    share of a ciphertext is in the log, and that ciphertext was not shown to the table
    (a public reveal, a claim), exposes that card. The replay's own deal rules (§26.4)
    already refuse such an event; this is the check from the log's side, so that a
    replica that got those rules wrong cannot pass a leaking log as valid."""
    for card in reader.add(ev):
        if session.book is None or card.c1 not in session.book.shown:
            raise CardExposed(f"every seat's share of card #{card.handle} (C1 {card.c1.hex()[:16]}) is now in "
                              "the log, and it was never shown to the table: anyone holding the log reads it",
                              seq=ev.seq, author=ev.author)


def _feed_all(checker: LogChecker, records: list[bytes], game: bytes, batch: ProofBatch | None = None) -> bool | None:
    """Feed every record; False at the first refused. The signatures are checked a batch at a
    time ahead of the replay (SPEC §20.6): the events up to the first bad wire go in parsed,
    and that wire goes in as it is, so the replay refuses it with parse_event's own error.
    With a proof batch (SPEC §25.14), its equations are summed after each chunk and before
    any verdict; None when one does not hold (the replay is then of no use)."""
    start = 0
    while start < len(records):
        chunk = records[start:start + BATCH_SIZE]
        good = parse_events(chunk, expected_game=game)
        for i, ev in enumerate(good):
            _look_ahead(checker, records, start + i)
            if not checker.feed(ev):
                return _held(batch, False)
        if len(good) < len(chunk):
            _look_ahead(checker, records, start + len(good))
            return _held(batch, checker.feed(chunk[len(good)]))   # refused here, by parse_event's own check
        if _held(batch, True) is None:
            return None
        start += len(chunk)
    return _held(batch, True)


def _held(batch: ProofBatch | None, result: bool) -> bool | None:
    """`result`, or None if the batch's pending equations do not all hold."""
    return None if batch is not None and not batch.holds() else result


def _look_ahead(checker: LogChecker, records: list[bytes], index: int) -> None:
    """The action's undo copy only when the next record may be a takeback (SPEC §35.7): a
    takeback's wire holds its kind's text (§22.9), so a record without it is none."""
    checker.session.keep_undo = index + 1 >= len(records) or _TAKEBACK_TEXT in records[index + 1]


def verify_log(path: str | Path, rules: GameRules, *, upto: int | None = None,
               defer_proofs: bool = True) -> tuple[VerifyReport, Session | None]:
    """Replay the log (through seq `upto`, if given) with an observer Session.

    `defer_proofs` (SPEC §25.14): the share and refresh proofs' equations are summed many at
    a time; if a sum does not hold, or anything goes wrong on the way, the log is checked
    again with every proof checked as it is read, and that is the verdict. The verdict is
    the same either way; deferring only makes a valid log faster to check."""
    try:
        scan = scan_log(path)
    except LogError as exc:
        return VerifyReport(False, None, reason=str(exc), kind=type(exc).__name__, spec=error_spec(exc)), None
    except OSError as exc:
        return VerifyReport(False, None, reason=f"cannot read {path}: {exc}"), None
    if defer_proofs:
        batch = ProofBatch()
        try:
            with deferring(batch):
                done = _verify_scan(path, scan, rules, upto, batch)
        except Exception:   # noqa: BLE001 - a bad proof's consequence, maybe: check one by one
            done = None
        if done is not None:
            return done
    result = _verify_scan(path, scan, rules, upto, None)
    assert result is not None   # nothing is deferred
    return result


def _verify_scan(path: str | Path, scan, rules: GameRules, upto: int | None,
                 batch: ProofBatch | None) -> tuple[VerifyReport, Session | None] | None:
    """The check of a scanned log; None when a deferred batch did not hold (SPEC §25.14)."""
    checker = LogChecker(rules, scan.game)
    checker.verdict.program, checker.verdict.log_format = scan.program, scan.format_version
    records = scan.records if upto is None else scan.records[:upto + 1]
    fed = _feed_all(checker, records, scan.game, batch)
    if fed is None:
        return None
    if fed and len(records) == len(scan.records):
        if scan.problem is not None and (upto is None or len(scan.records) <= upto):
            checker.verdict.valid = False
            checker.verdict.seq, checker.verdict.reason = scan.problem.record_index, str(scan.problem)
            checker.verdict.kind, checker.verdict.spec = type(scan.problem).__name__, error_spec(scan.problem)
    report, session = checker.report(), checker.session
    report.chat = check_chat(path, scan.game, session.seat_keys or session.roster or [])   # beside the verdict
    return report, session
