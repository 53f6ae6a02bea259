"""`.asvlog` files and `.secrets` companions (SPEC §23)."""
from __future__ import annotations

import os
import struct
import zlib

import pytest

from protocol.errors import EventError, LogError, ProtocolError
from protocol.log.events import ZERO_HASH, BrokenChain, WrongAuthor, WrongGame, sign_event
from protocol.crypto import Identity
from protocol.log.logfile import (
    _record, BadHeader, CorruptRecord, LogWriter, SecretsFile, TornRecord, TrailingGarbage,
    UnsafePermissions, load_chain, read_log, scan_log, secrets_path,
)

GAME = bytes(range(32))
OTHER_GAME = bytes(range(1, 33))
ALICE = Identity.from_seed(b"a" * 32)
BOB = Identity.from_seed(b"b" * 32)


def events(n, game=GAME):
    out, prev = [], ZERO_HASH
    for seq in range(n):
        ev = sign_event((ALICE, BOB)[seq % 2], game, seq, prev, "move", {"n": seq, "pad": b"x" * seq})
        out.append(ev)
        prev = ev.hash
    return out


PROGRAM = "p2p-asv 0.1.0 (lock 0123456789ab, Python 3.11.7)"


def write_log(path, evs, game=GAME, program=PROGRAM):
    with LogWriter(path, game, program=program) as w:
        for ev in evs:
            w.append(ev.wire)
    return path


def test_header_kat(tmp_path):
    """SPEC §23.2: magic, version 2, game id length, game id, program length, program line,
    CRC32 of the preceding bytes."""
    path = write_log(tmp_path / "g.asvlog", [])
    raw = path.read_bytes()
    named = PROGRAM.encode()
    head = b"ASVLOG\x02\x20" + GAME + bytes((len(named),)) + named
    assert raw == head + struct.pack(">I", zlib.crc32(head))
    assert len(raw) == 45 + len(named)
    scan = scan_log(path)
    assert (scan.program, scan.format_version, scan.header_size) == (PROGRAM, 2, len(raw))


def test_a_new_log_names_the_program_that_wrote_it(tmp_path):
    """SPEC §23.2, §30.1: by default the header names this program: its version and lock hash."""
    from protocol.log.program import lock_hash, log_program_line, project_version
    path = tmp_path / "g.asvlog"
    with LogWriter(path, GAME) as w:
        assert w.program == log_program_line()
    line = scan_log(path).program
    assert line.startswith(f"p2p-asv {project_version()} (lock {lock_hash()}, Python ")
    with LogWriter(path, GAME, program="another program") as w:   # an existing file keeps its header
        assert w.program == line


@pytest.mark.parametrize("program", ["", "x" * 256, "bell\x07", "line\nbreak", "c1\x85"])
def test_a_program_line_that_cannot_be_printed_or_does_not_fit_is_refused(tmp_path, program):
    with pytest.raises(ValueError):
        LogWriter(tmp_path / "g.asvlog", GAME, program=program)
    assert not (tmp_path / "g.asvlog").exists()


def v1_log(path, evs, game=GAME):
    """A log as format version 1 wrote it (SPEC §23.2): no program line."""
    head = b"ASVLOG\x01" + bytes((len(game),)) + game
    path.write_bytes(head + struct.pack(">I", zlib.crc32(head)) + b"".join(_record(ev.wire) for ev in evs))
    return path


def test_a_version_1_log_is_read_with_no_program_and_appended_to_as_version_1(tmp_path):
    """SPEC §23.2: version 1 headers are read (the records are the same); the writer keeps
    the header a file has, so a resumed version 1 log stays version 1."""
    evs = events(4)
    path = v1_log(tmp_path / "old.asvlog", evs[:3])
    scan = scan_log(path)
    assert (scan.program, scan.format_version, scan.header_size) == (None, 1, 28 + 16)
    assert load_chain(path).head == evs[2].hash
    with LogWriter(path, GAME) as w:
        assert w.program is None and w.count == 3
        w.append(evs[3].wire)
        w.truncate(2)                      # the header's size is the file's own
    assert read_log(path) == [e.wire for e in evs[:2]] and path.read_bytes()[6] == 1


def test_truncate_keeps_a_version_2_header_whole(tmp_path):
    evs = events(3)
    path = write_log(tmp_path / "g.asvlog", evs)
    with LogWriter(path, GAME) as w:
        w.truncate(1)
    assert read_log(path) == [evs[0].wire] and scan_log(path).program == PROGRAM


def test_record_layout(tmp_path):
    """SPEC §23.3: length, CRC32(length), wire bytes, CRC32(wire)."""
    ev = events(1)[0]
    path = write_log(tmp_path / "g.asvlog", [ev])
    raw = path.read_bytes()[scan_log(path).header_size:]
    length = struct.pack(">I", len(ev.wire))
    assert raw == length + struct.pack(">I", zlib.crc32(length)) + ev.wire + struct.pack(">I", zlib.crc32(ev.wire))


def test_round_trip_and_reopen_append(tmp_path):
    evs = events(5)
    path = write_log(tmp_path / "g.asvlog", evs[:3])
    with LogWriter(path, GAME) as w:
        assert w.dropped_bytes == 0 and w.count == 3 and w.game == GAME
        for ev in evs[3:]:
            w.append(ev.wire)
    assert read_log(path) == [ev.wire for ev in evs]
    chain = load_chain(path)
    assert chain.height == 5 and chain.head == evs[-1].hash
    with LogWriter(path) as w:  # game id read from the header
        assert w.game == GAME and w.records == [ev.wire for ev in evs]


@pytest.mark.parametrize("no_fsync, synced", [(None, True), ("0", True), ("1", False)])
def test_every_append_is_fsynced_unless_the_test_switch_says_not(tmp_path, monkeypatch, no_fsync, synced):
    """SPEC §23.4: an append fsyncs before it returns; ASV_NO_FSYNC=1 (set for the test
    suite, whose logs are thrown away) skips it and changes nothing else."""
    if no_fsync is None:
        monkeypatch.delenv("ASV_NO_FSYNC", raising=False)
    else:
        monkeypatch.setenv("ASV_NO_FSYNC", no_fsync)
    calls = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: calls.append(fd) or real(fd))
    evs = events(3)
    path = write_log(tmp_path / "g.asvlog", evs[:1])
    created = len(calls)
    with LogWriter(path, GAME) as w:
        for ev in evs[1:]:
            w.append(ev.wire)
    assert read_log(path) == [ev.wire for ev in evs]
    assert (created >= 3, len(calls) - created) == ((True, 2) if synced else (False, 0))


def test_writer_needs_game_to_create_and_matching_game_to_open(tmp_path):
    with pytest.raises(LogError, match="no game id"):
        LogWriter(tmp_path / "new.asvlog")
    path = write_log(tmp_path / "g.asvlog", events(1))
    with pytest.raises(BadHeader, match="for game"):
        LogWriter(path, OTHER_GAME)


@pytest.mark.parametrize("cut", [1, 4, 7, 8, 9, 30, -4, -1])
def test_torn_final_record_dropped_on_reopen(tmp_path, cut):
    """SPEC §23.4: an interrupted append is truncated away; earlier records survive."""
    evs = events(4)
    path = write_log(tmp_path / "g.asvlog", evs)
    full = path.read_bytes()
    last = scan_log(path).offsets[-1]
    keep = last + cut if cut > 0 else len(full) + cut
    path.write_bytes(full[:keep])
    with pytest.raises(TornRecord) as info:
        read_log(path)
    assert info.value.offset == last and info.value.record_index == 3
    scan = scan_log(path)
    assert scan.records == [e.wire for e in evs[:3]] and isinstance(scan.problem, TornRecord)
    with LogWriter(path, GAME) as w:
        assert w.dropped_bytes == keep - last and w.count == 3
        w.append(evs[3].wire)
    assert read_log(path) == [e.wire for e in evs]
    assert load_chain(path).height == 4


def test_trailing_garbage_reported_not_repaired(tmp_path):
    evs = events(3)
    path = write_log(tmp_path / "g.asvlog", evs)
    size = path.stat().st_size
    with open(path, "ab") as fh:
        fh.write(b"this is not a record at all")
    with pytest.raises(TrailingGarbage) as info:
        read_log(path)
    assert info.value.offset == size and info.value.record_index == 3
    assert f"offset {size}" in str(info.value)
    with pytest.raises(TrailingGarbage):
        LogWriter(path, GAME)  # damage is never silently cut off
    assert path.stat().st_size == size + 27
    assert scan_log(path).records == [e.wire for e in evs]


def test_corrupt_record_reported(tmp_path):
    evs = events(3)
    path = write_log(tmp_path / "g.asvlog", evs)
    scan = scan_log(path)
    raw = bytearray(path.read_bytes())
    raw[scan.offsets[1] + 20] ^= 0x40
    path.write_bytes(bytes(raw))
    with pytest.raises(CorruptRecord) as info:
        read_log(path)
    assert info.value.record_index == 1 and info.value.offset == scan.offsets[1]
    with pytest.raises(CorruptRecord):
        LogWriter(path)


def test_every_flipped_byte_of_a_log_is_detected(tmp_path):
    """SPEC §23.6: flip each byte of a whole log in turn; reading plus verifying fails."""
    evs = events(3)
    path = write_log(tmp_path / "g.asvlog", evs)
    good = path.read_bytes()
    bad_path = tmp_path / "bad.asvlog"
    for i in range(len(good)):
        raw = bytearray(good)
        raw[i] ^= 0xFF
        bad_path.write_bytes(bytes(raw))
        with pytest.raises(ProtocolError):
            load_chain(bad_path)


def _reframe(path, records, game=GAME):
    """Write a log by hand with valid CRCs: what a tamperer who recomputes them makes."""
    os.unlink(path) if path.exists() else None
    with LogWriter(path, game) as w:
        for wire in records:
            w.append(wire)


def test_tampering_with_recomputed_crcs_caught_by_signature_or_chain(tmp_path):
    evs = events(4)
    path = tmp_path / "t.asvlog"
    for index in range(4):
        for pos in range(0, len(evs[index].wire), 7):
            wire = bytearray(evs[index].wire)
            wire[pos] ^= 0x01
            records = [e.wire for e in evs]
            records[index] = bytes(wire)
            _reframe(path, records)
            with pytest.raises(EventError):
                load_chain(path)


def test_reordered_or_dropped_records_caught(tmp_path):
    evs = events(4)
    path = tmp_path / "t.asvlog"
    _reframe(path, [evs[0].wire, evs[2].wire, evs[1].wire, evs[3].wire])
    with pytest.raises(EventError):
        load_chain(path)
    _reframe(path, [evs[0].wire, evs[2].wire])
    with pytest.raises(EventError):
        load_chain(path)


def test_record_spliced_from_another_game_rejected(tmp_path):
    ours, theirs = events(3), events(3, game=OTHER_GAME)
    path = tmp_path / "t.asvlog"
    _reframe(path, [ours[0].wire, theirs[1].wire, ours[2].wire])
    with pytest.raises(WrongGame) as info:
        load_chain(path)
    assert info.value.seq == 1


def test_load_chain_applies_author_rule(tmp_path):
    path = write_log(tmp_path / "g.asvlog", events(2))
    load_chain(path, expected_author=lambda seq: (ALICE, BOB)[seq % 2].public_key_bytes)
    with pytest.raises(WrongAuthor):
        load_chain(path, expected_author=lambda seq: ALICE.public_key_bytes)


def test_bad_headers(tmp_path):
    path = write_log(tmp_path / "g.asvlog", [])
    good = path.read_bytes()
    named = 8 + len(GAME)                  # the program line's length byte
    bad_utf8 = good[:named + 1] + b"\xff" + good[named + 2:-4]
    bad_utf8 += struct.pack(">I", zlib.crc32(bad_utf8))
    for raw, why in [(b"", "shorter"), (b"ASVLOX" + good[6:], "magic"), (good[:6] + b"\x03" + good[7:], "version"),
                     (good[:7] + b"\x11" + good[8:], "length"), (good[:20], "cut short"), (good[:named], "cut short"),
                     (good[:named] + b"\xff" + good[named + 1:], "cut short"),
                     (good[:10] + b"\x00" + good[11:], "CRC"), (bad_utf8, "UTF-8")]:
        path.write_bytes(raw)
        with pytest.raises(BadHeader, match=why):
            read_log(path)


def test_append_rejects_empty_or_oversized(tmp_path):
    with LogWriter(tmp_path / "g.asvlog", GAME) as w:
        with pytest.raises(ValueError):
            w.append(b"")


def test_chain_order_errors_carry_seq(tmp_path):
    evs = events(3)
    path = tmp_path / "t.asvlog"
    forked = sign_event(BOB, GAME, 1, b"\x05" * 32, "move", {})
    _reframe(path, [evs[0].wire, forked.wire])
    with pytest.raises(BrokenChain) as info:
        load_chain(path)
    assert info.value.seq == 1


# ------------------------------------------------------------------------------- secrets

def test_secrets_file(tmp_path):
    """SPEC §23.5: mode 0600, codec maps appended over time, never in the log."""
    log = tmp_path / "g.asvlog"
    write_log(log, events(1))
    with SecretsFile(log, GAME) as s:
        s.append({"share": b"\x01" * 32, "round": 1})
        s.append({"round": 2, "nonce": b"\x02" * 16})
    path = secrets_path(log)
    assert path.name == "g.asvlog.secrets"
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert path.read_bytes()[:6] == b"ASVSEC"
    with SecretsFile(log) as s:
        assert s.entries() == [{"share": b"\x01" * 32, "round": 1}, {"round": 2, "nonce": b"\x02" * 16}]
        assert s.merged() == {"share": b"\x01" * 32, "round": 2, "nonce": b"\x02" * 16}
    assert b"\x01" * 32 not in log.read_bytes()
    with pytest.raises(BadHeader, match="magic"):
        read_log(path)  # a secrets file is not a log


def test_secrets_file_permissions_and_torn_tail(tmp_path):
    log = tmp_path / "g.asvlog"
    with SecretsFile(log, GAME) as s:
        s.append({"k": 1})
        s.append({"k": 2})
    path = secrets_path(log)
    raw = path.read_bytes()
    path.write_bytes(raw[:-3])
    with SecretsFile(log, GAME) as s:
        assert s.dropped_bytes > 0 and s.entries() == [{"k": 1}]
    os.chmod(path, 0o644)
    with pytest.raises(UnsafePermissions, match="chmod 600"):
        SecretsFile(log)
