"""The information-set search bot (SPEC §12.3): it reads only its own view, its worlds agree
with that view, its budget is an iteration count (or a clock the caller passes), and it plays
every variant (SPEC §13) to the end."""
from __future__ import annotations

from collections import Counter
from dataclasses import fields

import pytest

from cli.errors import UserError

from p2p_asv.actions import DrawTile
from p2p_asv.bots import BOTS, GreedyBot
from p2p_asv.dealer import LocalDealer
from p2p_asv.engine import apply, legal_actions, to_move
from p2p_asv.search import SearchBot
from p2p_asv.search.determinise import sample_identities, setup_layout
from p2p_asv.search.rng import FastRandom
from p2p_asv.selfplay import play_game
from p2p_asv.setup import new_game
from p2p_asv.state import CHANCE
from p2p_asv.tiles import SPACE_TILES
from p2p_asv.variants import Variants
from p2p_asv.view import PlayerView


def real_choice(state, view) -> bool:
    """More than one legal action, and more than which face-down pile to draw a tile from."""
    options = legal_actions(state, view)
    return len(options) > 1 and not all(type(a) is DrawTile for a in options)


def greedy_until(players: int, seed: int, turn: int, config=None):
    """A greedy game stopped at seat 0's first real choice from `turn` on."""
    state, dealer = new_game(players, config), LocalDealer(seed)
    views = [PlayerView(s) for s in range(players)]
    bots = [GreedyBot(f"{seed}/{s}") for s in range(players)]
    while not (state.turn >= turn and to_move(state) == 0 and real_choice(state, views[0])):
        seat = to_move(state)
        action = dealer.outcome(state, views) if seat == CHANCE else bots[seat].choose(state, views[seat])
        apply(state, seat, action)
    return state, views, dealer


def test_search_is_a_registered_bot():
    assert BOTS["search"] is SearchBot


def test_a_world_keeps_what_the_view_knows_and_each_deck_keeps_its_contents():
    state, views, dealer = greedy_until(3, 5, 12)
    view = views[0]
    identity = sample_identities(state, view, FastRandom(1))
    for h, name in list(state.names.items()) + list(view.known.items()):
        if h in identity:
            assert identity[h] == name
    for h in state.players[0].hand:
        assert identity[h] == view.known[h]
    groups, _ = setup_layout(3, state.variants)
    for deck, handles, contents in groups:
        assert Counter(identity[h] for h in handles) == Counter(contents), deck
    drawn = Counter(state.names[h] for h in range(len(SPACE_TILES)) if h in state.names)
    unseen = Counter(identity[h] for pile in state.piles for h in pile)
    assert unseen == Counter(SPACE_TILES) - drawn
    # the hidden cards really are drawn afresh: another rng gives other opponents' hands
    other = sample_identities(state, view, FastRandom(2))
    theirs = [h for p in state.players[1:] for h in p.hand]
    assert [identity[h] for h in theirs] != [other[h] for h in theirs]


def _swap_hidden(views, dealer, state):
    """Another true state the seat-0 view cannot tell apart: two opponents' hidden cards and
    the top of Refuel change places (same public state, same seat-0 view)."""
    a, b = state.players[1].hand[0], state.players[2].hand[0]
    c = state.decks["refuel"][0]
    ident = dict(dealer.identity)
    ident[a], ident[b], ident[c] = ident[b], ident[c], ident[a]
    other_views = [PlayerView(0, dict(views[0].known))]
    for seat in (1, 2):
        known = {h: ident[h] for h in views[seat].known if h in ident}
        other_views.append(PlayerView(seat, known))
    return ident, other_views


def test_the_choice_is_the_same_for_true_states_the_view_cannot_tell_apart():
    state, views, dealer = greedy_until(3, 11, 8)
    ident_b, views_b = _swap_hidden(views, dealer, state)
    assert ident_b != dealer.identity and views_b[1].known != views[1].known
    state_b = state.clone()
    assert state_b.hash() == state.hash() and views_b[0].known == views[0].known
    before = (state.hash(), dict(views[0].known))
    bot_a, bot_b = SearchBot("same-seed", iterations=12), SearchBot("same-seed", iterations=12)
    choice_a, choice_b = bot_a.choose(state, views[0]), bot_b.choose(state_b, views_b[0])
    assert choice_a == choice_b
    assert bot_a.last_actions == bot_b.last_actions > 0   # the very same simulations, too
    assert (state.hash(), dict(views[0].known)) == before  # nothing it was shown was changed


def test_same_seed_and_iterations_give_the_same_choice_and_the_cap_holds():
    state, views, _ = greedy_until(2, 3, 6)
    picks = set()
    for _ in range(2):
        bot = SearchBot("seed-a", iterations=9, clock=lambda: 0.0, think=5.0)  # clock never runs out
        picks.add(bot.choose(state, views[0]))
        assert bot.last_iterations == 9 and bot.last_actions > 0
    assert len(picks) == 1


def test_the_clock_ends_thinking_and_one_legal_action_is_instant():
    ticks = iter(range(1000))
    bot = SearchBot("t", think=3.0, clock=lambda: next(ticks))
    state, views, _ = greedy_until(2, 4, 5)
    bot.choose(state, views[0])
    assert 1 <= bot.last_iterations <= 3  # each tick is a second: 3 s run out after three checks
    state, dealer = new_game(3), LocalDealer(9)
    views = [PlayerView(s) for s in range(3)]
    greedy = GreedyBot("g")
    while True:  # the first position where the seat to move has one legal action (e.g. a pass)
        seat = to_move(state)
        if seat == CHANCE:
            apply(state, seat, dealer.outcome(state, views))
            continue
        if len(legal_actions(state, views[seat])) == 1:
            break
        apply(state, seat, greedy.choose(state, views[seat]))
    bot = SearchBot("t", think=3.0, clock=lambda: next(ticks))
    assert bot.choose(state, views[seat]) == legal_actions(state, views[seat])[0]
    assert bot.last_iterations == 0


def test_an_engine_failure_in_a_world_ends_that_playout_not_the_decision(monkeypatch):
    """A world can hold what the true game cannot (a second copy of a one-copy card drawn for
    a reshuffled handle), and a rule's effect may then fail with a plain error (a second Space
    Virus raised ValueError in benchmarks/search_speed.py). The playout is scored where it
    stopped and the search goes on (SPEC §12.3)."""
    from p2p_asv.search import world as world_module
    state, views, _ = greedy_until(2, 3, 6)
    real_apply, calls = world_module.apply, [0]

    def flaky_apply(state, seat, action):
        calls[0] += 1
        if calls[0] % 5 == 0:
            raise ValueError("list.remove(x): x not in list")
        return real_apply(state, seat, action)

    monkeypatch.setattr(world_module, "apply", flaky_apply)
    bot = SearchBot("impossible", iterations=30)
    assert bot.choose(state, views[0]) in legal_actions(state, views[0])
    assert bot.last_iterations == 30 and calls[0] >= 30


def test_legal_actions_skip_only_special_cards_that_no_argument_makes_legal(monkeypatch):
    """SPEC §11.2: legal_actions drops a Special Action card that check_card refuses before
    listing its arguments (a third of the search bot's time went to listing them in windows
    they cannot fit). Without that shortcut (each candidate then runs the card's whole check,
    not only its argument checks) every list is the same, position after position."""
    from p2p_asv import special_legal, special_rules
    real_check_card, skipped = special_legal.check_card, [0]

    def counting(*args):
        try:
            real_check_card(*args)
        except Exception:
            skipped[0] += 1
            raise

    state, dealer = new_game(4), LocalDealer(13)
    views = [PlayerView(s) for s in range(4)]
    bots = [GreedyBot(f"13/{s}") for s in range(4)]
    while state.step < 600 and not state.over:
        seat = to_move(state)
        if seat == CHANCE:
            apply(state, seat, dealer.outcome(state, views))
            continue
        monkeypatch.setattr(special_legal, "check_card", counting)
        monkeypatch.setattr(special_legal, "check_args", special_rules.check_args)
        fast = legal_actions(state, views[seat])
        monkeypatch.setattr(special_legal, "check_card", lambda *args: None)
        monkeypatch.setattr(special_legal, "check_args", special_rules.check)
        assert legal_actions(state, views[seat]) == fast, state.step
        apply(state, seat, bots[seat].choose(state, views[seat]))
    assert skipped[0] > 50   # the shortcut was taken, and often


VARIANT_GAMES = [
    (2, {}), (1, {"nine_planets": True}), (3, {"role_play": True, "nine_planets": True}),
    (4, {"partnership": True, "tiles_per_turn": 3}), (2, {"advanced": True, "role_play": True}),
]


def _every_variant() -> list:
    """The games above plus one for each on/off option they miss, so a variant added to
    Variants later (SPEC §13) is played here without editing this list: alone if it may be,
    else added to the first game above that it fits (an option may need another)."""
    covered = {key for _, config in VARIANT_GAMES for key in config}
    games = list(VARIANT_GAMES)
    for f in fields(Variants):
        if f.name in covered or not isinstance(getattr(Variants(), f.name), bool):
            continue
        for players, config in [(2, {})] + VARIANT_GAMES:
            config = {**config, f.name: True}
            try:
                Variants.from_config(config).check_players(players)
            except ValueError:
                continue
            games.append((players, config))
            break
        else:
            raise AssertionError(f"no game fits the option {f.name}; add one to VARIANT_GAMES")
    return games


@pytest.mark.parametrize("players, config", _every_variant(),
                         ids=lambda v: f"{v}p" if isinstance(v, int) else "+".join(v) or "basic")
def test_the_search_bot_plays_every_variant_to_the_end(players, config):
    kinds = ["search"] + ["greedy"] * (players - 1)
    state, summary = play_game(players, 21, kinds, config=config, bot_options={"iterations": 1, "horizon": 0})
    assert state.over and summary["bots"] == kinds


# -- everywhere a bot goes (SPEC §12.2, §12.3) ------------------------------------------------
def test_asv_selfplay_seats_a_search_bot_per_seat():
    from cli.commands.selfplay import bot_list, bot_options
    from cli.main import build_parser, main
    args = build_parser().parse_args(["selfplay", "--bots", "search,greedy,greedy,greedy",
                                      "--iterations", "7"])
    assert bot_list(args.bots, 4) == ["search", "greedy", "greedy", "greedy"]
    assert bot_options(args) == {"iterations": 7}   # no clock: reproducible (SPEC §12.2)
    args = build_parser().parse_args(["selfplay", "--bots", "search", "--think", "0.2"])
    assert bot_options(args)["think"] == 0.2 and callable(bot_options(args)["clock"])
    for bad in (["--iterations", "0"], ["--think", "0"], ["--bots", "search,deep"]):
        assert main(["selfplay", "--players", "2", "--bots", "search,greedy"] + bad) == 1


class _Budget(Exception):
    """Raised by the recording choose below to stop a logged game after one searched decision."""


@pytest.mark.parametrize("flags, expect", [(["--iterations", "3"], (3, None)), (["--think", "0.01"], (None, 0.01))])
def test_asv_selfplay_log_dir_gives_the_search_bot_its_budget(flags, expect, tmp_path, monkeypatch):
    """SPEC §12.2: --iterations and --think reach the search bots of a logged selfplay too."""
    from cli.main import main
    choose = SearchBot.choose

    def recording(bot, state, view):
        action = choose(bot, state, view)
        if bot.last_iterations:   # the first decision it searched
            raise _Budget(bot.iterations, bot.think if bot.clock is not None else None, bot.last_iterations)
        return action

    monkeypatch.setattr(SearchBot, "choose", recording)
    with pytest.raises(_Budget) as seen:
        main(["selfplay", "--players", "1", "--bots", "search", "--log-dir", str(tmp_path)] + flags)
    iterations, think, done = seen.value.args
    assert (iterations, think) == expect
    assert done == 3 if iterations else done >= 1


def test_the_networked_bot_agent_and_the_host_flags_take_the_search_bot():
    from cli.main import build_parser
    from cli.netplay.wiring import seat_agent
    args = build_parser().parse_args(["host", "--seats", "3", "--bots", "2", "--bot-kind", "search",
                                      "--think", "0.05"])
    assert args.bot_kind == "search" and args.think == 0.05
    args = build_parser().parse_args(["join", "127.0.0.1:1/00/00", "--bot", "search"])
    assert args.bot == "search" and args.think == 1.0
    state, views, _ = greedy_until(2, 8, 3)
    agent = seat_agent("search", "tag", 0.05)
    assert agent(state, views[0]) in {a.text() for a in legal_actions(state, views[0])}
    with pytest.raises(UserError):
        seat_agent("search", "tag", 0.0)


def test_asv_play_puts_search_bots_in_the_other_seats():
    from cli.commands.play import bot_kinds
    from cli.repl.local import LocalGame
    from cli.main import build_parser
    args = build_parser().parse_args(["play", "--bot", "search", "--think", "0.01"])
    assert bot_kinds(args.bots, 2, 1) == ["search", None] and args.think == 0.01
    game = LocalGame(2, 1, 5, ["search", None], think=0.01)
    assert game.labels == ["search bot", "you"]
    happened = game.wait_for_turn()   # the search bot plays seat 0's whole first turn
    assert game.my_turn() and any(h.seat == 0 for h in happened)


# Seed 4, four seats, every seat a 12-iteration search bot: seat 2's decision after these 26
# moves crashed ("not an action: None"). Seat 1 had just moved onto an undiscovered planet,
# which claims a planet card in public, but seat 2's worlds dealt seat 1 a hand without one, so
# seat 1 had no legal action in them.
CRASH_MOVES = [
    (0, "draw-tile 4"), (0, "draw-tile 1"), (0, "place #0 D-11 r3"), (0, "place #60 M-2 r0"),
    (0, "pirate D-11/0"), (0, "special #85:science-outpost @3"), (1, "special #93:peace-talks"),
    (2, "pass"), (3, "pass"), (0, "pass"), (0, "next"), (0, "next"), (0, "next"), (0, "draw refuel"),
    (0, "next"), (1, "special #91:troika-summit J-10/0 s2"), (2, "pass"), (3, "pass"), (0, "pass"),
    (1, "draw-tile 1"), (1, "draw-tile 1"), (1, "place #2 J-9 r1"), (1, "place #1 J-11 r1"),
    (1, "station J-11"), (1, "next"), (1, "move s2 J-9"),
]


def test_a_seat_that_moved_onto_an_undiscovered_planet_holds_a_planet_card_in_every_world():
    """SPEC §12.3: a determinisation keeps the public claim of a planet card (SPEC §7.1)."""
    from p2p_asv.cards import CARD_BY_NAME, PLANET
    from p2p_asv.engine import parse_action
    state, dealer = new_game(4), LocalDealer(4)
    views = [PlayerView(s) for s in range(4)]
    moves = list(CRASH_MOVES)
    while moves or to_move(state) == CHANCE:
        seat = to_move(state)
        if seat == CHANCE:
            apply(state, seat, dealer.outcome(state, views))
            continue
        expected_seat, text = moves.pop(0)
        assert seat == expected_seat
        apply(state, seat, parse_action(text))
    assert to_move(state) == 2 and state.discovery.discoverer == 1
    for k in range(30):
        identity = sample_identities(state, views[2], FastRandom("claim", str(k)))
        assert any(CARD_BY_NAME[identity[h]].category == PLANET for h in state.players[1].hand)
    choice = SearchBot("4/2", iterations=12).choose(state, views[2])
    assert choice in legal_actions(state, views[2])


def test_fast_random_below_is_next64_modulo_n():
    """SPEC §12.3: `below` writes SplitMix64 out for speed; it must draw the very numbers
    next64() % n would, or a fixed seed and iteration count would choose differently."""
    a, b = FastRandom("seed", "stream"), FastRandom("seed", "stream")
    for n in [1, 2, 3, 7, 10, 52, 1000, 2 ** 40 + 3] * 25:
        assert a.below(n) == b.next64() % n
    items_a, items_b = list(range(30)), list(range(30))
    a.shuffle(items_a)
    for i in range(len(items_b) - 1, 0, -1):
        j = b.next64() % (i + 1)
        items_b[i], items_b[j] = items_b[j], items_b[i]
    assert items_a == items_b and a.choice("abcdef") == "abcdef"[b.next64() % 6]
