"""A tiny card game behind GameRules, for session tests (SPEC §26.1): it shows the
session is game-agnostic and exercises every deck operation in a few dozen events.

Six cards a..f are shuffled; each seat is dealt one; in seat order each plays its card
(a claimed hidden card) or passes; then the top card of the deck is revealed to all, the
played cards are reshuffled under fresh handles (a `source` shuffle) and the first of
those is dealt to seat 0. Score: the letter's rank of the card played.
"""
from __future__ import annotations

import hashlib
import re

from protocol.session import CHANCE, DeckRequest, GameRuleError

LABELS = tuple(f"card:{c}" for c in "abcdef")


class ToyRules:
    name = "toy/1"

    def new_state(self, players: int, config: dict) -> dict:
        if not 1 <= players <= 4 or config:
            raise GameRuleError("toy: 1-4 players, no options")
        deck = list(range(6))
        st = {"n": players, "deck": deck, "hands": [[] for _ in range(players)], "names": {},
              "turn": 0, "played": [], "next": 6, "over": False, "scores": [0] * players,
              "pending": [DeckRequest("shuffle", "d", tuple(deck), labels=LABELS)]}
        for seat in range(players):
            h = st["deck"].pop(0)
            st["hands"][seat].append(h)
            st["pending"].append(DeckRequest("deal", "d", (h,), seat=seat))
        return st

    def to_move(self, st):
        if st["over"]:
            return None
        return CHANCE if st["pending"] else st["turn"]

    def pending_chance(self, st) -> DeckRequest:
        return st["pending"][0]

    def read(self, text):
        return text   # the toy's actions are their texts; apply_action and revealed_cards check them

    def apply_action(self, st, seat, text):
        if seat == CHANCE:
            return self._chance(st, text)
        if st["over"] or st["pending"] or seat != st["turn"]:
            raise GameRuleError(f"seat {seat} may not act now")
        m = re.fullmatch(r"play #(\d+):([a-f])", text)
        if text != "pass" and not m:
            raise GameRuleError(f"not an action: {text!r}")
        if m:
            h = int(m.group(1))
            if h not in st["hands"][seat]:
                raise GameRuleError(f"#{h} is not in seat {seat}'s hand")
            st["hands"][seat].remove(h)
            st["names"][h] = m.group(2)
            st["played"].append(h)
            st["scores"][seat] += "abcdef".index(m.group(2)) + 1
        st["turn"] += 1
        if st["turn"] == st["n"]:
            st["pending"].append(DeckRequest("reveal", "d", (st["deck"][0],)))
            if st["played"]:
                fresh = tuple(range(st["next"], st["next"] + len(st["played"])))
                st["next"] += len(fresh)
                st["pending"].append(DeckRequest("shuffle", "d2", fresh, source=tuple(st["played"])))
                st["pending"].append(DeckRequest("deal", "d2", (fresh[0],), seat=0))

    def _chance(self, st, text):
        if not st["pending"]:
            raise GameRuleError("no chance event is due")
        req = st["pending"][0]
        if text != self.chance_outcome(st, req, [(h, "card:" + text.split(":")[-1]) for h in req.handles]
                                       if req.kind == "reveal" else []):
            raise GameRuleError(f"{text!r} does not answer {req.kind}")
        if req.kind == "reveal":
            st["names"][req.handles[0]] = text.split(":")[-1]
        st["pending"].pop(0)
        if not st["pending"] and st["turn"] == st["n"]:
            st["over"] = True

    def chance_outcome(self, st, request, revealed):
        if request.kind == "reveal":
            (h, label), = revealed
            return f"reveal #{h}:{label.split(':')[1]}"
        return f"{request.kind} {request.deck}"

    def revealed_cards(self, st, seat, text):
        m = re.fullmatch(r"play #(\d+):([a-f])", text)
        if m is None:
            if text == "pass":
                return []
            raise GameRuleError(f"not an action: {text!r}")
        h = int(m.group(1))
        return [] if h in st["names"] else [(h, "card:" + m.group(2))]

    def state_hash(self, st) -> bytes:
        plain = repr((st["deck"], st["hands"], sorted(st["names"].items()), st["turn"], st["played"],
                      st["over"], st["scores"], [(r.kind, r.deck, r.handles) for r in st["pending"]]))
        return hashlib.sha256(plain.encode()).digest()

    def deck_labels(self):
        return LABELS

    def result(self, st) -> dict:
        return {"scores": list(st["scores"]), "winners": []}

    def new_view(self, seat):
        return {"seat": seat, "known": {}}

    def learn(self, view, handle, label):
        view["known"][handle] = label.split(":")[1]


def play_own_card(state, view) -> str:
    """Agent: play the card this seat holds (as the view knows it)."""
    for h in state["hands"][view["seat"]]:
        return f"play #{h}:{view['known'][h]}"
    return "pass"
