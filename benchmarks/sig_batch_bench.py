"""Ed25519 signatures: batched (SPEC §20.6) against one by one (§20.5).

Run: .venv/bin/python benchmarks/sig_batch_bench.py   (about twenty seconds)

Issue 23. Figures in µs a signature, CPU time, each the median of ROUNDS interleaved rounds:

* ``single``: `identity.verify` one by one (libsodium's crypto_sign_open, plus the key check);
* ``batch n``: `sig_batch.batch_passes` on batches of n (hashing and weights in Python, then
  the native equation: each R decoded and checked to be of the prime-order subgroup, one
  multi-scalar multiplication);
* ``R checks``: the share of the batch that is decoding the R and their subgroup checks (a
  batch whose equation has only the R terms, weights 1), the part that keeps the verdict exact;
  ``R checks by L·R`` the same with the multiplication by L that the check by halving replaced
  (SPEC §20.6), one decode and one check a point;
* the floor: libsodium's crypto_sign_open alone, the raw primitive.

Messages are 300 bytes (an event envelope's size), keys four (a 4-seat game).
"""

from __future__ import annotations

import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import nacl.bindings as sodium  # noqa: E402

from protocol.crypto import Identity, sig_batch, verify  # noqa: E402

ROUNDS = 7
N = 256


def _signed(n: int) -> list[tuple[bytes, bytes, bytes]]:
    signers = [Identity.from_seed(bytes([i]) * 32) for i in range(4)]
    out = []
    for i in range(n):
        message = os.urandom(300)
        signer = signers[i % 4]
        out.append((signer.public_key_bytes, message, signer.sign(message)))
    return out


def _cpu(fn) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def main() -> None:
    if sig_batch._native is None:
        print("the native extension is not built: batches fall back to one by one (SPEC §20.6)")
        return
    items = _signed(N)
    assert sig_batch.first_bad_signature(items) == -1
    rs = b"".join(sig[:32] for _, _, sig in items)
    ones = b"".join((1).to_bytes(32, "little") for _ in items)

    def single():
        for item in items:
            verify(*item)

    def floor():
        for key, message, sig in items:
            sodium.crypto_sign_open(sig + message, key)

    def batched(n):
        def run():
            for start in range(0, N, n):
                assert sig_batch.batch_passes(items[start:start + n])
        return run

    def subgroup_checks():
        sig_batch._native.ed25519_batch_ok(ones, rs, N)   # the sum of the R is not the identity: False

    def subgroup_checks_by_l():
        assert sig_batch._native.ed25519_in_subgroup(rs, 1) == b"\x01" * N

    cases = {"single (verify)": single, "floor (crypto_sign_open)": floor, "R checks alone": subgroup_checks,
             "R checks by L·R": subgroup_checks_by_l}
    for n in (16, 64, 256):
        cases[f"batch {n}"] = batched(n)
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(ROUNDS):
        for name, fn in cases.items():
            times[name].append(_cpu(fn) / N * 1e6)
    med = {name: statistics.median(t) for name, t in times.items()}
    print(f"Ed25519 signatures, {N} of 300 bytes, 4 keys; median of {ROUNDS} rounds, CPU µs a signature "
          f"(load {os.getloadavg()[0]:.2f})")
    for name, us in med.items():
        print(f"  {name:26s} {us:7.1f}   {med['single (verify)'] / us:5.2f}× single")


if __name__ == "__main__":
    main()
