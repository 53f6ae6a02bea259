"""Mental-poker decks: key setup, shuffles with proofs, decryption shares, reveals (SPEC §25)."""

import pytest

from protocol.crypto import commit_reveal as cr
from protocol.crypto import group as g
from protocol.poker import deck as mp

CTX = b"game-42"
NAMES = ["ann", "bob", "cat", "dan"]


def setup_keys(names, secrets=None):
    keys = {n: mp.KeyShare.generate(None if secrets is None else secrets[i]) for i, n in enumerate(names)}
    rnd = mp.KeySetupRound(names, CTX)
    for n in names:
        rnd.add_commit(n, mp.key_commitment(keys[n], CTX))
    for n in names:
        rnd.add_reveal(n, mp.PublishedKeyShare.from_bytes(mp.publish_key_share(keys[n], CTX, n).to_bytes()))
    return keys, rnd.joint_key()


def open_card(ct, secrets, table):
    """Test oracle only: read a card with every secret share (nobody can in a game)."""
    x = g.scalar_from_int(sum(g.scalar_to_int(s) for s in secrets))
    return table.label_of(g.sub(ct.c2, g.mul(x, ct.c1)))


def shuffle_all(names, deck, y):
    steps = []
    for n in names:
        new, witness = mp.shuffle_deck(deck, y)
        proof = mp.prove_shuffle(deck, new, witness, y, CTX + n.encode()).to_bytes()
        # what the next player receives goes through the validating decoder and the proof
        new = mp.decode_deck(mp.encode_deck(new), participant=n)
        mp.verify_shuffle(deck, new, proof, y, CTX + n.encode(), participant=n)
        steps.append((n, deck, new, mp.ShuffleWitness.from_bytes(witness.to_bytes())))
        deck = new
    return deck, steps


def check_witnesses(steps, y):
    for n, before, after, witness in steps:
        mp.verify_shuffle_with_witness(before, after, witness, y, participant=n)


def reveal_privately(holder, ct, keys, names, table, ctx):
    verified = []
    for n in names:
        if n == holder:
            continue
        # each share crosses the wire as bytes and is checked on arrival
        share = mp.DecryptionShare.from_bytes(mp.decryption_share(keys[n], ct, ctx, n).to_bytes())
        verified.append(mp.verify_share(share, keys[n].public, ct, ctx, n))
    return mp.private_reveal(ct, keys[holder], verified, table)


def reveal_publicly(ct, keys, names, table, ctx):
    shares = [mp.verify_share(mp.decryption_share(keys[n], ct, ctx, n), keys[n].public, ct, ctx, n) for n in names]
    return mp.public_reveal(ct, shares, table)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_trip_small_deck(players):
    names = NAMES[:players]
    keys, y = setup_keys(names)
    labels = [f"c{i}" for i in range(9)] + [b"raw-bytes-label"]
    table = mp.CardTable(labels)
    start = mp.initial_deck(table, y)
    final, steps = shuffle_all(names, start, y)
    seen = []
    for pos, ct in enumerate(final):
        holder = names[pos % players]
        ctx = CTX + b"|deal|" + bytes([pos])
        label = reveal_privately(holder, ct, keys, names, table, ctx)
        assert reveal_publicly(ct, keys, names, table, ctx + b"|public") == label
        seen.append(label)
    assert sorted(seen, key=mp.label_bytes) == sorted(labels, key=mp.label_bytes)
    # the witnesses explain every step, and the oracle reads what the reveals said
    check_witnesses(steps, y)
    assert [open_card(ct, [keys[n].secret for n in names], table) for ct in final] == seen


@pytest.mark.parametrize("players", [2, 4])
def test_round_trip_108_cards(players):
    names = NAMES[:players]
    keys, y = setup_keys(names)
    labels = [f"card-{i:03d}" for i in range(108)]
    table = mp.CardTable(labels)
    start = mp.initial_deck(table, y)
    final, steps = shuffle_all(names, start, y)
    assert final != start and len(final) == 108
    check_witnesses(steps, y)
    secrets = [k.secret for k in keys.values()]
    opened = [open_card(ct, secrets, table) for ct in final]
    assert sorted(opened) == labels
    assert opened != labels  # shuffled (probability of identity permutation is 1/108!)
    for pos in (0, 53, 107):
        assert reveal_privately(names[pos % players], final[pos], keys, names, table, b"d%d" % pos) == opened[pos]


def test_pipeline_known_answer():
    # Fixed secrets, permutation and randomisers give fixed bytes (regression KAT).
    names = ["ann", "bob"]
    keys, y = setup_keys(names, [g.scalar_from_int(11), g.scalar_from_int(22)])
    assert y == g.base_mul(g.scalar_from_int(33))
    table = mp.CardTable(["x", "y", "z"])
    start = mp.initial_deck(table, y)
    assert start[0] == mp.Ciphertext(g.G, g.add(mp.card_point("x"), y))
    rands = [g.scalar_from_int(n) for n in (5, 6, 7)]
    deck, witness = mp.shuffle_deck(start, y, permutation=[2, 0, 1], randomizers=rands)
    assert deck[0].c1 == g.base_mul(g.scalar_from_int(6))
    assert open_card(deck[0], [keys[n].secret for n in names], table) == "z"
    assert mp.card_point("card-0").hex() == "0c0458165f809ec788958ce1dce732b8f7bb0dddd853d00c64f11d2d58125c22"
    assert mp.card_point("card-0") == mp.card_point(b"card-0")
    assert witness.to_bytes()[:16] == bytes.fromhex("00000003" "00000002" "00000000" "00000001")


# ---------------------------------------------------------------- adversarial: keys


def test_key_share_commit_that_does_not_open_names_player():
    keys = {n: mp.KeyShare.generate() for n in NAMES[:3]}
    rnd = mp.KeySetupRound(NAMES[:3], CTX)
    for n in NAMES[:3]:
        rnd.add_commit(n, mp.key_commitment(keys[n], CTX))
    # bob reveals a different share from the one he committed to
    late = mp.KeyShare.generate()
    with pytest.raises(cr.CommitMismatch) as exc:
        rnd.add_reveal("bob", mp.publish_key_share(late, CTX, "bob"))
    assert exc.value.participant == "bob"
    rnd.add_reveal("ann", mp.publish_key_share(keys["ann"], CTX, "ann"))
    with pytest.raises(cr.MissingReveal) as exc2:
        rnd.joint_key()
    assert exc2.value.participant == "bob"


def test_key_share_bad_proof_names_player():
    keys = {n: mp.KeyShare.generate() for n in NAMES[:2]}
    rnd = mp.KeySetupRound(NAMES[:2], CTX)
    for n in NAMES[:2]:
        rnd.add_commit(n, mp.key_commitment(keys[n], CTX))
    # a proof made for another name (replay) or another game does not verify
    for bad in (mp.publish_key_share(keys["bob"], CTX, "ann"), mp.publish_key_share(keys["bob"], b"game-1", "bob")):
        with pytest.raises(mp.InvalidKeyShare) as exc:
            rnd.add_reveal("bob", bad)
        assert exc.value.participant == "bob"
    rnd.add_reveal("bob", mp.publish_key_share(keys["bob"], CTX, "bob"))  # the honest one still goes in
    with pytest.raises(mp.InvalidKeyShare):
        mp.PublishedKeyShare.from_bytes(b"short", "ann")


def test_invalid_public_share_points_rejected():
    share = mp.publish_key_share(mp.KeyShare.generate(), CTX, "ann")
    for bad_point in (g.IDENTITY, bytes(32), ((2**255 - 19) + 1).to_bytes(32, "little")):
        with pytest.raises(mp.InvalidKeyShare) as exc:
            mp.verify_key_share(mp.PublishedKeyShare(bad_point, share.proof), CTX, "ann")
        assert exc.value.participant == "ann"


def test_joint_key_refuses_copied_or_cancelling_shares():
    a = mp.KeyShare.generate()
    with pytest.raises(mp.InvalidKeyShare) as exc:
        mp.joint_public_key([a.public, a.public], ["ann", "bob"])
    assert exc.value.participant == "bob"
    neg = g.base_mul(g.scalar_neg(a.secret))
    with pytest.raises(mp.InvalidKeyShare, match="cancel"):
        mp.joint_public_key([a.public, neg])


# ---------------------------------------------------------------- adversarial: cards and shuffles


def test_card_table_rules():
    with pytest.raises(mp.DuplicateLabel):
        mp.CardTable(["a", "b", "a"])
    with pytest.raises(mp.DuplicateLabel):
        mp.CardTable(["a", b"a"])  # same bytes, same point
    table = mp.CardTable(["a", b"b"])
    assert "a" in table and b"b" in table and "zz" not in table and 5 not in table
    assert table.label_of(table.point("a")) == "a" and table.label_of(table.point(b"b")) == b"b"
    with pytest.raises(mp.UnknownCard):
        table.label_of(g.G)
    with pytest.raises(KeyError):
        table.point("zz")
    with pytest.raises(TypeError):
        mp.CardTable([3])
    y = mp.KeyShare.generate().public
    assert len(mp.initial_deck(table, y, ["a"])) == 1
    with pytest.raises(mp.DuplicateLabel):
        mp.initial_deck(table, y, ["a", "a"])


def test_decode_deck_rejects_bad_points_naming_sender():
    keys, y = setup_keys(NAMES[:2])
    deck = mp.initial_deck(mp.CardTable(["a", "b"]), y)
    data = mp.encode_deck(deck)
    assert mp.decode_deck(data) == deck
    for bad in (g.IDENTITY, bytes(32), ((2**255 - 19) + 1).to_bytes(32, "little")):
        with pytest.raises(mp.MalformedDeck) as exc:
            mp.decode_deck(data[:96] + bad, participant="bob")
        assert exc.value.participant == "bob" and "card 1" in str(exc.value)
    with pytest.raises(mp.MalformedDeck):
        mp.decode_deck(data[:-1], participant="bob")


@pytest.fixture(scope="module")
def shuffled():
    keys, y = setup_keys(NAMES[:3])
    table = mp.CardTable([f"k{i}" for i in range(8)])
    start = mp.initial_deck(table, y)
    after, witness = mp.shuffle_deck(start, y)
    return keys, y, table, start, after, witness


def test_shuffle_dropping_a_card_is_caught(shuffled):
    _, y, _, start, after, witness = shuffled
    with pytest.raises(mp.ShuffleMismatch, match="8 cards before and 7 after") as exc:
        mp.verify_shuffle_with_witness(start, after[:-1], witness, y, participant="ann")
    assert exc.value.participant == "ann"
    # dropping a card and trimming the witness to match is also caught
    short = mp.ShuffleWitness(witness.permutation[:-1], witness.randomizers[:-1])
    with pytest.raises(mp.ShuffleMismatch):
        mp.verify_shuffle_with_witness(start, after[:-1], short, y)


def test_shuffle_duplicating_a_card_is_caught(shuffled):
    _, y, _, start, after, witness = shuffled
    dup = after[:5] + (after[0],) + after[6:]  # card 5 replaced by a copy of card 0
    with pytest.raises(mp.ShuffleMismatch) as exc:
        mp.verify_shuffle_with_witness(start, dup, witness, y, participant="bob")
    assert exc.value.position == 5 and exc.value.participant == "bob"
    # a witness pointing twice at the same input is not a permutation
    perm = list(witness.permutation)
    perm[5] = perm[0]
    with pytest.raises(mp.ShuffleMismatch, match="not a permutation"):
        mp.verify_shuffle_with_witness(start, dup, mp.ShuffleWitness(tuple(perm), witness.randomizers), y)
    # an honest re-encryption of a duplicate (fresh randomiser) is caught too
    honest_dup, w2 = mp.shuffle_deck(start[:7] + (start[0],), y)
    with pytest.raises(mp.ShuffleMismatch):
        mp.verify_shuffle_with_witness(start, honest_dup, w2, y)


def test_shuffle_substituting_a_card_is_caught(shuffled):
    keys, y, table, start, after, witness = shuffled
    foreign = mp.CardTable(["joker"])
    forged = mp.shuffle_deck(mp.initial_deck(foreign, y), y)[0][0]
    sub = after[:3] + (forged,) + after[4:]
    with pytest.raises(mp.ShuffleMismatch) as exc:
        mp.verify_shuffle_with_witness(start, sub, witness, y, participant="cat")
    assert exc.value.position == 3
    with pytest.raises(mp.UnknownCard):
        open_card(forged, [k.secret for k in keys.values()], table)


def test_shuffle_with_lying_witness_is_caught(shuffled):
    _, y, _, start, after, witness = shuffled
    rands = list(witness.randomizers)
    rands[2] = g.scalar_add(rands[2], g.scalar_from_int(1))
    with pytest.raises(mp.ShuffleMismatch) as exc:
        mp.verify_shuffle_with_witness(start, after, mp.ShuffleWitness(witness.permutation, tuple(rands)), y)
    assert exc.value.position == 2
    rands[2] = bytes(32)
    with pytest.raises(mp.ShuffleMismatch, match="zero"):
        mp.verify_shuffle_with_witness(start, after, mp.ShuffleWitness(witness.permutation, tuple(rands)), y)
    with pytest.raises(mp.ShuffleMismatch):
        mp.ShuffleWitness.from_bytes(witness.to_bytes()[:-1], "ann")
    assert mp.ShuffleWitness.from_bytes(witness.to_bytes()) == witness
    assert "randomizers" not in repr(witness)


def test_a_duplicating_shuffler_cannot_prove_its_shuffle(shuffled):
    keys, y, _, start, after, witness = shuffled
    second, w2 = mp.shuffle_deck(after, y)
    cheat = (second[1],) + second[1:]
    with pytest.raises(mp.ShuffleProofError) as exc:
        mp.verify_shuffle(after, cheat, mp.prove_shuffle(after, cheat, w2, y, CTX), y, CTX, participant="bob")
    assert exc.value.participant == "bob"


# ---------------------------------------------------------------- adversarial: shares and reveals


def test_wrong_decryption_share_rejected(shuffled):
    keys, y, table, _, after, _ = shuffled
    ct = after[0]
    good = mp.decryption_share(keys["bob"], ct, b"deal-0", "bob")
    mp.verify_share(good, keys["bob"].public, ct, b"deal-0", "bob")
    cases = [
        (good, keys["ann"].public, ct, b"deal-0", "bob"),  # checked against another key
        (good, keys["bob"].public, after[1], b"deal-0", "bob"),  # another card
        (good, keys["bob"].public, ct, b"deal-1", "bob"),  # another event
        (good, keys["bob"].public, ct, b"deal-0", "cat"),  # claimed by another player
        (mp.DecryptionShare(g.mul(keys["cat"].secret, ct.c1), good.proof), keys["bob"].public, ct, b"deal-0", "bob"),
        (mp.DecryptionShare(g.IDENTITY, good.proof), keys["bob"].public, ct, b"deal-0", "bob"),
        (mp.DecryptionShare(bytes(32), good.proof), keys["bob"].public, ct, b"deal-0", "bob"),
    ]
    for share, pub, c, ctx, who in cases:
        with pytest.raises(mp.InvalidDecryptionShare) as exc:
            mp.verify_share(share, pub, c, ctx, who)
        assert exc.value.participant == who
    with pytest.raises(mp.InvalidDecryptionShare):
        mp.DecryptionShare.from_bytes(good.to_bytes()[:95], "bob")


def test_unchecked_bad_share_decrypts_to_unknown_card(shuffled):
    keys, y, table, _, after, _ = shuffled
    ct = after[0]
    others = [g.mul(keys["bob"].secret, ct.c1), g.base_mul(g.scalar_from_int(7))]
    with pytest.raises(mp.UnknownCard):
        mp.private_reveal(ct, keys["ann"], others, table)


def test_a_key_share_repr_hides_the_secret(shuffled):
    keys, _, _, _, _, _ = shuffled
    assert keys["ann"].secret.hex() not in repr(keys["ann"]) and str(keys["ann"].secret) not in repr(keys["ann"])


def test_key_setup_own_share_and_strangers():
    names = NAMES[:2]
    keys = {n: mp.KeyShare.generate() for n in names}
    rnd = mp.KeySetupRound(names, CTX)
    for n in names:
        rnd.add_commit(n, mp.key_commitment(keys[n], CTX))
    rnd.add_reveal("ann", mp.publish_key_share(keys["ann"], CTX, "ann"), own=True)
    rnd.add_reveal("bob", mp.publish_key_share(keys["bob"], CTX, "bob"))
    assert rnd.public_shares() == [keys["ann"].public, keys["bob"].public]
    assert rnd.joint_key() == g.add(keys["ann"].public, keys["bob"].public)
    with pytest.raises(cr.UnknownParticipant):
        rnd.add_reveal("eve", mp.publish_key_share(mp.KeyShare.generate(), CTX, "eve"))
