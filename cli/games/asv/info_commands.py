"""Amazing Space Venture's commands that only read the game and answer at any time (SPEC
§31.2): legal, look and help. A mixin of its screen (cli.games.asv.screen), which provides
driver, say, width and legal_sorted."""
from __future__ import annotations

import re
import textwrap

from p2p_asv import actions as A
from p2p_asv.cards import CARD_BY_NAME, UnknownCard, lookup
from p2p_asv.engine import NAMES_BY_SLUG
from p2p_asv.geometry import SIDE_NAMES, parse_square, square_name
from p2p_asv.quests import QUEST_DECK, quest
from p2p_asv.tiles import TILE_BY_ID, distinct_rotations, shown_sides

from cli.games.asv import explain
from cli.games.asv import narrate
from cli.games.asv import render
from cli.games.asv.help_topics import topic, topic_names
from cli.games.legal_list import families, family_line
from cli.games.screen import ScreenBase

LEGAL_LIST_LIMIT = 30  # longer lists of legal actions are grouped
HANDLE = re.compile(r"^#\d+$")

COMMANDS = {
    "help": "help                list commands; help actions: the action notation\n"
            "help rules          the game in short; also help move, help station, ...\n"
            "help NAME, help #N  a card (help water, help #81), a tile id or a quest",
    "board": "board [full|compact]  draw the board (compact: one line a square)\n"
             "board --svg FILE    save the board and scores as an SVG picture to share\n"
             "                    (help picture)",
    "hand": "hand                your cards, quests and the tiles still to place",
    "scores": "scores              scores, hands, ships and pieces of every seat",
    "legal": "legal [PREFIX]      the actions you may take now (starting with PREFIX),\n"
             "                    numbered; type a number to play one",
    "look": "look SQUARE         what is on a square, e.g. look D-4 (or d4)\n"
            "look #T             a drawn tile's sides in each rotation, e.g. look #12",
    "history": "history [N]         the last N lines of what happened (default 20)",
    "quit": "quit                leave the game (also Ctrl-D)",
}

NOTATION = """\
Actions (type them, or press Tab to complete the legal ones):
  draw-tile N              draw a tile from pile N (1-4)             phase 1
  place #T SQ rR           place drawn tile #T on square SQ, R quarter turns
  scrap #T                 put aside a drawn tile that fits nowhere
  ship #C:name SQ          a new ship from card #C on a home square  phase 2
  upgrade sN #C:name       replace ship sN by a bigger ship card
  extra sN #C:name         attach a ship extra to ship sN
  probe SQ/P, station SQ, pirate SQ/P   a piece on a tile placed this turn
  score-station SQ         score a surrounded station now
  move sN SQ               move ship sN                              phase 3
  discover #C:name P       a planet card on planet P where your ship landed
  env #C, life #C [#C ...], explorer #C, pass     answers during a discovery
  discard #C               discard a card                            phase 4
  draw refuel, draw port   draw a card                               phase 5
  next                     end this phase (in phase 5: end your turn)
  special #C:name ...      a Special Action card, when it fits (help special)
Squares: D-4 or d4 (column A-M, row 1-13). Cards and tiles by handle: #12.
"""
TOPICS_LINE = textwrap.fill("Topics: help " + ", ".join(topic_names()), 78, subsequent_indent="  ")
# `help` alone fits a 24-row terminal with the prompt and toolbar: the notation has its own page
HELP_MORE = ("Actions: help actions (how to write each); legal lists those you may play now.\n"
             "More: help rules (the game in short), help topics, help #N (a card in your hand).")


def note_of(state, action) -> str:
    """A short note shown next to an action: the tile a handle names, if public."""
    handle = getattr(action, "tile", None)
    return state.names.get(handle, "") if isinstance(handle, int) else ""


class InfoCommands(ScreenBase):
    def list_legal(self, prefix: str = "") -> None:
        """Numbered legal actions starting with `prefix`, in natural order. A family of
        choices (two cards to discard, ships to name) is one line per part (SPEC §31.4); a
        list still too long for a terminal is grouped by its first two words, e.g. every
        square and rotation for one tile, and says which prefix narrows it."""
        legal = self.legal_sorted()
        if not legal:
            self.say(f"nothing to do now: {render.whose_move(self.driver.state(), self.driver.seat)}")
            return
        state = self.driver.state()
        if narrate.next_is_forced(state, legal):
            self.say(f"  1. next   (the only move: {explain.only_next(state, self.driver.seat)})")
            return
        shown = [(i, a) for i, a in enumerate(legal, 1) if a.text().startswith(prefix)]
        if not shown:
            words = sorted({a.text().split()[0] for a in legal}, key=narrate.natural_key)
            self.say(f"no legal action starts with {prefix!r}; now you may: {' / '.join(words)}")
            return
        by_number = dict(shown)
        told: list[object] = []     # in legal's order: a family's line, or an action alone
        for family in families([(i, a.text()) for i, a in shown]):
            line = family_line(family, self.token_label)
            told += [line] if line is not None else [(i, by_number[i]) for i, _, _ in family.members]
        single = [item for item in told if not isinstance(item, str)]
        if len(single) > LEGAL_LIST_LIMIT:
            for item in told:
                if isinstance(item, str):
                    self.say(item)
            self._grouped(single)
            return
        for item in told:
            if isinstance(item, str):
                self.say(item)
            else:
                i, action = item
                note = note_of(state, action)
                self.say(f"{i:>3}. {action.text()}" + (f"   [{note}]" if note else ""))

    def token_label(self, token: str) -> str | None:
        """What a choice names, as this seat knows it: `#89 Plasma Spores`, `s3 red`."""
        state = self.driver.state()
        if HANDLE.match(token):
            name = self.driver.view().name_of(int(token[1:]), state.names)
            return f"{token} {name}" if name else None
        if token[:1] == "s" and token[1:].isdigit() and int(token[1:]) in state.ships:
            ship = state.ships[int(token[1:])]
            return f"{token} {state.players[ship.owner].colour} {ship.name}"
        return None

    def _grouped(self, shown: list) -> None:
        """A long list grouped by its first two words (`place #12: D-4 r0/r1  ...`)."""
        state = self.driver.state()
        groups: dict[str, dict[str, list[str]]] = {}
        notes: dict[str, str] = {}
        for _, action in shown:
            words = action.text().split()
            key = " ".join(words[:2])
            notes.setdefault(key, note_of(state, action))
            groups.setdefault(key, {}).setdefault(" ".join(words[2:3]), []).extend(words[3:])
        width = max(40, min(100, self.width() - 2))
        for key, subs in groups.items():
            # a no-break space keeps "D-9 r0/r1" together when the line is wrapped
            items = "  ".join((f"{sub}\u00a0{'/'.join(rest)}" if rest else sub).strip()
                              for sub, rest in subs.items())
            head = f"{key}" + (f" [{notes[key]}]" if notes[key] else "")
            if not items:        # `next`, `draw port`: the action alone, never an empty line
                self.say(head)
                continue
            self.say(textwrap.fill(items, width=width, initial_indent=head + ": ", subsequent_indent="      ",
                                   break_on_hyphens=False).replace("\u00a0", " "))
        first_key, first_subs = next(iter(groups.items()))
        narrower = " ".join([first_key, next(iter(first_subs))]).strip()
        example = f"legal {narrower}".replace(" ", "\u00a0")   # kept on one line, to copy
        self.say(textwrap.fill(f"({len(shown)} actions; type one, or legal PREFIX for a numbered "
                               f"list, e.g. {example}; Tab completes)", width=width,
                               break_on_hyphens=False).replace("\u00a0", " "))

    def help(self, topic_word: str) -> None:
        if not topic_word:
            self.say("Commands:", "bold")
            for text in COMMANDS.values():
                self.say("  " + text.replace("\n", "\n  "))
            self.say(HELP_MORE)
            return
        if topic_word.lower() in ("actions", "notation"):
            self.say(NOTATION + TOPICS_LINE)
            return
        if topic_word.lower() == "topics":
            self.say(TOPICS_LINE)
            return
        if topic_word.startswith("#"):
            self.help_handle(topic_word)
            return
        if topic_word.lower() in COMMANDS:       # help legal, help board, ...
            self.say(COMMANDS[topic_word.lower()])
            return
        text = topic(topic_word)
        if text is not None:
            self.say(text)
            return
        name = NAMES_BY_SLUG.get(A.slug(topic_word))
        if name is None:
            try:
                name = lookup(topic_word).name
            except UnknownCard as exc:
                self.say(f"no help on {topic_word!r}: {exc}. Try help rules, help move, help ships, "
                         "or help #N for a card in your hand", "fg:ansired")
                return
        self.help_name(name)

    def help_handle(self, token: str) -> None:
        """help #N: the card or tile a handle names, when this seat may know it."""
        digits = token[1:].split(":")[0]
        if not (digits.isascii() and digits.isdigit()):
            self.say(f"{token} is not a handle (cards and tiles are named #N, e.g. help #81)", "fg:ansired")
            return
        state = self.driver.state()
        name = self.driver.view().name_of(int(digits), state.names)
        if name is None:
            self.say(f"#{digits} is hidden from you (or names nothing)", "fg:ansired")
            return
        self.help_name(name, prefix=f"#{digits} ")

    def help_name(self, name: str, prefix: str = "") -> None:
        if name in QUEST_DECK:
            q = quest(name)
            self.say(f"{prefix}{q.name} (special quest): {q.description}")
            return
        if name not in CARD_BY_NAME:
            t = TILE_BY_ID[name]
            self.say(f"{prefix}tile {t.id} ({t.kind}, {t.copies} in the game): {t.note}")
            return
        card = CARD_BY_NAME[name]
        self.say(prefix + render.card_line(card.name), "bold")
        self.say("  " + (card.effect or "no special effect"))

    def look(self, where: str) -> None:
        if where.startswith("#"):
            self.look_tile(where)
            return
        try:
            sq = parse_square(where)
        except ValueError as exc:
            self.say(str(exc), "fg:ansired")
            return
        state = self.driver.state()
        placed = state.board.tile_at(sq)
        if placed is None:
            self.say(f"{square_name(sq)}: empty")
        else:
            self.say(f"{square_name(sq)}: {placed.tile.id} turned r{placed.rotation} - {placed.tile.note}")
            for i, value in enumerate(placed.tile.planets):
                record = state.planets.get((sq, i))
                owner = "undiscovered" if record is None else (
                    f"owned by {state.players[record.owner].colour}"
                    + (f", cards {', '.join(record.cards)}" if record.cards else ""))
                self.say(f"  planet {i} worth {value}: {owner}")
        for ship in state.ships.values():
            if ship.square == sq:
                self.say(f"  ship s{ship.id} of {state.players[ship.owner].colour}: {ship.name}"
                         + (f" with {', '.join(ship.extras)}" if ship.extras else ""))
        for p in state.players:
            for s in p.stations:
                if s == sq:
                    self.say(f"  station of {p.colour}")
            for s, part in p.probes:
                if s == sq:
                    self.say(f"  probe of {p.colour} on galaxy part {part}")
            for s, seg in p.pirates:
                if s == sq:
                    self.say(f"  pirate of {p.colour} on path {seg}")

    def look_tile(self, token: str) -> None:
        """A drawn tile's sides in each of its distinct rotations (what `place ... rR` shows)."""
        state = self.driver.state()
        name = state.names.get(int(token[1:])) if token[1:].isascii() and token[1:].isdigit() else None
        if name not in TILE_BY_ID:
            self.say(f"{token} is not a revealed tile", "fg:ansired")
            return
        tile = TILE_BY_ID[name]
        self.say(f"{token} {tile.id}: {tile.note}")
        words = {"D": "deep", "G": "galaxy", "P": "path", "S": "sun"}
        for r in distinct_rotations(tile):
            sides = shown_sides(tile, r)
            self.say(f"  r{r}: " + "  ".join(f"{SIDE_NAMES[i]} {words[x]}" for i, x in enumerate(sides)))
