"""Rejoining a game from this peer's own log and secrets (SPEC §29.7)."""
from __future__ import annotations

from pathlib import Path

from protocol.crypto import Identity
from protocol.log import LogWriter, SecretsFile, parse_event, secrets_path
from protocol.node._options import ResumeError
from protocol.session import Agent, EventKind, GameRules, SessionPeer

__all__ = ["restore_peer"]


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
    peer = SessionPeer(identity, rules, log.game, list(first.body["roster"]), dict(first.body["config"]),
                       agent=agent)
    peer.adopt_secrets(kept)  # the game's secrets are the ones kept on disk
    for wire in records:
        peer.receive(wire)
    peer.log, peer.secret_store = log, secrets
    return peer
