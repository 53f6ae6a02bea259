"""Errors and states with one meaning each (SPEC §20-§29, "Errors"): every error the protocol
defines is a ProtocolError (but GameRuleError, the game's own refusal); no two classes of
protocol/ and cli/ share a name; the session's phases, event kinds and deck operations are
StrEnums whose values are the strings of the wire and the log."""
from __future__ import annotations

import ast
import collections
import importlib
import inspect
from pathlib import Path

import pytest

from protocol import codec
from protocol.crypto import Identity
from protocol.crypto import proofs
from protocol.errors import InvalidProof, ProtocolError
from protocol.log import ZERO_HASH, sign_event
from protocol.session import DeckOp, DeckRequest, EventKind, GameRuleError, Phase
from tests.session_helpers import make_peers, run_until
from tests.toy_game import ToyRules, play_own_card

ROOT = Path(__file__).resolve().parent.parent


def protocol_modules() -> list[str]:
    names = []
    for path in sorted((ROOT / "protocol").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join(parts))
    return names


def test_every_protocol_error_is_a_protocol_error():
    found, outside = [], []
    for name in protocol_modules():
        for cls_name, cls in vars(importlib.import_module(name)).items():
            if inspect.isclass(cls) and issubclass(cls, BaseException) and cls.__module__ == name:
                found.append(cls_name)
                if not issubclass(cls, ProtocolError) and cls is not GameRuleError:
                    outside.append(f"{name}.{cls_name}")
    assert len(found) > 60 and outside == []


@pytest.mark.parametrize("name", ["protocol.crypto.group.InvalidPoint", "protocol.crypto.commit_reveal.CommitMismatch",
                                  "protocol.poker.cards.MalformedDeck", "protocol.poker.keys.InvalidKeyShare",
                                  "protocol.node.ResumeError", "protocol.node.NotInRoster"])
def test_crypto_poker_and_node_errors_are_caught_as_protocol_errors(name):
    module, _, cls = name.rpartition(".")
    error = getattr(importlib.import_module(module), cls)
    assert issubclass(error, ProtocolError)
    assert issubclass(error, (ValueError, RuntimeError))   # what callers caught before still works


def test_one_invalid_proof_for_zero_knowledge_and_equivocation_proofs():
    assert proofs.InvalidProof is InvalidProof
    with pytest.raises(InvalidProof, match="invalid chaum-pedersen proof: "):
        proofs.Proof.from_bytes(b"short", "chaum-pedersen")
    from protocol.log import EquivocationProof
    with pytest.raises(InvalidProof, match="invalid equivocation proof: "):
        EquivocationProof(b"a", b"a").verify()


def class_names(root: Path) -> dict[str, list[str]]:
    names = collections.defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.ClassDef):
                names[node.name].append(str(path.relative_to(ROOT)))
    return names


def test_no_two_classes_of_protocol_and_cli_share_a_name():
    names = collections.defaultdict(list)
    for folder in ("protocol", "cli"):
        for name, paths in class_names(ROOT / folder).items():
            names[name] += paths
    assert {n: p for n, p in names.items() if len(p) > 1} == {}


def test_the_session_states_are_strenums_of_the_old_strings(tmp_path):
    assert [p.value for p in Phase] == ["hello", "seat-commit", "seat-reveal", "key-commit", "key-reveal",
                                        "play", "done", "aborted", "halted"]
    assert Phase.PLAY == "play" and repr(Phase.PLAY) == "'play'" and f"{EventKind.VOTE}" == "abort-vote"
    peers = make_peers(ToyRules(), 2, agent_for=lambda k: play_own_card)
    assert peers[0].phase is Phase.HELLO and peers[0].pending_obligation() is EventKind.HELLO
    run_until(peers, lambda: peers[0].finished)
    assert peers[0].phase is Phase.DONE
    kinds = {ev.kind for ev in peers[0].chain.events}
    assert kinds <= {k.value for k in EventKind} and all(type(k) is str for k in kinds)   # decoded: plain


def test_the_wire_is_unchanged_by_the_enums():
    me = Identity.from_seed(bytes(32))
    game = bytes(16)
    by_enum = sign_event(me, game, 0, ZERO_HASH, EventKind.HELLO, {"k": DeckOp.DEAL})
    by_text = sign_event(me, game, 0, ZERO_HASH, "hello", {"k": "deal"})
    assert by_enum.wire == by_text.wire and codec.encode(Phase.DONE) == codec.encode("done")
    request = DeckRequest("deal", "d", (1,), seat=0)
    assert request.kind is DeckOp.DEAL and request == DeckRequest(DeckOp.DEAL, "d", (1,), seat=0)
    with pytest.raises(ValueError, match="unknown deck request kind 'peek'"):
        DeckRequest("peek", "d", (1,))
