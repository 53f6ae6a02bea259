"""`asv replay LOG --to SEQ` shows the board at that height (SPEC §27.8)."""
from __future__ import annotations

from cli.main import main


def test_replay_shows_the_board_and_scores_at_a_height(tmp_path, capsys):
    assert main(["selfplay", "--players", "2", "--seed", "3", "--log-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    log = sorted(tmp_path.glob("*peer0.asvlog"))[0]
    assert main(["replay", str(log), "--to", "400"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("after seq 400")
    assert "A    B    C" in out and " 4● " in out       # grid labels and blue's home on D-4
    assert "score" in out and "ship s1" in out
