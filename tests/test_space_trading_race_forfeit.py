"""A seat that withholds its die link is forfeited and the game goes on (SPEC §26.14, §33.8,
§59.6). Three Space Trading Race peers in one process: at the first roll whose last opener (the
roller) is due, it sees the roll and stays silent; the two others sign their abort votes and
one writes the `forfeit` carrying them. Every replica, the withholder's too, takes the seat
out: it leaves as the engine's `leave` says, the pile cards only its share could open leave
play, the roll is drawn again from links nobody has seen, and the game finishes without it;
every log is valid with one head and an outsider reads no card. Where the silence is not a
withheld link, or the game cannot go on, the co-signed abort answers it as before."""
from __future__ import annotations

import pytest

from protocol.crypto import fingerprint
from protocol.log import parse_event, read_log, sign_event
from protocol.session import BadBody, run_local, verify_log
from protocol.session.abort import ABORT_KIND, FORFEIT_KIND, make_abort, make_vote, silence_kind
from protocol.session.outsider import readable_cards
from protocol.session.share_check import check_shares
from protocol.session.shuffle_check import check_shuffles
from cli.games.space_trading_race.adapter import TradingRaceRules
from tests.str_session_helpers import str_peers


def step(peers):
    writer = next(p for p in peers if p.pending_obligation() is not None)
    wire = writer.act()
    for p in peers:
        if p is not writer:
            p.receive(wire)


def to_the_rollers_opening(peers):
    """Play until the roller of a roll is due its opening, the others' links open."""
    for _ in range(5000):
        s = peers[0]
        if s.dice is not None and s.dice.current is not None and s.next_kind() == "dice-open" \
                and s.dice.current.roller == s.dice.due_seat() and s.dice.ledger.pending() == [s.dice.current.roller]:
            return next(p for p in peers if p.pending_obligation() is not None)
        step(peers)
    raise AssertionError("no roll reached its roller")


def votes_against(peers, silent):
    return {p.me: make_vote(p.identity, p.game, p.chain.height, p.chain.head, silent.me)
            for p in peers if p is not silent}


def test_a_roller_that_withholds_its_link_is_forfeited_and_the_game_goes_on(tmp_path):
    peers = str_peers(3, tmp_path, {"time_limit": 6}, key_base=190)
    withholder = to_the_rollers_opening(peers)
    seat, height, roll = withholder.seat, withholder.chain.height, peers[0].dice.ledger.roll_index
    seen = {e.author: e.body["link"] for e in peers[0].chain.events if e.kind == "dice-open" and e.body["roll"] == roll}
    assert len(seen) == 2 and withholder.me not in seen   # it holds every link: it knows the roll
    honest = [p for p in peers if p is not withholder]
    assert all(silence_kind(p) == FORFEIT_KIND for p in peers)
    ev = make_abort(honest[0].identity, honest[0], votes_against(peers, withholder))
    assert ev.kind == FORFEIT_KIND
    for p in peers:                                       # the withholder's replica takes it too
        p.receive(ev.wire)
        assert p.notes[-1].startswith(f"forfeit: {fingerprint(withholder.me)} withheld its dice-open at seq {height}")
        assert p.state.out[seat] == "left" and seat in p.book.departed and seat not in p.dice.ledger.active
        assert p.state.deck == [] and p.book.lost              # no pile card had its share: all left play
    run_local(peers)
    events = [parse_event(w) for w in read_log(honest[0].log.path)]
    after = events[height + 1:]
    assert after and all(e.author != withholder.me for e in after)
    # the roll was drawn again from links nobody had seen: both other seats opened fresh ones
    redraw = {e.author: e.body["link"] for e in after if e.kind == "dice-open" and e.body["roll"] == roll}
    assert set(redraw) == set(seen) and all(redraw[k] != seen[k] for k in seen)
    assert all(p.finished for p in peers) and peers[0].state.over
    assert readable_cards(events, TradingRaceRules().deck_labels()) == []
    assert not check_shares(events).failures and not check_shuffles(events).failures
    heads = set()
    for p in peers:
        report, _ = verify_log(p.log.path, TradingRaceRules())
        assert report.valid and report.finished, report
        assert any(n.startswith("forfeit:") for n in report.notes)
        heads.add(report.head)
    assert len(heads) == 1


def test_only_the_answer_the_session_names_is_taken_at_a_height(tmp_path):
    peers = str_peers(3, tmp_path, {"time_limit": 6}, key_base=200)
    withholder = to_the_rollers_opening(peers)
    other = next(p for p in peers if p is not withholder)
    votes = votes_against(peers, withholder)
    wires = [votes[k].wire for k in other.roster if k != withholder.me]
    abort = sign_event(other.identity, other.game, other.chain.height, other.chain.head, ABORT_KIND,
                       {"silent": withholder.me, "votes": wires})
    with pytest.raises(BadBody, match="answered by 'forfeit'"):   # the game can go on: no abort
        other.receive(abort.wire)
    assert other.phase == "play" and other.chain.height == withholder.chain.height
    # at an action height the silence is not a withheld link: the abort answers it, not a forfeit
    step(peers)                      # it opens after all; the game goes on to an action height
    for _ in range(5000):
        if peers[0].next_kind() == "action":
            break
        step(peers)
    due = next(p for p in peers if p.pending_obligation() is not None)
    assert all(silence_kind(p) == ABORT_KIND for p in peers)
    votes = votes_against(peers, due)
    writer = next(p for p in peers if p is not due)
    wires = [votes[k].wire for k in writer.roster if k != due.me]
    forfeit = sign_event(writer.identity, writer.game, writer.chain.height, writer.chain.head, FORFEIT_KIND,
                         {"silent": due.me, "votes": wires})
    with pytest.raises(BadBody, match="answered by 'abort'"):
        writer.receive(forfeit.wire)
    ev = make_abort(writer.identity, writer, votes)
    assert ev.kind == ABORT_KIND
    for p in peers:
        p.receive(ev.wire)
        assert p.phase == "aborted"


def test_landing_on_earth_offers_no_exchange_once_the_pile_is_empty():
    from space_trading_race import new_game
    from space_trading_race.board import EARTH
    from space_trading_race.turn import land
    state = new_game(3)
    state.seat, state.pos[0] = 0, EARTH
    land(state)
    assert state.stage == "exchange"
    state.deck = []            # a forfeit retired the pile (SPEC §59.6)
    land(state)
    assert state.stage == "settle"


@pytest.mark.e2e
async def test_over_tcp_a_withholding_roller_is_forfeited_and_the_others_finish(tmp_path):
    """Three bot nodes on loopback: seat 1's node, due the last opening of its own roll, withholds
    it and goes away; after the timeout the two others vote, the first writer after it in lobby
    order writes the `forfeit`, and they play to the end: both logs valid, one head."""
    import os

    import trio

    from cli.games import kit_for
    from protocol.crypto import Identity
    from protocol.node import Node, NodeOptions
    from tests.net_helpers import Runner, wait_until
    kit = kit_for("space-trading-race")
    game = os.urandom(16)
    options = dict(keepalive=0.3, peer_timeout=3.0, timeout=1.5)
    nodes = [Node(Identity.generate("f0"), TradingRaceRules(), game, tmp_path, agent=kit.agent("greedy", "f/0"),
                  options=NodeOptions(seats=3, **options), config={"time_limit": 5})]
    for i in (1, 2):
        nodes.append(Node(Identity.generate(f"f{i}"), TradingRaceRules(), game, tmp_path,
                          agent=kit.agent("greedy", f"f/{i}"), options=NodeOptions(**options),
                          creator=nodes[0].identity.fingerprint))
    withheld: dict[str, int] = {}

    def withhold(node):
        s = node.session
        owed = s.pending_obligation

        def pending():   # the roller's own last opening, once it has seen the others' links
            kind = owed()
            if (kind == "dice-open" and s.dice.current.roller == s.seat and s.dice.ledger.pending() == [s.seat]
                    and s.dice.ledger.roll_index >= 3):
                withheld.setdefault("height", s.chain.height)
                return None
            return kind
        s.pending_obligation = pending

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            runner = Runner(nursery)
            for node in nodes:
                await runner.start(node)
            for node in nodes[1:]:
                await node.connect(*nodes[0].mesh.address)
            nodes[0].start(await nodes[0].wait_lobby_full())
            await wait_until(lambda: all(n.session is not None and n.session.seat_keys for n in nodes))
            withholder = next(n for n in nodes if n.session.seat == 1)
            withhold(withholder)
            await wait_until(lambda: "height" in withheld)
            runner.kill(withholder)
            others = [n for n in nodes if n is not withholder]
            await wait_until(lambda: all(n.over for n in others))
    heads = set()
    for node in others:
        report, session = verify_log(node.log_path, TradingRaceRules())
        assert report.valid and report.finished, report
        forfeit = session.chain.events[withheld["height"]]
        assert forfeit.kind == "forfeit" and forfeit.body["silent"] == withholder.me and len(forfeit.body["votes"]) == 2
        assert all(e.author != withholder.me for e in session.chain.events[withheld["height"]:])
        assert session.state.out[1] == "left"
        heads.add(report.head)
    assert len(heads) == 1
    # a bot peer's progress lines tell the forfeit (its writer's node told it when it wrote it)
    import io

    from cli.netplay.printer import Printer
    reader = next(n for n in others if n.me != forfeit.author)
    out = io.StringIO()
    Printer(out, turns=False).applied(reader, forfeit, reader.session.notes[withheld["height"]])
    assert out.getvalue().startswith(f"forfeit: {withholder.identity.fingerprint} withheld its dice-open")


def test_a_game_that_refuses_the_forfeit_it_allowed_halts_every_replica_alike(tmp_path):
    from protocol.session import DeckCorrupted, GameRuleError

    class Inconsistent(TradingRaceRules):
        name = TradingRaceRules.name

        def forfeit(self, state, seat, lost):
            raise GameRuleError("no")
    peers = str_peers(3, tmp_path, {"time_limit": 6}, key_base=210)
    for p in peers:
        p.rules = Inconsistent()
    withholder = to_the_rollers_opening(peers)
    writer = next(p for p in peers if p is not withholder)
    ev = make_abort(writer.identity, writer, votes_against(peers, withholder))
    for p in peers:
        with pytest.raises(DeckCorrupted, match="refuses the forfeit"):
            p.receive(ev.wire)
        assert p.halted is not None and p.chain.events[-1] == ev and p.notes[-1] == "forfeit (the game refused it)"


async def test_a_withholder_whose_late_opening_reached_nobody_drops_it_and_takes_the_forfeit(tmp_path):
    """SPEC §29.22: the seat voted out opens after all, but its link reached nobody; the forfeit
    carrying every other seat's vote proves that. Its node drops its own event from that height
    and takes the forfeit, as for the abort (§29.6, §29.19), and follows the game from there: one
    head for everyone (it kept its late opening and forked off before)."""
    from protocol.node import Node
    peers = str_peers(3, tmp_path, {"time_limit": 6}, key_base=210)
    withholder = to_the_rollers_opening(peers)
    honest = [p for p in peers if p is not withholder]
    nodes = {p.me: Node(p.identity, TradingRaceRules(), p.game, None, peer=p) for p in peers}
    height = withholder.chain.height
    ev = make_abort(honest[0].identity, honest[0], votes_against(peers, withholder))
    assert ev.kind == FORFEIT_KIND
    late = withholder.act()                    # written and logged, but reached nobody
    assert parse_event(late).seq == height and withholder.chain.height == height + 1
    for p in honest:
        nodes[p.me]._feed(ev.wire)
    gone = nodes[withholder.me]
    gone._feed(ev.wire)
    assert gone.session.chain.height == height + 1 and gone.session.chain.head == ev.hash
    assert gone.session.state.out[withholder.seat] == "left"
    assert [parse_event(w).hash for w in read_log(withholder.log.path)][-1] == ev.hash
    for _ in range(6):                         # it follows the others' next events
        writer = next(n for n in nodes.values() if n.session.pending_obligation() is not None)
        assert writer is not gone
        writer.session.act()
        for n in nodes.values():
            if n is not writer:
                n._feed(writer.session.chain.events[-1].wire)
    assert len({n.session.chain.head for n in nodes.values()}) == 1


def test_two_forfeits_written_at_one_height_settle_on_the_lower_hash_everywhere(tmp_path):
    """SPEC §29.22: both other seats write the forfeit (their escalation delays both ran out);
    each peer that sees the other's keeps the one of lower hash, as for competing aborts
    (§29.19), even after the game went on from its own."""
    from protocol.node import Node
    from protocol.node import end_rank
    peers = str_peers(3, tmp_path, {"time_limit": 6}, key_base=220)
    withholder = to_the_rollers_opening(peers)
    a, b = [p for p in peers if p is not withholder]
    nodes = {p.me: Node(p.identity, TradingRaceRules(), p.game, None, peer=p) for p in peers}
    votes = votes_against(peers, withholder)
    fa, fb = make_abort(a.identity, a, votes), make_abort(b.identity, b, votes)
    assert fa.kind == fb.kind == FORFEIT_KIND and fa.hash != fb.hash
    winner, loser = sorted((fa, fb), key=end_rank)
    wrote = {fa.hash: nodes[a.me], fb.hash: nodes[b.me]}
    won, lost = wrote[winner.hash], wrote[loser.hash]
    follower = nodes[withholder.me]
    won._feed(winner.wire)
    lost._feed(loser.wire)
    follower._feed(loser.wire)
    while lost.session.pending_obligation() is not None and lost.height < loser.seq + 4:
        lost.session.act()                    # the loser's writer goes on from its own forfeit
        follower._feed(lost.session.chain.events[-1].wire)
    for n in (lost, follower):
        n._feed(winner.wire)
    won._feed(loser.wire)
    for n in nodes.values():
        assert n.session.chain.events[loser.seq] == winner
        assert [parse_event(w).hash for w in read_log(n.session.log.path)][loser.seq] == winner.hash
