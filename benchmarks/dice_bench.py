"""Cost of a fair-dice roll against its crypto floor, and what a withholder gains (SPEC §33.9-§33.10).

Run: .venv/bin/python benchmarks/dice_bench.py   (about half a minute)

Every cost is the total work of all n peers of a table, done in one process, with the
unit costs (one SHA-256 of each input size the dice hash, one Ed25519 signature, one
verification) measured in the same run, just before and just after the rolls (the mean of
the two), so a change in the machine's speed moves a step and its floor together.

    chain      making one seat's chain of L links: L + 1 hashes
    ledger     a roll as the ledgers see it, signatures aside: every peer checks n links and
               hashes the digest and one face block, n * (n + 2) hashes
    signed     a roll as the session would run it: every seat signs its `dice-open` event
               (sign_event, which also parses and verifies the event it made), every other
               peer parses and verifies it, and every peer's ledger takes it; floor:
               n * sign + n^2 * verify + n * (n + 2) hashes

It then plays the withholder of SPEC §33.9: the last opener sees the roll and, when it
misses the face it wants, forfeits so the roll is drawn again from links it has not seen;
the measured share of wanted faces is printed beside 1 - (1 - p)^2.
"""
from __future__ import annotations

import hashlib
import os
import statistics
import sys
import time
from typing import Callable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from protocol.crypto import Identity, verify  # noqa: E402
from protocol.crypto import dice as d  # noqa: E402
from protocol.crypto.dice.chain import LINK_TAG  # noqa: E402
from protocol.crypto.dice.roll import FACE_TAG, ROLL_TAG  # noqa: E402
from protocol.crypto.group import lp  # noqa: E402
from protocol.log import ZERO_HASH, parse_event, sign_event  # noqa: E402

GAME = bytes(range(16))
ROLLS = 300
CHAIN = 1024


def per_call_us(fn: Callable[[], object], min_seconds: float = 0.2) -> float:
    """µs per call: the median of seven batches (the machine may be shared)."""
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        if time.perf_counter() - t0 > min_seconds / 7:
            break
        n *= 2
    batches = []
    for _ in range(7):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        batches.append((time.perf_counter() - t0) / n * 1e6)
    return statistics.median(batches)


def measure_units(n: int) -> dict[str, float]:
    ident = Identity.from_seed(bytes(32))
    msg = os.urandom(120)
    sig = ident.sign(msg)
    pk = ident.public_key_bytes
    step_in = lp(LINK_TAG, GAME, bytes(4), bytes(4), bytes(4), bytes(32))
    roll_in = lp(ROLL_TAG, GAME, bytes(8), bytes(4), *[bytes(44)] * n)
    face_in = lp(FACE_TAG, bytes(32), bytes(4))
    return {
        "link hash": per_call_us(lambda: hashlib.sha256(step_in).digest()),
        "roll hash": per_call_us(lambda: hashlib.sha256(roll_in).digest()),
        "face hash": per_call_us(lambda: hashlib.sha256(face_in).digest()),
        "sign": per_call_us(lambda: ident.sign(msg)),
        "verify": per_call_us(lambda: verify(pk, msg, sig)),
    }


def table(n: int, length: int) -> tuple[list[d.DiceLedger], list[d.SecretChain]]:
    chains = [d.SecretChain(bytes([s + 1]) * 32, length, d.ChainContext(GAME, s, 0)) for s in range(n)]
    ledgers = [d.DiceLedger(GAME, n) for _ in range(n)]
    for ledger in ledgers:
        for s, c in enumerate(chains):
            ledger.add_chain(s, c.commitment())
    return ledgers, chains


def time_ledger_rolls(n: int) -> float:
    ledgers, chains = table(n, ROLLS)
    order = [d.opening_order(range(n), k % n) for k in range(ROLLS)]
    t0 = time.perf_counter()
    for k in range(ROLLS):
        for s in order[k]:
            link = chains[s].link(k + 1)
            for ledger in ledgers:
                ledger.open(s, k, link)
    dt = (time.perf_counter() - t0) / ROLLS * 1e6
    assert len({ledger.rolls[-1].digest for ledger in ledgers}) == 1
    return dt


def time_signed_rolls(n: int) -> float:
    ledgers, chains = table(n, ROLLS)
    ids = [Identity.from_seed(bytes([s + 1]) * 32) for s in range(n)]
    seq = 0
    t0 = time.perf_counter()
    for k in range(ROLLS):
        for s in d.opening_order(range(n), k % n):
            ev = sign_event(ids[s], GAME, seq, ZERO_HASH, d.OPEN_KIND, d.open_body(k, chains[s].link(k + 1)))
            seq += 1
            for peer, ledger in enumerate(ledgers):
                got = ev if peer == s else parse_event(ev.wire, expected_game=GAME)
                roll, link = d.parse_open_body(s, got.body)
                ledger.open(s, roll, link)
    return (time.perf_counter() - t0) / ROLLS * 1e6


def time_chain(length: int) -> float:
    seed = bytes(32)
    ctx = d.ChainContext(GAME, 0, 0)
    return per_call_us(lambda: d.commit_chain(seed, length, ctx), min_seconds=0.3)


def withholding(trials: int, sides: int, wanted: int) -> tuple[float, float]:
    """(honest share, withholder's share) of rolls showing `wanted`, over `trials` tables
    of three where seat 2 opens last and forfeits whenever it sees another face."""
    honest = cheat = 0
    for t in range(trials):
        game = t.to_bytes(16, "big")
        chains = [d.SecretChain(hashlib.sha256(game + bytes([s])).digest(), 2, d.ChainContext(game, s, 0))
                  for s in range(3)]
        ledger = d.DiceLedger(game, 3)
        for s, c in enumerate(chains):
            ledger.add_chain(s, c.commitment())
        ledger.open(0, 0, chains[0].link(1))
        ledger.open(1, 0, chains[1].link(1))
        # seat 2 knows every link now: it computes the roll before deciding to open
        seen = d.roll(game, 0, [d.Opening(s, 0, 1, chains[s].link(1)) for s in range(3)], sides)
        honest += seen == wanted
        if seen == wanted:
            record = ledger.open(2, 0, chains[2].link(1))
        else:
            ledger.forfeit(2)
            ledger.open(0, 0, chains[0].link(2))
            record = ledger.open(1, 0, chains[1].link(2))
        assert record is not None
        cheat += record.faces(sides)[0] == wanted
    return honest / trials, cheat / trials


def main() -> None:
    print(f"fair dice (SPEC §33): {ROLLS} rolls a table size; all peers' work in one process\n")
    units0 = measure_units(4)
    chain_us = time_chain(CHAIN)
    results = {n: (time_ledger_rolls(n), time_signed_rolls(n)) for n in (2, 3, 4)}
    units1 = measure_units(4)
    u = {k: (units0[k] + units1[k]) / 2 for k in units0}
    print("unit costs (µs): " + ", ".join(f"{k} {v:.2f}" for k, v in u.items()))
    hash_floor = CHAIN * u["link hash"]
    print(f"\nchain of {CHAIN} links: {chain_us:9.0f} µs   floor {hash_floor:9.0f} µs "
          f"({CHAIN + 1} hashes)   x{chain_us / hash_floor:.2f}")
    print(f"\n{'peers':>5} {'step':>8} {'µs/roll':>9} {'floor':>9} {'ratio':>6}   floor made of")
    for n, (ledger_us, signed_us) in results.items():
        hashes = n * (n * u["link hash"] + u["roll hash"] + u["face hash"])
        sig = n * u["sign"] + n * n * u["verify"]
        print(f"{n:>5} {'ledger':>8} {ledger_us:9.1f} {hashes:9.1f} {ledger_us / hashes:6.2f}   "
              f"{n * (n + 2)} hashes")
        print(f"{n:>5} {'signed':>8} {signed_us:9.1f} {hashes + sig:9.1f} {signed_us / (hashes + sig):6.2f}   "
              f"{n} signs + {n * n} verifies + {n * (n + 2)} hashes")
    trials = 6000
    for sides, wanted in ((6, 6), (2, 2)):
        p = 1 / sides
        fair, withheld = withholding(trials, sides, wanted)
        print(f"\nwithholder wants {wanted} on a d{sides} ({trials} tables of 3, it opens last, forfeits "
              f"to redraw): honest {fair:.3f} (p = {p:.3f}), withholding {withheld:.3f} "
              f"(1 - (1 - p)^2 = {1 - (1 - p) ** 2:.3f}), each redraw costing it its seat")


if __name__ == "__main__":
    main()
