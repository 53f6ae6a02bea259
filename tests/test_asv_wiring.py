"""Amazing Space Venture through the session (SPEC §27): selfplay with logs, the card
table, chance requests, claims and private views."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.games import kit_for
from cli.games.asv.adapter import AsvRules, label_for
from cli.main import main
from protocol.session import CHANCE, ClaimMismatch, GameRuleError
from tests.session_helpers import craft, make_peers, run_until, writer

bot_agent = kit_for("asv").agent   # a session Agent for a bot seat

RULES = AsvRules()


def selfplay(tmp_path: Path, players: int, capsys) -> dict:
    assert main(["selfplay", "--players", str(players), "--seed", "3", "--log-dir", str(tmp_path)]) == 0
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


# three-seat logged games are played over TCP in test_network_cli; two seats keep this fast
@pytest.mark.parametrize("players", [2])
def test_selfplay_logs_verify_with_one_head(tmp_path, capsys, players):
    summary = selfplay(tmp_path, players, capsys)
    logs = sorted(tmp_path.glob("*.asvlog"))
    assert len(logs) == players and summary["heads_agree"] and summary["finished"]
    assert sorted(Path(p) for p in summary["logs"]) == logs
    for log in logs:
        assert oct(Path(str(log) + ".secrets").stat().st_mode & 0o777) == "0o600"
        assert main(["verify", str(log), "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["valid"] and report["finished"]
        assert report["head"] == summary["head"] and report["scores"] == summary["scores"]
        assert report["events"] == summary["events"]
    assert len({log.read_bytes() for log in logs}) == 1   # identical events, identical files


def test_card_table_labels_are_distinct_and_cover_every_deck():
    labels = RULES.deck_labels()
    assert len(labels) == len(set(labels))
    state = RULES.new_state(2, {})
    for request in state.pending:
        if request.contents:
            assert all(label_for(request.deck, n) in labels for n in request.contents)
    prefixes = {lab.split(":")[0] for lab in labels}
    assert prefixes == {"card", "tile", "quest"}


def test_pending_chance_and_outcomes_translate_labels():
    state = RULES.new_state(2, {})
    req = RULES.pending_chance(state)
    assert req.kind == "shuffle" and req.deck == "tiles" and req.labels[0].startswith("tile:")
    assert RULES.chance_outcome(state, req, []) == "chance shuffle tiles"
    with pytest.raises(GameRuleError):
        RULES.apply_action(state, CHANCE, "chance  shuffle tiles")   # not canonical
    with pytest.raises(GameRuleError):
        RULES.new_state(2, {"variant": 1})


def test_revealed_cards_lists_only_hidden_played_cards():
    state = RULES.new_state(2, {})
    hidden = state.players[0].hand[0]
    assert RULES.revealed_cards(state, 0, f"ship #{hidden}:fighter-ship D-4") == [(hidden, "card:Fighter Ship")]
    public = next(s.card for s in state.ships.values())
    assert RULES.revealed_cards(state, 0, f"ship #{public}:star-t-ship D-4") == []
    assert RULES.revealed_cards(state, 0, "draw-tile 1") == []
    # A quest scored from the hidden quest deck is a claim too, proven against its own label.
    quest = state.decks["quests"][0]
    assert RULES.revealed_cards(state, 0, f"quest #{quest}:trade-mission") == [(quest, "quest:Trade Mission")]


def _to_first_player_action(peers):
    run_until(peers, lambda: peers[0].phase == "play" and RULES.to_move(peers[0].state) != CHANCE)


def test_views_hold_exactly_the_dealt_hand_and_claims_are_proved():
    peers = make_peers(RULES, 2, agent_for=lambda k: bot_agent("greedy", f"t/{k}"))
    _to_first_player_action(peers)
    for p in peers:
        assert sorted(p.view.known) == sorted(p.state.players[p.seat].hand)
        other = p.state.players[1 - p.seat].hand
        assert not set(p.view.known) & set(other)
    actor = writer(peers)
    hand = actor.state.players[actor.seat].hand
    h = hand[0]
    real = actor.view.known[h]
    lie = "Water" if real != "Water" else "Methane Mix"
    from p2p_asv.actions import PlayEnvironment
    share = actor.book.make_claim_share(actor._key, actor.chain.height, actor.seat, h)
    wire = craft(actor, body={"a": PlayEnvironment(h, lie).text(), "p": [share]})
    other = next(p for p in peers if p is not actor)
    with pytest.raises(ClaimMismatch) as exc:
        other.receive(wire)
    assert exc.value.author == actor.me


def test_binary_system_second_planet_card_is_a_proven_claim():
    state = RULES.new_state(2, {})
    hidden = state.players[0].hand[0]
    assert RULES.revealed_cards(state, 0, f"binary #{hidden}:galileo E-2/0") == [(hidden, "card:Galileo")]


def test_pirate_crew_take_over_the_session_reshuffles_the_hand_and_keeps_it_hidden():
    """SPEC §15.7 over mental poker: the victim's hand is reshuffled under fresh handles, the
    taker learns only the card taken, the victim learns its new handles, nobody else more."""
    from p2p_asv import actions as A
    from p2p_asv.engine import legal_actions
    from p2p_asv.geometry import parse_square
    from p2p_asv.state import PlanetRecord
    from p2p_asv.tile_model import DEEP, Tile
    e5 = parse_square("E-5")
    greedy = [bot_agent("greedy", f"crew/{k}") for k in range(2)]

    def agent_for(k):
        def choose(state, view):
            legal = legal_actions(state, view)
            for wanted in (A.Plunder(1, 2), A.Move(1, e5)):
                if wanted in legal:
                    return wanted.text()
            # Nothing optional before the take: a greedy move, laser, torpedo or Special Action
            # card could carry off or destroy the rigged ships (seen in about 1 game in 20).
            calm = [a for a in legal if isinstance(a, (A.Next, A.Pass, A.DrawTile))]
            return calm[0].text() if calm else greedy[k](state, view)
        return choose

    peers = make_peers(RULES, 2, agent_for=agent_for)
    _to_first_player_action(peers)
    for p in peers:   # the same rigged position on every peer: Pirate Crew aboard, a ship to rob
        s = p.state
        s.board.place(Tile("t-e5", "planet", 1, (DEEP,) * 4, planets=(1,)), e5, 0, setup=True)
        s.planets[(e5, 0)] = PlanetRecord(1, False)
        s.ships[1].extras.append("Pirate Crew")
        s.ships[1].extra_cards.append(10_000)
        s.ships[2].square = e5
    taker, victim = sorted(peers, key=lambda p: p.seat)
    # the victim's hand just before the take: it may play a turn first (the seat order is drawn)
    run_until(peers, lambda: A.Plunder(1, 2) in legal_actions(taker.state, taker.view))
    victim_before = {h: victim.view.known[h] for h in victim.state.players[1].hand}
    run_until(peers, lambda: "plunder" in taker.state.turn_actions and not taker.state.pending)
    state = taker.state
    taken = state.players[0].hand[-1]
    new_hand = state.players[1].hand
    assert len({p.state_hash() for p in peers}) == 1
    assert not set(victim_before) & set(new_hand + [taken])          # all handles are fresh
    assert sorted([victim.view.known[h] for h in new_hand] + [taker.view.known[taken]]) == \
        sorted(victim_before.values())                               # the same cards, one moved
    assert taken not in victim.view.known and not set(new_hand) & set(taker.view.known)


def test_city_of_banks_over_the_session_takes_blind_after_a_proven_reshuffle():
    """SPEC §8.10 over mental poker (§27.3): the holder's hand is reshuffled with a proof from
    every seat, the banker names a position and learns only the card taken, the holder learns
    which card left and which came back, and the third seat learns neither."""
    from p2p_asv import actions as A
    from p2p_asv.engine import legal_actions
    greedy = [bot_agent("greedy", f"bank/{k}") for k in range(3)]

    def agent_for(k):
        def choose(state, view):
            legal = legal_actions(state, view)
            gives = [a for a in legal if isinstance(a, A.BankGive)]
            if view.seat == 0 and (A.Bank(1, 2) in legal or gives):
                return (min(gives) if gives else A.Bank(1, 2)).text()   # an old card, not the one taken
            return greedy[k](state, view)
        return choose

    peers = make_peers(RULES, 3, agent_for=agent_for)
    _to_first_player_action(peers)
    for p in peers:   # the same rigged position on every peer: seat 0 owns City of Banks
        p.state.players[0].continuing.append("City of Banks")
    banker, holder, third = sorted(peers, key=lambda p: p.seat)
    run_until(peers, lambda: "bank" in banker.state.turn_actions)
    request = banker.state.pending[0]
    assert (request.kind, request.deck) == ("shuffle", "hand")

    def label(peer, h):   # what the seat knows of a card: its view, or a public face (SPEC §10.2)
        return peer.view.known[h] if h in peer.view.known else peer.state.names[h]
    before = {h: label(holder, h) for h in request.source}          # the hand as it was
    third_before = dict(third.view.known)   # what it knew already (a card once face up, say)
    checked = [p.book.shuffles_checked for p in peers]
    run_until(peers, lambda: "give" in banker.state.turn_actions and not banker.state.pending)
    assert [p.book.shuffles_checked - c for p, c in zip(peers, checked)] == [2, 2, 2]  # each other seat's proof
    state = banker.state
    assert len({p.state_hash() for p in peers}) == 1
    taken = request.handles[2]                                      # the position named
    assert taken in state.players[0].hand
    given = state.players[1].hand[-1]
    kept = [h for h in state.players[1].hand if h != given]
    assert not set(before) & set(kept + [taken])                    # all handles are fresh
    assert sorted([holder.view.known[h] for h in kept] + [banker.view.known[taken]]) == \
        sorted(before.values())                                     # the same cards, one moved
    assert taken not in holder.view.known and taken not in third.view.known and taken not in state.names
    assert not set(kept) & (set(banker.view.known) | set(third.view.known) | set(state.names))
    assert label(holder, given) == label(banker, given)
    assert given not in third.view.known or given in third_before, "the third seat learned the card given"
