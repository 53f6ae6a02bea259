"""Text rendering for the REPL seat (issue 4 item 5): board grid, labels, glyphs, hand, scores."""
from __future__ import annotations

from prompt_toolkit.formatted_text import FormattedText

from cli.games.asv import render
from p2p_asv.dealer import LocalDealer
from p2p_asv.endgame import result
from p2p_asv.engine import apply, to_move
from p2p_asv.selfplay import play_game
from p2p_asv.setup import new_game
from p2p_asv.state import CHANCE
from p2p_asv.view import PlayerView

ROWS, COLS = 13, 13


def dealt_game(players: int = 2, seed: int = 5):
    """A new game with the opening chance events applied, and every seat's view."""
    state = new_game(players)
    dealer, views = LocalDealer(seed), [PlayerView(s) for s in range(players)]
    while to_move(state) == CHANCE:
        apply(state, CHANCE, dealer.outcome(state, views))
    return state, views


def board_lines(state) -> list[str]:
    return render.plain(render.board(state)).splitlines()


def cell(lines: list[str], col: int, row: int, line: int = 0) -> str:
    """The CELL characters of square (col, row) on its first (tile) or second (pieces) line."""
    start = 4 + col * (render.CELL + 1)
    return lines[1 + 2 * row + line][start:start + render.CELL]


def test_board_grid_has_13_rows_and_columns_with_labels():
    lines = board_lines(new_game(4))
    header = lines[0].split()
    assert header == list("ABCDEFGHIJKLM")
    assert lines[2 * ROWS + 1].split() == header               # labels again below the grid
    for row in range(ROWS):
        tile_line = lines[1 + 2 * row]
        assert tile_line[:2].strip() == str(row + 1)
        assert tile_line.rstrip().endswith(str(row + 1))
    # every tile line is the same width: 4 label columns, 13 cells, the row label again
    assert {len(lines[1 + 2 * r]) for r in range(ROWS)} == {4 + COLS * (render.CELL + 1) + 2}


def test_start_tiles_show_their_glyphs():
    state = new_game(4)
    lines = board_lines(state)
    # D-4 is blue's home planet (4 points, owned from the start) with blue's ship s1 on it
    assert cell(lines, 3, 3) == " 4● "
    assert cell(lines, 3, 3, 1).strip() == "s1"
    # G-7 is the 5-point centre planet, not yet discovered
    assert cell(lines, 6, 6) == " 5○ "
    # A-1 corner planet with paths leaving east and south
    assert cell(lines, 0, 0) == "┌5○ "
    # F-6 is a board worm hole while uncovered; B-2 an empty square
    assert cell(lines, 5, 5).strip() == "@"
    assert cell(lines, 1, 1).strip() == "·"


def test_colour_mode_styles_owners_in_player_colours():
    state = new_game(4)
    ft = render.board(state)
    assert isinstance(ft, FormattedText)
    styles = {style for style, text in ft if text in ("●", "s1", "s2", "s3", "s4")}
    for colour in ("blue", "yellow", "green", "red"):
        assert any(render.STYLE[colour] in s for s in styles), colour


def test_two_player_board_shows_unowned_homes_of_absent_colours():
    lines = board_lines(new_game(2))   # blue and green play; yellow's and red's homes are free
    assert cell(lines, 3, 3) == " 4● "
    assert cell(lines, 9, 3) == " 4○ "


def test_finished_game_board_renders_every_tile():
    state, _ = play_game(4, 3)
    lines = board_lines(state)
    assert len(state.board) > 60
    for sq, placed in state.board.tiles():
        text = cell(lines, sq[0], sq[1])
        assert text.strip(), f"{sq} {placed.tile.id} drawn blank"
        if placed.tile.kind == "sun":
            assert text == "☼☼☼☼"
        if placed.tile.planets:
            assert str(placed.tile.planets[0]) in text


def test_hand_lists_handles_and_identities_from_the_view():
    state, views = dealt_game()
    text = render.plain(render.hand(state, views[0]))
    for h in state.players[0].hand:
        name = views[0].name_of(h, state.names)
        assert f"#{h}" in text and name in text
    # the other seat's cards stay hidden from seat 0
    assert all(views[0].name_of(h, state.names) is None for h in state.players[1].hand)


def test_scores_and_toolbar_show_turn_phase_and_scores():
    state, views = dealt_game(3)
    scores = render.plain(render.scores(state))
    assert "blue" in scores and "yellow" in scores and "green" in scores
    assert "s1:Star-T Ship@D-4" in scores
    bar = render.plain(render.toolbar(state, views[0], width=400))
    assert "T1 " in bar and "tiles (2 to draw)" in bar and "you to play" in bar
    assert "B0 Y0 G0" in bar
    first = state.players[0].hand[0]
    assert f"#{first} {views[0].name_of(first, state.names)}" in bar


def test_80_by_24_fits_the_toolbar_and_a_compact_board():
    """SPEC §31.6: every toolbar line fits the width; the compact board with the toolbar and
    the prompt fits 24 rows, so its column header does not scroll away."""
    state, views = dealt_game(4)
    for width in (80, 60):
        bar = render.plain(render.toolbar(state, views[0], width=width, status="clock 0:42 · bob thinking"))
        assert all(len(line) < width for line in bar.splitlines()), bar
        assert "tiles 79" in bar and "B0 Y0 G0 R0" in bar
    board = render.plain(render.board(state, compact=True, letters=True)).splitlines()
    assert len(board) + 3 + 1 <= 24 - 4          # toolbar, prompt, and room for four lines of news
    assert max(len(line) for line in board) <= 80
    assert board[0].split() == list("ABCDEFGHIJKLM")


def test_without_colour_seats_are_told_apart_by_letters():
    """SPEC §31.6: NO_COLOR / --no-color: owned planets and pieces carry the seat's letter."""
    state, _ = dealt_game(2)            # blue (seat 0) and green (seat 1): home planets and ships
    full = render.plain(render.board(state, letters=True))
    assert " 4B " in full and " 4G " in full        # home planets D-4 (blue), J-10 (green)
    assert "B1" in full and "G2" in full            # the Star-T ships
    plain_board = render.plain(render.board(state))
    assert "4●" in plain_board and "B1" not in plain_board
    compact = render.plain(render.board(state, compact=True, letters=True))
    assert "4BB" in compact and "4GG" in compact    # planet letter, then the ship's owner


def test_final_scoreboard_names_the_winner():
    state, _ = play_game(2, 4)
    text = render.plain(render.final(state, result(state)))
    assert "Final scoreboard" in text
    winner = state.players[state.winners[0]].colour
    assert f"Winner: {winner}" in text
    for p in state.players:
        assert f"{p.score:>4}" in text


def test_card_line_names_category_and_value():
    assert render.card_line("Star-T Ship") == "Star-T Ship (space ship, M+1)"
    assert "tile" in render.card_line("p1-a")
    assert render.card_line("Strong Empire") == "Strong Empire (special quest)"


def test_every_board_line_and_legend_fits_80_columns():
    """`asv replay` prints the full board and its legend: at 80 columns the legend's first line
    ran to 85 and the terminal broke it ('☼ sun' alone on a line). No line reaches column 80
    in any board, with or without colour letters."""
    state, _ = play_game(4, 3)
    for compact in (False, True):
        for letters in (False, True):
            text = render.plain(render.board(state, compact=compact, letters=letters))
            assert max(len(line) for line in text.splitlines()) < 80, (compact, letters)


def test_the_hand_line_shows_every_card_at_80_columns():
    """SPEC §31.6: at 80 columns a long hand shortens its names rather than losing cards off
    the edge; at a wide terminal the full names stay."""
    state, views = dealt_game(2)
    hand = state.players[0].hand
    assert len(hand) >= 8
    for width, full in ((80, False), (400, True)):
        bar = render.plain(render.toolbar(state, views[0], width=width)).splitlines()
        line = bar[1]
        assert len(line) < width and "…" not in line, line
        for h in hand:
            assert f"#{h}" in line, (h, line)
        first = views[0].name_of(hand[0], state.names)
        assert (f"#{hand[0]} {first}" in line) == full, line


def test_hand_fitted_cuts_names_evenly_then_drops_them():
    cards = [(79, "Abundant Land and Water", "(2)"), (80, "Plasma Spores", "(0)"), (81, "Gamma Rays", "(1)")]
    assert render.hand_fitted(cards, 200) == "#79 Abundant Land and Water(2), #80 Plasma Spores(0), #81 Gamma Rays(1)"
    cut = render.hand_fitted(cards, 50)
    assert cut == "#79 Abundan.(2), #80 Plasma.(0), #81 Gamma R.(1)"    # 48: every name cut to 8
    assert render.hand_fitted(cards, 20) == "#79(2) #80(0) #81(1)"
