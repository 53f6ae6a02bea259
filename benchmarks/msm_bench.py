"""Multi-scalar multiplication: the native backend against term-by-term libsodium (SPEC §25.13).

Run: .venv/bin/python benchmarks/msm_bench.py   (about half a minute)

Issue 23. A batched shuffle or share-proof verification is one sum Σ kᵢ·Pᵢ over all the
proof's points (random-weighted equations combined). libsodium has no multi-scalar
multiplication, so the pure path pays one variable-base multiplication and one addition
a term; the native extension (protocol/crypto/_ristretto_native.c) shares the doublings
(Straus) or the buckets (Pippenger) between the terms. Figures, in µs a term:

* ``sodium``: n × (crypto_scalarmult_ristretto255 + crypto_core_ristretto255_add), the cost
  of the sum without multi-scalar multiplication (the pure path, minus its Python glue);
* ``native``: ``_ristretto_native.msm`` on the same terms (includes decoding every point);
* ``msm()``: the seam the verifiers call, with its merge and scalar packing in Python;
* decode: ``validate_point`` (libsodium) against ``_ristretto_native.decode_ok`` per point.

Points are distinct (hash_to_point), scalars uniform mod L, as in a batched equation. The
machine is shared: each figure is the median of ROUNDS interleaved rounds, load printed.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from typing import Callable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from protocol.crypto import group as g  # noqa: E402
from protocol.crypto import msm as msm_mod  # noqa: E402

ROUNDS = 7
SIZES = (8, 64, 216, 432, 864)
L = g.L

try:
    import protocol.crypto._ristretto_native as nat
except ImportError:
    sys.exit("the native extension is not built (make .venv/.installed with gcc and the Python headers)")


def _median_us(fn: Callable[[], object], per: int, reps: int) -> float:
    times = []
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        times.append((time.perf_counter() - t0) / reps / per * 1e6)
    return statistics.median(times)


def main() -> None:
    print(f"msm benchmark: default backend {msm_mod.BACKEND}; load {os.getloadavg()[0]:.2f}")
    rng = random.Random(1)
    pts = [g.hash_to_point(b"msm-bench", i.to_bytes(4, "big")) for i in range(max(SIZES))]
    lib = g._lib

    print(f"{'n':>5} {'sodium µs/term':>15} {'native µs/term':>15} {'msm() µs/term':>14} {'ratio':>7}")
    for n in SIZES:
        ks = [rng.randrange(1, L) for _ in range(n)]
        terms = list(zip(ks, pts[:n]))
        sc = b"".join(k.to_bytes(32, "little") for k in ks)
        pb = b"".join(pts[:n])
        out = g._out()

        def sodium() -> None:
            acc = g.G
            for k, p in terms:
                lib.crypto_scalarmult_ristretto255(out, k.to_bytes(32, "little"), p)
                lib.crypto_core_ristretto255_add(out, acc, out.raw)
                acc = out.raw

        reps_s = max(1, 400 // n)
        reps_n = max(1, 4000 // n)
        t_sodium = _median_us(sodium, n, reps_s)
        t_native = _median_us(lambda: nat.msm(sc, pb), n, reps_n)
        t_seam = _median_us(lambda: msm_mod.msm(terms, backend="native"), n, reps_n)
        print(f"{n:>5} {t_sodium:>15.2f} {t_native:>15.2f} {t_seam:>14.2f} {t_sodium / t_seam:>6.1f}x")

    n = 864
    pb = b"".join(pts[:n])
    t_valid = _median_us(lambda: [g.validate_point(p) for p in pts[:n]], n, 3)
    t_decode = _median_us(lambda: nat.decode_ok(pb), n, 3)
    t_first = _median_us(lambda: msm_mod.first_invalid_point(pts[:n], backend="native"), n, 3)
    print(f"decode a point: validate_point {t_valid:.2f} µs, native decode_ok {t_decode:.2f} µs "
          f"(first_invalid_point {t_first:.2f} µs), ratio {t_valid / t_first:.1f}x")
    print(f"load after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
