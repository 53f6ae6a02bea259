"""A registered game played through the lockstep session writes logs that verify (SPEC
§35.2, §26.10): every seat a peer with its own identity, log and secrets, driving the kit's
`session_rules()` with the kit's random bot; each peer's log, read back alone, is a valid
finished game at the same head, with the scores the peers saw."""
from __future__ import annotations

import os

import pytest

from protocol.crypto import Identity
from protocol.log import LogWriter, SecretsFile
from protocol.session import SessionPeer, run_local, verify_log
from tests.conformance.cases import KITS, SEED


def agent_of(kit, seed: str):
    bot = kit.bot("random", seed)

    def agent(state, view) -> str:
        return bot.choose(state, view).text()
    agent.thinks = False
    return agent


def players_for(kit) -> int:
    return max(kit.min_players, 2)      # several peers, so events really cross between them


@pytest.mark.parametrize("kit", KITS, ids=lambda k: k.key)
def test_a_game_through_the_session_writes_logs_that_verify(kit, tmp_path):
    rules = kit.session_rules()
    assert rules.name == kit.rules_name
    players, game = players_for(kit), os.urandom(16)
    identities = [Identity.generate(f"{kit.key}-{i}") for i in range(players)]
    roster = [i.public_key_bytes for i in identities]
    peers, files = [], []
    for n, identity in enumerate(identities):
        path = tmp_path / f"peer{n}.asvlog"
        log, secrets = LogWriter(path, game), SecretsFile(path, game)
        files += [log, secrets]
        peers.append(SessionPeer(identity, rules, game, roster, {}, log=log, secrets=secrets,
                                 agent=agent_of(kit, f"{SEED}/{n}")))
    try:
        events = run_local(peers)
    finally:
        for f in files:
            f.close()
    assert all(p.finished for p in peers) and len({p.chain.head for p in peers}) == 1
    scores = peers[0].result()["scores"]
    assert len(scores) == players
    for n in range(players):
        report, _ = verify_log(tmp_path / f"peer{n}.asvlog", kit.session_rules())
        assert report.valid, report.reason
        assert report.finished and report.events == events
        assert report.head == peers[0].chain.head.hex() and report.scores == scores
    # and the verifier is not one that accepts anything: one byte changed, the log is invalid
    data = bytearray((tmp_path / "peer0.asvlog").read_bytes())
    data[len(data) * 2 // 3] ^= 0x20
    (tmp_path / "bad.asvlog").write_bytes(bytes(data))
    assert not verify_log(tmp_path / "bad.asvlog", kit.session_rules())[0].valid
