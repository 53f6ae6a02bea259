"""The board picture (SPEC §31.7): the SVG parsed back with xml.etree and checked element by
element against the state it was drawn from."""
from __future__ import annotations

import os
import xml.etree.ElementTree as ET

import pytest

from cli.games.asv import render
from cli.games.asv.svg.board import board_svg
from cli.picture.svg_doc import PictureError, write_svg
from cli.picture.svg_shapes import SEAT_FILL, SHIP_TYPES
from p2p_asv.dealer import LocalDealer
from p2p_asv.engine import apply, legal_actions, to_move
from p2p_asv.geometry import parse_square, square_name
from p2p_asv.setup import new_game
from p2p_asv.state import CHANCE, Ship
from p2p_asv.tiles import TILE_BY_ID
from p2p_asv.view import PlayerView

NS = {"s": "http://www.w3.org/2000/svg"}


def played(players: int = 2, seed: int = 4, turns: int = 8):
    """A real game after `turns` turns of the first legal action each time (fast, and it
    places tiles, pieces and ships), with every seat's view."""
    state = new_game(players)
    dealer, views = LocalDealer(seed), [PlayerView(s) for s in range(players)]
    while not state.over and state.turn <= turns:
        seat = to_move(state)
        action = dealer.outcome(state, views) if seat == CHANCE else legal_actions(state, views[seat])[-1]
        apply(state, seat, action)
    return state, views


def features():
    """A fresh game with a black hole, a worm hole, a sun and a twin planet placed by hand,
    and a ship, a station, a probe and a pirate on them."""
    state = new_game(4)
    for tile, square, rot in (("black-hole", "F-4", 0), ("path-straight-worm", "C-7", 0),
                              ("sun", "K-7", 0), ("p2-twin", "E-10", 0), ("gal-full", "J-8", 0)):
        state.board.place(TILE_BY_ID[tile], parse_square(square), rot, setup=True)
    state.ships[1] = Ship(1, 2, 0, "Fighter Ship", parse_square("E-10"))
    state.players[1].stations.append(parse_square("F-4"))
    state.players[3].probes.append((parse_square("J-8"), 0))
    state.players[0].pirates.append((parse_square("F-4"), 0))
    state.players[2].score, state.players[3].score = 17, 9
    return state


def parse(text: str) -> ET.Element:
    return ET.fromstring(text.encode())


def groups(root: ET.Element, kind: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{{{NS['s']}}}g") if kind in g.get("class", "").split()]


def texts(node: ET.Element, cls: str) -> list[str]:
    return [t.text for t in node.iter(f"{{{NS['s']}}}text") if t.get("class") == cls]


def test_one_tile_group_per_placed_tile_with_its_square_tile_and_rotation():
    state, _ = played()
    root = parse(board_svg(state))
    tiles = groups(root, "tile")
    assert len(tiles) == len(state.board) > 9
    assert [(g.get("data-square"), g.get("data-tile"), g.get("data-rotation")) for g in tiles] == [
        (square_name(sq), p.tile.id, str(p.rotation)) for sq, p in state.board.tiles()]
    # every empty square is drawn too, so the grid is whole
    assert len(groups(root, "square")) == 13 * 13 - len(state.board)


def test_planets_carry_their_values_and_owners_with_the_owners_letter():
    state, _ = played()
    root = parse(board_svg(state))
    for sq, placed in state.board.tiles():
        tile = next(g for g in groups(root, "tile") if g.get("data-square") == square_name(sq))
        planets = groups(tile, "planet")
        assert [int(p.get("data-value")) for p in planets] == list(placed.tile.planets)
        for index, planet in enumerate(planets):
            assert texts(planet, "value") == [str(placed.tile.planets[index])]
            record = state.planets.get((sq, index))
            owner = state.players[record.owner].colour if record else None
            assert planet.get("data-owner") == owner
            assert texts(planet, "letter") == ([render.LETTER[owner]] if owner else [])
    assert any(g.get("data-owner") == "blue" for g in groups(root, "planet"))   # blue's home D-4


def test_pieces_are_in_their_seat_colour_with_the_seat_letter():
    state = features()
    root = parse(board_svg(state))
    ship = groups(root, "ship")
    ship = [g for g in ship if g.get("data-label") == "G1"]   # the legend's samples say "B"
    assert len(ship) == 1 and ship[0].get("data-type") == "Fighter Ship" and ship[0].get("data-seat") == "green"
    hull = ship[0].find("s:path", NS)
    assert hull.get("fill") == SEAT_FILL["green"] and texts(ship[0], "letter") == ["G1"]
    on_board = {g.get("data-square"): g for g in groups(root, "square-pieces")}
    assert {"E-10", "F-4", "J-8"} <= set(on_board)
    for square, kind, colour in (("F-4", "station", "yellow"), ("F-4", "pirate", "blue"),
                                 ("J-8", "probe", "red")):
        piece = [g for g in groups(on_board[square], kind)]
        assert len(piece) == 1 and piece[0].get("data-seat") == colour
        assert texts(piece[0], "letter") == [render.LETTER[colour]]


def test_every_piece_of_a_real_game_is_drawn():
    state, _ = played(4, seed=2, turns=10)
    root = parse(board_svg(state))
    board = groups(root, "pieces")[0]
    for kind, count in (("ship", len(state.ships)),
                        ("station", sum(len(p.stations) for p in state.players)),
                        ("probe", sum(len(p.probes) for p in state.players)),
                        ("pirate", sum(len(p.pirates) for p in state.players))):
        drawn = groups(board, kind)
        hidden = sum(len(g.find("s:title", NS).text.split("; ")) for g in groups(board, "more"))
        assert len(drawn) + hidden >= count and len(drawn) <= count, kind
    assert sum(len(p.stations) for p in state.players) > 0


def test_black_hole_worm_holes_sun_and_twin_planet():
    state = features()
    root = parse(board_svg(state))
    tile = {g.get("data-square"): g for g in groups(root, "tile")}
    assert len(groups(tile["F-4"], "blackhole")) == 1
    assert len(groups(tile["C-7"], "wormhole")) == 1
    assert [p.get("data-value") for p in groups(tile["E-10"], "planet")] == ["2", "2"]
    assert tile["K-7"].find("s:radialGradient", NS) is not None        # the sun's glow
    assert [g.get("data-state") for g in groups(tile["J-8"], "galaxy")] == ["open"]
    # the board's own worm holes (SPEC §2.4) on the four empty squares round the centre
    empty = {g.get("data-square"): g for g in groups(root, "square")}
    assert all(len(groups(empty[sq], "wormhole")) == 1 for sq in ("F-6", "F-8", "H-6", "H-8"))
    assert len(groups(root, "blackhole")) == 2                         # the board's and the legend's


def test_scores_turn_and_caption_are_written():
    state = features()
    root = parse(board_svg(state, caption="after seq 7 of x.asvlog", labels=["ann", "bob", "cy", "di"]))
    seats = groups(root, "seat")
    assert [(g.get("data-seat"), texts(g, "score")) for g in seats] == [
        ("blue", ["0"]), ("yellow", ["0"]), ("green", ["17"]), ("red", ["9"])]
    assert texts(root, "caption") == ["after seq 7 of x.asvlog"]
    status = texts(root, "status")[0]
    assert status.startswith(f"turn {state.turn}")
    assert "bob" in ET.tostring(seats[1], encoding="unicode")


def test_the_same_position_gives_the_same_bytes():
    a, _ = played(3, seed=6, turns=6)
    b, _ = played(3, seed=6, turns=6)
    assert a.hash() == b.hash() and board_svg(a, caption="c") == board_svg(b, caption="c")


def test_no_hidden_card_is_drawn():
    state, views = played(2, seed=4, turns=6)
    text = board_svg(state)
    public = " ".join([*state.names.values(), *(c for r in state.planets.values() for c in r.cards),
                       *(s.name for s in state.ships.values()), *SHIP_TYPES])   # the legend names ship types
    hidden = {view.known[h] for view in views for p in state.players for h in p.hand
              if h in view.known and h not in state.names}
    assert hidden and not any(name in text for name in hidden if name not in public)


def test_an_unwritable_picture_is_a_clear_error_and_leaves_nothing(tmp_path):
    with pytest.raises(PictureError, match="it is a directory"):
        write_svg(tmp_path, "<svg/>")
    with pytest.raises(PictureError, match="there is no folder"):
        write_svg(tmp_path / "missing" / "b.svg", "<svg/>")
    out = write_svg(tmp_path / "b.svg", "<svg/>")
    assert out.read_text() == "<svg/>" and os.listdir(tmp_path) == ["b.svg"]   # no temporary file left


def test_the_repl_saves_the_board_as_a_picture(tmp_path):
    """`board --svg FILE` at the REPL (SPEC §31.7): the seat's position, names from the
    driver, nothing from the hand; an unwritable place is said, not raised."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from cli.repl.local import LocalGame
    from cli.repl.loop import Repl
    driver = LocalGame(2, 0, seed=3)
    with create_pipe_input() as pipe:
        repl = Repl(driver, color=False, input=pipe, output=DummyOutput())
        repl.catch_up()
        picture = tmp_path / "mine.svg"
        for line in (f"board --svg {picture}", "board --svg", f"board --svg {tmp_path / 'no' / 'x.svg'}",
                     "help board", "help svg"):
            repl.handle(line)
    said = "\n".join(repl.transcript)
    assert f"board picture written to {picture}" in said
    assert "name the file" in said and "cannot write" in said and "there is no folder" in said
    assert "board --svg FILE    save the board and scores as an SVG picture" in said   # help board
    assert "board --svg FILE   save the position as an SVG picture" in said         # help svg
    text = picture.read_text()
    root = parse(text)
    state = driver.state()
    assert len(groups(root, "tile")) == len(state.board)
    assert texts(root, "caption") == [f"as blue saw it in turn {state.turn}"]
    assert "blue · you" in text
    view, names = driver.view(), {*state.names.values(), *SHIP_TYPES}
    hand = [view.name_of(h, state.names) for h in state.players[0].hand]
    assert hand and not any(name in text for name in hand if name not in names)


def test_space_walk_orbit_ships_and_scores():
    """SPEC §31.7 for Space Walk: one group a square, every ship on its square in its seat's
    colour with its code (BL: blue large), holes dark, points per seat; `board --svg` too."""
    from cli.games.space_walk.board_svg import board_svg as orbit_svg
    from space_walk.orbit import COLOURS
    from space_walk.scoring import score
    from space_walk.selfplay import play_game as walk
    seen = {}

    def keep(state, seat, action):
        if state.events == 40:
            seen["state"] = state.clone()
    walk(3, 5, on_event=keep)
    state = seen["state"]
    root = parse(orbit_svg(state, caption="x"))
    squares = groups(root, "square")
    assert len(squares) == state.orbit.length == 21
    assert [int(g.get("data-square")) - 1 for g in squares if g.get("data-hole")] == list(state.orbit.holes)
    for g, ships in zip(squares, state.squares):
        drawn = groups(g, "ship")
        assert [(d.get("data-label"), d.get("data-seat")) for d in drawn] == [
            (COLOURS[seat][0].upper() + "LMS"[rank], COLOURS[seat]) for rank, seat in ships]
        assert all(d.find("s:path", NS).get("fill") == SEAT_FILL[d.get("data-seat")] for d in drawn)
    assert [(g.get("data-seat"), texts(g, "score")) for g in groups(root, "seat")] == [
        (COLOURS[s], [str(score(state, s))]) for s in range(3)]


def test_the_space_walk_repl_saves_the_orbit(tmp_path):
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from cli.games import kit_for
    from cli.repl.local import LocalGame
    from cli.repl.loop import Repl
    with create_pipe_input() as pipe:
        repl = Repl(LocalGame(2, 0, seed=1, kit=kit_for("space-walk")), color=False, input=pipe,
                    output=DummyOutput())
        repl.handle(f"board --svg {tmp_path / 'orbit.svg'}")
        repl.handle("board --svg")
    said = "\n".join(repl.transcript)
    assert f"board picture written to {tmp_path / 'orbit.svg'}" in said and "name the file" in said
    assert len(groups(parse((tmp_path / "orbit.svg").read_text()), "square")) == 14
