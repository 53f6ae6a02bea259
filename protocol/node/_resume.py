"""Rejoining a game from this peer's own log and secrets (SPEC §29.7)."""
from __future__ import annotations

from pathlib import Path

from protocol.crypto import Identity
from protocol.log import LogWriter, SecretsFile, parse_event, read_secrets, secrets_path
from protocol.node._options import ResumeError
from protocol.session import Agent, EventKind, GameRules, SessionPeer, agent_record

__all__ = ["restore_peer", "recorded_agent"]


def restore_peer(identity: Identity, rules: GameRules, log_path: str | Path,
                 agent: Agent | None = None) -> SessionPeer:
    """Rebuild a peer from its own log and SecretsFile (SPEC §29.7): the secrets it drew
    (seat value, key share, shuffle witnesses) are put back first, then every logged event
    is replayed through the session's ordinary checks; the writers are attached after."""
    if not secrets_path(log_path).exists():
        raise ResumeError(f"{secrets_path(log_path)} is missing: this peer's key share and shuffle "
                          "witnesses are needed to go on")
    log = LogWriter(log_path)
    try:
        secrets = SecretsFile(log_path, log.game)
    except Exception:
        log.close()
        raise
    records, kept = log.records, secrets.merged()
    if not records:
        raise ResumeError(f"{log_path} holds no event yet: join the game afresh")
    first = parse_event(records[0], expected_game=log.game)
    if first.kind != EventKind.HELLO or "roster" not in first.body:
        raise ResumeError(f"{log_path} does not start with the game's first hello")
    if "seat_value" not in kept or "key" not in kept:
        raise ResumeError(f"{secrets.path} lacks the seat value or key share of this peer")
    recorded, given = kept.get("agent"), agent_record(agent)
    if recorded is not None and given != recorded:
        log.close()
        secrets.close()
        raise ResumeError(f"this seat was played by {_named(recorded)}: its last actions may not be on disk "
                          "yet, and only the same agent makes them again alike (SPEC §23.4); resume it with "
                          f"that agent rather than {_named(given)}")
    peer = SessionPeer(identity, rules, log.game, list(first.body["roster"]), dict(first.body["config"]),
                       agent=agent)
    peer.adopt_secrets(kept)  # the game's secrets are the ones kept on disk
    for wire in records:
        peer.receive(wire)
    peer.log, peer.secret_store = log, secrets
    if given is not None and recorded is None:   # a seat a bot takes over from here on
        secrets.append({"agent": given})
    return peer


def recorded_agent(log_path: str | Path) -> dict | None:
    """The record of the remade-alike agent (a bot) that played this peer's seat, as its
    secrets file keeps it (SPEC §23.4), or None (a human seat, or no such file)."""
    if not secrets_path(log_path).exists():
        return None
    record = read_secrets(log_path).get("agent")
    return record if isinstance(record, dict) else None


def _named(record: dict | None) -> str:
    if record is None:
        return "a human seat"
    return "the agent " + ", ".join(f"{k} {v!r}" for k, v in record.items())
