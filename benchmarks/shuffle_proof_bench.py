"""Cost of proving and checking one shuffle (SPEC §25.10) against the floor of the group
operations it does.

Run: .venv/bin/python benchmarks/shuffle_proof_bench.py   (under a minute)

For each deck size the prover and the verifier are first run once with counting
wrappers around the group operations, so the floor is what this code really does, not a
formula: floor = var·t_var + base·t_base (scalar multiplications only, the target's
measure); floor+add also counts point additions/subtractions (each decodes two points
and encodes one in libsodium). Two decks are measured: a general one (the input is an
earlier shuffle's output) and a fresh one (C1 all G, 30 labels repeated, as a game's
first shuffle), where equal bases are merged. Proof bytes per card are printed too.

Times are process CPU time (time.process_time), best of several runs, for the unit
operations and the steps alike: the machine is shared, and CPU time keeps the ratio
meaningful when other processes compete for the cores.
"""
from __future__ import annotations

import os
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from protocol.crypto import group as g  # noqa: E402
from protocol.poker import deck as mp  # noqa: E402
from protocol.poker import shuffle_proof as sp  # noqa: E402

CTX = b"bench"


def counted(fn) -> Counter:
    """Run fn once with g.mul / g.base_mul / g.add / g.sub counted."""
    tally: Counter = Counter()
    originals = {name: getattr(g, name) for name in ("mul", "base_mul", "add", "sub")}
    kind = {"mul": "var", "base_mul": "base", "add": "add", "sub": "add"}

    def wrap(name):
        orig = originals[name]

        def counting(*args):
            tally[kind[name]] += 1
            return orig(*args)
        return counting
    try:
        for name in originals:
            setattr(g, name, wrap(name))
        fn()
    finally:
        for name, orig in originals.items():
            setattr(g, name, orig)
    return tally


def proof_ops(before, y) -> tuple[Counter, Counter]:
    """(prove, verify) operation counts of one proven shuffle of ``before``."""
    after, witness = mp.shuffle_deck(before, y)
    proof = sp.prove_shuffle(before, after, witness, y, CTX).to_bytes()
    return (counted(lambda: sp.prove_shuffle(before, after, witness, y, CTX)),
            counted(lambda: sp.verify_shuffle(before, after, proof, y, CTX)))


def best_us(fn, repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best * 1e6


def unit_us() -> dict[str, float]:
    """CPU µs of one var mult, base mult and point addition (best of batches of 200)."""
    x = g.random_scalar()
    p, q = g.base_mul(g.random_scalar()), g.base_mul(g.random_scalar())

    def batch(fn):
        return best_us(lambda: [fn() for _ in range(200)], repeat=7) / 200
    return {"var": batch(lambda: g.mul(x, p)), "base": batch(lambda: g.base_mul(x)),
            "add": batch(lambda: g.add(p, q))}


def decks(n: int):
    keys = [mp.KeyShare.generate() for _ in range(3)]
    y = mp.joint_public_key([k.public for k in keys])
    labels = [f"card-{i % 30}" for i in range(n)]
    table = mp.CardTable(sorted(set(labels)))
    fresh = tuple(mp.Ciphertext(g.G, g.add(table.point(lb), y)) for lb in labels)
    general, _ = mp.shuffle_deck(fresh, y)
    return y, {"general": general, "fresh": fresh}


def main() -> None:
    sp.remember_verified = False  # time every check, as a peer alone in its process does
    prim = unit_us()
    print(f"primitives µs: var {prim['var']:.1f}  base {prim['base']:.1f}  add {prim['add']:.1f}")
    print("floor = var·t_var + base·t_base; floor+add also counts additions.")
    print(f"{'deck':<8}{'n':>4} {'step':<7}{'µs/card':>9}{'var':>6}{'base':>6}{'add':>6}"
          f"{'floor/card':>11}{'ratio':>7}{'+add ratio':>11}{'bytes/card':>11}")
    for n in (8, 52, 108):
        y, inputs = decks(n)
        sp.generators(n)
        sp._generator_sum(n)
        for name, before in inputs.items():
            after, witness = mp.shuffle_deck(before, y)
            proof = sp.prove_shuffle(before, after, witness, y, CTX)
            wire = proof.to_bytes()
            steps = {
                "prove": lambda: sp.prove_shuffle(before, after, witness, y, CTX),
                "verify": lambda: sp.verify_shuffle(before, after, wire, y, CTX),
            }
            for step, fn in steps.items():
                ops = counted(fn)
                us = best_us(fn)
                prim = {k: min(v, u) for (k, v), u in zip(prim.items(), unit_us().values())}
                floor = ops["var"] * prim["var"] + ops["base"] * prim["base"]
                full = floor + ops["add"] * prim["add"]
                print(f"{name:<8}{n:>4} {step:<7}{us / n:9.0f}{ops['var']:6d}{ops['base']:6d}{ops['add']:6d}"
                      f"{floor / n:11.0f}{us / floor:7.2f}{us / full:11.2f}{len(wire) / n:11.1f}")


if __name__ == "__main__":
    main()
