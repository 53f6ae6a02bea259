"""What the REPL says about the game as it moves (SPEC §31.3): a line for each score change
with its reason ("+5 green: discovery at J-5"), a line for a Special Action cancelled or
redirected, the question a seat must answer, and the prompt that names whose turn and which
phase it is.

Reasons come from the engine's own per-player breakdown (Player.gain names a reason); this
module only compares the breakdown before and after an event and says where it happened.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from p2p_asv import actions as A
from p2p_asv.engine import to_move
from p2p_asv.geometry import Square, square_name
from p2p_asv.special_rules import CANCELS, CONSPIRACY
from p2p_asv.specials import OFFER_KINDS
from p2p_asv.state import CHANCE, GameState

from cli.games.asv import render
from cli.terminal import natural_key


@dataclass(frozen=True)
class Before:
    """What score lines (and the cancel lines) need from the state before an event."""
    breakdowns: tuple[tuple[tuple[str, int], ...], ...]
    discovery_square: Square | None
    # the poll stack, bottom first: each window object with the card it waited on, captured
    # now because a redirect changes the card in place
    polls: tuple[tuple[Any, Any], ...] = ()   # (the engine's Poll, the card it asks about)


def before(state: GameState) -> Before:
    d = state.discovery
    return Before(tuple(tuple(sorted(p.breakdown.items())) for p in state.players),
                  d.planet[0] if d is not None else None,
                  tuple((poll, poll.action) for poll in getattr(state, "polls", ())))


@dataclass(frozen=True)
class Settled:
    """A Special Action that did not take effect as played (SPEC §14.3): `card` of `seat`
    was cancelled (`to` None) or redirected to seat `to` by `by_card` of `by_seat`."""
    card: str
    seat: int
    by_card: str
    by_seat: int
    to: int | None = None


def _cancels(card) -> bool:
    return card.name in CANCELS or (card.name == CONSPIRACY and not card.args)


def settled(was: Before, state: GameState, action, seat: int) -> tuple[Settled, ...]:
    """The cancels and redirects that took effect during one event, innermost first. Windows
    only ever leave the stack from the top, so the windows gone are the old stack's top
    part; each "respond" window gone is a card settled, and a cancel takes the card below
    it along (SPEC §14.3). A card settled at once (nobody to ask) never reached the stack:
    it counts as the topmost window gone."""
    now = {id(poll) for poll in getattr(state, "polls", ())}
    stack = [(poll.kind, poll.seat, card) for poll, card in was.polls]
    kept = 0
    while kept < len(was.polls) and id(was.polls[kept][0]) in now:
        kept += 1
    old = {id(poll) for poll, _ in was.polls}
    pushed = any(id(p) not in old and p.action == action for p in getattr(state, "polls", ()))
    if isinstance(action, A.PlaySpecial) and not pushed:
        stack.append(("respond", seat, action))   # settled the moment it was played
    out = []
    i = len(stack) - 1
    while i >= kept:
        kind, by_seat, card = stack[i]
        below = stack[i - 1] if i > 0 else None
        if kind == "respond" and isinstance(card, A.PlaySpecial) and below is not None \
                and below[0] == "respond" and isinstance(below[2], A.PlaySpecial):
            if _cancels(card):
                out.append(Settled(below[2].name, below[1], card.name, by_seat))
                i -= 2
                continue
            if card.name == CONSPIRACY:
                out.append(Settled(below[2].name, below[1], card.name, by_seat, int(card.args[0][1:])))
        i -= 1
    return tuple(out)


def settled_line(what: Settled, colours, labels, seat: int) -> str:
    """'green bob's Black Hole was cancelled by your Peace Talks'; seats by colour and label."""
    def whose(s: int) -> str:
        return "your" if s == seat else f"{colours[s]} {labels[s]}'s"

    def who(s: int) -> str:
        return "you" if s == seat else f"{colours[s]} {labels[s]}"
    done = "was cancelled" if what.to is None else f"was redirected to {who(what.to)}"
    text = f"{whose(what.seat)} {what.card} {done} by {whose(what.by_seat)} {what.by_card}"
    return text[0].upper() + text[1:] if text.startswith("your") else text


def _where(reason: str, was: Before, state: GameState, action) -> str:
    square = getattr(action, "square", None)
    at = f" at {square_name(square)}" if isinstance(square, tuple) else ""
    if reason == "planets":
        sq = was.discovery_square or (state.discovery.planet[0] if state.discovery else None)
        return "discovery" + (f" at {square_name(sq)}" if sq is not None else "")
    if reason == "suns":
        return f"sun no. {state.suns_drawn} placed{at}"
    if reason == "galaxies":
        return f"galaxy completed{at}"
    if reason == "stations":
        return f"station{at}" if at else "stations"
    if reason == "explorers":
        name = getattr(action, "name", "")
        return f"explorer {name}".strip()
    if reason == "quests":
        return f"special quest {getattr(action, 'name', '')}".strip()
    if reason == "role":
        return "role card"
    return reason


def score_lines(was: Before, state: GameState, action) -> tuple[str, ...]:
    """'+5 green: discovery at J-5', one line per seat and reason whose points changed."""
    out = []
    for seat, p in enumerate(state.players):
        old = dict(was.breakdowns[seat]) if seat < len(was.breakdowns) else {}
        for reason, points in sorted(p.breakdown.items()):
            delta = points - old.get(reason, 0)
            if delta:
                out.append(f"{delta:+d} {p.colour}: {_where(reason, was, state, action)}"
                           f" (now {p.score})")
    return tuple(out)


# -- the question of the moment -------------------------------------------------------------
STAGE_QUESTIONS = {
    "environment": "play an environment? env #N / pass",
    "life_form": "play life forms? life #N [#N ...] / pass",
    "explorer": "play an explorer? explorer #N / pass",
    "planet": "play a planet card? discover #N P",
}


def _must_answer(state: GameState, poll, seat: int) -> str | None:
    """The question of a window that must be answered with cards, never passed (SPEC §14.9):
    Espionage's discard, The Scavenger's and Trading Post's picks."""
    who = "you" if poll.seat == seat else state.players[poll.seat].colour
    if poll.kind == "espionage" and poll.targets:
        n = poll.targets[0]
        return f"{who} played Espionage on you: discard {n} of your cards"
    if poll.kind == "scavenge":
        return "The Scavenger: take one card from Space Junk (pick #N)"
    if poll.kind == "trade" and poll.targets and poll.action is not None:
        k = len(poll.action.args) - 1
        return f"Trading Post: take {k} unseen from {state.players[poll.targets[0]].colour}'s hand (pick #N ...)"
    return None


DOOMING = ("Sabotage", "Kamikaze", "Black Hole", "Supernova", "Laser Beam")


def _at_stake(state: GameState, card, seat: int) -> str:
    """What a card answered in a window costs this seat, when it dooms a ship of its own."""
    if not isinstance(card, A.PlaySpecial) or card.name not in DOOMING:
        return ""
    mine = [t for t in card.args if t[:1] == "s" and t[1:].isdigit()
            and int(t[1:]) in state.ships and state.ships[int(t[1:])].owner == seat]
    if not mine:
        return ""
    return (f"your {', '.join(mine)} is destroyed if it takes effect (a Teleport, if you hold "
            "one, saves it when it is; a cancel stops the card now); ")


def doom_question(state: GameState, seat: int, legal: list) -> str | None:
    """SPEC §15.2, §31.6: this seat's ship is about to be destroyed; say so, what destroys it,
    and every way out it has (flee, a Teleport from its hand), then what `pass` costs."""
    doom = getattr(state, "doom", None)
    if doom is None or not legal or not doom.ships or doom.ships[0] not in state.ships:
        return None
    ship = state.ships[doom.ships[0]]
    if ship.owner != seat:
        return None
    saves = []
    escapes = [a for a in legal if isinstance(a, A.Escape)]
    if escapes:
        saves.append(f"escape s{ship.id} SQ (flee to {', '.join(square_name(a.square) for a in escapes[:4])}"
                     + (", ..." if len(escapes) > 4 else "") + ")")
    teleports = [a for a in legal if isinstance(a, A.Teleport)]
    if teleports:
        saves.append(f"{teleports[0].text()} (your Teleport, to a home planet)")
    lost = "its cards go to Space Junk" if doom.cards_to == "junk" else "its cards leave the game"
    save = f"save it: {' / '.join(saves)}, or " if saves else "nothing of yours saves it: "
    return (f"{doom.cause} destroys your s{ship.id} ({ship.name} at {square_name(ship.square)})! "
            f"{save}pass to lose it ({lost})")


def question(state: GameState, seat: int, legal: list) -> str | None:
    """The question this seat must answer now, when it is not simply its own turn's phase:
    its ship doomed, another seat's discovery polling it, or a discovery of its own waiting
    for a card."""
    doomed = doom_question(state, seat, legal)
    if doomed is not None:
        return doomed
    polls = getattr(state, "polls", None)
    in_offer = bool(polls) and polls[-1].kind in OFFER_KINDS   # asked below, as a discovery question
    if polls and legal and not in_offer:   # a response window (SPEC §14.2) asks this seat
        poll = polls[-1]
        told = _must_answer(state, poll, seat)
        if told is not None:
            return told
        words = sorted({a.text().split()[0] for a in legal} - {"pass"}, key=natural_key)
        offer = " / ".join([*words[:3], "pass"])
        who = "you" if poll.seat == seat else state.players[poll.seat].colour
        if poll.kind == "respond" and poll.action is not None:
            return f"{who} played {poll.action.text()}: {_at_stake(state, poll.action, seat)}answer? {offer}"
        return f"{state.players[state.active].colour}'s turn ({poll.kind}): play a card? {offer}"
    d = state.discovery
    if d is None or not legal:
        return None
    who = "you" if d.discoverer == seat else state.players[d.discoverer].colour
    ask = STAGE_QUESTIONS.get(d.stage)
    if ask is None:
        first = sorted({a.text().split()[0] for a in legal})
        ask = " / ".join(first[:4])
    return f"{who} discovered {square_name(d.planet[0])}: {ask}"


def prompt(state: GameState, seat: int, legal: list) -> str:
    """The prompt line: the question when there is one; else whose turn and which phase."""
    me = state.players[seat].colour
    if state.over:
        return f"{me} · game over> "
    asked = question(state, seat, legal)
    if asked is not None:
        return f"{asked}> "
    phase = render.phase_text(state)
    if legal:
        return f"{me} · your turn · {phase}> "
    due = to_move(state)
    turn = "your turn" if state.active == seat else f"{state.players[state.active].colour}'s turn"
    if due == CHANCE:
        who = "dealing"
    elif due is not None and due != state.active:   # another seat answers a discovery or a card
        who = f"{turn}, {state.players[due].colour} to answer"
    else:
        who = turn
    return f"{me} · {who} · {phase} · waiting> "


def next_is_forced(state: GameState, legal: list) -> bool:
    return len(legal) == 1 and isinstance(legal[0], A.Next)
