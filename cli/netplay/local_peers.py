"""A whole game among bot peers in one process with real identities, signed events and
one .asvlog (+ .secrets) per peer (SPEC §27.5): `asv selfplay --log-dir`."""
from __future__ import annotations

import os
import time
from pathlib import Path

from cli.games import DEFAULT_KEY, GameKit, kit_for
from protocol.crypto import Identity
from protocol.log import LogWriter, SecretsFile
from protocol.session import SessionPeer, run_local


def play_logged_game(players: int, seed: int, kinds: list[str], log_dir: str | os.PathLike,
                     config: dict | None = None, which: GameKit | None = None,
                     think: float | None = None, iterations: int | None = None) -> dict:
    """Play one game of `which`; every peer writes its own log. Returns a JSON-able summary.
    A search bot thinks `iterations` a decision, or `think` seconds (SPEC §12.2, §12.3)."""
    log_dir = Path(log_dir)
    log_dir.mkdir(parents=True, exist_ok=True)
    which = which or kit_for(DEFAULT_KEY)
    rules = which.session_rules()
    game = os.urandom(16)
    identities = [Identity.generate(f"bot{i}-{kind}") for i, kind in enumerate(kinds)]
    roster = [i.public_key_bytes for i in identities]
    peers, files = [], []
    for lobby, identity in enumerate(identities):
        path = log_dir / f"{game.hex()[:12]}-peer{lobby}.asvlog"
        log, secrets = LogWriter(path, game), SecretsFile(path, game)
        files += [log, secrets]
        # the bot of lobby peer i plays whatever seat the joint seat order gives it
        peers.append(SessionPeer(identity, rules, game, roster, dict(config or {}), log=log, secrets=secrets,
                                 agent=which.agent(kinds[lobby], f"{seed}/{lobby}", think=think,
                                                      iterations=iterations)))
    start = time.perf_counter()
    try:
        events = run_local(peers)
    finally:
        for f in files:
            f.close()
    seconds = time.perf_counter() - start
    heads = {p.chain.head.hex() for p in peers}
    result = peers[0].result()
    return {"seed": seed, "players": players, "events": events, "seconds": round(seconds, 3),
            "game_id": game.hex(), "head": peers[0].chain.head.hex(), "heads_agree": len(heads) == 1,
            "finished": all(p.finished for p in peers),
            "scores": result["scores"], "winners": result["winners"], "title": result.get("title"),
            "seats": [roster.index(k) for k in peers[0].seat_keys],
            "bots": kinds, "logs": [str(f.path) for f in files[::2]]}
