"""Cost of proving and checking one shuffle (SPEC §25.10) against the floor of the group
operations it does.

Run: .venv/bin/python benchmarks/shuffle_proof_bench.py   (about a minute)

Three steps per deck: ``prove``; ``verify-eq``, the reference verifier
(benchmarks/verify_reference.py: every point validated, then each of the n + 5 equations
recomputed with one libsodium multiplication per term, no folding); ``verify``, today's
(SPEC §25.12: the equations folded with weights into one msm call). The first two steps'
floor is their multiplications; the new verifier's floor is the msm calls it makes, recorded during one
run and replayed on their own in the same run, so the ratio says what is left outside
the sums (hashing, point checks, additions, Python). msm is whatever backend
protocol/crypto/msm.py has (printed).

For each deck size the prover and the verifier are first run once with counting
wrappers around the group operations, so the floor is what this code really does, not a
formula: floor = var·t_var + base·t_base (scalar multiplications only, the target's
measure); floor+add also counts point additions/subtractions (each decodes two points
and encodes one in libsodium). The prover's sums (SPEC §25.13: fixed-base rows and
constant-time sums, native) are recorded and replayed alone too, and added to the prove
floor. Two decks are measured: a general one (the input is an
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

from benchmarks import verify_reference as ref  # noqa: E402
from protocol.crypto import group as g  # noqa: E402
from protocol.crypto import msm as msm_mod  # noqa: E402
from protocol.crypto import point_cache  # noqa: E402
from protocol.poker import deck as mp  # noqa: E402
from protocol.poker import shuffle_proof as sp  # noqa: E402

CTX = b"bench"


def counted(fn) -> Counter:
    """Run fn once with g.mul / g.base_mul / g.add / g.sub / g.validate_point counted."""
    tally: Counter = Counter()
    originals = {name: getattr(g, name) for name in ("mul", "base_mul", "add", "sub", "validate_point")}
    kind = {"mul": "var", "base_mul": "base", "add": "add", "sub": "add", "validate_point": "chk"}

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


def recorded_msm(fn) -> list[list[tuple[int, bytes]]]:
    """The term lists of every msm call fn makes (run once), folded sums included."""
    calls: list[list[tuple[int, bytes]]] = []
    orig, orig_merged = msm_mod.msm, msm_mod.sum_merged

    def recording(terms):
        calls.append(list(terms))
        return orig(terms)

    def recording_merged(merged):
        calls.append([(k, p) for p, k in merged.items()])
        return orig_merged(merged)
    msm_mod.msm, msm_mod.sum_merged = recording, recording_merged
    try:
        fn()
    finally:
        msm_mod.msm, msm_mod.sum_merged = orig, orig_merged
    return calls


def recorded_prover_sums(fn) -> list:
    """Replays (zero-argument callables) of the prover's sums fn makes, run once: the rows
    of msm.fixed_rows and the sums of msm.secret_msm (SPEC §25.13), which no libsodium
    call counts on the native backend. None on the pure backend: there they are libsodium
    calls, and ``counted`` already sees them."""
    calls: list = []
    if msm_mod.BACKEND != "native":
        fn()
        return calls
    orig_rows, orig_secret = msm_mod.fixed_rows, msm_mod.secret_msm

    def rows(bases, rows, adds=None, **kw):
        calls.append(lambda: orig_rows(bases, rows, adds, **kw))
        return orig_rows(bases, rows, adds, **kw)

    def secret(terms, **kw):
        kept = list(terms)
        calls.append(lambda: orig_secret(kept, **kw))
        return orig_secret(kept, **kw)
    msm_mod.fixed_rows, msm_mod.secret_msm = rows, secret
    try:
        fn()
    finally:
        msm_mod.fixed_rows, msm_mod.secret_msm = orig_rows, orig_secret
    return calls


def fresh_run(before, y):
    """Before each timed verify: forget every validated point but the verifier's own input
    deck and key, which a peer validated when they arrived (SPEC §25.12)."""
    def setup():
        point_cache.clear()
        for ct in before:
            point_cache.valid(ct.c1)
            point_cache.valid(ct.c2)
        point_cache.valid(y)
    return setup


def best_us(fn, repeat: int = 7, setup=None) -> float:
    best = float("inf")
    for _ in range(repeat):
        if setup is not None:
            setup()
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best * 1e6


def unit_us() -> dict[str, float]:
    """CPU µs of one var mult, base mult, point addition and point check (best of batches of 200)."""
    x = g.random_scalar()
    p, q = g.base_mul(g.random_scalar()), g.base_mul(g.random_scalar())

    def batch(fn):
        return best_us(lambda: [fn() for _ in range(200)], repeat=7) / 200
    return {"var": batch(lambda: g.mul(x, p)), "base": batch(lambda: g.base_mul(x)),
            "add": batch(lambda: g.add(p, q)), "chk": batch(lambda: g.validate_point(p))}


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
    print(f"msm backend: {msm_mod.BACKEND}")
    print(f"primitives µs: var {prim['var']:.1f}  base {prim['base']:.1f}  add {prim['add']:.1f}"
          f"  chk {prim['chk']:.1f}")
    print("floor: prove, verify-eq = var·t_var + base·t_base; verify = its msm calls replayed alone.")
    print("var/base/add/chk: libsodium calls (inside msm too); calls/terms: msm calls and their terms.")
    print(f"{'deck':<8}{'n':>4} {'step':<11}{'µs/card':>8}{'var':>6}{'base':>6}{'add':>6}{'chk':>6}"
          f"{'calls':>6}{'terms':>7}{'floor/card':>11}{'ratio':>7}{'bytes/card':>11}")
    speedups = []
    for n in (8, 52, 108, 216):
        y, inputs = decks(n)
        sp.generators(n)
        for name, before in inputs.items():
            after, witness = mp.shuffle_deck(before, y)
            proof = sp.prove_shuffle(before, after, witness, y, CTX)
            wire = proof.to_bytes()
            setup = fresh_run(before, y)
            steps = {
                "prove": (lambda: sp.prove_shuffle(before, after, witness, y, CTX), None),
                "verify-eq": (lambda: ref.verify_shuffle(before, after, wire, y, CTX), None),
                "verify": (lambda: sp.verify_shuffle(before, after, wire, y, CTX), setup),
            }
            per_card = {}
            for step, (fn, pre) in steps.items():
                if pre is not None:
                    pre()
                ops = counted(fn)
                if pre is not None:
                    pre()
                calls = recorded_msm(fn)
                prover_sums = recorded_prover_sums(fn)
                us = best_us(fn, setup=pre)
                per_card[step] = us / n
                prim = {k: min(v, u) for (k, v), u in zip(prim.items(), unit_us().values())}
                if step == "verify":
                    floor = best_us(lambda: [msm_mod.msm(t) for t in calls])
                else:
                    floor = ops["var"] * prim["var"] + ops["base"] * prim["base"]
                    if prover_sums:
                        floor += best_us(lambda: [c() for c in prover_sums])
                terms = sum(len(t) for t in calls)
                print(f"{name:<8}{n:>4} {step:<11}{us / n:8.0f}{ops['var']:6d}{ops['base']:6d}{ops['add']:6d}"
                      f"{ops['chk']:6d}{len(calls):6d}{terms:7d}{floor / n:11.0f}{us / floor:7.2f}"
                      f"{len(wire) / n:11.1f}")
            speedups.append((name, n, per_card["verify-eq"], per_card["verify"]))
    print("verify per card, equation by equation -> folded (µs):  " + "  ".join(
        f"{name} {n}: {old:.0f} -> {new:.0f} ({old / new:.2f}x)" for name, n, old, new in speedups))


if __name__ == "__main__":
    main()
