"""Which group for the mental-poker decks: Ed25519 with subgroup checks, or ristretto255?

Run: .venv/bin/python benchmarks/group_choice.py   (about half a minute)

Issue 23 item 2. Both groups are the same curve's prime-order group (same order L, so the
scalars and every proof's algebra are unchanged); they differ in the encoding. An Ed25519
point that arrives must pass ``crypto_core_ed25519_is_valid_point`` (canonical, on the
curve, in the prime-order subgroup: a subgroup check is a multiplication by L), while a
ristretto255 encoding that decodes *is* a valid element, so its check is the decode.

Both sides call libsodium directly, so the figures stay comparable whichever group
``protocol/crypto/group.py`` uses: the Ed25519 side through PyNaCl's bundled libsodium
(cffi), the ristretto255 side through pysodium (ctypes over the system libsodium, Debian's
libsodium23 1.0.18). The last rows time ``group.py``'s own functions (whichever group it
is on), so the Python glue shows too.

The machine is shared: every operation is timed in each of ROUNDS interleaved rounds (all
operations one after another in a round) and the median of the rounds is printed, with
the load average before and after.
"""

from __future__ import annotations

import hashlib
import os
import statistics
import sys
import time
from typing import Callable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import nacl.bindings as na  # noqa: E402
import pysodium as ps  # noqa: E402

from protocol.crypto import group as g  # noqa: E402

ROUNDS = 9
BATCH = 200
L = 2**252 + 27742317777372353535851937790883648493


def _scalar() -> bytes:
    return na.crypto_core_ed25519_scalar_reduce(os.urandom(64))


def per_call_us(fn: Callable[[], object], n: int = BATCH) -> float:
    t0 = time.process_time()     # CPU time: other work on the shared machine stays out
    for _ in range(n):
        fn()
    return (time.process_time() - t0) / n * 1e6


def operations() -> dict[str, tuple[Callable[[], object], Callable[[], object]]]:
    """name -> (Ed25519 call, ristretto255 call), on fresh valid inputs of each group."""
    s = _scalar()
    ep = na.crypto_scalarmult_ed25519_base_noclamp(_scalar())
    eq = na.crypto_scalarmult_ed25519_base_noclamp(_scalar())
    rp = ps.crypto_scalarmult_ristretto255_base(_scalar())
    rq = ps.crypto_scalarmult_ristretto255_base(_scalar())
    digest = hashlib.sha512(b"bench").digest()
    return {
        "variable-base mult": (
            lambda: na.crypto_scalarmult_ed25519_noclamp(s, ep),
            lambda: ps.crypto_scalarmult_ristretto255(s, rp),
        ),
        "base mult": (
            lambda: na.crypto_scalarmult_ed25519_base_noclamp(s),
            lambda: ps.crypto_scalarmult_ristretto255_base(s),
        ),
        "check an arriving point": (
            lambda: na.crypto_core_ed25519_is_valid_point(ep),
            lambda: ps.crypto_core_ristretto255_is_valid_point(rp),
        ),
        "add": (
            lambda: na.crypto_core_ed25519_add(ep, eq),
            lambda: ps.crypto_core_ristretto255_add(rp, rq),
        ),
        "hash to point": (
            lambda: na.crypto_core_ed25519_from_uniform(digest[:32]),
            lambda: ps.crypto_core_ristretto255_from_hash(digest),
        ),
    }


def glue_operations() -> dict[str, Callable[[], object]]:
    """group.py's own functions: what the protocol code actually pays (with the glue)."""
    s = g.random_scalar()
    p = g.base_mul(g.random_scalar())
    q = g.base_mul(g.random_scalar())
    return {
        "group.mul": lambda: g.mul(s, p),
        "group.base_mul": lambda: g.base_mul(s),
        "group.validate_point": lambda: g.validate_point(p),
        "group.add": lambda: g.add(p, q),
    }


def main() -> None:
    load_before = os.getloadavg()
    ops = operations()
    glue = glue_operations()
    samples: dict[str, list[float]] = {}
    for _ in range(ROUNDS):
        for name, (ed, rist) in ops.items():
            samples.setdefault(f"{name}|ed", []).append(per_call_us(ed))
            samples.setdefault(f"{name}|rist", []).append(per_call_us(rist))
        for name, fn in glue.items():
            samples.setdefault(name, []).append(per_call_us(fn))
    med = {k: statistics.median(v) for k, v in samples.items()}
    load_after = os.getloadavg()

    print(f"libsodium (system, via pysodium) {ps.sodium.sodium_version_string().decode()}; "
          f"group.py is on: {g.GROUP_NAME if hasattr(g, 'GROUP_NAME') else 'ed25519'}")
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (2 cores, shared)")
    print(f"medians of {ROUNDS} interleaved rounds, {BATCH} calls each, CPU µs a call")
    print(f"{'operation':32s} {'Ed25519':>10s} {'ristretto255':>13s} {'ratio':>7s}")
    for name in ops:
        ed, rist = med[f"{name}|ed"], med[f"{name}|rist"]
        print(f"{name:32s} {ed:10.1f} {rist:13.1f} {ed / rist:6.2f}x")
    # What one arriving ElGamal ciphertext costs before its first use, and what a shuffle
    # verifier pays per card with today's counts (SPEC §25.8: ~8 variable-base
    # multiplications and two checked points a card, plus additions).
    for label, mults, checks, adds in (("check 1 ciphertext (2 points)", 0, 2, 0),
                                       ("shuffle verify per card (model)", 8, 2, 8)):
        ed = (mults * med["variable-base mult|ed"] + checks * med["check an arriving point|ed"]
              + adds * med["add|ed"])
        rist = (mults * med["variable-base mult|rist"] + checks * med["check an arriving point|rist"]
                + adds * med["add|rist"])
        print(f"{label:32s} {ed:10.1f} {rist:13.1f} {ed / rist:6.2f}x")
    print()
    for name in glue:
        print(f"{name:32s} {med[name]:10.1f}")


if __name__ == "__main__":
    main()
