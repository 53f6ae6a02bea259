"""How many cards an outsider reads from logged games (SPEC §25.7, issue 24).

Run: nice .venv/bin/python benchmarks/outsider_reads.py [--games 20] [--players 4]
     [--bots greedy] [--old]   (about 10 s a four-player greedy game on the shared machine)

Plays logged games among bot peers (`asv selfplay --log-dir`'s code, SPEC §27.5), then reads
each log file as an outsider holding only the log (protocol/session/outsider.py: no rules
engine, no secrets): every ciphertext with a published decryption share from every seat is
decoded as C2 − ΣD. It prints per game how many cards that gives, how many of them were
shown to the table (publicly revealed or claimed, per a replay of the log), how many were
not, and how many became readable before the event that showed them (a card read from
someone's hand before it was played): both are cards the log leaks. `--old` plays with the deal rules before rules version 7 (no
refresh when a card changes hands, SPEC §26.4) to measure the leak that version closes;
without it each log is also checked with `asv verify`'s verify_log.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from cli.games.asv.adapter import AsvRules  # noqa: E402
from cli.netplay.local_peers import play_logged_game  # noqa: E402
from protocol.log import parse_event, scan_log  # noqa: E402
from protocol.session import Session, verify_log  # noqa: E402
from protocol.session.dealing import DeckBook  # noqa: E402
from protocol.session.outsider import readable_cards  # noqa: E402


def read_log(path: str, rules: AsvRules) -> tuple[list, dict[bytes, int], list[str]]:
    """(cards an outsider decodes from the file, the seq at which each card shown to the
    table was shown, by C1, notes)."""
    scan = scan_log(path)
    events = [parse_event(wire, expected_game=scan.game) for wire in scan.records]
    read = readable_cards(events, rules.deck_labels())       # from the file alone
    replay = Session(rules, scan.game)                        # what was shown when, per the game
    shown_at: dict[bytes, int] = {}
    for ev in events:
        replay.receive(ev)
        if replay.book is not None and len(replay.book.shown) > len(shown_at):
            shown_at.update((c1, ev.seq) for c1 in replay.book.shown if c1 not in shown_at)
    return read, shown_at, replay.notes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bots", default="greedy")
    ap.add_argument("--old", action="store_true", help="deal without refreshing (before rules version 7)")
    args = ap.parse_args(argv)
    if args.old:
        DeckBook.stale = lambda self, request: ()             # the leak as it was
    rules = AsvRules()
    totals, by_deck = Counter(), Counter()
    print(f"{'seed':>4} {'events':>6} {'readable':>8} {'shown':>5} {'unshown':>7} {'early':>5}  verify")
    with tempfile.TemporaryDirectory() as out:
        for seed in range(args.games):
            summary = play_logged_game(args.players, seed, [args.bots] * args.players, out)
            path = summary["logs"][0]
            read, shown_at, notes = read_log(path, rules)
            leaked = [c for c in read if c.c1 not in shown_at]      # never shown
            early = [c for c in read if c.c1 in shown_at and shown_at[c.c1] > c.seq]   # read before shown
            verdict = "-" if args.old else ("valid" if verify_log(path, rules)[0].valid else "INVALID")
            print(f"{seed:>4} {summary['events']:>6} {len(read):>8} {len(read) - len(leaked):>5} {len(leaked):>7} "
                  f"{len(early):>5}  {verdict}", flush=True)
            totals.update(games=1, readable=len(read), unshown=len(leaked), early=len(early), refreshes=sum(
                n.startswith("refresh") for n in notes))
            by_deck.update(notes[c.seq].split(":")[0].split(" to ")[0] for c in leaked + early)
            totals["worst"] = max(totals["worst"], len(leaked) + len(early))
            for f in summary["logs"]:
                os.remove(f)
                os.remove(f + ".secrets") if os.path.exists(f + ".secrets") else None
    print(f"{totals['games']} games of {args.players} ({args.bots} bots, {'old' if args.old else 'current'} deal "
          f"rules): {totals['readable']} cards readable, {totals['unshown']} of them never shown to the table "
          f"and {totals['early']} readable before they were shown (at most {totals['worst']} of both a game); "
          f"{totals['refreshes']} refresh events")
    if by_deck:
        print("cards read unshown or early, by the deal that completed them: "
              + ", ".join(f"{k} {v}" for k, v in by_deck.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
