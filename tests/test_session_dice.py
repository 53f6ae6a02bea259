"""The fair dice on the session (SPEC §33.8): a game that asks for a roll gets it from every
seat's hash chain; the chain and open events are checked on arrival, a wrong one is refused
naming its author and changing nothing, the roller opens last, a resumed peer opens its
links from its secrets file, and the verifier recomputes every roll from the log."""
from __future__ import annotations

from cli.games import kit_for
from cli.games.space_trading_race.adapter import TradingRaceRules
from protocol.errors import WrongAuthor
from protocol.node import restore_peer
from protocol.session import BadBody, BadDice, run_local, verify_log
from tests.session_helpers import craft, refused, run_until, step, writer
from tests.str_session_helpers import str_peers

RULES = TradingRaceRules()
KIT = kit_for("space-trading-race")


def make(n, tmp_path, config=None):
    return str_peers(n, tmp_path, config or {"time_limit": 3}, key_base=70)


def until_kind(peers, kind):
    run_until(peers, lambda: writer(peers).pending_obligation() == kind)
    return writer(peers)


def test_first_roll_asks_every_seat_for_a_chain_then_opens_with_the_roller_last(tmp_path):
    peers = make(3, tmp_path)
    first = until_kind(peers, "dice-chain")
    assert first.seat == 0 and peers[0].dice.current.roller == 0
    chains = []
    while writer(peers).pending_obligation() == "dice-chain":
        chains.append(writer(peers).seat)
        step(peers)
    assert chains == [0, 1, 2]
    order = []
    while writer(peers).pending_obligation() == "dice-open":
        order.append(writer(peers).seat)
        step(peers)
    assert order == [1, 2, 0]                         # from the roller's left, the roller last
    assert peers[1].state.last_roll is not None and peers[0].dice.ledger.roll_index == 1
    assert "dice/0" in peers[2].secret_store.merged()  # the seed was kept before the head was sent


def test_a_wrong_link_or_chain_is_refused_naming_its_author(tmp_path):
    peers = make(3, tmp_path)
    chainer = until_kind(peers, "dice-chain")
    refused(peers, chainer, craft(chainer, mutate=lambda b: b.update(gen=3)), BadDice, RULES)
    refused(peers, chainer, craft(chainer, mutate=lambda b: b.update(head=b"x")), BadBody, RULES)
    opener = until_kind(peers, "dice-open")
    refused(peers, opener, craft(opener, mutate=lambda b: b.update(link=bytes(32))), BadDice, RULES)
    refused(peers, opener, craft(opener, mutate=lambda b: b.update(roll=b["roll"] + 1)), BadDice, RULES)
    roller = next(p for p in peers if p.seat == peers[0].dice.current.roller)
    if roller is not opener:   # the roller opens last: writing first is out of turn
        body = roller._dice_seat.open_body(roller.dice.ledger)
        refused(peers, roller, craft(roller, kind="dice-open", body=body), WrongAuthor, RULES)


def test_a_resumed_peer_opens_from_its_secrets_and_every_log_verifies(tmp_path):
    peers = make(2, tmp_path)
    run_until(peers, lambda: peers[0].dice is not None and peers[0].dice.ledger.roll_index >= 1)
    back = restore_peer(peers[1].identity, TradingRaceRules(), peers[1].log.path, agent=KIT.agent("greedy", "s/1"))
    assert back.chain.head == peers[1].chain.head and back.dice.ledger.roll_index == 1
    height = back.chain.height
    peers[1].log.close()
    peers = [peers[0], back]
    run_local(peers)   # no game ends within its first rolls: every later roll needs the resumed seat's link
    opened = [e for e in back.chain.events[height:] if e.kind == "dice-open" and e.author == back.me]
    assert opened
    heads = set()
    for p in peers:
        report, session = verify_log(p.log.path, TradingRaceRules())
        assert report.valid and report.finished, report
        assert session.dice.ledger.roll_index == p.dice.ledger.roll_index > 1
        heads.add(report.head)
    assert len(heads) == 1
