"""The signed event log (SPEC §22-§23): events, chains, equivocation proofs, and the
append-only log and secrets files. Depends on crypto (identities) and protocol's base."""
from protocol.log.events import (
    EVENT_DOMAIN, MAX_EVENT_SIZE, ZERO_HASH, Chain, EquivocationProof, SignedEvent, event_hash,
    parse_event, parse_events, sign_event,
)
from protocol.log.logfile import (
    LogScan, LogWriter, SecretsFile, load_chain, read_log, read_secrets, scan_log, secrets_path,
)

__all__ = [
    "SignedEvent", "sign_event", "parse_event", "parse_events", "event_hash", "Chain", "EquivocationProof",
    "EVENT_DOMAIN", "ZERO_HASH", "MAX_EVENT_SIZE",
    "LogScan", "LogWriter", "SecretsFile", "scan_log", "read_log", "load_chain", "secrets_path", "read_secrets",
]
