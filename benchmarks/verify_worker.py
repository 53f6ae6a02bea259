"""One round of benchmarks/verify_floors.py, run inside a given source tree (old or new).

Usage: python benchmarks/verify_worker.py TREE TASK [ARGS...]; prints one JSON object.
TASK ``shuffle N...``: CPU ms a card to verify a shuffle proof of N cards (each size
once, a general deck: every C1 a random point, as in a reshuffle). TASK ``log PATH...``:
CPU ms an event to verify each log (signatures, chain, proofs, shares, rules replay).
TASK ``floor PATH...`` (the new tree): how many of each primitive those verifications
do (the multi-scalar multiplications by their number of terms), and each primitive's CPU
cost measured in the same process; TASK ``shuffle_floor N...`` the same for one shuffle
verify of each size. TASK ``split PATH...``: ms an event of each log's
verify, and where it goes (the state hash, signatures, the codec, the group and the
multi-scalar multiplications, the rest: the rules and the glue).

The tree's directory goes first on sys.path, so ``protocol`` is that tree's, whatever
the virtual environment's editable install points at; the JSON says which file it used.
"""
from __future__ import annotations

import json
import os
import sys
import time

TREE = os.path.abspath(sys.argv[1])
sys.path.insert(0, TREE)

from protocol.crypto import group as g  # noqa: E402
from protocol.poker import deck as mp  # noqa: E402
from protocol.poker import shuffle_proof as sp  # noqa: E402

sp.remember_verified = False   # every round does the whole check


def cpu(fn) -> float:
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def shuffle_task(sizes: list[int]) -> dict:
    y = g.base_mul(g.random_scalar())
    out = {}
    for n in sizes:
        table = mp.CardTable([f"c{i}" for i in range(n)])
        fresh = mp.initial_deck(table, y)
        before, _ = mp.shuffle_deck(fresh, y)          # a general deck: C1 are not all G
        after, witness = mp.shuffle_deck(before, y)
        proof = sp.prove_shuffle(before, after, witness, y, b"bench").to_bytes()
        reps, spent = 0, 0.0
        while spent < 0.25 or reps < 2:
            spent += cpu(lambda: sp.verify_shuffle(before, after, proof, y, b"bench"))
            reps += 1
        out[str(n)] = spent / reps / n * 1e3
    return out


def _verify(path: str):
    from cli.games import game_of_log
    from protocol.session import verify_log

    rules = game_of_log(path).session_rules()
    box = {}

    def run():
        box["report"] = verify_log(path, rules)[0]
    spent = cpu(run)
    report = box["report"]
    assert report.valid and report.finished, (path, report.reason)
    return spent, report.events


def log_task(paths: list[str]) -> dict:
    out = {}
    for path in paths:
        spent, events = _verify(path)
        out[path] = {"ms_per_event": spent / events * 1e3, "events": events}
    return out


class Counter:
    """Counts the primitives run inside ``with`` (the multi-scalar multiplications by their
    number of terms), then prices them in this process."""

    NAMES = ("mul", "base_mul", "validate_point", "add", "sub")

    def __init__(self) -> None:
        self.counts = dict.fromkeys((*self.NAMES, "sig", "sig_batched"), 0)
        self.sizes: dict[int, int] = {}
        self.seen: set[int] = set()

    def reset(self) -> None:
        self.counts = dict.fromkeys(self.counts, 0)
        self.sizes = {}

    def snapshot(self) -> dict:
        return {**self.counts, "msm": {str(n): c for n, c in sorted(self.sizes.items())}}

    def __enter__(self) -> "Counter":
        import protocol.log.events as ev
        self._ev, self._msm = ev, _msm_module()
        self._real = {name: getattr(g, name) for name in self.NAMES}
        self._real_sig = ev.verify
        self._real_msm = self._msm.msm if self._msm is not None else None
        self._real_merged = getattr(self._msm, "sum_merged", None)   # folded proofs (SPEC §25.12)

        def counting(name, fn):
            def wrapper(*a, **k):
                self.counts[name] += 1
                return fn(*a, **k)
            return wrapper

        self._real_batch = getattr(ev, "first_bad_signature", None)   # batched signatures (main)

        def counting_batch(items, *a, **k):
            self.counts["sig_batched"] = self.counts.get("sig_batched", 0) + len(items)
            return self._real_batch(items, *a, **k)

        def counting_msm(terms, *a, **k):
            self.sizes[len(terms)] = self.sizes.get(len(terms), 0) + 1
            self.seen.add(len(terms))
            return self._real_msm(terms, *a, **k)
        def counting_merged(merged, *a, **k):
            n = sum(1 for c in merged.values() if c)
            self.sizes[n] = self.sizes.get(n, 0) + 1
            self.seen.add(n)
            return self._real_merged(merged, *a, **k)
        for name, fn in self._real.items():
            setattr(g, name, counting(name, fn))
        ev.verify = counting("sig", self._real_sig)
        if self._real_merged is not None:
            self._msm.sum_merged = counting_merged
        if self._real_batch is not None:
            ev.first_bad_signature = counting_batch
        if self._msm is not None:
            self._msm.msm = counting_msm
        return self

    def __exit__(self, *exc) -> None:
        for name, fn in self._real.items():
            setattr(g, name, fn)
        self._ev.verify = self._real_sig
        if self._real_batch is not None:
            self._ev.first_bad_signature = self._real_batch
        if self._msm is not None:
            self._msm.msm = self._real_msm
        if self._real_merged is not None:
            self._msm.sum_merged = self._real_merged

    def prices(self) -> dict:
        """CPU µs of each primitive, the same kind of inputs the verifier sees; "msm" by terms."""
        from protocol.crypto import Identity, identity
        s, p, q = g.random_scalar(), g.base_mul(g.random_scalar()), g.base_mul(g.random_scalar())
        ident = Identity.generate()
        msg = b"x" * 200
        sig = ident.sign(msg)
        units = {}
        for name, fn in (("mul", lambda: g.mul(s, p)), ("base_mul", lambda: g.base_mul(s)),
                         ("validate_point", lambda: g.validate_point(p)), ("add", lambda: g.add(p, q)),
                         ("sub", lambda: g.sub(p, q)),
                         ("sig", lambda: identity.verify(ident.public_key_bytes, msg, sig))):
            n = 300
            units[name] = cpu(lambda: [fn() for _ in range(n)]) / n * 1e6
        if self._real_batch is not None:   # one signature of a full batch, as the log's are checked
            from protocol.crypto.sig_batch import BATCH_SIZE
            items = [(ident.public_key_bytes, msg + i.to_bytes(4, "big"), ident.sign(msg + i.to_bytes(4, "big")))
                     for i in range(BATCH_SIZE)]
            assert self._real_batch(items) == -1
            units["sig_batched"] = cpu(lambda: [self._real_batch(items) for _ in range(3)]) / 3 / BATCH_SIZE * 1e6
        else:
            units["sig_batched"] = 0.0
        msm_us = {}                  # one multi-scalar multiplication of n fresh terms
        for n in sorted(self.seen):
            terms = [(g.scalar_to_int(g.random_scalar()), g.base_mul(g.random_scalar())) for _ in range(n)]
            reps, spent = 0, 0.0
            while spent < 0.03 or reps < 3:
                spent += cpu(lambda: self._msm.msm(terms))
                reps += 1
            msm_us[str(n)] = spent / reps * 1e6
        return {"units_us": units, "msm_us": msm_us}


def floor_task(paths: list[str]) -> dict:
    """Count the primitives one verification of each log does, then price them here."""
    per_log = {}
    with Counter() as counter:
        for path in paths:
            counter.reset()
            _, events = _verify(path)
            per_log[path] = {"events": events, **counter.snapshot()}
    return {**counter.prices(), "counts": per_log}


def shuffle_floor_task(sizes: list[int]) -> dict:
    """The same for one shuffle verify of each size (a general deck, as shuffle_task)."""
    y = g.base_mul(g.random_scalar())
    per_size = {}
    with Counter() as counter:
        for n in sizes:
            table = mp.CardTable([f"c{i}" for i in range(n)])
            before, _ = mp.shuffle_deck(mp.initial_deck(table, y), y)
            after, witness = mp.shuffle_deck(before, y)
            proof = sp.prove_shuffle(before, after, witness, y, b"bench").to_bytes()
            counter.reset()
            sp.verify_shuffle(before, after, proof, y, b"bench")
            per_size[str(n)] = {"events": n, **counter.snapshot()}   # "events": cards, to price a card
    return {**counter.prices(), "counts": per_size}


def _msm_module():
    """protocol.crypto.msm where the tree has it (the old tree has not)."""
    try:
        from protocol.crypto import msm
    except ImportError:
        return None
    return msm


def split_task(paths: list[str]) -> dict:
    """One verify of each log with the state hash, the signature check, the codec's decode
    and the group's primitives timed (wall clock inside, so the parts add up to the total
    of the same run); "rest" is everything else."""
    import protocol.log.events as ev
    from protocol import codec
    from cli.games import game_of_log
    from protocol.session import verify_log

    parts = ("state hash", "signature", "decode", "group")
    acc = dict.fromkeys(parts, 0.0)
    inside = [0]                     # a timed call within a timed one counts once, in the outer

    def timed(name, fn):
        def wrapper(*a, **k):
            if inside[0]:
                return fn(*a, **k)
            inside[0] += 1
            t0 = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                acc[name] += time.perf_counter() - t0
                inside[0] -= 1
        return wrapper
    group_names = ("mul", "base_mul", "validate_point", "add", "sub")
    real = {name: getattr(g, name) for name in group_names}
    real_verify, real_decode = ev.verify, codec.decode
    for name, fn in real.items():
        setattr(g, name, timed("group", fn))
    ev.verify = timed("signature", real_verify)
    real_batch = getattr(ev, "first_bad_signature", None)
    if real_batch is not None:       # the batched check (main), ahead of the replay
        ev.first_bad_signature = timed("signature", real_batch)
    codec.decode = timed("decode", real_decode)
    msm_mod = _msm_module()
    real_msm = msm_mod.msm if msm_mod is not None else None
    if real_msm is not None:         # the sums are the group's work too
        msm_mod.msm = timed("group", real_msm)
    real_merged = getattr(msm_mod, "sum_merged", None)
    if real_merged is not None:
        msm_mod.sum_merged = timed("group", real_merged)
    out = {}
    try:
        for path in paths:
            rules = game_of_log(path).session_rules()
            rules.state_hash = timed("state hash", rules.state_hash)   # type: ignore[method-assign]
            acc.update(dict.fromkeys(parts, 0.0))
            t0 = time.perf_counter()
            report = verify_log(path, rules)[0]
            total = time.perf_counter() - t0
            assert report.valid, report.reason
            n = report.events
            out[path] = {"total": total / n * 1e3, **{k: v / n * 1e3 for k, v in acc.items()},
                         "rest": (total - sum(acc.values())) / n * 1e3}
    finally:
        for name, fn in real.items():
            setattr(g, name, fn)
        ev.verify, codec.decode = real_verify, real_decode
        if real_batch is not None:
            ev.first_bad_signature = real_batch
        if real_msm is not None:
            msm_mod.msm = real_msm
        if real_merged is not None:
            msm_mod.sum_merged = real_merged
    return out


def main() -> None:
    task, args = sys.argv[2], sys.argv[3:]
    if task == "shuffle":
        result = shuffle_task([int(a) for a in args])
    elif task == "log":
        result = log_task(args)
    elif task == "floor":
        result = floor_task(args)
    elif task == "shuffle_floor":
        result = shuffle_floor_task([int(a) for a in args])
    elif task == "split":
        result = split_task(args)
    else:
        raise SystemExit(f"unknown task {task!r}")
    print(json.dumps({"group_file": g.__file__, "group": getattr(g, "GROUP_NAME", "ed25519"),
                      "result": result}))


if __name__ == "__main__":
    main()
