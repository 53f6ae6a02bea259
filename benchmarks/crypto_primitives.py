"""Cost of the crypto primitives and of the mental-poker steps against their floor.

Run: .venv/bin/python benchmarks/crypto_primitives.py   (well under a minute)

Each step is timed as the total work of all peers, done in one process (every peer
checks what it receives). The floor of a step is the number of variable-base scalar
multiplications, base multiplications, point checks and multi-scalar sums it needs (a
share's or key's proof is checked by one sum of 6 or 2 terms; the counts of SPEC §25.8)
times the measured cost of one of each; the ratio shows how much the Python glue, hashing
and point additions add on top, and a second ratio prices the additions too. A shuffle re-encrypts
with fixed-base tables (G's and the joint key's, SPEC §25.10): its floor counts those rows
("fix": one table multiplication and one addition, timed a deck at a time). The point
cache (SPEC §25.12) is off, so each receiving peer validates every point it decodes, as a
peer in its own process does.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Callable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

from protocol.crypto import group as g  # noqa: E402
from protocol.crypto import msm, point_cache  # noqa: E402
from protocol.poker import deck as mp  # noqa: E402

DECK = 108
CTX = b"bench"


def per_call_us(fn: Callable[[], object], min_seconds: float = 0.3) -> float:
    """Mean µs per call over a batch, best of five batches (the machine may be shared)."""
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        dt = time.perf_counter() - t0
        if dt > min_seconds / 3:
            break
        n *= 2
    best = dt
    for _ in range(4):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, time.perf_counter() - t0)
    return best / n * 1e6


def timed_us(fn: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best * 1e6


def measure_primitives() -> dict[str, float]:
    x = g.random_scalar()
    p = g.base_mul(g.random_scalar())
    q = g.base_mul(g.random_scalar())
    sk = Ed25519PrivateKey.generate()
    pk = sk.public_key()
    msg = os.urandom(200)
    sig = sk.sign(msg)
    ks = [[g.scalar_to_int(g.random_scalar())] for _ in range(DECK)]
    adds = [g.base_mul(g.random_scalar()) for _ in range(DECK)]

    def sum_terms(count: int) -> list[tuple[int, bytes]]:
        # G and fresh points with full-size coefficients: the shape of a proof's folded
        # equation (a Schnorr check has 2 terms, a Chaum-Pedersen check 6)
        points = [g.G] + [g.base_mul(g.random_scalar()) for _ in range(count - 1)]
        return [(g.scalar_to_int(g.random_scalar()), pt) for pt in points]

    two, six = sum_terms(2), sum_terms(6)
    return {
        "fixed": per_call_us(lambda: msm.fixed_rows((p,), ks, adds)) / DECK,
        "var": per_call_us(lambda: g.mul(x, p)),
        "base": per_call_us(lambda: g.base_mul(x)),
        "add": per_call_us(lambda: g.add(p, q)),
        "chk": per_call_us(lambda: g.validate_point(p)),
        "msm2": per_call_us(lambda: msm.msm(two)),
        "msm6": per_call_us(lambda: msm.msm(six)),
        "sig": per_call_us(lambda: pk.verify(sig, msg)),
    }


#: The operations a step's floor counts, in the order the table prints them.
OPS = ("var", "base", "chk", "add", "fixed", "msm2", "msm6")


def counts(step: str, n: int) -> dict[str, int]:
    """How many of each operation (OPS) all peers of a step do together."""
    others = n * (n - 1)
    if step == "key setup":
        # each: x·G (1b) + Schnorr proof (1b); each checks n-1 proofs (1 check + one 2-term
        # sum), then sums the joint key (n-1 adds) and checks it (1 check)
        return {"base": 2 * n, "chk": others + n, "add": others, "msm2": others}
    if step == "shuffle 108":
        # each of n shuffles: per card 2 table rows (r·G + C1, r·Y + C2, SPEC §25.10); each
        # output decoded by the n-1 other peers (2 checks per card)
        return {"chk": 2 * DECK * others, "fixed": 2 * DECK * n}
    if step == "private deal":
        # n-1 shares (2v + 1b) checked by the holder (one 6-term sum and 3 checks each: the
        # share, and with the point cache off its key share and C1 again); own share 1v;
        # combine n subs
        return {"var": 2 * (n - 1) + 1, "base": n - 1, "chk": 3 * (n - 1), "add": n, "msm6": n - 1}
    if step == "public reveal":
        # n shares (2v + 1b); every peer checks the n-1 others' (one 6-term sum and 3
        # checks each, as above) and combines n subs
        return {"var": 2 * n, "base": n, "chk": 3 * others, "add": n * n, "msm6": others}
    raise ValueError(step)


def run_steps(n: int) -> dict[str, float]:
    names = [f"p{i}" for i in range(n)]
    keys: dict[str, mp.KeyShare] = {}
    state: dict[str, object] = {}

    def key_setup() -> None:
        keys.clear()
        keys.update({nm: mp.KeyShare.generate() for nm in names})
        rounds = {viewer: mp.KeySetupRound(names, CTX) for viewer in names}
        commits = {nm: mp.key_commitment(keys[nm], CTX) for nm in names}
        published = {nm: mp.publish_key_share(keys[nm], CTX, nm) for nm in names}
        for viewer, rnd in rounds.items():
            for nm in names:
                rnd.add_commit(nm, commits[nm])
            for nm in names:  # a peer need not check its own proof
                rnd.add_reveal(nm, published[nm], own=(nm == viewer))
        joint = {rnd.joint_key() for rnd in rounds.values()}
        assert len(joint) == 1
        state["y"] = joint.pop()

    us_keys = timed_us(key_setup)
    y = state["y"]
    table = mp.CardTable([f"card-{i:03d}" for i in range(DECK)])
    start = mp.initial_deck(table, y)

    def shuffle_round() -> None:
        deck = start
        for nm in names:
            out, _ = mp.shuffle_deck(deck, y)
            wire = mp.encode_deck(out)
            for _ in range(n - 1):  # every other peer validates what it receives
                mp.decode_deck(wire, participant=nm)
            deck = out
        state["deck"] = deck

    us_shuffle = timed_us(shuffle_round)
    ct = state["deck"][0]
    holder = names[0]

    def private_deal() -> None:
        verified = []
        for nm in names[1:]:
            share = mp.decryption_share(keys[nm], ct, CTX, nm)
            verified.append(mp.verify_share(share, keys[nm].public, ct, CTX, nm))
        mp.private_reveal(ct, keys[holder], verified, table)

    def public_reveal() -> None:
        shares = {nm: mp.decryption_share(keys[nm], ct, CTX, nm) for nm in names}
        for viewer in names:
            verified = [
                shares[nm].share if nm == viewer else mp.verify_share(shares[nm], keys[nm].public, ct, CTX, nm)
                for nm in names
            ]
            mp.public_reveal(ct, verified, table)

    return {
        "key setup": us_keys,
        "shuffle 108": us_shuffle,
        "private deal": timed_us(private_deal, 10),
        "public reveal": timed_us(public_reveal, 10),
    }


def main() -> None:
    point_cache.remember = False   # every receiver validates what it decodes (see the docstring)
    point_cache.clear()
    prim = measure_primitives()
    print("primitive                         µs/op")
    print(f"  variable-base scalar mult     {prim['var']:9.1f}")
    print(f"  base-point scalar mult        {prim['base']:9.1f}")
    print(f"  point addition                {prim['add']:9.1f}")
    print(f"  point validation              {prim['chk']:9.1f}")
    print(f"  fixed-base table row          {prim['fixed']:9.1f}   (one multiplication and one addition)")
    print(f"  2-term sum (msm)              {prim['msm2']:9.1f}   (a Schnorr check; decodes its points)")
    print(f"  6-term sum (msm)              {prim['msm6']:9.1f}   (a Chaum-Pedersen check; decodes its points)")
    print(f"  Ed25519 signature verify      {prim['sig']:9.1f}   (cryptography)")
    print()
    print("floor = the scalar work: var·t_var + base·t_base + chk·t_check + fix·t_fixed + the sums (msm2,")
    print("msm6) at their measured cost; a table row holds its addition. floor+add also counts the")
    print("point additions and subtractions (each decodes two points).")
    head = f"{'step':<14}{'n':>2} {'measured µs':>12}" + "".join(f" {op[:5]:>5}" for op in OPS)
    print(head + f" {'floor µs':>9} {'ratio':>6} {'floor+add':>10} {'ratio':>6}")
    for n in (2, 3, 4):
        for step, us in run_steps(n).items():
            c = counts(step, n)
            floor = sum(c.get(op, 0) * prim[op] for op in OPS if op != "add")
            full = floor + c.get("add", 0) * prim["add"]
            print(
                f"{step:<14}{n:>2} {us:12.0f}" + "".join(f" {c.get(op, 0):5d}" for op in OPS)
                + f" {floor:9.0f} {us / floor:6.2f} {full:10.0f} {us / full:6.2f}"
            )


if __name__ == "__main__":
    main()
