"""Dice nobody can bias (SPEC §33): chains, rolls, the ledger's refusals, forfeits, chain ends."""
from __future__ import annotations

import hashlib
import struct
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from protocol.crypto import dice as d
from protocol.errors import ProtocolError

GAME = bytes(16)
OTHER_GAME = bytes([1]) * 16


def seed(seat: int, gen: int = 0) -> bytes:
    return bytes([seat, gen]) * 16


def chains_for(game: bytes, seats: int, length: int, gen: int = 0) -> list[d.SecretChain]:
    return [d.SecretChain(seed(s, gen), length, d.ChainContext(game, s, gen)) for s in range(seats)]


def table(seats: int = 3, length: int = 8, game: bytes = GAME) -> tuple[d.DiceLedger, list[d.SecretChain]]:
    ledger = d.DiceLedger(game, seats)
    chains = chains_for(game, seats, length)
    for s, c in enumerate(chains):
        ledger.add_chain(s, c.commitment())
    return ledger, chains


def open_all(ledger: d.DiceLedger, chains: list[d.SecretChain], roller: int | None = None) -> d.RollRecord:
    """Every pending seat opens its next link, roller last; returns the finished roll."""
    record = None
    for s in d.opening_order(ledger.pending(), roller if roller in ledger.pending() else None):
        record = ledger.open(s, ledger.roll_index, chains[s].link(chains[s].length - ledger.remaining(s) + 1))
    assert record is not None
    return record


# --- SPEC §33.2-§33.4 written out again from the text alone (what a verifier implements) -----

def lp(*parts: bytes) -> bytes:
    return b"".join(struct.pack(">I", len(p)) + p for p in parts)


def spec_faces(game: bytes, index: int, openings: list[tuple[int, int, int, bytes]], sides: int, count: int):
    parts = [struct.pack(">III", s, g, j) + link for s, g, j, link in sorted(openings)]
    digest = hashlib.sha256(lp(b"p2p-asv/dice/roll/v1", game, struct.pack(">Q", index),
                               struct.pack(">I", len(parts)), *parts)).digest()
    out, block = [], 0
    while len(out) < count:
        data = hashlib.sha256(lp(b"p2p-asv/dice/face/v1", digest, struct.pack(">I", block))).digest()
        block += 1
        for k in range(4):
            (w,) = struct.unpack(">Q", data[8 * k:8 * k + 8])
            if w < 2**64 - 2**64 % sides and len(out) < count:
                out.append(1 + w % sides)
    return digest, tuple(out)


def spec_chain_parts(game: bytes, seat: int, gen: int, seed_: bytes, length: int) -> list[bytes]:
    """[head, link 1, …, link L] by SPEC §33.2."""
    u = lambda n: struct.pack(">I", n)  # noqa: E731
    links = {length: hashlib.sha256(lp(b"p2p-asv/dice/seed/v1", game, u(seat), u(gen), u(length), seed_)).digest()}
    for j in range(length, 0, -1):
        links[j - 1] = hashlib.sha256(lp(b"p2p-asv/dice/link/v1", game, u(seat), u(gen), u(j), links[j])).digest()
    return [links[j] for j in range(length + 1)]


def test_known_answers_and_an_independent_implementation_of_the_spec():
    head, links = d.commit_chain(bytes(32), 3, d.ChainContext(GAME, 0, 0))
    assert head.hex() == "f13bb3b077e7ea955bc296656fb7c868fd16c355288fb9dda54951d6e5451473"
    assert links[0].hex() == "54f485d9abefce37af6721b2530e0f2fe691a30c52cee767b24a9a7f691726ef"
    assert [head, *links] == spec_chain_parts(GAME, 0, 0, bytes(32), 3)
    head1, links1 = d.commit_chain(bytes([1]) * 32, 3, d.ChainContext(GAME, 1, 0))
    assert head1.hex() == "0941c9ef94e122d0c1e4552f07d924a2967b30ca83b76a07d90188f67550954f"
    openings = [d.Opening(1, 0, 1, links1[0]), d.Opening(0, 0, 1, links[0])]   # any order: sorted by seat
    digest = d.roll_digest(GAME, 0, openings)
    assert digest.hex() == "930e9d8778c955d7c54c632ab59297a4296f454b7c7fa39eb93ab66be1d360b7"
    assert d.faces(digest, 6, 2) == (2, 6)
    assert d.roll(GAME, 0, openings, 20) == 12
    assert d.roll_dice(GAME, 0, openings, 2**32, 3) == (1760294644, 4020623084, 2467557854)
    raw = [(o.seat, o.gen, o.position, o.link) for o in openings]
    for sides, count in [(6, 2), (20, 1), (2**32, 3), (7, 9)]:
        assert spec_faces(GAME, 0, raw, sides, count) == (digest, d.faces(digest, sides, count))


def test_spec_chain_helper_agrees_for_many_shapes():
    for seat, gen, length in [(0, 0, 1), (3, 2, 5), (255, 7, 17)]:
        head, links = d.commit_chain(seed(seat, gen), length, d.ChainContext(OTHER_GAME, seat, gen))
        assert [head, *links] == spec_chain_parts(OTHER_GAME, seat, gen, seed(seat, gen), length)


# --- chains -------------------------------------------------------------------------------

def test_every_link_checks_at_its_own_position_only():
    ctx = d.ChainContext(GAME, 2, 0)
    head, links = d.commit_chain(seed(2), 5, ctx)
    prev = head
    for j, link in enumerate(links, start=1):
        assert d.check_link(ctx, prev, link, j)
        assert not d.check_link(ctx, prev, link, j + 1)
        assert not d.check_link(d.ChainContext(GAME, 1, 0), prev, link, j)     # another seat
        assert not d.check_link(d.ChainContext(GAME, 2, 1), prev, link, j)     # another chain
        assert not d.check_link(d.ChainContext(OTHER_GAME, 2, 0), prev, link, j)  # another game
        assert not d.check_link(ctx, prev, link[:-1], j) and not d.check_link(ctx, prev, link, 0)
        prev = link
    assert len(set(links) | {head}) == 6


def test_one_seed_gives_unrelated_chains_in_two_games_seats_and_generations():
    heads = {d.commit_chain(bytes(32), 4, d.ChainContext(g, s, k))[0]
             for g in (GAME, OTHER_GAME) for s in (0, 1) for k in (0, 1)}
    assert len(heads) == 8
    # the length is bound too: a 4-link chain is not a 5-link chain with its end cut off
    assert d.commit_chain(bytes(32), 4, d.ChainContext(GAME, 0, 0))[1] != \
        d.commit_chain(bytes(32), 5, d.ChainContext(GAME, 0, 0))[1][:4]


def test_chain_arguments_are_checked_and_the_seed_never_shown():
    ctx = d.ChainContext(GAME, 0, 0)
    with pytest.raises(ValueError):
        d.commit_chain(bytes(31), 3, ctx)
    with pytest.raises(ValueError):
        d.commit_chain(bytes(32), 0, ctx)
    with pytest.raises(ValueError):
        d.commit_chain(bytes(32), d.MAX_CHAIN_LENGTH + 1, ctx)
    with pytest.raises(ValueError):
        d.ChainContext(b"", 0, 0)
    with pytest.raises(ValueError):
        d.ChainContext(GAME, 256, 0)
    chain = d.SecretChain(bytes([7]) * 32, 3, ctx)
    assert bytes([7]).hex() * 4 not in repr(chain)
    with pytest.raises(IndexError):
        chain.link(0)
    with pytest.raises(IndexError):
        chain.link(4)
    assert d.SecretChain(bytes([7]) * 32, 3, ctx).head == chain.head   # rebuilt from the seed alone
    assert d.SecretChain.fresh(GAME, 0, 0, 3).head != chain.head


# --- faces --------------------------------------------------------------------------------

def test_words_at_or_above_the_limit_are_skipped():
    limit6 = 2**64 - 2**64 % 6
    assert d.faces_from_words([limit6, limit6 - 1, 6], 6, 2) == (1 + (limit6 - 1) % 6, 1)
    assert d.faces_from_words([2**64 - 1, 5], 2**32 - 1, 1) == (6,)
    with pytest.raises(ValueError):
        d.faces_from_words([limit6], 6, 1)
    for sides, count in [(1, 1), (2**32 + 1, 1), (6, 0), (6, 65)]:
        with pytest.raises(ValueError):
            d.faces(bytes(32), sides, count)


def chi_square(counts: Counter, sides: int, n: int) -> float:
    expected = n / sides
    return sum((counts[f] - expected) ** 2 / expected for f in range(1, sides + 1))


# 99.9th percentile of the chi-square distribution with sides - 1 degrees of freedom
CHI2_999 = {2: 10.83, 6: 20.52, 7: 22.46, 12: 31.26}


def test_rolls_through_the_ledger_are_uniform_for_fixed_seeds():
    """4,000 rolls of a 3-seat table: every face of a d6, a d7 and a d2 within the
    chi-square bound, and the two dice of a 2d6 independent (their sum's spread)."""
    ledger, chains = table(seats=3, length=4000)
    records = [open_all(ledger, chains, roller=k % 3) for k in range(4000)]
    assert [r.index for r in records] == list(range(4000))
    assert len({r.digest for r in records}) == 4000
    for sides in (2, 6, 7, 12):
        counts = Counter(r.faces(sides)[0] for r in records)
        assert set(counts) == set(range(1, sides + 1))
        assert chi_square(counts, sides, len(records)) < CHI2_999[sides], (sides, counts)
    pairs = Counter(r.faces(6, 2) for r in records)
    assert chi_square(Counter({i + 1: pairs[p] for i, p in enumerate(sorted(pairs))}), 36, 4000) < 66.62   # 35 degrees of freedom
    doubles = sum(n for (a, b), n in pairs.items() if a == b)
    assert abs(doubles / 4000 - 1 / 6) < 0.025


def test_one_secret_link_is_enough_even_if_every_other_seat_opens_a_constant():
    """The roll hashes every link: two seats' openings fixed, the third's varying, the
    faces are still uniform (the digest is not, e.g., an XOR that a copied link cancels)."""
    fixed = [d.Opening(0, 0, 1, bytes(32)), d.Opening(1, 0, 1, bytes(32))]
    counts = Counter(d.roll(GAME, 5, fixed + [d.Opening(2, 0, 1, hashlib.sha256(bytes([i, j])).digest())], 6)
                     for i in range(60) for j in range(50))
    assert chi_square(counts, 6, 3000) < CHI2_999[6]


def test_roll_digest_binds_game_index_and_every_field_of_every_opening():
    base = [d.Opening(0, 0, 1, bytes(32)), d.Opening(1, 0, 1, bytes([1]) * 32)]
    ref = d.roll_digest(GAME, 3, base)
    assert d.roll_digest(GAME, 3, list(reversed(base))) == ref
    variants = [d.roll_digest(OTHER_GAME, 3, base), d.roll_digest(GAME, 4, base), d.roll_digest(GAME, 3, base[:1]),
                d.roll_digest(GAME, 3, [base[0], d.Opening(2, 0, 1, base[1].link)]),
                d.roll_digest(GAME, 3, [base[0], d.Opening(1, 1, 1, base[1].link)]),
                d.roll_digest(GAME, 3, [base[0], d.Opening(1, 0, 2, base[1].link)])]
    assert ref not in variants and len(set(variants)) == len(variants)
    for bad in ([], [base[0], base[0]], [d.Opening(0, 0, 1, bytes(31))]):
        with pytest.raises(ValueError):
            d.roll_digest(GAME, 0, bad)


def test_opening_order_puts_the_roller_last():
    assert d.opening_order([0, 1, 2, 3], 1) == [2, 3, 0, 1]
    assert d.opening_order([3, 0, 2], 3) == [0, 2, 3]
    assert d.opening_order([2, 0], None) == [0, 2]
    with pytest.raises(ValueError):
        d.opening_order([0, 2], 1)


# --- the ledger's refusals ----------------------------------------------------------------

def test_every_dice_error_is_a_protocol_error_naming_a_seat():
    for cls in (d.BadDiceBody, d.BadChainCommit, d.WrongRoll, d.AlreadyOpened, d.SeatNotActive):
        err = cls(2, "x")
        assert isinstance(err, ProtocolError) and isinstance(err, d.DiceError) and err.seat == 2
        assert "seat 2" in str(err)
    assert issubclass(d.WrongLink, ProtocolError) and issubclass(d.OpeningTooEarly, d.DiceError)


def test_a_wrong_link_is_refused_naming_its_seat_and_changes_nothing():
    ledger, chains = table()
    ledger.open(1, 0, chains[1].link(1))
    before = ledger.snapshot()
    with pytest.raises(d.WrongLink) as e:
        ledger.open(2, 0, bytes(32))
    assert e.value.seat == 2 and e.value.roll == 0 and e.value.position == 1
    with pytest.raises(d.WrongLink) as e:
        ledger.open(2, 0, chains[2].link(2))          # its own link, a position too far
    assert e.value.seat == 2
    with pytest.raises(d.WrongLink) as e:
        ledger.open(0, 0, chains[1].link(1))          # another seat's opened link, copied
    assert e.value.seat == 0
    assert ledger.snapshot() == before
    assert ledger.open(2, 0, chains[2].link(1)) is None
    record = ledger.open(0, 0, chains[0].link(1))
    assert record is not None and [o.seat for o in record.openings] == [0, 1, 2]
    assert record.digest == d.roll_digest(GAME, 0, [d.Opening(s, 0, 1, chains[s].link(1)) for s in range(3)])


def test_a_replayed_link_from_another_roll_or_another_game_is_refused():
    ledger, chains = table(seats=2)
    open_all(ledger, chains)
    before = ledger.snapshot()
    with pytest.raises(d.WrongRoll) as e:          # roll 0's opening sent again for roll 0
        ledger.open(0, 0, chains[0].link(1))
    assert e.value.seat == 0
    with pytest.raises(d.WrongLink) as e:          # roll 0's link presented as roll 1's
        ledger.open(0, 1, chains[0].link(1))
    assert e.value.seat == 0 and e.value.position == 2
    with pytest.raises(d.WrongRoll):               # an opening ahead of its roll
        ledger.open(1, 2, chains[1].link(2))
    # the same seeds in another game: the links there are valid links, but not of this game
    elsewhere, other_chains = table(seats=2, game=OTHER_GAME)
    assert other_chains[1].link(2) != chains[1].link(2)
    with pytest.raises(d.WrongLink) as e:
        ledger.open(1, 1, other_chains[1].link(2))
    assert e.value.seat == 1
    assert ledger.snapshot() == before


def test_a_resend_is_harmless_and_a_second_different_opening_is_refused():
    ledger, chains = table(seats=2)
    assert ledger.open(0, 0, chains[0].link(1)) is None
    before = ledger.snapshot()
    assert ledger.open(0, 0, chains[0].link(1)) is None
    assert ledger.snapshot() == before
    with pytest.raises(d.AlreadyOpened) as e:
        ledger.open(0, 0, chains[0].link(2))
    assert e.value.seat == 0 and ledger.snapshot() == before


def test_unknown_seats_are_refused():
    ledger, chains = table(seats=2)
    for bad in (2, -1, True):
        with pytest.raises(d.SeatNotActive):
            ledger.open(bad, 0, chains[0].link(1))
    with pytest.raises(d.SeatNotActive):
        ledger.add_chain(5, chains[0].commitment())


# --- the end of a chain -------------------------------------------------------------------

def test_no_roll_before_every_seat_committed_a_chain():
    ledger = d.DiceLedger(GAME, 3)
    chains = chains_for(GAME, 3, 4)
    assert ledger.needs_chain() == [0, 1, 2]
    ledger.add_chain(0, chains[0].commitment())
    with pytest.raises(d.OpeningTooEarly) as e:
        ledger.open(0, 0, chains[0].link(1))
    assert e.value.seat == 0 and e.value.waiting_for == [1, 2]


def test_a_game_needing_more_rolls_than_the_chain_commits_a_fresh_chain():
    ledger, chains = table(seats=2, length=2)
    first = [open_all(ledger, chains), open_all(ledger, chains)]
    assert ledger.needs_chain() == [0, 1] and ledger.remaining(0) == 0
    with pytest.raises(d.OpeningTooEarly) as e:
        ledger.open(1, 2, chains[1].link(2))
    assert e.value.waiting_for == [0, 1]
    fresh = chains_for(GAME, 2, 3, gen=1)
    before = ledger.snapshot()
    with pytest.raises(d.BadChainCommit) as e:      # generation 0 again (a replayed commitment)
        ledger.add_chain(0, chains[0].commitment())
    assert e.value.seat == 0
    with pytest.raises(d.BadChainCommit):            # skipping a generation
        ledger.add_chain(0, chains_for(GAME, 2, 3, gen=2)[0].commitment())
    with pytest.raises(d.BadChainCommit):
        ledger.add_chain(0, d.ChainCommit(1, 0, fresh[0].head))
    with pytest.raises(d.BadChainCommit):
        ledger.add_chain(0, d.ChainCommit(1, 3, fresh[0].head[:31]))
    assert ledger.snapshot() == before
    ledger.add_chain(0, fresh[0].commitment())
    with pytest.raises(d.BadChainCommit):            # a seat with links left may not replace them
        ledger.add_chain(0, chains_for(GAME, 2, 3, gen=2)[0].commitment())
    with pytest.raises(d.OpeningTooEarly) as e:      # seat 1 has not committed yet
        ledger.open(0, 2, fresh[0].link(1))
    assert e.value.waiting_for == [1]
    ledger.add_chain(1, fresh[1].commitment())
    record = open_all(ledger, fresh)
    assert record.index == 2 and [(o.gen, o.position) for o in record.openings] == [(1, 1), (1, 1)]
    assert ledger.generation(0) == 1 and ledger.remaining(1) == 2
    assert record.digest not in {r.digest for r in first}


def test_a_chain_cannot_be_committed_once_a_roll_is_being_opened():
    """A seat that saw a link of the roll must not pick a chain for it: seat 0 opened the
    last link of its chain; until the roll is finished it may not commit the next one."""
    ledger = d.DiceLedger(GAME, 2)
    short, long = chains_for(GAME, 2, 1)[0], chains_for(GAME, 2, 3)[1]
    ledger.add_chain(0, short.commitment())
    ledger.add_chain(1, long.commitment())
    ledger.open(0, 0, short.link(1))
    nxt = d.SecretChain(seed(0, 1), 3, d.ChainContext(GAME, 0, 1))
    with pytest.raises(d.BadChainCommit) as e:
        ledger.add_chain(0, nxt.commitment())
    assert e.value.seat == 0 and "being opened" in e.value.reason
    assert ledger.open(1, 0, long.link(1)) is not None
    assert ledger.needs_chain() == [0]
    ledger.add_chain(0, nxt.commitment())
    assert ledger.needs_chain() == []


# --- forfeits -----------------------------------------------------------------------------

def test_a_withholder_forfeits_and_the_roll_is_drawn_again_from_links_nobody_has_seen():
    ledger, chains = table(seats=3, length=4)
    open_all(ledger, chains, roller=0)
    # roll 1: seats 1 and 2 open, roller 0 would be last; it sees the roll and withholds
    ledger.open(1, 1, chains[1].link(2))
    ledger.open(2, 1, chains[2].link(2))
    seen = {o.link for r in ledger.rolls for o in r.openings} | {chains[1].link(2), chains[2].link(2)}
    ledger.forfeit(0)
    assert ledger.active == (1, 2) and ledger.forfeited == [0] and ledger.pending() == [1, 2]
    with pytest.raises(d.SeatNotActive) as e:
        ledger.open(0, 1, chains[0].link(2))
    assert e.value.seat == 0
    with pytest.raises(d.WrongLink):                # the void links are used up
        ledger.open(1, 1, chains[1].link(2))
    record = open_all(ledger, chains)
    assert record.index == 1 and [o.seat for o in record.openings] == [1, 2]
    assert [o.position for o in record.openings] == [3, 3]
    assert not {o.link for o in record.openings} & seen
    assert [(o.seat, o.position) for o in record.voided] == [(1, 2), (2, 2)]
    assert record.digest == d.roll_digest(GAME, 1, record.openings)
    assert open_all(ledger, chains).index == 2 and ledger.remaining(1) == 0
    with pytest.raises(d.SeatNotActive):
        ledger.forfeit(0)


def test_a_forfeit_between_rolls_only_removes_the_seat():
    ledger, chains = table(seats=3, length=3)
    open_all(ledger, chains)
    ledger.forfeit(1)
    record = open_all(ledger, chains)
    assert [(o.seat, o.position) for o in record.openings] == [(0, 2), (2, 2)] and record.voided == ()


def test_a_forfeit_after_a_chain_ran_out_asks_a_fresh_chain_before_the_roll_is_drawn_again():
    """Seat 1 opened the last link of its chain, then seat 2 withholds: the redraw needs a
    link of seat 1 that nobody has seen, so seat 1 commits its next chain first (allowed:
    no opening of the redraw exists yet)."""
    ledger = d.DiceLedger(GAME, 3)
    chains = [chains_for(GAME, 3, 2)[0], chains_for(GAME, 3, 1)[1], chains_for(GAME, 3, 2)[2]]
    for s, c in enumerate(chains):
        ledger.add_chain(s, c.commitment())
    ledger.open(0, 0, chains[0].link(1))
    ledger.open(1, 0, chains[1].link(1))
    ledger.forfeit(2)
    assert ledger.needs_chain() == [1]
    with pytest.raises(d.OpeningTooEarly):
        ledger.open(0, 0, chains[0].link(2))
    nxt = d.SecretChain(seed(1, 1), 2, d.ChainContext(GAME, 1, 1))
    ledger.add_chain(1, nxt.commitment())
    ledger.open(0, 0, chains[0].link(2))
    record = ledger.open(1, 0, nxt.link(1))
    assert record is not None and [(o.seat, o.gen, o.position) for o in record.openings] == [(0, 0, 2), (1, 1, 1)]


def test_the_same_openings_give_the_same_rolls_on_every_replica():
    a, chains = table(seats=3, length=5)
    b, _ = table(seats=3, length=5)
    for k in range(5):
        for s in d.opening_order(a.pending(), k % 3):
            link = chains[s].link(k + 1)
            assert a.open(s, k, link) == b.open(s, k, link)
    assert a.snapshot() == b.snapshot() and [r.faces(6, 2) for r in a.rolls] == [r.faces(6, 2) for r in b.rolls]


# --- event bodies -------------------------------------------------------------------------

def test_bodies_round_trip_and_are_checked_strictly():
    commit = d.SecretChain(seed(0), 4, d.ChainContext(GAME, 0, 0)).commitment()
    assert d.parse_chain_body(0, d.chain_body(commit)) == commit
    assert d.parse_chain_body(0, {**d.chain_body(commit), "h": bytes(32)}, extra=("h",)) == commit
    assert d.parse_open_body(3, d.open_body(7, bytes(32))) == (7, bytes(32))
    bad_chain = [{"gen": 0, "len": 4}, {**d.chain_body(commit), "x": 1}, {**d.chain_body(commit), "gen": True},
                 {**d.chain_body(commit), "len": -1}, {**d.chain_body(commit), "head": bytes(33)},
                 {**d.chain_body(commit), "head": "00" * 32}, [1, 2, 3], {**d.chain_body(commit), "gen": 2**32}]
    for body in bad_chain:
        with pytest.raises(d.BadDiceBody) as e:
            d.parse_chain_body(2, body)
        assert e.value.seat == 2
    for body in [{"roll": 0}, {"roll": 0, "link": bytes(32), "h": b""}, {"roll": "0", "link": bytes(32)},
                 {"roll": 2**64, "link": bytes(32)}, {"roll": 1, "link": bytes(31)}, None]:
        with pytest.raises(d.BadDiceBody) as e:
            d.parse_open_body(1, body)
        assert e.value.seat == 1
    assert d.CHAIN_KIND == "dice-chain" and d.OPEN_KIND == "dice-open"


# --- any script of rolls, chain ends and forfeits ------------------------------------------


@st.composite
def scripts(draw):
    seats = draw(st.integers(2, 4))
    length = draw(st.integers(1, 3))
    rolls = draw(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4)), min_size=1, max_size=12))
    return seats, length, rolls


def play(seats: int, length: int, script) -> tuple[d.DiceLedger, list]:
    """Run a script on a ledger: each step is (roller, after how many openings to forfeit
    the seat due next); returns the ledger and the list of operations done, to replay."""
    ledger = d.DiceLedger(GAME, seats)
    held: dict[tuple[int, int], d.SecretChain] = {}
    ops: list = []
    for roller, cut in script:
        done = 0
        while True:
            for s in ledger.needs_chain():
                gen = ledger.generation(s) + 1
                held[s, gen] = d.SecretChain(seed(s, gen % 256), length, d.ChainContext(GAME, s, gen))
                ledger.add_chain(s, held[s, gen].commitment())
                ops.append(("chain", s, held[s, gen].commitment()))
            order = d.opening_order(ledger.pending(), roller if roller in ledger.pending() else None)
            if len(ledger.active) > 1 and done == cut and order:
                ledger.forfeit(order[0])
                ops.append(("forfeit", order[0]))
                done += 1
                continue
            s = order[0]
            chain = held[s, ledger.generation(s)]
            link = chain.link(chain.length - ledger.remaining(s) + 1)
            ops.append(("open", s, ledger.roll_index, link))
            done += 1
            if ledger.open(s, ledger.roll_index, link) is not None:
                break
    return ledger, ops


@settings(max_examples=60)
@given(scripts())
def test_any_script_uses_every_link_once_and_replays_to_the_same_rolls(script):
    seats, length, steps = script
    ledger, ops = play(seats, length, steps)
    assert [r.index for r in ledger.rolls] == list(range(len(steps)))
    used = [(o.seat, o.gen, o.position) for r in ledger.rolls for o in (*r.voided, *r.openings)]
    assert len(used) == len(set(used))                       # no link serves twice
    for r in ledger.rolls:
        assert r.digest == d.roll_digest(GAME, r.index, r.openings)
        # a redraw is made of links opened after every voided one of its seat
        for o in r.openings:
            assert all(v.gen < o.gen or v.position < o.position for v in r.voided if v.seat == o.seat)
    replica = d.DiceLedger(GAME, seats)
    for op in ops:
        if op[0] == "chain":
            replica.add_chain(op[1], op[2])
        elif op[0] == "forfeit":
            replica.forfeit(op[1])
        else:
            replica.open(*op[1:])
    assert replica.snapshot() == ledger.snapshot()
