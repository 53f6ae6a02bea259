"""What `asv join --resume LOG` checks before it replays anything, so a wrong path or the
wrong key is one line saying what to type instead (SPEC §30), not an OSError's text or
the session's "not in the roster"."""
from __future__ import annotations

from pathlib import Path

from cli.errors import UserError
from protocol.crypto import fingerprint
from protocol.log import parse_event, read_log
from protocol.node import recorded_agent

__all__ = ["check_resume_log", "check_resume_seat", "recorded_bot", "resumed_bot", "take_recorded_bot"]

EXAMPLE = "asv join --resume asv-logs/<game>-<your fingerprint>.asvlog"


def check_resume_log(log: str) -> None:
    """Raise UserError unless LOG is a file."""
    path = Path(log)
    if path.is_dir():
        logs = sorted(p.name for p in path.glob("*.asvlog"))
        found = f" (it holds {', '.join(logs[:3])}{' ...' if len(logs) > 3 else ''})" if logs else ""
        raise UserError(f"asv join: {log} is a folder{found}; --resume takes your own log file in it: {EXAMPLE}")
    if not path.exists():
        raise UserError(f"asv join: there is no file {log}; --resume takes the log this seat wrote: {EXAMPLE}")


def check_resume_seat(log: str, key: bytes, which: str) -> None:
    """Raise UserError when the key is none of the game's seats (another player's log, or
    the wrong key); a log that does not read is left to the resume's own error."""
    try:
        first = parse_event(read_log(log)[0])
        roster = list(first.body["roster"])
    except Exception:   # noqa: BLE001 - any unreadable log is reported by restore_peer itself
        return
    if key not in roster:
        seats = ", ".join(fingerprint(k) for k in roster)
        raise UserError(f"asv join: your key {fingerprint(key)} ({which}) is not a seat of the game in {log} "
                         f"(its seats: {seats}); resume with the key you played it with: --key FILE, "
                         "or resume your own log")


def recorded_bot(log: str) -> dict | None:
    """The bot that played the seat of LOG, {"bot": kind, "seed": tag}, as its secrets file
    records it (SPEC §23.4), or None: a human seat, or a file that does not read (which the
    resume itself then reports)."""
    try:
        record = recorded_agent(log)
    except Exception:   # noqa: BLE001 - an unreadable secrets file is reported by restore_peer itself
        return None
    if record is None or not isinstance(record.get("bot"), str) or not isinstance(record.get("seed"), str):
        return None
    return record


def take_recorded_bot(args) -> None:
    """`asv join --resume LOG` with no --bot, of a seat a bot played: the seat goes on with
    that bot (set as args.bot, before the command picks a REPL or a bot seat), and the line
    that says so is kept for after the replay (args.bot_line)."""
    args.bot_line = None
    if args.resume and args.bot is None:
        record = recorded_bot(args.resume)
        if record is not None:
            args.bot = record["bot"]
            args.bot_line = f"the seat is played by the {record['bot']} bot, as before"


def resumed_bot(args, tag: str) -> tuple[str | None, str]:
    """The bot kind and seed tag that play a resumed seat: a seat a bot played goes on with
    that bot and seed (its last actions may be on no disk, and only it makes them again
    alike, SPEC §23.4); another --bot for it is a UserError. Any other seat: --bot as given."""
    record = recorded_bot(args.resume)
    if record is None:
        return args.bot, tag
    if args.bot is not None and args.bot != record["bot"]:
        raise UserError(f"asv join: this seat was played by the {record['bot']} bot, and goes on with it: its "
                         "last actions may be on no disk yet, and only that bot makes them again alike; "
                         f"drop --bot {args.bot} (or give --bot {record['bot']})")
    return record["bot"], record["seed"]
