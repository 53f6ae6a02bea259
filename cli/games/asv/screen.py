"""Amazing Space Venture's screen (SPEC §31, §34): its part of the one REPL. The 13x13 board,
the prompt and toolbar, the lines each event earns (score changes, cancels, deals), help on
cards, tiles and quests, the legal list grouped for a terminal, typed squares and handles
made into notation, the guard before a `next` that wastes the turn, and the live REPL's
question of the moment."""
from __future__ import annotations

import difflib
import re
import textwrap
from typing import Iterable

from prompt_toolkit.completion import Completion
from prompt_toolkit.formatted_text import FormattedText

from p2p_asv import actions as A
from p2p_asv.cards import CARDS
from p2p_asv.state import CHANCE, GameState
from p2p_asv.tiles import TILE_BY_ID

from cli.games.asv import explain, narrate, render
from cli.games.asv.info_commands import COMMANDS, InfoCommands, note_of

__all__ = ["AsvScreen", "ACTION_WORDS", "NAMED_ARGS", "name_handles", "normal_squares"]

SQUARE_TOKEN = re.compile(r"^([A-Ma-m])-?(\d{1,2})(/\d)?$")
ACTION_WORDS = tuple(A.verbs())      # the engine's action verbs (SPEC §11.1)


def normal_squares(text: str) -> str:
    """Words that name a square in any usual way (d4, D4, d-4) become the notation's D-4."""
    out = []
    for word in text.split():
        m = SQUARE_TOKEN.match(word)
        out.append(f"{m.group(1).upper()}-{m.group(2)}{m.group(3) or ''}" if m else word)
    return " ".join(out)


# Which arguments of an action word name a card (`#N:name`, SPEC §11.1); None: every one.
NAMED_ARGS = {"ship": (0,), "upgrade": (1,), "extra": (1,), "rookie": (0,), "quest": (0,),
              "discover": (0,), "binary": (0,), "env": (0,), "life": None, "explorer": (0,),
              "teleport": (1,), "special": (0,)}
BARE_HANDLE = re.compile(r"^#(\d+)$")
DRAW_TIMES = re.compile(r"^(draw\s+(?:refuel|port))\s+(\d{1,2})$", re.IGNORECASE)
PORT_THEN_REFUEL = re.compile(r"^draw\s+port(?:\s+(\d{1,2}))?\s+refuel(?:\s+(\d{1,2}))?$", re.IGNORECASE)
TILE_PILES = re.compile(r"^draw-tile((?:\s+[1-4]){2,6})$", re.IGNORECASE)


def name_handles(text: str, name_of) -> str:
    """A card typed by handle alone (`env #92`, as hands and prompts show it) gets the name
    the notation wants (`env #92:very-hot`) when `name_of(handle)` knows it; other words
    are left as typed, so the engine's own message still explains a bad one."""
    words = text.split()
    if not words or words[0].lower() not in NAMED_ARGS:
        return text
    slots = NAMED_ARGS[words[0].lower()]
    for i in range(1, len(words)):
        m = BARE_HANDLE.match(words[i])
        if m and (slots is None or i - 1 in slots):
            name = name_of(int(m.group(1)))
            if name:
                words[i] = f"#{m.group(1)}:{A.slug(name)}"
    return " ".join(words)


class AsvScreen(InfoCommands):
    commands = COMMANDS
    board_sizes = ("", "full", "compact")
    board_usage = "board, board full or board compact (or board --svg FILE)"

    def state(self) -> GameState:
        return self.driver.state()

    # -- what is shown ---------------------------------------------------------------------
    def welcome(self) -> str:
        state = self.state()
        seats = ", ".join(f"{p.colour}{render.seat_mark(p.colour, not self.color)}: "
                          f"{self.driver.labels[p.seat]}" for p in state.players)
        return (f"Amazing Space Venture, {len(state.players)} players ({seats}). "
                "Type help for commands, help rules for the game, Tab to complete actions.")

    def board_text(self, size: str = "") -> FormattedText:
        """The board, compact on a terminal too short for the full one unless `size` says."""
        state = self.state()
        compact = size == "compact" or (size != "full" and self.height() < render.FULL_BOARD_ROWS)
        return render.board(state, tuple(state.placed_this_turn), compact=compact, letters=not self.color)

    def key_rows(self) -> int:
        """The legend under the board: two lines compact; three full, two more in letters."""
        compact = self.repl is not None and getattr(self.repl, "board_size", "") == "compact" or (
            getattr(self.repl, "board_size", "") != "full" and self.height() < render.FULL_BOARD_ROWS)
        if compact:
            return render.COMPACT_LEGEND.count("\n") + 1
        return render.LEGEND.count("\n") + 1 + (0 if self.color else render.LETTERS_LEGEND.count("\n") + 1)

    def hand_text(self) -> FormattedText:
        return render.hand(self.state(), self.driver.view())

    def toolbar(self, status: str):
        return render.toolbar(self.state(), self.driver.view(), width=self.width(), status=status,
                              letters=not self.color)

    def prompt(self) -> str:
        return narrate.prompt(self.state(), self.driver.seat, self.driver.legal())

    def final(self) -> FormattedText:
        state = self.state()
        return render.final(state, self.driver.kit.result(state))

    def whose_move(self) -> str:
        return render.whose_move(self.state(), self.driver.seat)

    def picture_caption(self) -> str:
        state = self.state()
        return f"as {state.players[self.driver.seat].colour} saw it in turn {state.turn}"

    def note(self, action) -> str:
        return note_of(self.state(), action)

    def help_completions(self, word: str, start: int) -> Iterable[Completion]:
        for card in CARDS:
            if card.name.lower().startswith(word):
                yield Completion(f"help {card.name}", start, display=card.name,
                                 display_meta=card.category.replace("_", " "))

    # -- what happened ---------------------------------------------------------------------
    def describe(self, event, *, own_echoed: bool = True) -> list[FormattedText]:
        """The lines one applied event earns: the action (not for this seat's own when it was
        echoed as typed; a resumed seat is told its own too), a hidden card dealt, then each
        score change with its reason."""
        state, seat = self.state(), self.driver.seat
        action = event.action
        out: list[FormattedText] = []
        if event.seat == seat and not own_echoed:
            out.append(FormattedText([("bold", f"you: {action.text()}\n")]))
        elif event.seat != CHANCE and event.seat != seat:
            colour = state.players[event.seat].colour
            note = note_of(state, action)
            out.append(FormattedText([
                (render.STYLE[colour] + " bold", f"{colour}{render.seat_mark(colour, not self.color)}"),
                ("", f" ({self.driver.labels[event.seat]}): {action.text()}"
                     + (f"  [{note}]" if note else "") + "\n")]))
        elif event.seat == CHANCE:
            line = self._chance_line(action)
            if line is not None:
                out.append(line)
        for what in event.settled:   # before the score lines: a cancel is why none came
            text = narrate.settled_line(what, [p.colour for p in state.players], self.driver.labels, seat)
            out.append(FormattedText([("bold", f"  {text}\n")]))
        for text in event.notes:
            out.append(FormattedText([("bold", f"  {text}\n")]))
        return out

    def _chance_line(self, action) -> FormattedText | None:
        state, seat = self.state(), self.driver.seat
        dim = render.DIM
        if isinstance(action, A.ChanceShuffle):
            return FormattedText([(dim, f"  (the {action.deck} deck is shuffled)\n")])
        if isinstance(action, A.ChanceReveal):
            names = ", ".join(f"#{h} {render.card_line(n)}" for h, n in action.cards)
            text = textwrap.fill(names, self.width() - 1, initial_indent="  revealed: ",
                                 subsequent_indent="    ", break_on_hyphens=False)
            line = [(dim, text + "\n")]
            you = state.active == seat
            drawer = "you" if you else state.players[state.active].colour
            draws, takes = ("draw", "take") if you else ("draws", "takes")
            for _, name in action.cards:   # SPEC §31.3: a sun or quest tile drawn is news
                kind = TILE_BY_ID[name].kind if name in TILE_BY_ID else None
                if kind == "sun":
                    line.append(("bold", f"  ☼ a sun: {drawer} {draws} one more tile; "
                                         "it scores when placed\n"))
                elif kind == "quest":
                    line.append(("bold", f"  a quest tile: {drawer} {takes} a special quest and "
                                         f"{draws} one more tile\n"))
            return FormattedText(line)
        if isinstance(action, A.ChanceDeal):
            if action.seat == seat:
                view = self.driver.view()
                names = ", ".join(f"#{h} {view.name_of(h, state.names) or '?'}" for h in action.cards)
                text = textwrap.fill(names, self.width() - 1, initial_indent="  you receive: ",
                                     subsequent_indent="    ", break_on_hyphens=False)
                return FormattedText([("bold", text + "\n")])
            colour = state.players[action.seat].colour
            return FormattedText([(dim, f"  {colour} receives {len(action.cards)} hidden card(s)\n")])
        return None

    # -- what is typed ---------------------------------------------------------------------
    def command(self, word: str, rest: str) -> bool:
        if word == "hand":
            self.say(render.hand(self.state(), self.driver.view()))
        elif word == "scores":
            self.say(render.scores(self.state()))
        elif word == "look":
            self.look(normal_squares(rest))
        else:
            return False
        return True

    def list_legal(self, prefix: str = "") -> None:
        super().list_legal(normal_squares(prefix))

    def read(self, text: str) -> str:
        return name_handles(normal_squares(text), self.name_of)

    def sequence(self, text: str) -> list[str]:
        """`draw refuel 4`, `draw port 2`, `draw port refuel 3` (one from the port, then three
        refuel cards): one draw after another; `draw-tile 1 2 4`: a tile
        from each pile named, in turn (each is its own action, SPEC §31.4). The REPL stops
        at the first that is no longer legal (a full hand, no tile owed)."""
        m = DRAW_TIMES.match(text.strip())
        if m and 1 <= int(m.group(2)) <= 10:
            return [m.group(1)] * int(m.group(2))
        m = PORT_THEN_REFUEL.match(text.strip())
        if m:   # `draw port refuel 4`: the face-up card wanted, then the rest of the hand blind
            port, refuel = int(m.group(1) or 1), int(m.group(2) or 1)
            if 1 <= port + refuel <= 10:
                return ["draw port"] * port + ["draw refuel"] * refuel
        m = TILE_PILES.match(text.strip())
        if m:
            return [f"draw-tile {pile}" for pile in m.group(1).split()]
        return [text]

    def name_of(self, handle: int) -> str | None:
        """The card a handle names, as far as this seat knows."""
        return self.driver.view().name_of(handle, self.state().names)

    def guard(self, action):
        """A `next` that would waste what is left of the turn asks first (SPEC §31.5)."""
        if isinstance(action, A.Next):
            return explain.next_guard(self.state(), self.driver.legal())
        return None

    def stage(self) -> tuple:
        """Where the turn stands: a change (a new phase, a discovery ended) earns a phase line."""
        state = self.state()
        return state.turn, state.phase, state.discovery is None

    def announce(self, stage_before) -> str | None:
        """The line when this seat's own action moved it to another phase (SPEC §31.5)."""
        state, seat = self.state(), self.driver.seat
        if state.over or self.stage() == stage_before or state.active != seat:
            return None
        legal = self.driver.legal()
        if not legal:
            return None
        doomed = narrate.doom_question(state, seat, legal)
        if doomed is not None:     # not "now move: pass / teleport" (SPEC §31.6)
            return doomed
        if narrate.next_is_forced(state, legal):
            return f"now {render.phase_text(state)}: only next ({explain.only_next(state, seat)})"
        firsts = sorted({a.text().split()[0] for a in legal}, key=narrate.natural_key)
        return f"now {render.phase_text(state)}: {' / '.join(firsts)}"

    def explain(self, action) -> str | None:
        return explain.explain(self.state(), self.driver.seat, action)

    def suggest(self, typed: str) -> str | None:
        word = typed.split()[0].lower() if typed.split() else ""
        if word in ACTION_WORDS:     # the word is right, its arguments are not
            return f"help {word} shows how to write it"
        close = difflib.get_close_matches(word, [*COMMANDS, *ACTION_WORDS], n=1, cutoff=0.6)
        return f"did you mean {close[0]}? (help {close[0]})" if close else None

    # -- the live REPL ---------------------------------------------------------------------
    def question(self) -> str | None:
        return narrate.question(self.state(), self.driver.seat, self.driver.legal())

    def turn_start(self):
        """(key, words) when this seat's turn has begun: the live REPL shows the board once."""
        state = self.state()
        if state.active == self.driver.seat and self.driver.legal():
            return state.turn, f"turn {state.turn}"
        return None

    def only_pass(self) -> bool:
        """This seat is asked and pass is all it may answer: a window (no card of its hand
        fits), or its own discovery's step (no explorer, no life form to play)."""
        legal = self.driver.legal()
        return len(legal) == 1 and legal[0].text() == "pass"

    def automatic(self):
        """pass when it is the only answer; next when it is the only move of the phase (the
        phase line says why, SPEC §31.8)."""
        legal = self.driver.legal()
        if len(legal) == 1 and legal[0].text() in ("pass", "next"):
            return legal[0]
        return None
