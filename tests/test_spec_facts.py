"""Facts an outsider needs to write a verifier from SPEC.md alone (issue 24 item 8), each
pinned so that the test fails when the code and the SPEC's words part ways.

Where a fact is a list or a rule, the test writes it out again as the SPEC states it (not
by calling the code that implements it) and compares with what the code does.
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from p2p_asv.actions import slug
from p2p_asv.cards import CARDS, EXPLORER, REFUEL_DECK, SPACE_PORT_DECK, SPACE_SHIP
from p2p_asv.quests import QUEST_DECK
from p2p_asv.selfplay import play_game
from p2p_asv.setup import new_game
from p2p_asv.tiles import SPACE_TILES

SPEC = (Path(__file__).resolve().parent.parent / "SPEC.md").read_text(encoding="utf-8")


def spec_section(number: str) -> str:
    """The text of SPEC section `number` (e.g. "5.2"), up to the next heading."""
    start = SPEC.index(f"### §{number} ")
    end = SPEC.find("\n#", start + 1)
    return SPEC[start:end if end != -1 else None]


# -- §5.1: the order in which each deck is built -------------------------------------------------

SHIP_ORDER = [  # SPEC §5.1, written out: one list sorted by name, ships and extras mixed
    ("Captain Rookie", 1), ("Colony Ship", 1), ("Fighter Ship", 8), ("Flash-jets", 1),
    ("Fleet Admiral", 1), ("Flying Saucer", 2), ("Laser Beam", 1), ("Nano-computer", 1),
    ("Photon Torpedo", 1), ("Pirate Crew", 1), ("Scout Ship", 4), ("Space Shuttle", 2),
    ("Star Cruiser", 2), ("Star-T Ship", 4)]


def test_the_space_port_deck_is_one_list_of_the_14_ship_cards_sorted_by_name():
    ships = [(c.name, c.copies) for c in CARDS if c.category == SPACE_SHIP]
    assert ships == SHIP_ORDER
    assert [n for n, _ in SHIP_ORDER] == sorted(n for n, _ in SHIP_ORDER)   # code-point order
    assert list(SPACE_PORT_DECK) == [n for n, k in SHIP_ORDER for _ in range(k)]
    listed = spec_section("5.1")
    assert ", ".join(f"{n} ×{k}" if k > 1 else n for n, k in SHIP_ORDER) in " ".join(listed.split())


def _table_names(section: str) -> list[str]:
    """First column of the section's table, without the header and copy marks ("Teleport ×2")."""
    rows = [line for line in spec_section(section).splitlines() if line.startswith("| ")]
    return [re.sub(r" ×\d+$", "", row.split("|")[1].strip()) for row in rows[1:]]


@pytest.mark.parametrize("section, category", [("5.2", "planet"), ("5.3", "environment"),
                                               ("5.4", "life_form"), ("5.5", "special_action"),
                                               ("5.6", "explorer")])
def test_the_refuel_categories_follow_the_row_order_of_their_spec_tables(section, category):
    assert _table_names(section) == [c.name for c in CARDS if c.category == category]


def test_the_refuel_deck_is_the_categories_in_the_order_of_the_5_1_table():
    order = ["planet", "environment", "life_form", "special_action", "explorer"]
    want = [c.name for cat in order for c in CARDS if c.category == cat for _ in range(c.copies)]
    assert list(REFUEL_DECK) == want and len(want) == 108


def test_the_tile_deck_follows_the_rows_of_the_spec_3_3_table():
    rows = [line.split("|") for line in spec_section("3.3").splitlines() if line.startswith("| `")]
    want = [cell[1].strip().strip("`") for cell in rows if cell[2].strip() != "start"
            for _ in range(int(cell[3]))]
    assert list(SPACE_TILES) == want and len(want) == 79


def test_the_quest_deck_follows_the_rows_of_the_spec_5_8_table():
    assert _table_names("5.8") == list(QUEST_DECK)


# -- §6.0: setup, handles and the setup requests ---------------------------------------------------

def _requests(state):
    return [(r.kind, r.deck, r.handles, r.seat, r.contents) for r in state.pending]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup_hands_out_handles_and_asks_for_chance_in_the_spec_order(players):
    state = new_game(players, {})
    port = list(SPACE_PORT_DECK)[:30 - 4] + ["Star-T Ship"] * (4 - players)
    sizes = [79, 108, len(port), 3]
    first = [sum(sizes[:i]) for i in range(4)]
    decks = ["tiles", "refuel", "port", "quests"]
    contents = [SPACE_TILES, REFUEL_DECK, tuple(port), QUEST_DECK]
    want = [("shuffle", d, tuple(range(f, f + n)), None, c) for d, f, n, c in zip(decks, first, sizes, contents)]
    want += [("deal", "refuel", tuple(range(79 + 10 * s, 89 + 10 * s)), s, None) for s in range(players)]
    assert _requests(state) == want
    star_t = sum(sizes)                              # one face-up Star-T per seat, after the quests
    assert [(s.id, s.owner, s.card, s.name) for _, s in sorted(state.ships.items())] == \
        [(seat + 1, seat, star_t + seat, "Star-T Ship") for seat in range(players)]
    assert {h: state.names[h] for h in range(star_t, star_t + players)} == \
        {h: "Star-T Ship" for h in range(star_t, star_t + players)}
    assert state.next_handle == star_t + players


@pytest.mark.parametrize("rookie", [False, True])
def test_role_play_is_a_fifth_shuffle_whose_handles_follow_the_star_t_cards(rookie):
    players = 3
    config = {"role_play": True, "captain_rookie": True} if rookie else {"role_play": True}
    state = new_game(players, config)
    explorers = tuple(c.name for c in CARDS if c.category == EXPLORER)
    refuel = tuple(n for n in REFUEL_DECK if n not in explorers)
    port = [n for n in SPACE_PORT_DECK]
    for _ in range(players):
        port.remove("Star-T Ship")
    if rookie:
        port.remove("Captain Rookie")                 # he leaves the Port deck for the roles
    roles = explorers + (("Captain Rookie",) if rookie else ())
    sizes = [79, len(refuel), len(port), 3]
    first = [sum(sizes[:i]) for i in range(4)]
    star_t = sum(sizes)
    role_handles = tuple(range(star_t + players, star_t + players + len(roles)))
    reqs = _requests(state)
    assert [r[:2] for r in reqs[:4]] == [("shuffle", "tiles"), ("shuffle", "refuel"),
                                         ("shuffle", "port"), ("shuffle", "quests")]
    assert reqs[1][4] == refuel and len(refuel) == 102 and reqs[2][4] == tuple(port)
    assert reqs[2][2] == tuple(range(first[2], first[2] + len(port)))
    assert reqs[4] == ("shuffle", "roles", role_handles, None, roles)
    assert reqs[5] == ("reveal", "roles", role_handles[:players], None, None)
    assert reqs[6:] == [("deal", "refuel", tuple(range(79 + 10 * s, 89 + 10 * s)), s, None) for s in range(players)]
    assert state.next_handle == role_handles[-1] + 1


# -- §11.1: the slug rule ------------------------------------------------------------------------------

def spec_slug(name: str) -> str:
    """SPEC §11.1 written out: lower case, drop ASCII apostrophes, every run of characters other
    than ASCII a-z and 0-9 to one '-', then no '-' at either end."""
    out, run = [], False
    for ch in name.lower().replace("'", ""):
        if "a" <= ch <= "z" or "0" <= ch <= "9":
            out.append(ch)
            run = False
        elif not run:
            out.append("-")
            run = True
    return "".join(out).strip("-")


def test_the_slug_rule_is_as_written_and_names_every_card_tile_and_quest_once():
    cases = {"KC's Star": "kcs-star", "Öorts": "orts", "U.F.O.": "u-f-o", "Very Cold!": "very-cold",
             "99% Pure Atmosphere": "99-pure-atmosphere", "Dr. Nevets Yahsel": "dr-nevets-yahsel",
             "Gavin's Raiders": "gavins-raiders", "Star-T Ship": "star-t-ship"}
    assert {n: slug(n) for n in cases} == cases
    names = [c.name for c in CARDS] + list(QUEST_DECK) + sorted(set(SPACE_TILES))
    assert all(slug(n) == spec_slug(n) for n in names)
    cards = [slug(c.name) for c in CARDS]
    assert len(set(cards)) == len(cards)


# -- §10.4: the state hash, recomputed from the SPEC's description alone ------------------------

def js(value) -> str:
    """The JSON of SPEC §10.4, written out by hand: no whitespace, ASCII with \\u escapes."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        short = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
        out = []
        for ch in value:
            if ch in short:
                out.append(short[ch])
            elif " " <= ch <= "~":
                out.append(ch)
            elif ord(ch) > 0xFFFF:
                v = ord(ch) - 0x10000
                out.append(f"\\u{0xD800 + (v >> 10):04x}\\u{0xDC00 + (v & 0x3FF):04x}")
            else:
                out.append(f"\\u{ord(ch):04x}")
        return '"' + "".join(out) + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(js(v) for v in value) + "]"
    if isinstance(value, dict):      # members in the order given (SPEC: not sorted)
        return "{" + ",".join(js(k) + ":" + js(v) for k, v in value.items()) + "}"
    raise TypeError(type(value))


def sq(square) -> list:
    return [square[0], square[1]]


def spec_hash(state) -> str:
    """SPEC §10.4's 17 members, built from the state's fields (never from `plain()`)."""
    b = state.board
    tiles = [[[c, r], b.tile_at((c, r)).tile.id, b.tile_at((c, r)).rotation]
             for r in range(13) for c in range(13) if b.tile_at((c, r)) is not None]
    suns = [["sun", s.size, [sq(x) for x in s.squares]] for s in b.suns()]
    gone = [["destroyed", sq(x), k] for x, k in b.destroyed_planets()]
    d, v = state.discovery, state.variants
    doc = {
        "players": [[p.seat, p.colour, p.score, list(p.hand), [[sq(x), k] for x, k in p.probes],
                     [sq(x) for x in p.stations], [[sq(x), k] for x, k in p.pirates], list(p.quests),
                     list(p.pile), list(p.continuing), [[k, v] for k, v in sorted(p.breakdown.items())], p.role]
                    for p in state.players],
        "board": tiles + suns + gone,
        "piles": [list(p) for p in state.piles],
        "decks": [[k, list(state.decks[k])] for k in sorted(state.decks)],
        "names": [[h, state.names[h]] for h in sorted(state.names)],
        "next_handle": state.next_handle,
        "ships": [[s.id, s.owner, s.card, s.name, sq(s.square), list(s.extras), list(s.extra_cards)]
                  for s in (state.ships[i] for i in sorted(state.ships))],
        "planets": [[sq(k[0]), k[1], r.owner, r.home, list(r.cards)]
                    for k, r in sorted(state.planets.items(), key=lambda kv: (kv[0][0][0], kv[0][0][1], kv[0][1]))],
        "pending": [[r.kind, r.deck, list(r.handles), r.seat, None if r.contents is None else list(r.contents),
                     None if r.source is None else list(r.source)] for r in state.pending],
        "variants": [[v.nine_planets, v.role_play, v.partnership, v.tiles_per_turn, v.advanced, v.captain_rookie],
                     state.victory, list(state.peeked), state.peek_used, state.energy,
                     list(state.closed_phases), state.phase_used],
        "webs": [sq(x) for x in state.webs],
        "effects": [list(state.automata_seen), state.automata_used, state.bank_used, state.bank_owed],
        "destruction": [None if state.doom is None else [list(state.doom.ships), state.doom.escape,
                                                         state.doom.cards_to, state.doom.cause],
                        [sq(x) for x in state.black_disks]],
        "extras": [list(state.turn_actions), state.only_action, list(state.fresh_extras), state.torpedo_ship,
                   [sq(x) for x in state.torpedo_to], list(state.plunder_from)],
        "specials": [[[p.kind, p.seat, list(p.seats), None if p.action is None else p.action.text(),
                       list(p.targets), p.asked, p.resume] for p in state.polls],
                     list(state.specials_used), state.sneak, state.busy, list(state.skips),
                     [[sq(m[0]), m[1], m[2]] for m in state.meteor], state.terraformed],
        "turn": [state.active, state.phase, state.turn, state.step, state.tiles_owed, list(state.drawn),
                 [sq(x) for x in state.placed_this_turn], state.piece_placed, state.moved, state.moved_ship,
                 state.suns_drawn, list(state.winners), state.tiles_per_turn, state.next_ship],
        "discovery": None if d is None else [sq(d.planet[0]), d.planet[1], d.discoverer, d.ship, d.tile_value,
                                             d.planet_card, d.environment, list(d.life_forms), d.stage, d.scored],
    }
    assert len(doc) == 17
    return hashlib.sha256(js(doc).encode("ascii")).hexdigest()


def test_the_state_hash_known_answer_of_the_spec():
    state = new_game(2, {})
    assert state.hash() == spec_hash(state) == \
        "6629bed58e0860a0bddf736fe062dea70eaa4ddc90872d351945e28bd946b1fb"
    assert "6629bed58e0860a0bddf736fe062dea70eaa4ddc90872d351945e28bd946b1fb" in spec_section("10.4")


def test_the_json_escapes_are_those_of_the_spec():
    assert js("Öorts") == '"\\u00d6orts"' and js('a"\\/\n\x01\U0001F600') == '"a\\"\\\\/\\n\\u0001\\ud83d\\ude00"'
    import json
    for text in ("Öorts", 'a"\\/\n\x01\x7f\U0001F600', "KC's Star"):
        assert js(text) == json.dumps(text, ensure_ascii=True)


def test_every_state_of_two_whole_games_hashes_as_the_spec_describes():
    seen: set[str] = set()       # which rarely filled members the games reached

    def check(state, seat, action):
        assert spec_hash(state) == state.hash(), f"after {action.text()} at step {state.step}"
        assert state.phase != 6 or seat >= 0          # only a player's action ends a game (§26.7)
        seen.update(k for k, filled in [
            ("doom", state.doom is not None), ("polls", state.polls), ("meteor", state.meteor),
            ("webs", state.webs), ("peeked", state.peeked), ("energy", state.energy),
            ("destroyed", state.board.destroyed_planets()), ("over", state.phase == 6),
            ("non-ascii", any("Öorts" in p.pile for p in state.players))] if filled)

    play_game(2, 5, config={"role_play": True, "captain_rookie": True}, on_event=check)
    play_game(3, 4, config={"role_play": True, "advanced": True}, on_event=check)
    assert seen == {"doom", "polls", "meteor", "webs", "peeked", "energy", "destroyed", "over", "non-ascii"}


# -- §26.4: the share context's known answer -------------------------------------------------

def test_the_share_context_known_answer_is_68_bytes():
    from protocol.session.dealing import share_context
    context = share_context(bytes(16), 7, 3)
    assert len(context) == 4 + 24 + 4 + 16 + 4 + 8 + 4 + 4 == 68
    assert "gives the 68 bytes" in " ".join(spec_section("26.4").split())


# -- §47.1: Space Walk's config and the table's turn clock ----------------------------------------

def test_space_walk_takes_the_turn_clock_as_the_spec_says_and_refuses_anything_else():
    from cli.games.space_walk.adapter import SpaceWalkRules
    from protocol.session import GameRuleError
    rules = SpaceWalkRules()
    for config in ({}, {"action_cards": True}, {"action_cards": False}, {"turn_clock": 5},
                   {"turn_clock": 86400, "action_cards": True}):
        assert rules.new_state(2, config) is not None
    assert rules.new_state(2, {"turn_clock": 60}).hash() == rules.new_state(2, {}).hash()  # never in the engine
    for bad in ({"turn_clock": 4}, {"turn_clock": 86401}, {"turn_clock": "60"}, {"turn_clock": True},
                {"action_cards": 1}, {"nine_planets": True}):
        with pytest.raises(GameRuleError):
            rules.new_state(2, bad)


# -- §10.1-§10.2: the order of the cards a reshuffle takes ------------------------------------------

def test_every_reshuffle_takes_its_source_in_the_order_the_spec_gives():
    before: list = [None]
    kinds: set[str] = set()

    def check(state, seat, action):
        prev = before[0]
        old = set() if prev is None else {r.handles for r in prev.pending}
        for r in state.pending:
            if r.source is None or r.handles in old:
                continue
            fresh, source = list(r.handles), list(r.source)
            if r.deck == "refuel":                     # Space Junk, oldest first, into Refuel
                assert source == prev.decks["junk"] and state.decks["junk"] == []
                assert state.decks["refuel"] == fresh[1:] and fresh[0] in state.players[seat].hand
                kinds.add("junk")
            elif r.deck == "port":                     # the Port deck top first, then Captain Rookie
                assert source[:-1] == prev.decks["port"] and state.decks["port"] == fresh
                assert prev.names.get(source[-1]) == "Captain Rookie" or source[-1] not in prev.names
                kinds.add("port")
            else:                                      # a hand, in its order
                holder = next(p.seat for p in prev.players if p.hand == source)
                now = state.players[holder].hand
                if now == fresh:
                    kinds.add("trading post")
                else:                                  # a blind take: position P of the fresh hand
                    position = action.position
                    assert now == fresh[:position] + fresh[position + 1:]
                    assert state.players[seat].hand[-1] == fresh[position]
                    kinds.add("blind take")
        before[0] = state.clone()

    for players, seed in ((4, 3), (3, 8), (2, 5), (4, 0)):
        play_game(players, seed, config={"advanced": True} if players == 3 else {}, on_event=check)
    assert kinds == {"junk", "port", "blind take", "trading post"}


# -- §26.7: how a third party tells that a log's game is over ---------------------------------------

def test_a_finished_log_ends_on_an_action_whose_h_is_the_hash_of_an_over_state(tmp_path, capsys):
    import json
    from cli.games.asv.adapter import AsvRules
    from cli.main import main
    from protocol.session import verify_log
    assert main(["selfplay", "--players", "1", "--seed", "3", "--log-dir", str(tmp_path)]) == 0
    log = json.loads(capsys.readouterr().out.splitlines()[-1])["logs"][0]
    report, session = verify_log(log, AsvRules())
    last = session.chain.events[-1]
    assert report.finished and last.kind == "action" and session.rules.to_move(session.state) is None
    assert session.state.phase == 6 and last.body["h"] == bytes.fromhex(spec_hash(session.state))
    before, _ = verify_log(log, AsvRules(), upto=report.events - 2)      # one record short
    assert before.valid and not before.finished and before.events == report.events - 1


# -- §27.4: which actions claim the hidden cards they play ------------------------------------------

def test_the_actions_that_claim_cards_are_those_spec_27_4_lists():
    from cli.games.asv.adapter import AsvRules
    text = " ".join(spec_section("27.4").split())
    listed = re.search(r"^### §27\.4 Claims (.*?) name the cards they play", text).group(1)
    verbs = sorted(re.findall(r"`([a-z]+)`", listed))
    samples = {"ship": "ship #100:fighter-ship D-4", "upgrade": "upgrade s1 #100:fighter-ship",
               "extra": "extra s1 #100:flash-jets", "discover": "discover #100:pyrrhis 0",
               "binary": "binary #100:galileo E-2/0", "env": "env #100:water",
               "explorer": "explorer #100:gavins-raiders", "special": "special #100:time-warp",
               "teleport": "teleport s3 #100:teleport J-10", "rookie": "rookie #100:captain-rookie s2",
               "life": "life #100:plasma-spores #101:plasma-spores"}
    state, rules = new_game(2, {}), AsvRules()
    assert verbs == sorted(samples)
    for verb, sample in samples.items():
        claims = rules.revealed_cards(state, 0, sample)
        assert [h for h, _ in claims] == ([100, 101] if verb == "life" else [100]), verb
        assert all(label.startswith("card:") for _, label in claims)
    assert rules.revealed_cards(state, 0, "quest #100:trade-mission") == [(100, "quest:Trade Mission")]
    for silent in ("discard #100", "pick #100", "give #100", "bank 1 2", "plunder 1 2", "draw refuel"):
        assert rules.revealed_cards(state, 0, silent) == [], silent
    star_t = state.ships[1].card                     # public from the setup on: no claim
    assert rules.revealed_cards(state, 0, f"upgrade s1 #{star_t}:star-t-ship") == []


def test_a_session_deck_may_repeat_a_label_while_the_poker_layer_refuses_it():
    from cli.games.asv.adapter import AsvRules
    from protocol.crypto import group as g
    from protocol.poker import deck as mp
    from protocol.session.dealing import initial_ciphertexts
    rules, state = AsvRules(), new_game(2, {})
    port = next(r for r in state.pending if r.deck == "port")
    labels = [f"card:{n}" for n in port.contents]
    assert labels.count("card:Fighter Ship") == 8
    table = mp.CardTable(rules.deck_labels())
    deck = initial_ciphertexts(table, g.G, labels)   # any valid point serves as the joint key here
    assert len({ct.c2 for ct in deck}) == len(set(labels)) < len(deck)
    with pytest.raises(mp.DuplicateLabel):
        mp.initial_deck(table, g.G, labels)


# -- §41.3: Space Walk's state hash, from the SPEC's words -------------------------------------------

def sw_spec_hash(state) -> str:
    doc = {"discards": state.discards, "due": state.due, "end": state.end, "events": state.events,
           "extra_turn_seat": state.extra_turn_seat, "hands": state.hands, "last_effect": state.last_effect,
           "lost": state.lost, "orbit": state.orbit.name, "phase": state.phase, "players": state.players,
           "reserve": state.reserve, "scores": state.scores, "seat": state.seat,
           "squares": [sorted([rank, seat] for rank, seat in ships) for ships in state.squares],
           "token_used": state.token_used, "tokens": state.tokens, "turns": state.turns,
           "variant": state.variant, "window": state.window, "winners": state.winners}
    assert len(doc) == 21
    ordered = dict(sorted(doc.items()))
    return hashlib.sha256(b"space-walk/state\0" + js(ordered).encode("ascii")).hexdigest()


def test_space_walk_states_hash_as_the_spec_describes():
    from space_walk.selfplay import play_game as sw_play
    from space_walk.state import new_game as sw_new
    want = "0f73c6408935b5f1ce11263e230226a2139ecf06ab2eaf839a864c6f56eba5d2"
    assert sw_new(2, {}).hash() == sw_spec_hash(sw_new(2, {})) == want and want in spec_section("41.3")
    phases: set[str] = set()

    def check(state, seat, action):
        assert sw_spec_hash(state) == state.hash()
        phases.add(state.phase)

    sw_play(3, 1, on_event=check)
    sw_play(2, 2, config={"action_cards": True}, on_event=check)
    assert phases == {"place", "play", "over"}


def test_the_turn_clock_never_reaches_the_amazing_space_venture_engine():
    from cli.games.asv.adapter import AsvRules
    rules = AsvRules()
    assert rules.new_state(2, {"turn_clock": 60, "nine_planets": True}).hash() == \
        rules.new_state(2, {"nine_planets": True}).hash()


# -- §27.3: every deck and the requests made of it ------------------------------------------------------

def test_whole_games_make_only_the_deck_requests_spec_27_3_lists():
    rows = [line.split("|") for line in spec_section("27.3").splitlines() if line.startswith("| `")]
    listed = {(kind, cell[1].strip().strip("`")) for cell in rows
              for kind in ("shuffle", "reveal", "deal") if re.search(rf"\b{kind}\b", cell[2])}
    sourced = {cell[1].strip().strip("`") for cell in rows if "with `source`" in cell[2]}
    seen: set[tuple[str, str]] = set()
    with_source: set[str] = set()

    def note(state, seat, action):
        for r in state.pending:
            seen.add((r.kind, r.deck))
            if r.source is not None:
                with_source.add(r.deck)

    for players, seed, config in ((4, 0, {}), (3, 4, {"role_play": True, "advanced": True}), (2, 5, {})):
        play_game(players, seed, config=config, on_event=note)
    seen.update((r.kind, r.deck) for r in new_game(3, {"role_play": True}).pending)   # setup's own
    assert seen == listed and with_source == sourced
