"""The same seed gives the same game under any PYTHONHASHSEED (SPEC §35.2, design brief
"Determinism"): every game, player count and variant is played by random bots in two fresh
interpreters with different hash seeds, and their state hashes, every 25 events and at the
end, must agree with each other and with this process."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conformance.cases import SEED, case_id, variants
from tests.conformance.play import play
from tests.import_helpers import ROOT

EVERY = 25
SCRIPT = f"""
import json
from tests.conformance.cases import SEED, case_id, variants
from tests.conformance.play import play
out = {{}}
for kit, players, name, config in variants():
    game, tally = play(kit, players, config, "random", SEED, first=0, every=10**9, hash_every={EVERY})
    out[case_id(kit, players, name)] = tally.hashes
print(json.dumps(out))
"""


def trails_under(hash_seed: str) -> dict[str, list[str]]:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_state_hashes_do_not_depend_on_the_hash_seed():
    first, second = trails_under("1"), trails_under("2024")
    cases = [case_id(kit, players, name) for kit, players, name, _ in variants()]
    assert sorted(first) == sorted(cases)
    for case in cases:
        assert len(first[case]) > 1, case
        assert first[case] == second[case], f"{case}: the state hashes differ under two PYTHONHASHSEEDs"
    kit, players, name, config = variants()[0]     # and this interpreter agrees
    _, tally = play(kit, players, config, "random", SEED, first=0, every=10**9, hash_every=EVERY)
    assert tally.hashes == first[case_id(kit, players, name)]
