"""`.asvlog` files and their private `.secrets` companions (SPEC §23).

Layout (all integers big-endian):

    header v2 = magic(6) | 2 u8 | game id length u8 | game id | program length u8 | program (UTF-8)
                | CRC32(header so far) u32
    header v1 = magic(6) | 1 u8 | game id length u8 | game id | CRC32(header so far) u32   (read only)
    record = length u32 | CRC32(length bytes) u32 | payload | CRC32(payload) u32

The framing CRCs tell a torn write (an interrupted append: the file simply ends early)
apart from damage (bytes that are there but wrong). Authenticity does not rest on them:
each payload of a log is a signed, hash-chained event (SPEC §22).
"""
from __future__ import annotations

import os
import stat
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from protocol import codec
from protocol.errors import (
    BadHeader, CodecError, CorruptRecord, LogError, TornRecord, TrailingGarbage, UnsafePermissions,
)
from protocol.log.events import GAME_ID_SIZES, MAX_EVENT_SIZE, AuthorRule, Chain, parse_event
from protocol.log.program import MAX_PROGRAM_BYTES, log_program_line

__all__ = [
    "LOG_MAGIC", "SECRETS_MAGIC", "NO_FSYNC_VARIABLE", "FORMAT_VERSION", "READ_VERSIONS", "check_program",
    "MAX_RECORD_SIZE", "RECORD_OVERHEAD",
    "LogScan", "scan_log", "read_log", "load_chain", "LogWriter", "SecretsFile", "secrets_path",
    "LogError", "BadHeader", "TornRecord", "TrailingGarbage", "CorruptRecord", "UnsafePermissions",
]

LOG_MAGIC = b"ASVLOG"
SECRETS_MAGIC = b"ASVSEC"
FORMAT_VERSION = 2             # what this program writes (SPEC §23.2)
READ_VERSIONS = (1, 2)         # what it reads: version 1 is version 2 without the program line
MAX_RECORD_SIZE = MAX_EVENT_SIZE
RECORD_OVERHEAD = 12
_U32 = struct.Struct(">I")
NO_FSYNC_VARIABLE = "ASV_NO_FSYNC"   # "1": skip fsync (throwaway logs in test suites), SPEC §23.4


def _fsync(fd: int) -> None:
    """fsync, unless ASV_NO_FSYNC=1. Without fsync a record still survives the program
    being killed (it is in the kernel's page cache), but not a power cut or an OS crash."""
    if os.environ.get(NO_FSYNC_VARIABLE) != "1":
        os.fsync(fd)


def _crc(data: bytes) -> bytes:
    return _U32.pack(zlib.crc32(data) & 0xFFFFFFFF)


def check_program(program: str) -> bytes:
    """The UTF-8 of a header's program line (SPEC §23.2): 1 to 255 bytes and no control
    character (a verifier prints it), else ValueError."""
    raw = program.encode("utf-8")
    if not 1 <= len(raw) <= MAX_PROGRAM_BYTES:
        raise ValueError(f"the program line is {len(raw)} bytes of UTF-8; 1 to {MAX_PROGRAM_BYTES} fit a header")
    if any(ch < " " or "\x7f" <= ch <= "\x9f" for ch in program):
        raise ValueError(f"the program line {program!r} holds a control character")
    return raw


def _header(magic: bytes, game: bytes, program: str) -> bytes:
    named = check_program(program)
    head = magic + bytes((FORMAT_VERSION, len(game))) + game + bytes((len(named),)) + named
    return head + _crc(head)


def _record(payload: bytes) -> bytes:
    if not 1 <= len(payload) <= MAX_RECORD_SIZE:
        raise ValueError(f"record payload must be 1..{MAX_RECORD_SIZE} bytes")
    length = _U32.pack(len(payload))
    return length + _crc(length) + payload + _crc(payload)


@dataclass
class LogScan:
    """Everything a file holds, read leniently: the records of the longest valid prefix,
    where each starts, where the valid prefix ends, and the first problem (or None)."""

    game: bytes
    program: str | None = None        # the header's program line; None in a version 1 header
    format_version: int = FORMAT_VERSION
    header_size: int = 0
    records: list[bytes] = field(default_factory=list)
    offsets: list[int] = field(default_factory=list)
    valid_length: int = 0
    problem: LogError | None = None


@dataclass(frozen=True)
class _Header:
    game: bytes
    program: str | None
    version: int
    size: int


def _parse_header(data: bytes, magic: bytes, path: str) -> _Header:
    def bad(reason: str) -> BadHeader:
        return BadHeader(reason, path=path, offset=0)

    if len(data) < 8:
        raise bad(f"file of {len(data)} bytes is shorter than a header")
    if data[:6] != magic:
        raise bad(f"magic is {data[:6]!r}, expected {magic!r}")
    version = data[6]
    if version not in READ_VERSIONS:
        raise bad(f"unsupported format version {version}")
    game_len = data[7]
    if game_len not in GAME_ID_SIZES:
        raise bad(f"game id length {game_len} is not 16 or 32")
    end = 8 + game_len
    if version >= 2:                     # the program line: one length byte, then UTF-8
        if len(data) < end + 1:
            raise bad("header cut short")
        end += 1 + data[end]
    end += 4
    if len(data) < end:
        raise bad("header cut short")
    if _crc(data[:end - 4]) != data[end - 4:end]:
        raise bad("header CRC mismatch")
    program = None
    if version >= 2:
        try:
            program = data[8 + game_len + 1:end - 4].decode("utf-8")
            check_program(program)
        except ValueError as exc:       # UnicodeDecodeError is a ValueError
            raise bad(f"program line is not 1 to {MAX_PROGRAM_BYTES} bytes of printable UTF-8: {exc}") from None
    return _Header(data[8:8 + game_len], program, version, end)


def _scan(data: bytes, magic: bytes, path: str) -> LogScan:
    header = _parse_header(data, magic, path)
    pos = header.size
    scan = LogScan(game=header.game, program=header.program, format_version=header.version,
                   header_size=pos, valid_length=pos)
    while pos < len(data):
        index = len(scan.records)
        left = len(data) - pos
        if left < 8:
            scan.problem = TornRecord(f"only {left} bytes of a record header", path=path,
                                      offset=pos, record_index=index)
            break
        length_bytes = data[pos:pos + 4]
        (length,) = _U32.unpack(length_bytes)
        if _crc(length_bytes) != data[pos + 4:pos + 8] or not 1 <= length <= MAX_RECORD_SIZE:
            scan.problem = TrailingGarbage(f"{left} bytes that do not start a valid record header",
                                           path=path, offset=pos, record_index=index)
            break
        end = pos + 8 + length + 4
        if end > len(data):
            scan.problem = TornRecord(f"record of {length} bytes cut short ({left} of "
                                      f"{length + RECORD_OVERHEAD} bytes present)",
                                      path=path, offset=pos, record_index=index)
            break
        payload = data[pos + 8:end - 4]
        if _crc(payload) != data[end - 4:end]:
            scan.problem = CorruptRecord("payload CRC mismatch", path=path, offset=pos, record_index=index)
            break
        scan.records.append(payload)
        scan.offsets.append(pos)
        pos = end
        scan.valid_length = pos
    return scan


def scan_log(path: str | os.PathLike) -> LogScan:
    """Lenient read for reporting (`asv verify`): never raises for damage after the
    header; the first problem is in `.problem`. Raises BadHeader if the header is bad."""
    path = Path(path)
    return _scan(path.read_bytes(), LOG_MAGIC, str(path))


def read_log(path: str | os.PathLike) -> list[bytes]:
    """Strict read: the wire bytes of every record, or the first problem raised as a
    typed LogError (TornRecord, TrailingGarbage, CorruptRecord, BadHeader)."""
    scan = scan_log(path)
    if scan.problem is not None:
        raise scan.problem
    return scan.records


def load_chain(path: str | os.PathLike, *, expected_author: AuthorRule | None = None) -> Chain:
    """Strict read plus full verification: every record parsed, signature-checked and
    appended to a Chain for the header's game id. Raises LogError or EventError."""
    scan = scan_log(path)
    if scan.problem is not None:
        raise scan.problem
    chain = Chain(scan.game, expected_author=expected_author)
    for wire in scan.records:
        chain.append(parse_event(wire, expected_game=scan.game))
    return chain


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        _fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class _RecordFile:
    """Append-only framed file with torn-tail recovery; shared by logs and secrets."""

    magic: bytes = LOG_MAGIC
    mode: int = 0o644
    private: bool = False

    def __init__(self, path: str | os.PathLike, game: bytes | None = None, *, program: str | None = None) -> None:
        """`program`: the line a new file's header names (SPEC §23.2), by default this
        program's (`log_program_line()`); an existing file keeps the header it has."""
        self.path = Path(path)
        self.dropped_bytes = 0
        self._unsynced = False   # records written since the last fsync (append(sync=False))
        if not self.path.exists():
            if game is None:
                raise LogError("file does not exist and no game id was given to create it", path=str(self.path))
            self._create(bytes(game), log_program_line() if program is None else program)
        if self.private:
            _check_private(self.path)
        self._fh = open(self.path, "r+b", buffering=0)   # each write a write(2), no buffer to flush
        try:
            scan = _scan(self._fh.read(), self.magic, str(self.path))
            if game is not None and scan.game != bytes(game):
                raise BadHeader(f"file is for game {scan.game.hex()}, not {bytes(game).hex()}",
                                path=str(self.path), offset=8)
            if isinstance(scan.problem, TornRecord):
                # SPEC §23.4: an interrupted append; drop it, keep every complete record
                self._fh.seek(0, os.SEEK_END)
                self.dropped_bytes = self._fh.tell() - scan.valid_length
                self._fh.truncate(scan.valid_length)
                _fsync(self._fh.fileno())
            elif scan.problem is not None:
                raise scan.problem  # damage is never repaired silently
        except BaseException:
            self._fh.close()
            raise
        self.game = scan.game
        self.program = scan.program
        self._header_size = scan.header_size
        self.count = len(scan.records)
        self._records = scan.records
        self._fh.seek(scan.valid_length)

    def _create(self, game: bytes, program: str) -> None:
        if len(game) not in GAME_ID_SIZES:
            raise ValueError("game id must be 16 or 32 bytes")
        header = _header(self.magic, game, program)   # refuses a bad program line before any file is made
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, self.mode)
        try:
            os.fchmod(fd, self.mode)
            os.write(fd, header)
            _fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, self.path)  # a file either has its whole header or does not exist
        _fsync_dir(self.path)

    def _append_payload(self, payload: bytes, *, sync: bool = True) -> None:
        record = _record(payload)
        done = self._fh.write(record)     # one write per record: a crash leaves a prefix of it
        while done < len(record):         # (a regular file writes it whole but for a full disk)
            done += self._fh.write(record[done:])
        # in the kernel now: it survives the program dying (an unbuffered file, with no
        # flush and so no lseek after each record, as a buffered one made: SPEC §28.13)
        if sync:
            _fsync(self._fh.fileno())     # on the disk: it survives a power cut
        self._unsynced = not sync
        self._records.append(payload)
        self.count += 1

    def sync(self) -> None:
        """fsync the records appended with ``sync=False`` since the last fsync, if any."""
        if self._unsynced:
            _fsync(self._fh.fileno())
            self._unsynced = False

    @property
    def records(self) -> list[bytes]:
        """Payloads of every record in the file, oldest first (a copy)."""
        return list(self._records)

    def close(self) -> None:
        if not self._fh.closed:
            self.sync()
        self._fh.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class LogWriter(_RecordFile):
    """Append events to an `.asvlog`. Opening an existing file checks its header (and
    game id, if given), truncates a torn final record (`dropped_bytes` says how many bytes
    went) and refuses any other damage. Every append is fsynced before returning."""

    def truncate(self, count: int) -> None:
        """Keep only the first `count` records (fsynced). Used only when a co-signed abort
        proves that this peer's own later events reached nobody (SPEC §29.6)."""
        if not 0 <= count <= self.count:
            raise ValueError(f"cannot keep {count} of {self.count} records")
        size = self._header_size + sum(RECORD_OVERHEAD + len(r) for r in self._records[:count])
        self._fh.truncate(size)
        self._fh.seek(size)
        _fsync(self._fh.fileno())
        del self._records[count:]
        self.count = count

    def append(self, wire: bytes, *, sync: bool = True) -> None:
        """Append one event's exact wire bytes. The writer frames bytes; verifying them
        against the chain is the caller's job (Chain.append before LogWriter.append).

        ``sync=False`` (another peer's event, SPEC §23.4) leaves the fsync to the next
        synced append or to close(): one fsync of the file makes every earlier record
        durable, so a peer's own event, fsynced before it is sent, carries all before it."""
        self._append_payload(bytes(wire), sync=sync)


def secrets_path(log_path: str | os.PathLike) -> Path:
    """The private companion of a log: the log path + ".secrets"."""
    return Path(str(log_path) + ".secrets")


def read_secrets(log_path: str | os.PathLike) -> dict:
    """The entries of the secrets file beside LOG folded into one map, as `merged()` does,
    read without changing the file: a torn last entry is left out, not cut off."""
    path = secrets_path(log_path)
    scan = _scan(path.read_bytes(), SECRETS_MAGIC, str(path))
    if scan.problem is not None and not isinstance(scan.problem, TornRecord):
        raise scan.problem
    result: dict = {}
    for raw in scan.records:
        result.update(codec.decode(raw, max_size=MAX_RECORD_SIZE))
    return result


def _check_private(path: Path) -> None:
    mode = stat.S_IMODE(os.stat(path).st_mode)
    if os.name == "posix" and mode & 0o077:
        raise UnsafePermissions(f"private file is accessible by group/others (mode {mode:04o}); "
                                f"run: chmod 600 {path}", path=str(path))


class SecretsFile(_RecordFile):
    """A peer's own secrets for one game (SPEC §23.5): same framing as a log, magic
    b"ASVSEC", mode 0600, each record one codec map. Never part of the log; opened at game
    end (or kept) by its owner."""

    magic = SECRETS_MAGIC
    mode = 0o600
    private = True

    def __init__(self, log_path: str | os.PathLike, game: bytes | None = None, *, program: str | None = None) -> None:
        super().__init__(secrets_path(log_path), game, program=program)

    def append(self, entry: dict) -> None:
        if not isinstance(entry, dict):
            raise CodecError("a secrets entry must be a map")
        self._append_payload(codec.encode(entry))

    def entries(self) -> list[dict]:
        """Every entry, oldest first."""
        return [codec.decode(raw, max_size=MAX_RECORD_SIZE) for raw in self._records]

    def merged(self) -> dict:
        """All entries folded into one map; a later entry's key replaces an earlier one."""
        result: dict = {}
        for entry in self.entries():
            result.update(entry)
        return result
