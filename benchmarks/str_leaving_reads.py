"""What an outsider reads from Space Trading Race logs in which seats leave (SPEC §26.13, §59.5).

Run: nice .venv/bin/python benchmarks/str_leaving_reads.py [--games 10] [--players 4] [--old]

Plays logged in-process games of greedy bot peers (real signed events, SPEC §26.9) under two
house rules that make seats leave with exchanged missions under the pile: every seat's first
`end` while it still holds its setup mission offers the exchange at Earth (the bots take it),
and seat k is charged a fortune by the bank at its `end` in round k + 2, for every seat but
the last. Each log is then read as an outsider holding only the file
(protocol/session/outsider.py): the cards with every seat's share of one C1 published. It
prints per game the hand-overs, the refresh events written for them, the cards read that
were never shown to the table, and the time per hand-over (its refreshes and its event, on
every peer). `--old` skips the refresh before a hand-over (what rules `space-trading-race/3`
amounted to: its re-mask left the old ciphertext beside the leaver's share), to count the
leak that version 4 closed (the current rules, RULES_NAME, still refresh); without it every
log is also checked with `asv verify`'s verify_log.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from cli.games.space_trading_race.adapter import RULES_NAME, TradingRaceRules  # noqa: E402
from protocol.log import parse_event, read_log  # noqa: E402
from protocol.session import SessionPeer, run_local, verify_log  # noqa: E402
from protocol.session.dealing import DeckBook  # noqa: E402
from protocol.session.outsider import readable_cards  # noqa: E402
from space_trading_race.money import charge  # noqa: E402
from space_trading_race.state import BANK  # noqa: E402
from tests.str_session_helpers import ExchangeAtEarth, exchanging, str_peers  # noqa: E402


class ExchangeThenLeave(ExchangeAtEarth):
    """The exchange at Earth (tests/str_session_helpers.py), and seat k charged a fortune at
    its `end` in round k + 2, for every seat but the last."""

    def apply_action(self, state, seat, action):
        text = action if isinstance(action, str) else action.text()
        offered = self.offers_exchange(state, seat, text)
        super().apply_action(state, seat, action)
        if (not offered and text == "end" and seat < state.players - 1 and state.round == seat + 2
                and state.alive[seat] and not state.over):
            charge(state, seat, BANK, 10 ** 9)


def play(players: int, seed: int, out: str) -> tuple[list[SessionPeer], float, int]:
    peers = str_peers(players, out, {"time_limit": players + 3}, key_base=seed % 200 + 1, rules_cls=ExchangeThenLeave,
                      agent_for=lambda k: exchanging(f"{seed}/{k}"), name="b", prefix=f"g{seed}p")
    spent = [0.0]
    started: list[float] = []

    def timed(writer, wire):   # run_local delivers every event; time the hand-over's events
        kind = parse_event(wire).kind
        if kind == "refresh" and writer.leaving or kind == "hand-over":
            spent[0] += time.perf_counter() - started[-1]
        started.append(time.perf_counter())
    started.append(time.perf_counter())
    events = run_local(peers, on_event=timed)
    return peers, spent[0], events


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--old", action="store_true", help="hand over without refreshing first (version 3's leak)")
    args = ap.parse_args(argv)
    if args.old:
        begin = DeckBook.begin_hand_over

        def no_refresh(self, seat, handles):
            begin(self, seat, handles)
            p = self.current
            p.seats, p.kinds, p.refresh, p.fresh = [seat], ["hand-over"], (), []
        DeckBook.begin_hand_over = no_refresh
    labels = TradingRaceRules().deck_labels()
    totals = {"hand_overs": 0, "refreshes": 0, "unshown": 0, "invalid": 0}
    per_game: list[float] = []
    print(f"{'game':>4} {'events':>6} {'hand-overs':>10} {'refreshes':>9} {'unshown':>7} {'ms/hand-over':>12}  verify")
    with tempfile.TemporaryDirectory() as out:
        for seed in range(args.games):
            peers, spent, count = play(args.players, seed, out)
            events = [parse_event(w) for w in read_log(peers[0].log.path)]
            hand_overs = sum(e.kind == "hand-over" for e in events)
            refreshes = sum(n.startswith("refresh the hand-over") for n in peers[0].notes)
            unshown = [c for c in readable_cards(events, labels) if c.c1 not in peers[0].book.shown]
            verdict = "-" if args.old else ("valid" if verify_log(peers[0].log.path, ExchangeThenLeave())[0].valid
                                            else "INVALID")
            per = 1000 * spent / hand_overs if hand_overs else 0.0
            print(f"{seed:>4} {count:>6} {hand_overs:>10} {refreshes:>9} {len(unshown):>7} {per:>12.1f}  {verdict}",
                  flush=True)
            totals["hand_overs"] += hand_overs
            totals["refreshes"] += refreshes
            totals["unshown"] += len(unshown)
            per_game.append(per)
            totals["invalid"] += verdict == "INVALID"
    per = sorted(per_game)[len(per_game) // 2] if per_game else 0.0
    print(f"{args.games} games of {args.players} ({'old: no refresh' if args.old else RULES_NAME}): "
          f"{totals['hand_overs']} hand-overs, {totals['refreshes']} refresh events for them, "
          f"{totals['unshown']} missions an outsider reads that were never shown, "
          f"median {per:.1f} ms a hand-over (its refreshes and event, made and checked by all peers in one "
          f"process), {totals['invalid']} invalid logs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
