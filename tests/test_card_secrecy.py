"""No card is readable by anyone it was not shown to (SPEC §25.7, issue 24).

Each test reads a whole log as an outsider would (protocol/session/outsider.py: the
key-reveal authors, the ciphertexts of the shuffles and the `for` of every `shares` event,
no rules engine) and decodes C2 − ΣD for every ciphertext whose shares from all seats are
in the log; each such card must be one shown to the table (a public reveal or a claim).
"""
from __future__ import annotations

from collections import Counter

import pytest

from protocol.session import CHANCE, DeckRequest, GameRuleError
from protocol.session.outsider import readable_cards
from tests.secrecy_helpers import StagedRules, play_staged
from tests.session_helpers import make_peers, step


def unshown(peer, labels):
    """The cards an outsider reads from `peer`'s chain that were never shown to the table."""
    return [c for c in readable_cards(peer.chain.events, labels) if c.c1 not in peer.book.shown]


class HandOffRules:
    """Four cards: #0 is dealt to seat 0, then to seat 1 (a look), #1 is revealed to all."""
    name = "hand-off/1"
    LABELS = ("card:a", "card:b", "card:c", "card:d")

    def new_state(self, players, config):
        if players < 2 or config:
            raise GameRuleError("2+ players, no options")
        return {"pending": [DeckRequest("shuffle", "d", (0, 1, 2, 3), labels=self.LABELS),
                            DeckRequest("deal", "d", (0,), seat=0), DeckRequest("deal", "d", (0,), seat=1),
                            DeckRequest("reveal", "d", (1,))]}

    def to_move(self, st):
        return CHANCE if st["pending"] else None

    def pending_chance(self, st):
        return st["pending"][0]

    def read(self, text):
        return text

    def apply_action(self, st, seat, text):
        st["pending"].pop(0)
        if text.startswith("reveal "):
            st["shown"] = text.split()[1]

    def chance_outcome(self, st, request, revealed):
        return " ".join([request.kind, *(label for _, label in revealed)])

    def revealed_cards(self, st, seat, text):
        return []

    def state_hash(self, st):
        return len(st["pending"]).to_bytes(32, "big")

    def deck_labels(self):
        return self.LABELS

    def result(self, st):
        return {"scores": [], "winners": []}

    def new_view(self, seat):
        return {}

    def learn(self, view, handle, label):
        view[handle] = label


@pytest.mark.parametrize("players", [2, 3])
def test_a_card_dealt_to_one_seat_then_another_stays_hidden_from_the_rest(players):
    rules = HandOffRules()
    peers = make_peers(rules, players)
    while any(p.pending_obligation() is not None for p in peers):
        step(peers)
    assert peers[0].finished
    read = readable_cards(peers[0].chain.events, rules.LABELS)
    assert len(read) == 1 and read[0].c1 in peers[0].book.shown   # the revealed card, and only it
    assert read[0].label == peers[0].state["shown"]
    by_seat = {p.seat: p for p in peers}
    assert by_seat[0].view[0] == by_seat[1].view[0]        # both receivers learnt #0, and only they
    assert all(0 not in p.view for p in peers if p.seat > 1)


@pytest.fixture(scope="module", params=[3, 4])
def staged(request, tmp_path_factory):
    """The peers of a staged game after 600 events (its logs closed in `log_dir`)."""
    log_dir = tmp_path_factory.mktemp(f"staged{request.param}")
    with pytest.MonkeyPatch.context() as patch:
        peers = play_staged(patch, request.param, 600, log_dir=str(log_dir))
    for p in peers:
        p.log.close()
    return peers, log_dir


def test_an_outsider_reads_no_card_it_was_not_shown_in_a_staged_game(staged):
    """Science Outpost and Espionage looks, Trading Post and The Scavenger, City of Banks'
    blind take and `give`, Automata's looks at the Space Port deck: all within 600 events,
    and each card that changed hands in those ways was refreshed first."""
    peers, _ = staged
    p = peers[0]
    actions = Counter(note.split()[0] for note in p.notes)
    deals = Counter(note.split(":")[0].split(" to ")[0].split(" for ")[0] for note in p.notes
                    if note.startswith(("shares deal", "refresh")))
    # the game really moved cards between players in each of these ways
    assert actions["bank"] and actions["give"] and actions["automata"] and actions["pick"]
    specials = {note.split()[1].split(":")[1] for note in p.notes if note.startswith("special ")}
    assert specials == {"science-outpost", "trading-post", "espionage", "the-scavenger"}, specials
    assert deals["shares deal look"] and deals["shares deal hand"] and deals["shares deal port"]
    assert deals["refresh look"] and deals["refresh hand"] and deals["refresh port"]
    leaked = unshown(p, StagedRules().deck_labels())
    assert leaked == [], [(c.seq, p.notes[c.seq], c.label) for c in leaked]


def test_a_refresh_is_a_proven_re_encryption_and_nothing_else():
    """SPEC §25.11: the same card under new randomness; a copy, another card or a proof for
    another context is refused."""
    from protocol.crypto import group as g
    from protocol.poker import deck as mp
    from protocol.poker.refresh import RefreshProofError, refresh_card, verify_refresh
    y = g.base_mul(g.scalar_from_int(33))
    table = mp.CardTable(("a", "b"))
    a, b = mp.initial_deck(table, y)
    after, proof = refresh_card(a, y, b"ctx", "p0")
    verify_refresh(a, after, proof.to_bytes(), y, b"ctx", "p0")
    assert after.c1 != a.c1 and after.c2 != a.c2
    x = g.scalar_from_int(33)   # the joint secret: the refreshed card is still "a"
    assert table.label_of(g.sub(after.c2, g.mul(x, after.c1))) == "a"
    for before, card, context, who in ((a, after, b"other", "p0"), (a, after, b"ctx", "p1"), (b, after, b"ctx", "p0"),
                                       (a, a, b"ctx", "p0")):
        with pytest.raises(RefreshProofError):
            verify_refresh(before, card, proof.to_bytes(), y, context, who)
    swapped = mp.Ciphertext(after.c1, g.add(after.c2, g.sub(table.point("b"), table.point("a"))))
    with pytest.raises(RefreshProofError):   # the same randomness around another card
        verify_refresh(a, swapped, proof.to_bytes(), y, b"ctx", "p0")


def _to_refresh(peers):
    """Step the hand-off game to its first due refresh."""
    while peers[0].next_kind() != "refresh":
        step(peers)


def test_shares_written_where_a_refresh_is_due_are_refused_naming_the_card():
    from protocol.session import UnexpectedKind
    from tests.session_helpers import craft, refused, writer
    rules = HandOffRules()
    peers = make_peers(rules, 3)
    _to_refresh(peers)
    cheat = writer(peers)
    book = cheat.book
    shares = {"s": [book.make_claim_share(cheat._key, cheat.chain.height, cheat.seat, 0)], "for": [[0, book.cipher[0].c1]]}
    wire = craft(cheat, kind="shares", body=shares)
    error = refused(peers, cheat, wire, UnexpectedKind, rules)
    assert "#0" in error.reason and "refresh" in error.reason and "§25.7" in error.reason


def test_a_refresh_with_a_bad_proof_or_input_is_refused_naming_its_author():
    from protocol.session import BadBody, BadRefresh
    from tests.session_helpers import craft, refused, writer
    rules = HandOffRules()
    peers = make_peers(rules, 3)
    _to_refresh(peers)
    cheat = writer(peers)

    def flip_proof(body):
        body["p"] = body["p"][:40] + bytes([body["p"][40] ^ 1]) + body["p"][41:]

    def replay_input(body):   # the card not re-randomised
        body["d"] = body["for"][0][1]

    def wrong_input(body):
        body["for"] = [[0, body["d"]]]
    assert "proof" in refused(peers, cheat, craft(cheat, flip_proof), BadRefresh, rules).reason
    assert "C1" in refused(peers, cheat, craft(cheat, replay_input), BadRefresh, rules).reason
    refused(peers, cheat, craft(cheat, wrong_input), BadBody, rules)
    step(peers)   # the honest refresh goes through
    assert peers[0].next_kind() == "refresh"


def _leaky_log(tmp_path, monkeypatch, players=3):
    """The hand-off game written by peers that deal without refreshing (the old session):
    its log and the seq of each `shares` event of the second deal."""
    from protocol.session.dealing import DeckBook
    monkeypatch.setattr(DeckBook, "stale", lambda self, request: ())
    peers = make_peers(HandOffRules(), players, log_dir=str(tmp_path))
    while any(p.pending_obligation() is not None for p in peers):
        step(peers)
    for p in peers:
        p.log.close()
    deals = [i for i, note in enumerate(peers[0].notes) if note.startswith("shares deal d to seat 1")]
    monkeypatch.undo()
    return str(tmp_path / "peer0.asvlog"), deals, peers[0]


def test_verify_names_the_event_of_a_deal_that_skips_the_refresh(tmp_path, monkeypatch):
    from protocol.crypto import fingerprint
    from protocol.session import verify_log
    path, deals, writer_peer = _leaky_log(tmp_path, monkeypatch)
    report, _ = verify_log(path, HandOffRules())
    assert not report.valid and report.exit_code == 1
    assert report.seq == deals[0] and report.events == deals[0]
    assert report.author == fingerprint(writer_peer.chain.events[deals[0]].author)
    assert "'refresh' event is due" in report.reason and "#0" in report.reason and "§25.7" in report.reason


def test_verify_s_outsider_check_names_the_share_that_completes_a_card(tmp_path, monkeypatch):
    """The check from the log's side (SPEC §25.7, §26.10): a replica whose deal rules let the
    leak through still refuses the log, at the share that completes the unshown card."""
    from protocol.session import verify_log
    from protocol.session.dealing import DeckBook
    path, deals, writer_peer = _leaky_log(tmp_path, monkeypatch)
    monkeypatch.setattr(DeckBook, "stale", lambda self, request: ())
    report, _ = verify_log(path, HandOffRules())
    # the share of seat 0, the first receiver, completes the set of the card it was dealt
    completing = next(i for i in deals if writer_peer.chain.events[i].author == writer_peer.seat_keys[0])
    assert not report.valid and report.seq == completing and report.events == completing
    assert report.reason.startswith("CardExposed") and "card #0" in report.reason and "never shown" in report.reason
    assert report.head == writer_peer.chain.events[completing - 1].hash.hex()


def test_the_logs_of_a_staged_game_verify_with_their_refreshes(staged):
    from protocol.session import verify_log
    peers, log_dir = staged
    report, _ = verify_log(str(log_dir / "peer1.asvlog"), StagedRules())
    assert report.valid and report.exit_code == 2 and report.events == peers[0].chain.height


def test_every_shuffle_and_refresh_proof_checks_from_the_log_alone(staged):
    """SPEC §26.4: the first shuffle of a deck operation names its input (`labels` or `in`),
    so a checker with no rules engine verifies every proof of a game with hand reshuffles,
    and a first shuffle that names another input fails there."""
    from protocol.log import sign_event
    from protocol.session.shuffle_check import check_shuffles
    peers, _ = staged
    events = peers[0].chain.events
    shuffles = [ev for ev in events if ev.kind == "shuffle"]
    reshuffles = [ev for ev in shuffles if "in" in ev.body]
    assert reshuffles and any(note.startswith("shuffle hand") for note in peers[0].notes)
    result = check_shuffles(events)
    assert result.failures == []
    # one first shuffle per deck operation (the last one may be under way at event 600)
    assert result.shuffles == len(shuffles) and result.named == -(-len(shuffles) // len(peers))
    assert result.refreshes == sum(len(ev.body["for"]) for ev in events if ev.kind == "refresh") > 0
    # a reshuffle whose `in` names another input no longer checks (re-signed by its author)
    target = reshuffles[0]
    author = next(p for p in peers if p.me == target.author)
    body = dict(target.body, **{"in": target.body["in"][64:] + target.body["in"][:64]})
    forged = sign_event(author.identity, target.game, target.seq, target.prev, "shuffle", body)
    tampered = check_shuffles([forged if ev.seq == target.seq else ev for ev in events])
    assert [f[0] for f in tampered.failures] == [target.seq]


def test_a_first_shuffle_that_misnames_its_input_is_refused():
    from protocol.session import BadBody
    from tests.session_helpers import craft, refused, writer
    rules = HandOffRules()
    peers = make_peers(rules, 3)
    while peers[0].phase != "play":
        step(peers)
    cheat = writer(peers)
    assert cheat.pending_obligation() == "shuffle"
    body = cheat._body("shuffle", cheat.chain.height, None)
    assert body["labels"] == list(rules.LABELS)
    refused(peers, cheat, craft(cheat, lambda b: b.update(labels=b["labels"][::-1])), BadBody, rules)
    refused(peers, cheat, craft(cheat, lambda b: b.pop("labels")), BadBody, rules)
    step(peers)
    assert peers[0].chain.events[-1].body["labels"] == list(rules.LABELS)
    second = writer(peers)   # a later shuffle takes the previous output and names nothing
    assert set(second._body("shuffle", second.chain.height, None)) == {"d", "p"}
    refused(peers, second, craft(second, lambda b: b.update(labels=list(rules.LABELS))), BadBody, rules)


def test_a_log_of_rules_version_6_cannot_be_checked_here(tmp_path, capsys):
    """SPEC §27.1, §27.6: version 7 changed the deal events (8 the group, 9 added the takeback event); a version-6 log is exit 3,
    'cannot check', with the asv that wrote it named as the one that checks it."""
    from cli.games.asv.adapter import RULES_NAME, AsvRules
    from cli.main import main

    class Version6(AsvRules):
        name = "amazing-space-venture/6"
    assert RULES_NAME == "amazing-space-venture/10"
    peers = make_peers(Version6(), 2, log_dir=str(tmp_path))
    for _ in range(2):
        step(peers)
    for p in peers:
        p.log.close()
    assert main(["verify", str(tmp_path / "peer0.asvlog")]) == 3
    out = capsys.readouterr().out
    assert "cannot check" in out and "'amazing-space-venture/6'" in out and "INVALID" not in out


def test_the_outsider_measure_runs(capsys):
    """benchmarks/outsider_reads.py (the 20-game measure of SPEC §25.7), on one solitaire game."""
    from benchmarks.outsider_reads import main
    assert main(["--games", "1", "--players", "1"]) == 0
    out = capsys.readouterr().out
    assert "1 games of 1" in out and "0 of them never shown" in out and " valid" in out
