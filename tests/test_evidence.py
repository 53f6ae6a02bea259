"""A refused event is signed evidence (SPEC §29.10; finding 7 of issue 7): the peer that
refuses it writes a halt carrying it, every replica and a third party holding only the
log check the evidence again, and `asv verify --json` names the culprit."""
from __future__ import annotations

import json

import pytest

from protocol.session.abort import abort_writers
from protocol.log.events import sign_event
from protocol.session.halt import HALT_KIND, make_halt
from protocol.crypto.identity import fingerprint
from protocol.node import Node
from protocol.session.errors import BadBody, BadShare, IllegalMove, StateHashMismatch, UnexpectedKind
from protocol.session.verify import EXIT_UNFINISHED, verify_log
from tests.session_helpers import craft, make_peers, run_until, writer
from tests.toy_game import ToyRules, play_own_card

RULES = ToyRules()


def toy(n, tmp_path):
    return make_peers(RULES, n, agent_for=lambda k: play_own_card, log_dir=str(tmp_path))


def until_kind(peers, kind):
    run_until(peers, lambda: writer(peers).pending_obligation() == kind)
    cheater = writer(peers)
    return cheater, [p for p in peers if p is not cheater]


def first_writer(peers, culprit):
    key = abort_writers(culprit.roster, culprit.me)[0]
    return next(p for p in peers if p.me == key)


def convict(peers, cheater, wire, error):
    """Every honest peer refuses `wire` with `error` naming the cheater; the first peer after
    it in lobby order writes the halt, the others take it; all logs end at that halt."""
    honest = [p for p in peers if p is not cheater]
    for p in honest:
        with pytest.raises(error) as exc:
            p.receive(wire)
        assert exc.value.author == cheater.me and p.evidence[0].wire == wire
    w = first_writer(peers, cheater)
    halt = w.write_halt()
    for p in peers:
        if p is not w:
            p.receive(halt)
    assert all(p.phase == "halted" for p in peers) and len({p.chain.head for p in peers}) == 1
    return halt


def test_a_wrong_state_hash_is_kept_as_evidence_and_verify_names_the_author(tmp_path):
    peers = toy(3, tmp_path)
    cheater, _ = until_kind(peers, "action")
    wire = craft(cheater, h=bytes(32))
    convict(peers, cheater, wire, StateHashMismatch)
    for p in peers:
        report, _ = verify_log(p.log.path, RULES)   # a third party: the log alone
        assert report.valid and report.exit_code == EXIT_UNFINISHED
        assert report.culprit["author"] == fingerprint(cheater.me)
        assert report.culprit["seq"] == p.chain.height - 1
        assert report.culprit["reason"].startswith("StateHashMismatch")
        assert report.halted.startswith(f"halt: {fingerprint(cheater.me)}")
    out = json.loads(json.dumps(verify_log(peers[0].log.path, RULES)[0].to_json()))  # `asv verify --json`
    assert out["culprit"]["author"] == fingerprint(cheater.me) and out["halted"] and out["valid"]


def test_a_bad_decryption_share_is_kept_as_evidence(tmp_path):
    peers = toy(3, tmp_path)
    cheater, _ = until_kind(peers, "shares")

    def spoil(body):
        share = bytearray(body["s"][0])
        share[40] ^= 1            # inside the proof
        body["s"][0] = bytes(share)
    convict(peers, cheater, craft(cheater, spoil), BadShare)
    report, _ = verify_log(peers[1].log.path, RULES)
    assert report.culprit["author"] == fingerprint(cheater.me) and "BadShare" in report.culprit["reason"]


def test_a_halt_whose_evidence_is_a_valid_event_is_refused_and_the_event_applied(tmp_path):
    peers = toy(3, tmp_path)
    due, others = until_kind(peers, "action")
    liar, victim = others
    honest_wire = due.act()
    from protocol.log.events import parse_event
    honest = parse_event(honest_wire)
    fake = make_halt(liar.identity, victim, honest, BadBody("made up", seq=honest.seq, author=due.me))
    height = victim.chain.height
    with pytest.raises(BadBody) as exc:
        victim.receive(fake.wire)
    assert exc.value.author == liar.me and "valid event" in exc.value.reason
    assert victim.chain.height == height + 1 and victim.chain.events[-1] == honest
    assert victim.phase != "halted"


def test_a_halt_must_carry_the_due_authors_event_at_its_own_height(tmp_path):
    peers = toy(3, tmp_path)
    due, (a, b) = until_kind(peers, "action")
    # evidence signed by a peer that is not due (anyone can sign nonsense; it convicts nobody)
    not_due = sign_event(b.identity, a.game, a.chain.height, a.chain.head, "action", {"a": "x", "p": [], "h": bytes(32)})
    halt = sign_event(a.identity, a.game, a.chain.height, a.chain.head, HALT_KIND,
                      {"culprit": b.me, "evidence": not_due.wire, "reason": "x"})
    with pytest.raises(BadBody):
        b.receive(halt.wire)
    junk = sign_event(a.identity, a.game, a.chain.height, a.chain.head, HALT_KIND,
                      {"culprit": due.me, "evidence": b"junk", "reason": "x"})
    with pytest.raises(BadBody):
        b.receive(junk.wire)
    wrong_culprit = sign_event(a.identity, a.game, a.chain.height, a.chain.head, HALT_KIND,
                               {"culprit": b.me, "evidence": craft(due, h=bytes(32)), "reason": "x"})
    with pytest.raises(BadBody):
        b.receive(wrong_culprit.wire)
    assert b.phase == "play"


def test_after_a_halt_nothing_more_is_taken(tmp_path):
    peers = toy(3, tmp_path)
    cheater, _ = until_kind(peers, "action")
    convict(peers, cheater, craft(cheater, lambda body: body.update(a="play #99:card:z")), IllegalMove)
    w = first_writer(peers, cheater)
    late = sign_event(w.identity, w.game, w.chain.height, w.chain.head, "action", {"a": "pass", "p": [], "h": bytes(32)})
    other = next(p for p in peers if p is not w and p is not cheater)
    with pytest.raises(UnexpectedKind):
        other.receive(late.wire)


async def test_the_node_holds_the_culprits_later_events_and_the_first_writer_halts(tmp_path):
    peers = toy(3, tmp_path)
    cheater, honest = until_kind(peers, "action")
    nodes = {p.me: Node(p.identity, RULES, p.game, None, peer=p) for p in peers}
    bad = craft(cheater, lambda body: body.update(a="play #99:card:z"))
    good = cheater.act()
    w = first_writer(peers, cheater)
    other = next(p for p in honest if p is not w)
    for p in honest:
        nodes[p.me]._feed(bad)
        nodes[p.me]._feed(good)        # the culprit's correct event comes too late
        assert p.chain.height == cheater.chain.height - 1 and not nodes[p.me].over
    await nodes[w.me]._act_while_due()  # the first writer after the culprit halts at once
    assert w.phase == "halted" and nodes[w.me].over
    await nodes[other.me]._act_while_due()  # the other waits for that halt (its timeout is long)
    assert other.phase != "halted"
    nodes[other.me]._feed(w.chain.events[-1].wire)
    assert other.phase == "halted" and other.chain.head == w.chain.head
    report, _ = verify_log(other.log.path, RULES)
    assert report.culprit["author"] == fingerprint(cheater.me) and "IllegalMove" in report.culprit["reason"]


def test_asv_verify_json_names_the_culprit_of_a_real_game(tmp_path, capsys):
    """End to end on Amazing Space Venture: a seat signs an action with a wrong state hash;
    the halt is written; `asv verify --json` on any log names that seat."""
    from cli.games.asv.adapter import AsvRules
    from cli.games import kit_for
    bot_agent = kit_for("asv").agent
    from cli.main import main
    rules = AsvRules()
    peers = make_peers(rules, 2, agent_for=lambda k: bot_agent("greedy", f"evidence/{k}"), log_dir=str(tmp_path))
    run_until(peers, lambda: writer(peers).pending_obligation() == "action")
    cheater = writer(peers)
    convict(peers, cheater, craft(cheater, h=bytes(32)), StateHashMismatch)
    honest = next(p for p in peers if p is not cheater)
    assert main(["verify", "--json", str(honest.log.path)]) == EXIT_UNFINISHED
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] and out["culprit"]["author"] == fingerprint(cheater.me)
    assert out["culprit"]["reason"].startswith("StateHashMismatch") and out["halted"].startswith("halt: ")
    assert main(["verify", str(honest.log.path)]) == EXIT_UNFINISHED
    assert f"game halted: {fingerprint(cheater.me)} signed a refused event" in capsys.readouterr().out
