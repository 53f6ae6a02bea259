"""Cheating peers (SPEC §26.3, §26.7): every rejected event names its author, leaves the
honest replicas unchanged, and the honest logs stay valid; cheating in a shuffle is
refused at its own event because its proof fails (SPEC §25.10)."""
from __future__ import annotations

import pytest

from protocol.crypto import group as g
from protocol.poker import deck as mp
from protocol.errors import Equivocation, ForgedSignature, OutOfOrder, ReplayedEvent, WrongAuthor
from protocol.session import (
    CHANCE, BadBody, BadKeyShare, BadShare, BadShuffle, BadShuffleProof, CardNotHeld, ClaimMismatch,
    OpeningMismatch, SessionHalted, StateHashMismatch, verify_log,
)
from protocol.session.dealing import shuffle_context
from tests.session_helpers import craft, make_peers, run_until, step, writer
from tests.toy_game import ToyRules, play_own_card

RULES = ToyRules()
# ristretto255 (SPEC §25.1) has no small-order elements: the attacks are an old
# Ed25519 small-order encoding (not a ristretto255 one), a non-canonical field element
# (RFC 9496 A.2: s = p), and a valid element with the top bit set, which libsodium
# 1.0.18 would decode as the same element (a second encoding, to mark a card with).
SMALL_ORDER = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")
NON_CANONICAL = b"\xed" + b"\xff" * 30 + b"\x7f"
TOP_BIT = g.G[:31] + bytes([g.G[31] | 0x80])


@pytest.fixture
def peers(tmp_path):
    return make_peers(RULES, 3, agent_for=lambda k: play_own_card, log_dir=str(tmp_path))


def until(peers, kind):
    run_until(peers, lambda: writer(peers).pending_obligation() == kind)
    return writer(peers)


def rejected(peers, cheater, wire, error):
    """Every honest peer refuses `wire` with `error` naming `cheater` and keeps its
    chain, state and log as they were; the honest logs verify as a valid prefix."""
    for p in peers:
        if p is cheater:
            continue
        height, digest = p.chain.height, p.state_hash() if p.state is not None else None
        with pytest.raises(error) as exc:
            p.receive(wire)
        assert exc.value.author == cheater.me, exc.value
        assert p.chain.height == height and p.log.count == height
        if digest is not None and error is not StateHashMismatch:
            assert p.state_hash() == digest
        report, _ = verify_log(p.log.path, RULES)
        assert report.valid and report.events == height, report
    return exc.value


def test_forged_signature(peers):
    w = writer(peers)
    wire = bytearray(craft(w))
    wire[-5] ^= 0x01  # inside the signature
    rejected(peers, w, bytes(wire), ForgedSignature)


def test_wrong_author(peers):
    step(peers)
    idle = next(p for p in peers if p.pending_obligation() is None)
    rejected(peers, idle, craft(idle, kind="hello"), WrongAuthor)


def test_replayed_and_reordered_events(peers):
    run_until(peers, lambda: peers[0].chain.height == 4)
    late = peers[0]  # heights 4 and 5 are the seat commits of lobby peers 1 and 2
    w1 = writer(peers)
    wire1 = w1.act()
    for p in peers:
        if p is not w1 and p is not late:
            p.receive(wire1)
    w2 = writer([p for p in peers if p is not late])
    wire2 = w2.act()
    with pytest.raises(OutOfOrder):
        late.receive(wire2)  # reordered: seq h+1 before h
    late.receive(wire1)
    late.receive(wire2)
    for p in peers:
        if p is not w2 and p is not late:
            p.receive(wire2)
    with pytest.raises(ReplayedEvent) as exc:
        late.receive(wire1)
    assert exc.value.author == w1.me and late.chain.height == peers[0].chain.height


def test_equivocation_is_kept_as_a_proof(peers):
    run_until(peers, lambda: peers[0].phase == "seat-commit")
    w = writer(peers)
    first = craft(w)
    second = craft(w, lambda b: b.update(c=bytes(32)))
    honest = [p for p in peers if p is not w]
    for p in honest:
        p.receive(first)
    for p in honest:
        with pytest.raises(Equivocation) as exc:
            p.receive(second)
        assert exc.value.author == w.me
        author, game, seq = exc.value.proof.verify()
        assert (author, game) == (w.me, p.game) and p.chain.events[seq].wire == first
        assert p.chain.equivocations == [exc.value.proof]


def test_seat_reveal_that_does_not_open_its_commit(peers):
    w = until(peers, "seat-reveal")
    rejected(peers, w, craft(w, lambda b: b.update(r=bytes(32))), OpeningMismatch)


def test_key_reveal_that_does_not_open_and_bad_proof(peers):
    w = until(peers, "key-reveal")
    other = mp.publish_key_share(mp.KeyShare.generate(), w.game, w.identity.fingerprint).to_bytes()
    rejected(peers, w, craft(w, lambda b: b.update(k=other)), OpeningMismatch)
    good = craft(w)  # the true share, its proof spoiled
    body = w._body("key-reveal", w.chain.height, None)
    body["k"] = body["k"][:40] + bytes([body["k"][40] ^ 1]) + body["k"][41:]
    rejected(peers, w, craft(w, body=body), BadKeyShare)
    for p in peers:
        if p is not w:
            p.receive(good)


def test_shuffle_with_an_invalid_or_small_order_point(peers):
    w = until(peers, "shuffle")
    for bad in (SMALL_ORDER, NON_CANONICAL, TOP_BIT, g.IDENTITY):
        rejected(peers, w, craft(w, lambda b: b.update(d=bad + b["d"][32:])), BadShuffle)


def test_shuffle_that_drops_a_card(peers):
    w = until(peers, "shuffle")
    rejected(peers, w, craft(w, lambda b: b.update(d=b["d"][64:])), BadShuffle)


def test_wrong_decryption_share_and_bad_points_in_shares(peers):
    w = until(peers, "shares")

    def spoil(new_point=None, proof_flip=False):
        def mutate(b):
            s = b["s"][0]
            point = new_point if new_point is not None else s[:32]
            proof = s[32:] if not proof_flip else s[32:40] + bytes([s[40] ^ 1]) + s[41:]
            b["s"][0] = point + proof
        return mutate

    rejected(peers, w, craft(w, spoil(new_point=g.add(craft_point(w), g.G))), BadShare)
    rejected(peers, w, craft(w, spoil(proof_flip=True)), BadShare)
    rejected(peers, w, craft(w, spoil(new_point=SMALL_ORDER)), BadShare)
    honest = craft_point(w)  # the true share, re-encoded with the top bit: still refused
    rejected(peers, w, craft(w, spoil(new_point=honest[:31] + bytes([honest[31] | 0x80]))), BadShare)
    rejected(peers, w, craft(w, spoil(new_point=g.IDENTITY)), BadShare)
    rejected(peers, w, craft(w, lambda b: b.update(s=[])), BadBody)


def craft_point(peer):
    return peer._body("shares", peer.chain.height, None)["s"][0][:32]


def _first_action(peers):
    run_until(peers, lambda: peers[0].phase == "play" and RULES.to_move(peers[0].state) != CHANCE)
    return writer(peers)


def test_claiming_a_card_not_held(peers):
    actor = _first_action(peers)
    other_seat = (actor.seat + 1) % 3
    (theirs,) = actor.state["hands"][other_seat]
    share = actor.book.make_claim_share(actor._key, actor.chain.height, actor.seat, theirs)
    wire = craft(actor, body={"a": f"play #{theirs}:a", "p": [share]})
    rejected(peers, actor, wire, CardNotHeld)


def test_claim_that_does_not_open(peers):
    actor = _first_action(peers)
    (mine,) = actor.state["hands"][actor.seat]
    real = actor.view["known"][mine]
    lie = "f" if real != "f" else "a"
    share = actor.book.make_claim_share(actor._key, actor.chain.height, actor.seat, mine)
    err = rejected(peers, actor, craft(actor, body={"a": f"play #{mine}:{lie}", "p": [share]}), ClaimMismatch)
    assert repr(f"card:{real}") in str(err)  # its own share opened the card to everyone
    rejected(peers, actor, craft(actor, body={"a": f"play #{mine}:{real}", "p": []}), BadBody)


def test_state_hash_mismatch_halts_without_logging(peers):
    actor = _first_action(peers)
    wire = craft(actor, h=bytes(32), body=actor._body("action", actor.chain.height, None))
    honest = [p for p in peers if p is not actor]
    for p in honest:
        height = p.chain.height
        with pytest.raises(StateHashMismatch) as exc:
            p.receive(wire)
        assert exc.value.author == actor.me and p.log.count == height
        with pytest.raises(SessionHalted):
            p.receive(wire)
        assert verify_log(p.log.path, RULES)[0].valid


def _proved(peer, tamper):
    """A shuffle body the way a cheating `peer` would best make it: shuffle the current
    deck honestly, `tamper(before, after)` with the output, then prove the tampered deck
    with the real witness (it has no better one)."""
    book = peer.book
    before = book.current.deck
    after, witness = mp.shuffle_deck(before, book.joint_key)
    after = tamper(before, list(after))
    ctx = shuffle_context(peer.game, peer.chain.height, peer.me)
    proof = mp.prove_shuffle(before, after, witness, book.joint_key, ctx)
    return {"d": mp.encode_deck(after), "p": proof.to_bytes(), **book.shuffle_input()}   # named input (SPEC §26.4)


def _fresh(book, label):
    r = g.random_scalar()
    return mp.Ciphertext(g.base_mul(r), g.add(book.table.point(label), g.mul(r, book.joint_key)))


def _chosen_arrangement(peer):
    """Attack 1: replace the deck by fresh encryptions of an order the cheater knows."""
    def tamper(before, after):
        labels = sorted(mp.label_bytes(x).decode() for x in peer.book.table.labels)
        return [_fresh(peer.book, labels[i % len(labels)]) for i in range(len(after))]
    return tamper


def _no_card(peer):
    """Attack 4: one card becomes a ciphertext of a point that is no card."""
    def tamper(before, after):
        after[0] = mp.Ciphertext(after[0].c1, g.add(after[0].c2, g.G))
        return after
    return tamper


def _duplicate(peer):
    def tamper(before, after):
        after[1] = mp.rerandomize(after[0], g.random_scalar(), peer.book.joint_key)
        return after
    return tamper


@pytest.mark.parametrize("attack", [_chosen_arrangement, _no_card, _duplicate])
def test_a_cheated_shuffle_is_refused_at_its_own_event_naming_its_author(peers, attack):
    """SPEC §26.4: attacks 1 and 4 of issue 7 (and a duplicated card) fail at once."""
    run_until(peers, lambda: writer(peers).pending_obligation() == "shuffle"
              and writer(peers).book.current.done == len(peers) - 1)    # the last shuffler
    w = writer(peers)
    err = rejected(peers, w, craft(w, body=_proved(w, attack(w))), BadShuffleProof)
    assert "equations do not hold" in str(err)
    step(peers)                                # an honest shuffle from the same peer goes through
    assert all(p.halted is None and p.chain.head == w.chain.head for p in peers)


def test_a_proof_made_for_another_peer_or_height_is_refused(peers):
    w = until(peers, "shuffle")
    body = w._body("shuffle", w.chain.height + 1, None)      # proof bound to the wrong seq
    rejected(peers, w, craft(w, body=body), BadShuffleProof)
    other = next(p for p in peers if p is not w)
    before = w.book.current.deck
    after, witness = mp.shuffle_deck(before, w.book.joint_key)
    ctx = shuffle_context(w.game, w.chain.height, other.me)   # proof in another author's name
    proof = mp.prove_shuffle(before, after, witness, w.book.joint_key, ctx)
    rejected(peers, w, craft(w, body={"d": mp.encode_deck(after), "p": proof.to_bytes(), **w.book.shuffle_input()}),
             BadShuffleProof)
    rejected(peers, w, craft(w, lambda b: b.update(p=b["p"][:-32])), BadShuffleProof)
    rejected(peers, w, craft(w, lambda b: b.pop("p")), BadBody)


def test_attack_3_reshuffle_of_copies_of_a_victims_hand_card_is_refused(tmp_path):
    """The shuffler of a reshuffle cannot fill it with re-randomised copies of a card in a
    victim's hand: the input is exactly the cards under the source handles."""
    def agent(state, view):
        return "pass" if view["seat"] == 2 else play_own_card(state, view)
    peers = make_peers(RULES, 3, agent_for=lambda k: agent, log_dir=str(tmp_path))
    run_until(peers, lambda: writer(peers).pending_obligation() == "shuffle"
              and writer(peers).book.current.request.source is not None)
    w = writer(peers)
    victim_seat = 2 if w.seat != 2 else 1
    (victim_card,) = w.state["hands"][victim_seat]
    assert victim_card not in w.book.current.request.source

    def copies(before, after):
        target = w.book.cipher[victim_card]
        return [mp.rerandomize(target, g.random_scalar(), w.book.joint_key) for _ in after]
    err = rejected(peers, w, craft(w, body=_proved(w, copies)), BadShuffleProof)
    assert err.seq == w.chain.height
    step(peers)                                                 # the honest reshuffle goes through
    assert all(p.halted is None for p in peers)
