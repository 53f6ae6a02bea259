"""An adversarial review of the session protocol (SPEC §26, §27, §29.6): hostile bodies,
kinds, claims, openings, aborts and decks. Every hostile event must be refused with a
typed EventError naming its author, leaving the replica, its chain and its log as they
were; a valid event that exposes a corrupted deck is logged and halts every peer alike."""
from __future__ import annotations

import copy
import os

import pytest

from protocol.crypto import commit_reveal as cr
from protocol.crypto import group as g
from protocol.poker import deck as mp
from protocol.session import (
    ABORT_KIND, CHANCE, EXIT_INVALID, HASHED_PHASES, BadBody, BadKeyShare,
    BadShare, BadShuffle, BadShuffleProof, DeckCorrupted, DeckRequest, GameRuleError, IllegalMove,
    OpeningMismatch, Session, SessionPeer, UnexpectedKind, run_local, verify_log,
)
from protocol.errors import EventError
from protocol.log import sign_event
from protocol.crypto import fingerprint
from tests.session_helpers import craft, make_peers, refused, run_until, step, writer
from tests.toy_game import ToyRules, play_own_card

RULES = ToyRules()


def toy(n, tmp_path=None, **kw):
    return make_peers(RULES, n, agent_for=lambda k: play_own_card,
                      log_dir=str(tmp_path) if tmp_path is not None else None, **kw)


def until(peers, kind):
    run_until(peers, lambda: writer(peers).pending_obligation() == kind)
    return writer(peers)


# -- every field of every event, mistyped, missing or extra (SPEC §26.3) --------------------------
HOSTILE_VALUES = [None, True, -1, 2 ** 63 - 1, -2 ** 63, "x", "", b"", bytes(32), bytes(96),
                  bytes(64) * 7, [], [b""], [bytes(96)] * 3, [[0, b""]], [[-1, bytes(40)]], {},
                  {"a": 1}, [None], [[0]], [[True, b""]], "é" * 600]
KINDS = ["hello", "seat-commit", "seat-reveal", "key-commit", "key-reveal", "action", "shuffle",
         "shares", "open", ABORT_KIND, "chance"]


def _valid_by_design(kind, field, value):
    """Mutations that are themselves valid events: a free name, any 32-byte commitment."""
    if (kind, field) == ("hello", "name"):
        return isinstance(value, str) and len(value) <= 64
    return kind in ("seat-commit", "key-commit") and field == "c" and value == bytes(32)


def _mutations(kind, base):
    for field in sorted(base):
        yield kind, {k: v for k, v in base.items() if k != field}
        for value in HOSTILE_VALUES:
            if field == "h" and value == bytes(32):
                continue  # a wrong hash is found after applying: StateHashMismatch (test_adversarial)
            if value != base[field] and not _valid_by_design(kind, field, value):
                yield kind, {**base, field: value}
    yield kind, {**base, "zz": 1}
    for other in KINDS:
        if other != kind:
            yield other, base


def test_every_mistyped_missing_or_extra_field_and_every_wrong_kind_is_refused_typed():
    """A whole toy game; at each height, every mutation of the due event is refused by a
    copy of an observer replica with a typed error naming the author, changing nothing."""
    peers = toy(2)
    observer = Session(RULES, peers[0].game)
    tried = 0
    while not all(p.finished for p in peers):
        w = writer(peers)
        kind = w.pending_obligation()
        base = w._body(kind, w.chain.height, None)
        if w.phase in HASHED_PHASES:
            base["h"] = w.state_hash()
        for k, body in _mutations(kind, base):
            wire = sign_event(w.identity, w.game, w.chain.height, w.chain.head, k, body).wire
            o = copy.deepcopy(observer)
            digest = o.state_hash() if o.state is not None else None
            with pytest.raises(EventError) as exc:
                o.receive(wire)
            assert exc.value.author == w.me, (k, body, exc.value)
            assert o.chain.height == observer.chain.height and o.halted is None, (k, body)
            assert digest is None or o.state_hash() == digest, (k, body)
            tried += 1
        observer.receive(step(peers))
    assert observer.finished and tried > 1000


# -- a valid event that exposes a corrupted deck, written by an honest peer (SPEC §26.4) ---------
class RevealFirst(ToyRules):
    """The toy game with a public reveal of the bottom card right after the first shuffle."""

    def new_state(self, players, config):
        st = super().new_state(players, config)
        st["pending"].insert(1, DeckRequest("reveal", "d", (5,)))
        return st


class CorruptingShuffler(SessionPeer):
    """At seat 0, replaces every card of its first shuffle by an encryption of no card
    (issue 7, attack 4) and sends the honest proof along."""

    def _body(self, kind, seq, action):
        body = super()._body(kind, seq, action)
        if kind == "shuffle" and self.seat == 0:
            nowhere = g.hash_to_point(b"test", b"no card")
            deck = []
            for _ in range(len(body["d"]) // mp.CIPHERTEXT_BYTES):
                r = g.random_scalar()
                deck.append(mp.Ciphertext(g.base_mul(r), g.add(nowhere, g.mul(r, self.book.joint_key))))
            body["d"] = mp.encode_deck(deck)
        return body


def test_a_deck_of_no_cards_is_refused_at_the_shuffle_not_at_the_deal(tmp_path):
    """Attack 4: before proofs the victim halted at its deal and the abort named it; now
    the shuffle itself is refused, naming the shuffler, and the honest log stays valid."""
    peers = make_peers(RevealFirst(), 2, agent_for=lambda k: play_own_card, log_dir=str(tmp_path),
                       cls=CorruptingShuffler)
    run_until(peers, lambda: writer(peers).pending_obligation() == "shuffle")
    cheat = writer(peers)
    assert cheat.seat == 0
    refused(peers, cheat, cheat.act(), BadShuffleProof, RevealFirst())


class RefusedReveal(RevealFirst):
    """A game that refuses the outcome of its own public reveal (a bug in a game)."""

    def apply_action(self, st, seat, text):
        if seat == CHANCE and text.startswith("reveal"):
            raise GameRuleError("this game cannot take that reveal")
        return super().apply_action(st, seat, text)


def test_an_honest_peer_whose_own_shares_complete_a_refused_outcome_logs_them_and_halts(tmp_path):
    """The honest last share of a public reveal completes it and the game refuses the
    outcome: the honest peer must still sign, log and hand out that valid event, then halt
    like every receiver does."""
    rules = RefusedReveal()
    peers = make_peers(rules, 2, agent_for=lambda k: play_own_card, log_dir=str(tmp_path))
    run_until(peers, lambda: peers[0].phase == "play" and peers[0].book.current is not None
              and peers[0].book.current.request.kind == "reveal" and writer(peers).seat == 1)
    honest = writer(peers)
    other = next(p for p in peers if p is not honest)
    height = honest.chain.height
    wire = honest.act()
    assert isinstance(honest.halted, DeckCorrupted)
    assert honest.chain.height == height + 1 and honest.log.count == height + 1
    assert honest.pending_obligation() is None
    with pytest.raises(DeckCorrupted):
        other.receive(wire)
    assert other.chain.head == honest.chain.head and other.halted is not None
    report, _ = verify_log(honest.log.path, rules)
    assert report.exit_code == EXIT_INVALID and report.seq == height and "refuses" in report.reason


# -- the game's reader failing on hostile text (SPEC §26.5) ---------------------------------------
class FragileReader(ToyRules):
    """A game whose revealed_cards breaks its contract on odd text (raises KeyError)."""

    def revealed_cards(self, st, seat, text):
        if text.startswith("odd"):
            return [{}["missing"]]
        return super().revealed_cards(st, seat, text)


def test_a_game_reader_crash_on_hostile_text_is_an_illegal_move_not_a_crash(tmp_path):
    rules = FragileReader()
    peers = make_peers(rules, 2, agent_for=lambda k: play_own_card, log_dir=str(tmp_path))
    run_until(peers, lambda: peers[0].phase == "play" and rules.to_move(peers[0].state) != CHANCE)
    actor = writer(peers)
    err = refused(peers, actor, craft(actor, body={"a": "odd text", "p": []}), IllegalMove, rules)
    assert "KeyError" in str(err)


def test_asv_action_text_with_a_superscript_digit_is_refused_as_illegal(tmp_path):
    """Amazing Space Venture's notation reader raises ValueError for `draw-tile ²`
    ('²'.isdigit() but int('²') fails); over the network that crashed the receiving peer."""
    from cli.games.asv.adapter import AsvRules
    from cli.games import kit_for
    bot_agent = kit_for("asv").agent
    rules = AsvRules()
    peers = make_peers(rules, 2, agent_for=lambda k: bot_agent("greedy", f"t/{k}"), log_dir=str(tmp_path))
    run_until(peers, lambda: peers[0].phase == "play" and rules.to_move(peers[0].state) != CHANCE)
    actor = writer(peers)
    refused(peers, actor, craft(actor, body={"a": "draw-tile \u00b2", "p": []}), IllegalMove, rules)


# -- shuffles (SPEC §26.4) ------------------------------------------------------------------------
def test_a_shuffle_that_repeats_or_copies_a_ciphertext_is_refused_on_arrival(tmp_path):
    """An exact copy links two handles (reveal one, know the other) and a card copied from
    the input is not re-randomised; both are refused at once, naming the shuffler."""
    peers = toy(3, tmp_path)
    w = until(peers, "shuffle")
    before = w.book.current.deck

    def repeat(body):
        deck = list(mp.decode_deck(body["d"]))
        deck[4] = deck[1]
        body["d"] = mp.encode_deck(deck)

    def copy_input(body):
        deck = list(mp.decode_deck(body["d"]))
        deck[2] = before[3]
        body["d"] = mp.encode_deck(deck)

    def reuse_c1(body):  # same C1, another C2: still a linked pair
        deck = list(mp.decode_deck(body["d"]))
        deck[0] = mp.Ciphertext(deck[5].c1, deck[0].c2)
        body["d"] = mp.encode_deck(deck)

    for mutate in (repeat, copy_input, reuse_c1):
        refused(peers, w, craft(w, mutate), BadShuffle, RULES)
    step(peers)  # the honest shuffle is still accepted
    w2 = writer(peers)
    refused(peers, w2, craft(w2, lambda b: b.update(d=mp.encode_deck(w2.book.current.deck))), BadShuffle, RULES)


# -- key and seat reveals bound to another game or name (SPEC §26.2) ------------------------------
def test_seat_commitment_and_reveal_replayed_from_another_game_do_not_open(tmp_path):
    first = toy(2)
    run_until(first, lambda: first[0].phase == "key-commit")
    second = toy(2, tmp_path)   # same identities, another game id
    assert second[0].game != first[0].game
    run_until(second, lambda: second[0].phase == "seat-commit")
    w = writer(second)
    old = next(p for p in first if p.me == w.me)
    old_commit = cr.commit(old._seat_value, g.lp(b"p2p-asv/seat-order/v1", old.game))
    w._seat_value = old._seat_value  # the replayer reuses its old value and commitment
    for p in second:
        if p is not w:
            p.receive(craft(w, lambda b: b.update(c=old_commit)))
    w.receive(craft(w, lambda b: b.update(c=old_commit)))
    run_until(second, lambda: writer(second).pending_obligation() == "seat-reveal" and writer(second) is w)
    refused(second, w, craft(w), OpeningMismatch, RULES)


def test_key_share_proof_bound_to_another_game_or_name_or_copied_is_refused(tmp_path):
    peers = toy(3, tmp_path)
    run_until(peers, lambda: peers[0].phase == "key-reveal" and peers[0].count == 1)
    w = writer(peers)
    other_game = os.urandom(16)
    wrong_game = mp.publish_key_share(w._key, other_game, w.identity.fingerprint).to_bytes()
    refused(peers, w, craft(w, lambda b: b.update(k=wrong_game)), BadKeyShare, RULES)
    someone = next(p for p in peers if p is not w)
    wrong_name = mp.publish_key_share(w._key, w.game, someone.identity.fingerprint).to_bytes()
    refused(peers, w, craft(w, lambda b: b.update(k=wrong_name)), BadKeyShare, RULES)
    first_reveal = peers[0].chain.events[-1].body["k"]   # seat 0's share: its proof names seat 0
    refused(peers, w, craft(w, lambda b: b.update(k=first_reveal)), BadKeyShare, RULES)


# -- decryption shares for the wrong request or handle --------------------------------------------
def test_shares_replayed_from_an_earlier_request_or_another_seat_are_refused(tmp_path):
    peers = toy(3, tmp_path)
    run_until(peers, lambda: peers[0].phase == "play" and peers[0].book.current is not None
              and peers[0].book.current.request.kind == "deal" and peers[0].book.current.done == 1)
    w = writer(peers)
    earlier = next(e for e in reversed(peers[0].chain.events) if e.kind == "shares")
    refused(peers, w, craft(w, lambda b: b.update(s=earlier.body["s"])), BadShare, RULES)
    stale = w.book.make_shares(w._key, w.chain.height - 1, w.seat)   # own share, wrong height
    refused(peers, w, craft(w, lambda b: b.update(s=stale)), BadShare, RULES)
    refused(peers, w, craft(w, lambda b: b.update(s=b["s"] * 2)), BadBody, RULES)


def test_claim_shares_from_another_event_or_seat_are_refused(tmp_path):
    peers = toy(3, tmp_path)
    run_until(peers, lambda: peers[0].phase == "play" and RULES.to_move(peers[0].state) != CHANCE)
    actor = writer(peers)
    (mine,) = actor.state["hands"][actor.seat]
    label = actor.view["known"][mine]
    stale = actor.book.make_claim_share(actor._key, actor.chain.height - 1, actor.seat, mine)
    refused(peers, actor, craft(actor, body={"a": f"play #{mine}:{label}", "p": [stale]}), BadShare, RULES)
    dealer = next(p for p in peers if p is not actor)   # a deal share of that card, by another seat
    deal_share = dealer.book.make_claim_share(dealer._key, actor.chain.height, dealer.seat, mine)
    refused(peers, actor, craft(actor, body={"a": f"play #{mine}:{label}", "p": [deal_share]}), BadShare, RULES)
    refused(peers, actor, craft(actor, body={"a": "pass", "p": [stale]}), BadBody, RULES)


# -- no opening: nothing is written after the last play event (SPEC §26.7) ---------------------
def test_an_open_event_is_refused_and_nothing_follows_the_end(tmp_path):
    peers = toy(2, tmp_path)
    run_until(peers, lambda: peers[0].phase == "play" and RULES.to_move(peers[0].state) != CHANCE)
    actor = writer(peers)
    secret_open = {"x": actor._key.secret, "w": [], "h": actor.state_hash()}
    refused(peers, actor, craft(actor, kind="open", body=dict(secret_open)), UnexpectedKind, RULES)
    run_local(peers)
    assert all(p.finished and p.phase == "done" for p in peers)
    late = peers[0]
    after = sign_event(late.identity, late.game, late.chain.height, late.chain.head, "open",
                       {**secret_open, "x": late._key.secret})
    refused(peers, late, after, UnexpectedKind, RULES)
    late.log.append(after.wire)   # a tampered log: one event past the end
    report, _ = verify_log(late.log.path, RULES)
    assert report.exit_code == EXIT_INVALID and report.author == fingerprint(late.me)
    assert "over" in report.reason


# -- aborts (SPEC §29.6): tests/test_abort.py ---------------------------------------------------


# -- equivocation spam (SPEC §22.7) ---------------------------------------------------------------
def test_one_equivocation_proof_per_author_is_kept_however_many_forks_arrive():
    peers = toy(2)
    run_until(peers, lambda: peers[0].chain.height == 3)
    w = next(p for p in peers if p.me == peers[0].chain.events[2].author)
    honest = next(p for p in peers if p is not w)
    for i in range(40):
        fork = sign_event(w.identity, w.game, 2, honest.chain.events[1].hash, "seat-commit",
                          {"c": bytes([i]) * 32})
        with pytest.raises(EventError) as exc:
            honest.receive(fork.wire)
        assert exc.value.author == w.me and exc.value.proof.verify()[0] == w.me
    assert len(honest.chain.equivocations) == 1


# -- roster names (SPEC §26.2) --------------------------------------------------------------------
def test_a_roster_whose_fingerprints_collide_is_refused_at_the_first_hello(monkeypatch):
    """Fingerprints name the participants of the commit-reveal rounds and proof contexts;
    two keys with one fingerprint (an 80-bit collision) used to crash the last hello with
    a ValueError. Simulated by making every fingerprint equal."""
    import protocol.session.core as session_module
    peers = toy(2)
    first = craft(peers[0], kind="hello", body=peers[0]._body("hello", 0, None))
    monkeypatch.setattr(session_module, "fingerprint", lambda key: "SAME-SAME-SAME-SAME")
    obs = Session(RULES, peers[0].game)
    with pytest.raises(BadBody) as exc:
        obs.receive(first)
    assert exc.value.author == peers[0].me and obs.chain.height == 0 and obs.roster is None



# -- whose game a valid log is (SPEC §27.6) -------------------------------------------------------
def test_verify_names_the_players_so_a_game_forged_under_the_same_id_is_told_apart(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "forged").mkdir()
    real = toy(2, tmp_path / "real")
    run_local(real)
    forged = make_peers(RULES, 2, agent_for=lambda k: play_own_card, log_dir=str(tmp_path / "forged"),
                        game=real[0].game, seeds=50)   # other keys, the same game id
    run_local(forged)
    a, _ = verify_log(real[0].log.path, RULES)
    b, _ = verify_log(forged[0].log.path, RULES)
    assert a.exit_code == b.exit_code == 0 and a.game_id == b.game_id
    assert a.players == [fingerprint(k) for k in real[0].seat_keys] == a.to_json()["players"]
    assert sorted(b.players) == sorted(p.identity.fingerprint for p in forged)
    assert not set(a.players) & set(b.players)
