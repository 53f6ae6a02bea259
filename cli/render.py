"""Text pictures of the game for the REPL: board, hand, scoreboard, status and the final result.

Every renderer returns prompt_toolkit FormattedText (a list of (style, text) pairs); `plain()`
drops the styles for tests and `--no-color`. Nothing here decides a rule: it only reads the
public state and the seat's own view.
"""
from __future__ import annotations

from prompt_toolkit.formatted_text import FormattedText, to_plain_text

from p2p_asv.variants import TEAMS
from p2p_asv.cards import CARD_BY_NAME
from p2p_asv.engine import to_move
from p2p_asv.geometry import BOARD_WORMHOLES, COLUMNS, SIZE, Square, sector_of, square_name
from p2p_asv.quests import QUEST_DECK, quest
from p2p_asv.state import CHANCE, PHASE_NAMES, TILES, GameState
from p2p_asv.tile_model import GALAXY, PATH
from p2p_asv.tiles import TILE_BY_ID, shown_sides
from p2p_asv.view import PlayerView

CELL = 4  # characters a square takes on each of its two lines

# Player colours to terminal colours; bright variants read better on dark backgrounds.
STYLE = {"blue": "fg:ansibrightblue", "yellow": "fg:ansiyellow",
         "green": "fg:ansigreen", "red": "fg:ansired"}
DIM = "fg:ansibrightblack"
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

LEGEND = ("legend: 4○ planet worth 4 (● owned, owner's colour)  ≈ galaxy  │┌┼ space paths  ☼ sun\n"
          "        @ worm hole  BH black hole  ·· deep space  · empty (sector colour)\n"
          "        s1 ship  ▲ station  • probe  † pirate (pieces in their owner's colour)")


def plain(text: FormattedText) -> str:
    return to_plain_text(text)


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
def _tile_fragments(state: GameState, sq: Square) -> list[tuple[str, str]]:
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
                out.append((STYLE[colour_of(state, record.owner)] + " bold", "●"))
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


def _piece_fragments(state: GameState, sq: Square) -> list[tuple[str, str]]:
    """The second line of a square: ships, then stations, probes and pirates, CELL wide."""
    pieces: list[tuple[str, str]] = []
    for ship in state.ships.values():
        if ship.square == sq:
            pieces.append((STYLE[colour_of(state, ship.owner)] + " bold", f"s{ship.id}"))
    for p in state.players:
        style = STYLE[p.colour]
        pieces += [(style, "▲") for s in p.stations if s == sq]
        pieces += [(style, "•") for s, _ in p.probes if s == sq]
        pieces += [(style, "†") for s, _ in p.pirates if s == sq]
    out, width = [], 0
    for style, text in pieces:
        if width + len(text) > CELL:
            out[-1] = (out[-1][0], "+") if out else ("", "+")
            break
        out.append((style, text))
        width += len(text)
    out.append(("", " " * (CELL - sum(len(t) for _, t in out))))
    return out


def board(state: GameState, highlight: tuple[Square, ...] = ()) -> FormattedText:
    """The 13x13 board, two lines a square; squares placed this turn are underlined."""
    c = Canvas()
    c.add("    ")
    for col in COLUMNS:
        c.add(f"{col:<{CELL + 1}}", LABEL)
    c.line()
    for row in range(SIZE):
        for line in (0, 1):
            c.add(f"{row + 1:>2}  " if line == 0 else "    ", LABEL)
            for col in range(SIZE):
                sq = (col, row)
                frags = _tile_fragments(state, sq) if line == 0 else _piece_fragments(state, sq)
                if sq in highlight and line == 0:
                    frags = [(s + " underline", t) for s, t in frags]
                c.parts.extend(frags)
                c.add(" ")
            if line == 0:
                c.add(f"{row + 1:>2}", LABEL)
            c.line()
    c.add("    ")
    for col in COLUMNS:
        c.add(f"{col:<{CELL + 1}}", LABEL)
    c.line()
    c.line(LEGEND, DIM)
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
    """One line a seat: score, cards in hand, ships with their squares, pieces in play."""
    c = Canvas()
    c.line("seat colour   score  hand  ships                          stations probes pirates", LABEL)
    for p in state.players:
        ships = " ".join(f"s{s.id}:{s.name}@{square_name(s.square)}"
                         + (f"+{'+'.join(s.extras)}" if s.extras else "")
                         for s in state.ships_of(p.seat))
        marker = "▶" if state.active == p.seat and not state.over else " "
        c.add(f"{marker}{p.seat:<3} ")
        c.add(f"{p.colour:<8}", STYLE[p.colour] + " bold")
        c.line(f"{p.score:>5}  {len(p.hand):>4}  {ships:<30} {len(p.stations):>8} "
               f"{len(p.probes):>6} {len(p.pirates):>7}" + (f"  role: {p.role}" if p.role else ""))
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


def toolbar(state: GameState, view: PlayerView) -> FormattedText:
    """Bottom toolbar: turn, whose move, phase, scores; then the hand in short form."""
    c = Canvas()
    me = state.players[view.seat]
    c.add(f" turn {state.turn} ", "bold")
    c.add(f"· {colour_of(state, state.active)}'s turn · {phase_text(state)} · {whose_move(state, view.seat)} · ")
    for p in state.players:
        c.add(f"{p.colour[0].upper()}{p.score} ", STYLE[p.colour] + " bold")
    c.add(f"· tiles left {state.tiles_left()}\n")
    c.add(f" you are {me.colour}: ", "bold")
    cards = []
    for h in me.hand:
        name = view.name_of(h, state.names)
        card = CARD_BY_NAME.get(name) if name else None
        value = f"({card.value})" if card is not None and card.value is not None else ""
        cards.append(f"#{h} {name or '?'}{value}")
    c.add(", ".join(cards) if cards else "(no cards)")
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
