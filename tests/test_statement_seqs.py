"""The statement families' seq ranges (the table of SPEC §26.12): one table, disjoint ranges, each
module's base taken from it, and a statement of each family classified by its own range."""
from protocol.session import abort, chat, clock_pass, takeback
from protocol.session.phases import SEQ_SPAN, SeqBase, statement_family


def test_ranges_are_disjoint_and_above_every_chain_height():
    bases = sorted(SeqBase)
    assert bases[0] == 1 << 62
    for low, high in zip(bases, bases[1:]):
        assert low + SEQ_SPAN <= high
    assert bases[-1] + SEQ_SPAN <= 1 << 63   # a seq is at most 2^63 − 1 (§22.1)


def test_each_module_uses_its_row():
    assert abort.VOTE_BASE == SeqBase.ABORT_VOTE
    assert takeback.TAKEBACK_BASE == SeqBase.TAKEBACK
    assert chat.CHAT_BASE == SeqBase.CHAT
    assert clock_pass.PASS_BASE == SeqBase.CLOCK_PASS


def test_statement_family_of_a_seq():
    assert statement_family(0) is None
    assert statement_family((1 << 62) - 1) is None
    for base in SeqBase:
        assert statement_family(base) is base
        assert statement_family(base + 12345) is base
        assert statement_family(base + SEQ_SPAN - 1) is base
