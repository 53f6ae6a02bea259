"""benchmarks/search_strength.py's ledger: a row counts for the bot digest that played it, or
for a later one listed in SAME_CHOICES at that player count only (SPEC §12.3)."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "search_strength.py"
spec = importlib.util.spec_from_file_location("search_strength", SCRIPT)
strength = importlib.util.module_from_spec(spec)
spec.loader.exec_module(strength)


def test_rows_carry_over_only_at_the_listed_player_count():
    (later, players), earlier = next(iter(strength.SAME_CHOICES.items()))
    assert strength.same_bot({"bot": earlier, "players": players}) == later
    assert strength.same_bot({"bot": earlier, "players": players + 2}) == earlier
    assert strength.same_bot({"bot": "0123456789ab", "players": players}) == "0123456789ab"


def test_the_report_counts_carried_rows_with_the_later_bot(capsys):
    (later, players), earlier = next(iter(strength.SAME_CHOICES.items()))
    row = {"budget": "1s-cpu", "opponent": "greedy", "players": players, "share": 1.0,
           "margin": 5, "cpu_s": 1.0, "commit": "abc1234"}
    strength.report([dict(row, bot=earlier, seed=1), dict(row, bot=later, seed=2, share=0.0)])
    out = capsys.readouterr().out
    assert "1/2 wins" in out and f"bot {later}" in out and earlier in out


def test_processes_sharing_a_ledger_never_claim_the_same_game(tmp_path):
    ledger = tmp_path / "strength.jsonl"
    game, bot = ("1s-cpu", "greedy", 2, 1000), "0123456789ab"
    claims = tmp_path / "strength.jsonl.claims"
    # another live process (the test runner's parent) holds the game: not ours to play
    claims.write_text(json.dumps({"game": list(game), "bot": bot, "pid": os.getppid()}) + "\n")
    assert not strength.claim(ledger, game, bot)
    # the same game for another bot, or another seed, is free
    assert strength.claim(ledger, game, "ba9876543210")
    assert strength.claim(ledger, game[:3] + (1001,), bot)


def test_a_dead_claimers_game_is_taken_over_unless_the_ledger_has_it(tmp_path):
    ledger = tmp_path / "strength.jsonl"
    game, bot = ("1s-cpu", "greedy", 2, 1000), "0123456789ab"
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    claims = tmp_path / "strength.jsonl.claims"
    claims.write_text(json.dumps({"game": list(game), "bot": bot, "pid": gone.pid}) + "\n{\"cut")
    assert strength.claim(ledger, game, bot)          # killed mid-game: taken over
    other = ("1s-cpu", "greedy", 2, 1002)
    ledger.write_text(json.dumps({"budget": "1s-cpu", "opponent": "greedy", "players": 2,
                                  "seed": 1002, "bot": bot, "share": 1.0}) + "\n")
    assert not strength.claim(ledger, other, bot)     # already played: never again
