"""Write the test vectors of SPEC §36 into tests/vectors/: for each game a finished, an
unfinished, an aborted and a halted log, every tamper class of §36.2, the manifest of what
`asv verify --json` gives on each (manifest.json) and the known-answer transcripts
(kat.json). Everything comes from fixed seeds (tests/vectors/entropy.py), so running it
again writes the same bytes; run it after a format changes:

    make vectors            (or: .venv/bin/python -m tests.vectors.make_vectors)

Each tamper is made with an intended error kind and record; the generator stops with an
error if `asv verify` finds anything else, so a vector always shows what its name says.
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import struct
import sys
import tempfile
import time
import zlib
from argparse import Namespace
from pathlib import Path

from cli.games import kit_for
from cli.games.options import config_from
from cli.main import main as asv_main
from protocol import codec
from protocol.crypto import Identity
from protocol.log import LogWriter, parse_event, sign_event
from protocol.log.logfile import _record
from protocol.session import SessionPeer
from protocol.session.abort import abort_writers, make_abort, make_vote
from protocol.session.errors import StateHashMismatch
from protocol.session.game_rules import CHANCE
from tests.session_helpers import craft, run_until, step, writer
from tests.vectors import kat
from tests.vectors.entropy import fixed_entropy

HERE = Path(__file__).resolve().parent
MANIFEST = "manifest.json"
KAT_FILE = "kat.json"
# The header's program line of every vector: fixed, so the files do not depend on the build
# that wrote them (a real log names its program, SPEC §23.2).
VECTOR_PROGRAM = "p2p-asv test-vectors (lock 000000000000, Python 0.0.0)"
# Fields of `asv verify --json` a vector fixes. Left out: `reason` and `names`, free text
# (SPEC §36.3); the culprit's `reason` likewise; of the notes `aborted` and `halted`, only
# whether there is one.
EXPECTED_FIELDS = ("valid", "exit_code", "game_id", "events", "head", "finished", "scores", "winners",
                   "aborted", "halted", "culprit", "players", "program", "log_format",
                   "seq", "author", "kind", "spec", "readable")
CULPRIT_FIELDS = ("seq", "author", "kind", "spec")

# The games: short ones (two players, the quickest settings), bots by fixed seeds.
GAMES = {
    "asv": {"args": {"tiles_per_turn": 3}, "bots": ["random", "random"]},
    "space-walk": {"args": {}, "bots": ["random", "random"]},
    "space-trading-race": {"args": {"time_limit": 1}, "bots": ["random", "random"]},
}


def seed_of(*parts: str) -> bytes:
    return hashlib.sha256("/".join(("p2p-asv/test-vectors",) + parts).encode()).digest()


def identities(key: str, n: int) -> list[Identity]:
    return [Identity.from_seed(seed_of(key, f"peer{i}"), f"v{i}") for i in range(n)]


FOREIGN = Identity.from_seed(seed_of("foreign"), "foreign")   # a key in no roster


class Table:
    """The peers of one vector game, in memory, each writing its own log."""

    def __init__(self, key: str, scenario: str, folder: Path) -> None:
        spec = GAMES[key]
        self.key, self.kit = key, kit_for(key)
        self.rules = self.kit.session_rules()
        players = len(spec["bots"])
        args = Namespace(game=key, variant=[], players=players, **spec["args"])
        config = config_from(args)
        self.game = seed_of(key, "game")[:16]
        self.ids = identities(key, players)
        roster = [i.public_key_bytes for i in self.ids]
        folder.mkdir(parents=True, exist_ok=True)
        self.peers = []
        for lobby, ident in enumerate(self.ids):
            path = folder / f"{scenario}-peer{lobby}.asvlog"
            log = LogWriter(path, self.game, program=VECTOR_PROGRAM)
            agent = self.kit.agent(spec["bots"][lobby], f"vectors/{key}/{lobby}")
            self.peers.append(SessionPeer(ident, self.rules, self.game, roster, dict(config), log=log,
                                          agent=agent))

    def in_play(self) -> None:
        """Run until the game's own moves begin (phase play, a seat to move, not chance)."""
        p = self.peers[0]
        run_until(self.peers, lambda: p.phase == "play" and p.state is not None
                  and self.rules.to_move(p.state) != CHANCE and writer(self.peers).pending_obligation() == "action")

    def finish(self) -> None:
        run_until(self.peers, lambda: all(q.finished for q in self.peers))

    def close(self) -> None:
        for p in self.peers:
            p.log.close()


def play(key: str) -> dict[str, list[bytes]]:
    """The records of the finished, aborted and halted games of `key` (one game id; each
    game from its own entropy). The peers' own logs go to a folder thrown away after."""
    with tempfile.TemporaryDirectory() as tmp:
        return _play(key, Path(tmp))


def _play(key: str, folder: Path) -> dict[str, list[bytes]]:
    out = {}
    with fixed_entropy(seed_of(key, "finished")):
        t = Table(key, "finished", folder)
        t.finish()
        t.close()
        out["finished"] = t.peers[0].log.records
    with fixed_entropy(seed_of(key, "aborted")):
        t = Table(key, "aborted", folder)
        t.in_play()
        step(t.peers)
        t.in_play()
        due = writer(t.peers)
        others = [p for p in t.peers if p is not due]
        votes = {p.me: make_vote(p.identity, t.game, others[0].chain.height, others[0].chain.head, due.me)
                 for p in others}
        ev = make_abort(others[0].identity, others[0], votes)
        for p in t.peers:
            p.receive(ev.wire)
        t.close()
        out["aborted"] = others[0].log.records
    with fixed_entropy(seed_of(key, "halted")):
        t = Table(key, "halted", folder)
        t.in_play()
        step(t.peers)
        t.in_play()
        cheater = writer(t.peers)
        wire = craft(cheater, h=bytes(32))          # a wrong state hash, signed by its author
        for p in t.peers:
            if p is not cheater:
                try:
                    p.receive(wire)
                except StateHashMismatch:
                    pass                            # refused, and kept as evidence (SPEC §29.10)
                else:
                    raise AssertionError("a wrong state hash was accepted")
        first = abort_writers(cheater.roster, cheater.me)[0]
        halter = next(p for p in t.peers if p.me == first)
        halt = halter.write_halt()
        for p in t.peers:
            if p is not halter and p is not cheater:
                p.receive(halt)   # (the cheater's replica is left as it is: its log is no vector)
        t.close()
        out["halted"] = halter.log.records
    return out


# -- writing files --------------------------------------------------------------------------------

def header(game: bytes, version: int = 2) -> bytes:
    if version == 1:
        head = b"ASVLOG\x01" + bytes((len(game),)) + game
    else:
        named = VECTOR_PROGRAM.encode()
        head = b"ASVLOG\x02" + bytes((len(game),)) + game + bytes((len(named),)) + named
    return head + struct.pack(">I", zlib.crc32(head))


def write(path: Path, game: bytes, records: list[bytes], *, tail: bytes = b"", version: int = 2) -> None:
    path.write_bytes(header(game, version) + b"".join(_record(r) for r in records) + tail)


def resign(wire: bytes, identity: Identity, change=None, **fields) -> bytes:
    """The event of `wire` with its body changed by `change(body)` and/or its fields
    replaced, signed again by `identity`."""
    ev = parse_event(wire)
    body = codec.decode(codec.encode(ev.body))
    if change is not None:
        change(body)
    values = {"game": ev.game, "seq": ev.seq, "prev": ev.prev, "kind": ev.kind, "body": body, **fields}
    return sign_event(identity, values["game"], values["seq"], values["prev"], values["kind"], values["body"]).wire


def flip(data: bytes, index: int, bit: int = 0) -> bytes:
    out = bytearray(data)
    out[index] ^= 1 << bit
    return bytes(out)


def first(records: list[bytes], kind: str) -> int | None:
    return next((i for i, r in enumerate(records) if parse_event(r).kind == kind), None)


def spoil_bin(body: dict, field: str, index: int | None, at: int) -> None:
    """Flip one bit of byte `at` of body[field] (or of body[field][index])."""
    if index is None:
        body[field] = flip(body[field], at)
    else:
        body[field][index] = flip(body[field][index], at)


def tampers(key: str, records: list[bytes], donor: list[bytes], game: bytes) -> list[dict]:
    """Every tamper class of SPEC §36.2 on the finished log's records: (name, records,
    tail, header flip) with the error kind and record index it must give. Each file keeps
    only the records up to a little after the tampered one: verification stops there."""
    by_key = {i.public_key_bytes: i for i in identities(key, len(GAMES[key]["bots"]))}

    def author(i: int) -> Identity:
        return by_key[parse_event(records[i]).author]

    out = []

    def add(name, what, recs, kind, seq, *, tail=b"", raw=None):
        out.append({"name": name, "what": what, "records": recs, "tail": tail, "raw": raw, "kind": kind, "seq": seq})

    head = header(game)
    add("flip-header", "one bit of the game id in the header flipped", records[:3], "BadHeader", None,
        raw=flip(head, 8) + b"".join(_record(r) for r in records[:3]))
    framed = header(game) + b"".join(_record(r) for r in records[:4])
    add("flip-record", "one bit of record 2's payload flipped, its CRC left as it was", None, "CorruptRecord", 2,
        raw=flip(framed, len(header(game)) + len(_record(records[0])) + len(_record(records[1])) + 8 + 20))
    add("flip-resealed", "one bit of record 2's signature flipped and the record's CRCs made again",
        records[:2] + [flip(records[2], len(records[2]) - 1)] + records[3:4], "ForgedSignature", 2)
    whole = header(game) + b"".join(_record(r) for r in records[:5])
    add("cut", "the last of 5 records cut 10 bytes short (a torn append)", None, "TornRecord", 4, raw=whole[:-10])
    add("pad", "16 bytes that frame no record after 5 records", records[:5], "TrailingGarbage", 5,
        tail=b"\xff" * 16)
    add("splice", "record 3 replaced by record 3 of another game", records[:3] + [donor[3]] + records[4:5],
        "WrongGame", 3)
    add("reorder", "records 3 and 4 swapped", records[:3] + [records[4], records[3]] + records[5:6], "OutOfOrder", 3)
    add("duplicate", "record 3 written again after itself", records[:4] + [records[3]], "ReplayedEvent", 4)
    fork = resign(records[3], author(3), lambda b: spoil_bin(b, sorted(k for k in b if isinstance(b[k], bytes))[0],
                                                             None, 0))
    add("equivocation", "after record 3, a second event its author signed for the same seq (one bit of a field "
        "changed)", records[:4] + [fork], "Equivocation", 4)
    name_change = resign(records[1], author(1), lambda b: b.update(name="mallory"))
    add("re-sign", "record 1 (a hello) edited and signed again by its own author: it verifies, record 2 no "
        "longer chains to it", records[:1] + [name_change] + records[2:3], "BrokenChain", 2)
    action = first(records, "action")
    add("re-sign-state", f"record {action} (the first action) given a wrong state hash and signed again by its "
        "author", records[:action] + [resign(records[action], author(action), lambda b: b.update(h=bytes(32)))],
        "StateHashMismatch", action)
    add("foreign-key", "record 2 signed by a key outside the roster", records[:2] + [
        resign(records[2], FOREIGN)], "WrongAuthor", 2)
    reveal = first(records, "key-reveal")
    add("wrong-key-proof", f"record {reveal} (a key-reveal): one bit of its Schnorr proof flipped, signed again",
        records[:reveal] + [resign(records[reveal], author(reveal), lambda b: spoil_bin(b, "k", None, 40))],
        "BadKeyShare", reveal)
    shuffle = first(records, "shuffle")
    if shuffle is not None:
        add("wrong-proof", f"record {shuffle} (the first shuffle): one bit of its shuffle proof flipped, signed "
            "again by its author", records[:shuffle] + [resign(records[shuffle], author(shuffle),
                                                                lambda b: spoil_bin(b, "p", None, 40))],
            "BadShuffleProof", shuffle)
    shares = first(records, "shares")
    if shares is not None:
        add("wrong-share", f"record {shares} (the first shares): one bit of its first share's proof flipped, "
            "signed again by its author", records[:shares] + [resign(records[shares], author(shares),
                                                                     lambda b: spoil_bin(b, "s", 0, 40))],
            "BadShare", shares)
    return out


def unfinished_length(records: list[bytes]) -> int:
    """A prefix that reaches the play phase: up to the second action (so every deck
    operation of the opening is in it), short of the end."""
    actions = [i for i, r in enumerate(records) if parse_event(r).kind == "action"]
    return actions[1] + 1 if len(actions) > 2 else len(records) // 2


def verify_json(path: Path) -> dict:
    """What `asv verify PATH --json` prints and exits with, as one map."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = asv_main(["verify", str(path), "--json"])
    report = json.loads(out.getvalue())
    report.setdefault("exit_code", code)
    if report["exit_code"] != code:
        raise AssertionError(f"{path}: exit code {code}, JSON says {report['exit_code']}")
    return report


def expected(report: dict) -> dict:
    """The fields of a verify report a vector fixes (SPEC §36.3)."""
    out = {k: report[k] for k in EXPECTED_FIELDS if k in report}
    for note in ("aborted", "halted"):     # a note for people: whether there is one is fixed
        if note in out:
            out[note] = out[note] is not None
    if out.get("culprit"):
        out["culprit"] = {k: out["culprit"][k] for k in CULPRIT_FIELDS}
    return out


def generate(root: Path = HERE) -> dict:
    entries = []
    games = {key: play(key) for key in GAMES}
    keys = list(GAMES)
    for n, key in enumerate(keys):
        folder = root / key
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.asvlog"):
            old.unlink()
        game = seed_of(key, "game")[:16]
        logs = games[key]
        finished = logs["finished"]
        cut = unfinished_length(finished)
        files = {
            "finished": (finished, "a whole game, to its end", 0),
            "unfinished": (finished[:cut], f"the first {cut} records of the finished game", 2),
            "aborted": (logs["aborted"], "a game ended by a co-signed abort naming the silent seat (SPEC §29.6)", 2),
            "halted": (logs["halted"], "a game ended by a halt carrying a refused event with a wrong state hash "
                       "(SPEC §29.10)", 2),
        }
        for name, (records, what, code) in files.items():
            path = folder / f"{name}.asvlog"
            write(path, game, records)
            entries.append(_entry(root, path, key, name, what, verify_json(path), exit_code=code, valid=True))
        path = folder / "format1.asvlog"
        write(path, game, finished[:cut], version=1)
        entries.append(_entry(root, path, key, "format1", "the unfinished log under a format 1 header (no program "
                              "line): read by the compatibility path, SPEC §23.2", verify_json(path),
                              exit_code=2, valid=True))
        donor = games[keys[(n + 1) % len(keys)]]["finished"]
        for t in tampers(key, finished, donor, game):
            path = folder / f"tamper-{t['name']}.asvlog"
            if t["raw"] is not None:
                path.write_bytes(t["raw"])
            else:
                write(path, game, t["records"], tail=t["tail"])
            report = verify_json(path)
            if (report.get("kind"), report.get("seq")) != (t["kind"], t["seq"]):
                raise AssertionError(f"{path.name}: meant {t['kind']} at {t['seq']}, verify gives "
                                     f"{report.get('kind')} at {report.get('seq')}: {report.get('reason')}")
            entries.append(_entry(root, path, key, t["name"], t["what"], report, exit_code=1, valid=False))
    entries += _unreadable(root, games["asv"]["finished"])
    manifest = {"about": "SPEC §36: what `asv verify FILE --json` must give on each file (fields of §36.3; "
                         "`reason` and `names` are free text and not fixed). Written by "
                         "tests/vectors/make_vectors.py.",
                "program": VECTOR_PROGRAM, "fields": list(EXPECTED_FIELDS), "vectors": entries}
    for name, data in ((MANIFEST, manifest), (KAT_FILE, kat.transcripts())):
        text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
        (root / name).write_text(text, encoding="utf-8")
    return manifest


def _unreadable(root: Path, asv_records: list[bytes]) -> list[dict]:
    """The two ways a file is exit 3: not a log at all, and a log of rules this program does
    not know (a hello signed for another rules version: nothing in it can be checked)."""
    folder = root / "asv"
    out = []
    path = folder / "not-a-log.asvlog"
    path.write_bytes(b"this is a text file, not a log\n")
    out.append(_entry(root, path, "asv", "not-a-log", "a file that does not begin with the log magic",
                      verify_json(path), exit_code=3, valid=None))
    key = "asv"
    hello = parse_event(asv_records[0])
    ident = {i.public_key_bytes: i for i in identities(key, 2)}[hello.author]
    older = resign(asv_records[0], ident, lambda b: b.update(rules="amazing-space-venture/1"))
    path = folder / "other-rules.asvlog"
    write(path, seed_of(key, "game")[:16], [older])
    out.append(_entry(root, path, "asv", "other-rules", "a log whose first hello names rules this program "
                      "does not know (amazing-space-venture/1): cannot check", verify_json(path),
                      exit_code=3, valid=None))
    return out


def _entry(root: Path, path: Path, key: str, name: str, what: str, report: dict, *, exit_code: int,
           valid: bool | None) -> dict:
    if report["exit_code"] != exit_code or report["valid"] is not valid:
        raise AssertionError(f"{path.name}: meant valid={valid} exit {exit_code}, verify gives {report}")
    return {"file": path.relative_to(root).as_posix(), "game": key, "class": name, "what": what,
            "bytes": path.stat().st_size, "expect": expected(report)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="folder to write into (default: tests/vectors)")
    args = parser.parse_args(argv)
    os.environ.setdefault("ASV_NO_FSYNC", "1")
    start = time.perf_counter()
    manifest = generate(args.out)
    total = sum(v["bytes"] for v in manifest["vectors"])
    print(f"{len(manifest['vectors'])} vectors, {total} bytes, in {time.perf_counter() - start:.1f} s "
          f"into {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
