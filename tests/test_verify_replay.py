"""The verifier's replay keeps an action's undo copy only where a takeback may follow
(SPEC §35.7): on a log without takebacks it copies no state (at most for the last record),
and its verdict and final state hash are those of a replay that copies before every action."""
from __future__ import annotations

from cli.games import game_of_log
from cli.main import main
from protocol.session import verify as verify_module
from protocol.session import verify_log


class Counting:
    """The game's rules, counting the undo copies the session asks for."""

    def __init__(self, rules) -> None:
        self._rules, self.copies = rules, 0

    def __getattr__(self, name):
        return getattr(self._rules, name)

    def copy_state(self, state):
        self.copies += 1
        return self._rules.copy_state(state)


def test_no_undo_copy_where_no_takeback_follows_and_the_same_verdict(tmp_path, monkeypatch):
    assert main(["selfplay", "--players", "2", "--games", "1", "--seed", "3", "--log-dir", str(tmp_path)]) == 0
    log = str(sorted(tmp_path.glob("*.asvlog"))[0])
    lean = Counting(game_of_log(log).session_rules())
    report, session = verify_log(log, lean)
    assert report.valid and report.finished and lean.copies <= 1
    monkeypatch.setattr(verify_module, "_TAKEBACK_TEXT", b"")    # "may be a takeback" before every record
    full = Counting(game_of_log(log).session_rules())
    again, replayed = verify_log(log, full)
    actions = sum(1 for e in replayed.chain.events if e.kind == "action")
    assert full.copies == actions > 100
    assert again.to_json() == report.to_json() and replayed.state_hash() == session.state_hash()
