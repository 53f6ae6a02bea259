"""What a bot peer (or a quiet one) prints while it plays (SPEC §29.4): progress lines, the
long steps, and the final scoreboard."""
from __future__ import annotations

import sys
from typing import TextIO

from cli.games import kit_for_rules
from cli.games.table import clock_words
from cli.netplay.peer_names import colours_of, pass_line
from protocol.node import Node


def scoreboard(session) -> str:
    """The final scoreboard of a finished game, seat by seat, best first."""
    res = session.result()
    n = session.players
    colours = colours_of(session)
    names = [session.names[session.roster.index(k)] for k in session.seat_keys]
    lines = ["Final scoreboard"]
    for seat in sorted(range(n), key=lambda s: -res["scores"][s]):
        parts = ", ".join(f"{k} {v}" for k, v in res.get("breakdown", [{}] * n)[seat].items())
        lines.append(f"  {colours[seat]:6s} {names[seat][:16]:16s} {res['scores'][seat]:4d}   ({parts})")
    if "team_scores" in res:  # partnership (SPEC §13.4)
        lines.append("Teams: " + "  ".join(f"{'+'.join(colours[s] for s in team)} {total}"
                                          for team, total in zip(res["teams"], res["team_scores"])))
    winners = " and ".join(colours[s] for s in res["winners"])
    title = f", {res['title']}" if res.get("title") else ""
    how = " (nine planets)" if res.get("victory") == "nine planets" else ""
    lines.append(f"Winner: {winners}{title}{how}.")
    return "\n".join(lines)


class Printer:
    """Progress lines for a bot peer (or a quiet one): turns, tiles left, scores, and the
    long steps (key setup, shuffles)."""

    def __init__(self, out: TextIO | None = sys.stdout, *, prefix: str = "", turns: bool = True,
                 verbose: bool = False) -> None:
        self.out = out
        self.prefix = prefix
        self.turns = turns
        self.verbose = verbose   # a line per deck shuffle; else one line once the decks are shuffled
        self._turn = 0
        self._shuffles = 0       # setup shuffles, told in one line (not verbose)
        self._shuffles_told = False

    def say(self, text: str) -> None:
        if self.out is not None:
            print(self.prefix + text, file=self.out, flush=True)

    def applied(self, node: Node, ev, note: str) -> None:
        s = node.session
        if ev.kind == "hello" and ev.seq == 0:
            clock = clock_words(s.config or {})
            self.say(f"game {s.game.hex()} started: {s.players} seats" + (f"; {clock}" if clock else ""))
        elif ev.kind == "seat-reveal" and s.phase == "key-commit":
            colours = colours_of(s)
            seats = ", ".join(f"{colours[i]}: {s.names[s.roster.index(k)]}" for i, k in enumerate(s.seat_keys))
            self.say(f"seats fixed by commit-reveal ({seats}); key setup...")
        elif ev.kind == "key-reveal" and s.phase == "play":
            self.say("joint key ready" + ("; shuffling the decks" if s.rules.deck_labels() else ""))
        elif ev.kind == "shuffle" and self.verbose:
            self.say(f"  {note} by seat {s.seat_of[ev.author] + 1} of {s.players}")
        elif ev.kind == "shuffle":
            self._shuffles += 1
        elif self._shuffles and not self._shuffles_told and s.phase == "play":   # the setup's shuffles are done
            self.say(f"decks shuffled: {self._shuffles} shuffles, each proven (--verbose shows each)")
            self._shuffles_told = True   # once: later reshuffles are part of the game
        elif ev.kind in ("abort", "halt", "forfeit") and ev.author != node.me:   # its writer's node said it already
            self.say(note)
        elif ev.kind == "clock-pass":   # said by every peer, the writer too (SPEC §29.20)
            self.say(pass_line(s, ev, node.me))
        if self.turns and s.phase == "play" and not getattr(node, "catching_up", False):
            self._say_turn(s, at_start=True)   # a catch-up ends with one line instead

    def caught_up(self, node: Node, before: int) -> None:
        """After a catch-up (a resume, a reconnect): one line, not one per turn it held, then
        where the game is now (SPEC §29.7)."""
        s = node.session
        if not self.turns or s is None or s.phase != "play":
            return
        if node.height - before < 2:   # a gap of one lost gossip: nothing to sum up
            self._say_turn(s, at_start=True)
            return
        self.say(f"caught up with the others: {node.height - before} events they wrote while this peer "
                 f"was away (now at event {node.height})")
        self._say_turn(s, at_start=False)

    def _say_turn(self, s, *, at_start: bool) -> None:
        """The progress line of the turn in play, once a turn: at its start (`at_start`), or
        wherever the turn is (after a catch-up)."""
        kit = kit_for_rules(s.rules.name)
        line = kit.turn_line(s.state, at_start=at_start) if kit is not None else None
        if line is not None and line[0] != self._turn:
            self._turn, text = line
            self.say(text)
