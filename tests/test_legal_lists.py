"""legal_actions lists every many-card choice that apply accepts (SPEC §11.2): each set of
cards is tried through apply on a copy, and the accepted ones must be exactly those listed."""
from __future__ import annotations

from itertools import combinations

import tests.test_specials as S
from tests.helpers_engine import DISCARD, REFILL
from p2p_asv import actions as A
from p2p_asv.engine import apply
from p2p_asv.errors import IllegalAction


def _subsets(cards) -> list[tuple]:
    cards = sorted(cards)
    return [c for n in range(1, len(cards) + 1) for c in combinations(cards, n)]


def _accepted(g, seat: int, candidates) -> set:
    out = set()
    for action in candidates:
        try:
            apply(g.state.clone(), seat, action)
        except IllegalAction:
            continue
        out.add(action)
    return out


def _listed(g, seat: int, kind, name=None) -> set:
    return {a for a in g.legal(seat) if isinstance(a, kind) and (name is None or a.name == name)}


def test_every_trading_post_gift_is_listed():
    """SPEC §14.9: any set of one's other cards, to any seat but a partner, no more cards than
    that seat holds. Seat 1 holds two cards, so the gifts of three and four are refused."""
    g = S.game(3, [["Trading Post"], [], []])
    g.tiles(away=[S.HOME])
    g.to_phase(REFILL)
    state = g.state
    post = g.hand_named(0, "Trading Post")
    state.players[0].hand = [post] + [h for h in state.players[0].hand if h != post][:4]
    del state.players[1].hand[2:]
    others = [h for h in state.players[0].hand if h != post]
    candidates = [A.PlaySpecial(post, "Trading Post", (f"@{seat}",) + tuple(f"#{h}" for h in gift))
                  for seat in (1, 2) for gift in _subsets(others)]
    accepted = _accepted(g, 0, candidates)
    assert len(accepted) == (4 + 6) + 15                  # seat 1: gifts of 1 or 2; seat 2: any
    assert _listed(g, 0, A.PlaySpecial, "Trading Post") == accepted


def test_every_trading_post_gift_of_a_full_hand_is_listed_once():
    g = S.game(4, [["Trading Post"], [], [], []])
    g.tiles(away=[S.HOME])
    g.to_phase(REFILL)
    gifts = [a for a in g.legal(0) if isinstance(a, A.PlaySpecial) and a.name == "Trading Post"]
    assert len(gifts) == 3 * (2 ** 9 - 1)                 # nine other cards, three other seats
    assert len({(a.args[0], frozenset(a.args[1:])) for a in gifts}) == len(gifts)


def test_every_espionage_discard_is_listed():
    g = S.shift_ready(2, [["Espionage"], []])
    del g.state.players[1].hand[5:]                       # five cards: three must go
    g.act(S.special(g, 0, "Espionage", "@1"))
    S.pass_window(g)
    hand = g.state.players[1].hand
    accepted = _accepted(g, 1, [A.Discard(c) for c in _subsets(hand)])
    assert len(accepted) == 10 and all(len(a.cards) == 3 for a in accepted)
    assert set(g.legal(1)) == accepted


def test_every_alien_artifact_discard_is_listed():
    g = S.game(2, [[], []])
    g.state.players[0].continuing.append("Alien Artifact")
    g.tiles(away=[S.HOME])
    g.to_phase(DISCARD)
    del g.state.players[0].hand[5:]
    accepted = _accepted(g, 0, [A.Discard(c) for c in _subsets(g.state.players[0].hand)])
    assert len(accepted) == 31 and _listed(g, 0, A.Discard) == accepted


def test_every_set_of_plasma_spores_is_listed():
    """SPEC §8.1: one life form, or any number of Plasma Spores together."""
    g = S.land(2, "p2-a", [["Cephei", "Plasma Spores", "Plasma Spores", "Plasma Spores", "Embassy"], []])
    S.discover(g, "Cephei")
    S.pass_window(g)
    while g.state.discovery.stage == "environment":
        g.act(A.Pass())
    assert g.seat == 0 and g.state.discovery.stage == "life_form"
    lifes = [(h, g.views[0].known[h]) for h in sorted(g.state.players[0].hand)
             if g.views[0].known[h] in ("Plasma Spores", "Embassy")]
    accepted = _accepted(g, 0, [A.PlayLifeForms(c) for c in _subsets(lifes)])
    assert len(accepted) == 4 + 3 + 1                     # each alone, spores two or three together
    assert _listed(g, 0, A.PlayLifeForms) == accepted


def test_every_troika_summit_meeting_is_listed():
    """SPEC §11.2, §14.6: Troika Summit's list judges each planet and ship once instead of each
    combination; it must still be exactly the combinations apply accepts. Four seats, seat 1's
    home planet webbed, seat 2's ship (and home planet) under a Meteor Shower."""
    g = S.shift_ready(4, [["Troika Summit"], [], [], []])
    state = g.state
    homes = {r.owner: sq for (sq, _), r in sorted(state.planets.items())}
    state.webs.append(homes[1])
    frozen = next(s for s in state.ships.values() if s.owner == 2)
    state.meteor.append([frozen.square, 0, 3])
    troika = g.hand_named(0, "Troika Summit")
    ships = {seat: [f"s{s.id}" for s in state.ships_of(seat)] for seat in range(4)}
    planets = [f"{S.square_name(sq)}/{i}" for sq, i in sorted(state.planets)]
    candidates = [A.PlaySpecial(troika, "Troika Summit", (p, m) + guests)
                  for p in planets for m in ships[0]
                  for guests in [()] + [(s,) for o in (1, 2, 3) for s in ships[o]]
                  + [(a, b) for x, y in combinations((1, 2, 3), 2) for a in ships[x] for b in ships[y]]]
    accepted = _accepted(g, 0, candidates)
    assert accepted and len(accepted) < len(candidates)
    assert all(not a.args[0].startswith(S.square_name(sq) + "/") for sq in (homes[1], frozen.square)
               for a in accepted)
    assert all(f"s{frozen.id}" not in a.args for a in accepted)
    assert _listed(g, 0, A.PlaySpecial, "Troika Summit") == accepted
