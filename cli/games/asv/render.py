"""Text pictures of the game for the REPL: board, hand, scoreboard, status and the final result.

Every renderer returns prompt_toolkit FormattedText (a list of (style, text) pairs); `plain()`
drops the styles for tests and `--no-color`. Nothing here decides a rule: it only reads the
public state and the seat's own view.
"""
from __future__ import annotations

from prompt_toolkit.formatted_text import FormattedText

from cli.terminal import DIM, plain  # noqa: F401 - render.plain and render.DIM for this game's screen

from p2p_asv.variants import TEAMS
from p2p_asv.cards import CARD_BY_NAME
from p2p_asv.engine import to_move
from p2p_asv.geometry import BOARD_WORMHOLES, COLUMNS, SIZE, Square, sector_of, seat_colours, square_name
from p2p_asv.quests import QUEST_DECK, quest
from p2p_asv.state import CHANCE, PHASE_NAMES, TILES, GameState
from p2p_asv.tile_model import GALAXY, PATH
from p2p_asv.tiles import TILE_BY_ID, shown_sides
from p2p_asv.view import PlayerView

CELL = 4  # characters a square takes on each of its two lines

# Player colours to terminal colours: the Solarized accents, chosen to read on light and
# dark backgrounds alike (plain ANSI yellow vanishes on white); prompt_toolkit maps them to
# the nearest colour a 16- or 256-colour terminal has (SPEC §31.6).
STYLE = {"blue": "fg:#268bd2", "yellow": "fg:#b58900",
         "green": "fg:#859900", "red": "fg:#dc322f"}
PATH_STYLE = "fg:ansired"
GALAXY_STYLE = "fg:ansimagenta"
SUN_STYLE = "fg:ansibrightyellow bold"
PLANET_STYLE = "fg:ansicyan bold"
LABEL = "bold"

# Box-drawing glyph for the board sides (N=0 E=1 S=2 W=3) a tile's paths reach.
_PATH_GLYPH = {
    (): " ", (0,): "╵", (1,): "╶", (2,): "╷", (3,): "╴",
    (0, 2): "│", (1, 3): "─", (0, 1): "└", (1, 2): "┌", (2, 3): "┐", (0, 3): "┘",
    (0, 1, 2): "├", (1, 2, 3): "┬", (0, 2, 3): "┤", (0, 1, 3): "┴", (0, 1, 2, 3): "┼",
}

# Without colour (NO_COLOR, --no-color) seats are told apart by letters (SPEC §31.6).
LETTER = {"blue": "B", "yellow": "Y", "green": "G", "red": "R"}
SCORE_SHIPS_COLUMN = 50   # where the scores table's ships column starts
FULL_BOARD_ROWS = 36   # terminal rows the two-line board needs with prompt and toolbar

LETTERS_LEGEND = ("letters: B1 = blue's ship s1 (Y yellow, G green, R red);\n"
                  "         b▲ station  b• probe  b† pirate;  B○→B: planet owned by blue")
COMPACT_LEGEND = ("4○ planet worth 4 (owned: colour or letter)  ≈ galaxy  ☼ sun  @ worm hole\n"
                  "4th char: s ship, ▲ station, • probe, † pirate, + several; look SQ for more")
COMPACT_LETTERS = ("4○ planet worth 4 (4B: blue's)  ≈ galaxy  ☼ sun  @ worm hole\n"
                   "4th char: B blue's ship, b a blue piece, + several; look SQ for more")

LEGEND = ("legend: 4○ planet worth 4 (● owned, owner's colour)  ≈ galaxy  │┌┼ space paths\n"
          "        ☼ sun  @ worm hole  BH black hole  ·· deep space  · empty (sector tint)\n"
          "        s1 ship  ▲ station  • probe  † pirate (pieces in their owner's colour)")


class Canvas:
    """Accumulates styled fragments."""

    def __init__(self) -> None:
        self.parts: list[tuple[str, str]] = []

    def add(self, text: str, style: str = "") -> None:
        if text:
            self.parts.append((style, text))

    def line(self, text: str = "", style: str = "") -> None:
        self.add(text, style)
        self.add("\n")

    def text(self) -> FormattedText:
        return FormattedText(self.parts)


def colour_of(state: GameState, seat: int) -> str:
    return state.players[seat].colour


def seat_label(state: GameState, seat: int) -> str:
    return f"{colour_of(state, seat)} (seat {seat})"


# -- the board --------------------------------------------------------------------------------
def seat_mark(colour: str, letters: bool) -> str:
    """' [B]' after a colour name when seats are told apart by letters, else nothing."""
    return f" [{LETTER[colour]}]" if letters else ""


def _tile_fragments(state: GameState, sq: Square, letters: bool = False) -> list[tuple[str, str]]:
    """The first line of a square: path glyph, then the tile's main feature, CELL wide."""
    placed = state.board.tile_at(sq)
    if placed is None:
        if sq in BOARD_WORMHOLES:
            return [("", " "), ("fg:ansibrightcyan bold", "@"), ("", "  ")]
        sector = sector_of(sq)
        return [("", " "), (STYLE[sector] if sector else DIM, "·"), ("", "  ")]
    tile, rot = placed.tile, placed.rotation
    sides = shown_sides(tile, rot)
    path_sides = tuple(s for s in range(4) if sides[s] == PATH)
    out = [(PATH_STYLE, _PATH_GLYPH[path_sides])]
    if tile.kind == "sun":
        return [(SUN_STYLE, "☼☼☼☼")]
    if tile.planets:
        out.append((PLANET_STYLE, str(tile.planets[0])))
        for i in range(len(tile.planets)):
            record = state.planets.get((sq, i))
            if record is None:
                out.append((PLANET_STYLE, "○"))
            else:
                owner = colour_of(state, record.owner)
                out.append((STYLE[owner] + " bold", LETTER[owner] if letters else "●"))
        filler = CELL - 2 - len(tile.planets)
    elif tile.black_hole:
        out.append(("fg:ansiwhite bold", "BH"))
        filler = CELL - 3
    elif tile.galaxies:
        out.append((GALAXY_STYLE, "≈≈"))
        filler = CELL - 3
    else:
        out.append((DIM, "··"))
        filler = CELL - 3
    if filler > 0:
        mark = ("fg:ansibrightcyan bold", "@") if tile.wormhole else (
            (GALAXY_STYLE, "≈") if tile.planets and GALAXY in sides else ("", " "))
        out.append(mark)
        out.extend([("", " ")] * (filler - 1))
    return out


def _pieces(state: GameState, sq: Square, letters: bool) -> list[tuple[str, str]]:
    """Ships, then stations, probes and pirates on a square, each in its owner's colour; with
    letters, a ship is its owner's capital and number (B1) and a piece follows a small letter."""
    pieces: list[tuple[str, str]] = []
    for ship in state.ships.values():
        if ship.square == sq:
            owner = colour_of(state, ship.owner)
            pieces.append((STYLE[owner] + " bold", f"{LETTER[owner] if letters else 's'}{ship.id}"))
    for p in state.players:
        style, tag = STYLE[p.colour], LETTER[p.colour].lower() if letters else ""
        pieces += [(style, tag + "▲") for s in p.stations if s == sq]
        pieces += [(style, tag + "•") for s, _ in p.probes if s == sq]
        pieces += [(style, tag + "†") for s, _ in p.pirates if s == sq]
    return pieces


def _compact_mark(state: GameState, sq: Square, letters: bool) -> tuple[str, str]:
    """One character for the pieces on a square in the compact board: the first piece's
    mark (a ship as its owner's letter or 's'), '+' for several, ' ' for none."""
    pieces = _pieces(state, sq, letters)
    if not pieces:
        return ("", " ")
    if len(pieces) > 1:
        return ("bold", "+")
    style, text = pieces[0]
    return (style, text[0] if letters or text.startswith("s") else text[-1])


def _piece_fragments(state: GameState, sq: Square, letters: bool = False) -> list[tuple[str, str]]:
    """The second line of a square: ships, then stations, probes and pirates, CELL wide."""
    pieces = _pieces(state, sq, letters)
    out: list[tuple[str, str]] = []
    width = 0
    for style, text in pieces:
        if width + len(text) > CELL:
            out[-1] = (out[-1][0], "+") if out else ("", "+")
            break
        out.append((style, text))
        width += len(text)
    out.append(("", " " * (CELL - sum(len(t) for _, t in out))))
    return out


def board(state: GameState, highlight: tuple[Square, ...] = (), *, compact: bool = False,
          letters: bool = False) -> FormattedText:
    """The 13x13 board, two lines a square; squares placed this turn are underlined.
    `compact`: one line a square (fits 80x24, SPEC §31.6); `letters`: seats by letter."""
    if compact:
        return _compact_board(state, highlight, letters)
    c = Canvas()
    c.add("    ")
    for letter in COLUMNS:
        c.add(f"{letter:<{CELL + 1}}", LABEL)
    c.line()
    for row in range(SIZE):
        for line in (0, 1):
            c.add(f"{row + 1:>2}  " if line == 0 else "    ", LABEL)
            for col in range(SIZE):
                sq = (col, row)
                frags = _tile_fragments(state, sq, letters) if line == 0 else _piece_fragments(state, sq, letters)
                if sq in highlight and line == 0:
                    frags = [(s + " underline", t) for s, t in frags]
                c.parts.extend(frags)
                c.add(" ")
            if line == 0:
                c.add(f"{row + 1:>2}", LABEL)
            c.line()
    c.add("    ")
    for letter in COLUMNS:
        c.add(f"{letter:<{CELL + 1}}", LABEL)
    c.line()
    c.line(LEGEND, DIM)
    if letters:
        c.line(LETTERS_LEGEND, DIM)
    return c.text()


def _compact_board(state: GameState, highlight: tuple[Square, ...], letters: bool) -> FormattedText:
    """One line a square: the tile's first three characters and a piece mark (16 lines)."""
    c = Canvas()
    c.add("   ")
    for letter in COLUMNS:
        c.add(f"{letter:<{CELL + 1}}", LABEL)
    c.line()
    for row in range(SIZE):
        c.add(f"{row + 1:>2} ", LABEL)
        for col in range(SIZE):
            sq = (col, row)
            frags, width = [], 0
            for style, text in _tile_fragments(state, sq, letters):
                keep = text[:CELL - 1 - width]
                if keep:
                    frags.append((style + (" underline" if sq in highlight else ""), keep))
                    width += len(keep)
            frags.append(("", " " * (CELL - 1 - width)))
            frags.append(_compact_mark(state, sq, letters))
            c.parts.extend(frags)
            c.add(" ")
        c.line(f"{row + 1}", LABEL)
    c.line(COMPACT_LETTERS if letters else COMPACT_LEGEND, DIM)
    return c.text()


# -- cards ------------------------------------------------------------------------------------
def card_line(name: str) -> str:
    """'Water (environment, value 3)' — name, category and value of a card, quest or tile."""
    card = CARD_BY_NAME.get(name)
    if card is not None:
        bits = [card.category.replace("_", " ")]
        if card.value is not None:
            bits.append(f"value {card.value}")
        if card.movement is not None:
            bits.append(f"M+{card.movement}")
        if card.ship_extra:
            bits.append(f"extra {card.movement_delta:+d}")
        return f"{name} ({', '.join(bits)})"
    if name in QUEST_DECK:
        return f"{name} (special quest)"
    if name in TILE_BY_ID:
        return f"{name} (tile: {TILE_BY_ID[name].note})"
    return name


def hand(state: GameState, view: PlayerView) -> FormattedText:
    """Your cards by handle and identity, your hidden quests and the tiles waiting to be placed."""
    c = Canvas()
    player = state.players[view.seat]
    c.line(f"Your hand ({player.colour}, {len(player.hand)} cards):", LABEL)
    for h in player.hand:
        name = view.name_of(h, state.names)
        c.add(f"  #{h:<4} ", "bold")
        c.line(card_line(name) if name else "(not yet known)")
    if player.quests:
        c.line("Your special quests:", LABEL)
        for h in player.quests:
            name = view.name_of(h, state.names)
            c.line(f"  #{h:<4} " + (f"{name}: {quest(name).description}" if name in QUEST_DECK else "(not yet known)"))
    if state.drawn and state.active == view.seat:
        c.line("Tiles to place:", LABEL)
        for h in state.drawn:
            name = state.names.get(h)
            c.line(f"  #{h:<4} {card_line(name) if name else '(being revealed)'}")
    if player.continuing:
        c.line("In front of you: " + ", ".join(player.continuing))
    return c.text()


# -- scores and status ------------------------------------------------------------------------
def scores(state: GameState) -> FormattedText:
    """One line a seat: score, cards in hand, pieces in play, then its ships, one a line
    under each other in the last column, so two ships a seat still fit 80 columns (SPEC §31.6)."""
    c = Canvas()
    c.line("seat colour   score  hand stations probes pirates  ships", LABEL)
    for p in state.players:
        ships: list[str] = []
        for ship in state.ships_of(p.seat):
            text = f"s{ship.id}:{ship.name}@{square_name(ship.square)}"
            extras = "+" + "+".join(ship.extras) if ship.extras else ""
            fits = len(text) + len(extras) <= 80 - SCORE_SHIPS_COLUMN
            ships += [text + extras] if fits else [text] + [f"  +{e}" for e in ship.extras]
        ships = ships or ["-"]
        marker = "▶" if state.active == p.seat and not state.over else " "
        c.add(f"{marker}{p.seat:<3} ")
        c.add(f"{p.colour:<8}", STYLE[p.colour] + " bold")
        c.line(f"{p.score:>5}  {len(p.hand):>4} {len(p.stations):>8} {len(p.probes):>6} {len(p.pirates):>7}"
               f"  {ships[0]}")
        for more in ships[1:]:
            c.line(" " * SCORE_SHIPS_COLUMN + more)
        if p.role:
            c.line(" " * SCORE_SHIPS_COLUMN + f"role: {p.role}")
    if state.variants.partnership:  # SPEC §13.4
        teams = "  ".join(f"{'+'.join(state.players[s].colour for s in team)} "
                          f"{sum(state.players[s].score for s in team)}" for team in TEAMS)
        c.line(f"teams: {teams}")
    c.line(f"tiles left {state.tiles_left()}  turn {state.turn}")
    return c.text()


def phase_text(state: GameState) -> str:
    if state.over:
        return "game over"
    if state.variants.advanced:  # SPEC §13.5: phases in any order, paid in energy
        closed = ",".join(PHASE_NAMES[p] for p in state.closed_phases)
        return (f"energy {state.energy}" + (f", {len(state.drawn)} tile to place" if state.drawn else "")
                + (f" (done: {closed})" if closed else ""))
    name = PHASE_NAMES[state.phase]
    if state.phase == TILES and state.tiles_owed:
        return f"{name} ({state.tiles_owed} to draw)"
    if state.phase == TILES and state.drawn:
        return f"{name} ({len(state.drawn)} to place)"
    return name


def whose_move(state: GameState, seat: int) -> str:
    due = to_move(state)
    if due is None:
        return "game over"
    if due == CHANCE:
        return "dealing"
    who = "you" if due == seat else colour_of(state, due)
    d = state.discovery
    if d is not None:
        return (f"{who} to answer the discovery at {square_name(d.planet[0])} "
                f"by {colour_of(state, d.discoverer)} ({d.stage})")
    return f"{who} to play"


def _fit(parts: list[tuple[str, str]], width: int) -> list[tuple[str, str]]:
    """Cut styled fragments to `width` characters, ending in '…' when something was cut."""
    out, used = [], 0
    for style, text in parts:
        if used + len(text) > width:
            out.append((style, text[:max(0, width - used - 1)] + "…"))
            return out
        out.append((style, text))
        used += len(text)
    return out


def hand_fitted(cards: list[tuple[int, str, str]], room: int) -> str:
    """The hand line in `room` characters, every card in it (SPEC §31.6): full names when they
    fit, else each name cut to the longest length that lets all fit ("Abundant L."), else
    handles and values alone; rather than the list cut off at the edge, hiding the last cards.
    `cards`: (handle, name, value text) each."""
    def line(budget: int | None) -> str:
        parts = []
        for h, name, value in cards:
            if budget is not None and len(name) > budget:
                name = name[:budget - 1].rstrip() + "."
            parts.append(f"#{h} {name}{value}" if budget is None or budget > 0 else f"#{h}{value}")
        return (", " if budget is None or budget > 0 else " ").join(parts)

    text = line(None)
    if len(text) <= room:
        return text
    for budget in range(max(len(name) for _, name, _ in cards) - 1, 2, -1):
        text = line(budget)
        if len(text) <= room:
            return text
    return line(0)


def toolbar(state: GameState, view: PlayerView, *, width: int = 80, status: str = "",
            letters: bool = False) -> FormattedText:
    """Bottom toolbar, each line cut to the terminal's width (SPEC §31.6): turn, whose move,
    phase, scores and tiles left; the hand in short form; then any status from the network
    (peers, clock)."""
    me = state.players[view.seat]
    scores = [(STYLE[p.colour] + " bold", f"{LETTER[p.colour]}{p.score} ") for p in state.players]
    head = [("bold", f" T{state.turn} "), ("", f"· {whose_move(state, view.seat)} · {phase_text(state)} · ")]
    tail = [("", f"· tiles {state.tiles_left()}")]
    line1 = head + scores + tail
    if sum(len(t) for _, t in line1) > width:      # the scores and the tiles matter most
        line1 = [("bold", f" T{state.turn} ")] + scores + tail + [("", f" · {phase_text(state)}")]
    cards = []
    for h in me.hand:
        name = view.name_of(h, state.names)
        card = CARD_BY_NAME.get(name) if name else None
        value = f"({card.value})" if card is not None and card.value is not None else ""
        cards.append((h, name or "?", value))
    label = f" {me.colour}{seat_mark(me.colour, letters)}: "
    line2 = [("bold", label), ("", hand_fitted(cards, width - 1 - len(label)) if cards else "(no cards)")]
    c = Canvas()
    c.parts.extend(_fit(line1, width - 1))
    c.add("\n")
    c.parts.extend(_fit(line2, width - 1))
    if status:
        c.add("\n")
        c.parts.extend(_fit([("", " " + status)], width - 1))
    return c.text()


def final(state: GameState, summary: dict) -> FormattedText:
    """The final scoreboard from endgame.result(): scores, breakdowns, winners and title."""
    c = Canvas()
    c.line("Final scoreboard", LABEL)
    order = sorted(range(len(state.players)), key=lambda s: (-summary["scores"][s], s))
    for seat in order:
        p = state.players[seat]
        parts = ", ".join(f"{k} {v}" for k, v in summary["breakdown"][seat].items())
        c.add(f"  {p.colour:<8}", STYLE[p.colour] + " bold")
        c.line(f"{summary['scores'][seat]:>4}   ({parts or 'no points'})")
    if "team_scores" in summary:  # partnership (SPEC §13.4)
        c.line("Teams: " + "  ".join(f"{'+'.join(state.players[s].colour for s in team)} {total}"
                                     for team, total in zip(summary["teams"], summary["team_scores"])))
    winners = " and ".join(state.players[s].colour for s in summary["winners"])
    title = f", {summary['title']}" if summary.get("title") else ""
    how = " (nine planets)" if summary.get("victory") == "nine planets" else ""
    c.line(f"Winner: {winners}{title}{how}", "bold")
    return c.text()


def render_board(state: GameState) -> str:
    """The 13×13 board in plain text, then planets, ships, pieces and scores (`asv replay`)."""
    colours = seat_colours(len(state.players))
    lines = [plain(board(state)), ""]
    for (sq, part), rec in sorted(state.planets.items()):
        kind = "home planet" if rec.home else "planet"
        lines.append(f"{kind} {square_name(sq)}/{part}: {colours[rec.owner]}"
                     + (f" ({', '.join(rec.cards)})" if rec.cards else ""))
    for _, ship in sorted(state.ships.items()):
        lines.append(f"ship s{ship.id} {ship.name} of {colours[ship.owner]} at {square_name(ship.square)}")
    for p in state.players:
        pieces = ([f"probe {square_name(sq)}/{i}" for sq, i in p.probes]
                  + [f"station {square_name(sq)}" for sq in p.stations]
                  + [f"pirate {square_name(sq)}/{i}" for sq, i in p.pirates])
        lines.append(f"{colours[p.seat]:<7} score {p.score:>3}  hand {len(p.hand):>2}  "
                     + ("  ".join(pieces) if pieces else "no pieces"))
    return "\n".join(lines)
