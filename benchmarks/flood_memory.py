"""Peak memory of one peer under an insider's future-event flood (SPEC §29.4, issue 24).

Each run is its own process (peak RSS is per process): a creator node opens a 2-seat
session with an insider in its roster, then the insider's flood of validly signed future
events (MiB given) is fed to the node as the mesh would deliver it. Prints the peak RSS
without and with the flood, and what the early buffer holds.

    .venv/bin/python benchmarks/flood_memory.py [--mib 130] [--pad 24000]
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def peer(mib: int, pad: int) -> dict:
    from cli.games.asv.adapter import AsvRules
    from protocol.crypto import Identity
    from protocol.log import sign_event
    from protocol.node import Node

    me, insider = Identity.generate("honest"), Identity.generate("insider")
    game = b"f" * 16
    node = Node(me, AsvRules(), game, None)

    class NoMesh:                    # the node asks the mesh which peers to drop
        def peer_keys(self) -> list[bytes]:
            return []
    node.mesh = NoMesh()
    node.start([me.public_key_bytes, insider.public_key_bytes])
    sent = 0
    seq = node.height + 1
    while sent < mib << 20:
        for tag in range(4):
            ev = sign_event(insider, game, seq, b"\1" * 32, "action", {"a": tag, "pad": b"x" * pad})
            sent += len(ev.wire)
            node._feed(ev)                # as delivered by the mesh: parsed and checked once
            del ev
        seq += 1
    return {"sent_mib": round(sent / 2**20, 1), "held_mib": round(node._early.size / 2**20, 2),
            "dropped": node.dropped_early,
            "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mib", type=int, default=130)
    ap.add_argument("--pad", type=int, default=24000)
    ap.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child is not None:
        print(json.dumps(peer(args.child, args.pad)))
        return
    for label, mib in (("no flood", 0), (f"flood of {args.mib} MiB", args.mib)):
        out = subprocess.run([sys.executable, __file__, "--child", str(mib), "--pad", str(args.pad)],
                             capture_output=True, text=True, check=True).stdout
        print(f"{label:>18}: {out.strip()}")


if __name__ == "__main__":
    main()
