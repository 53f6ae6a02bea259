"""`asv --help` lists each command with a whole sentence (the first source line of a
docstring stopped mid-sentence: 'every shuffle proof and decryption share')."""
from __future__ import annotations

from cli.main import COMMANDS, build_parser, summary


def test_each_command_is_summed_up_in_a_whole_sentence():
    assert summary("Verify a log: framing,\n    signatures and chain.\n\nExit 0: ...") == \
        "Verify a log: framing, signatures and chain."
    helps = {a.dest: a.help for a in build_parser()._subparsers._group_actions[0]._choices_actions}
    assert sorted(helps) == sorted(COMMANDS)
    for name, text in helps.items():
        assert text and text.endswith((".", "!", "?")), (name, text)
    assert "decryption share as it is read" in helps["verify"]
    assert "`asv log export LOG` writes" in helps["log"]


def test_asv_alone_prints_the_commands_and_succeeds(capsys):
    """SPEC §30: the first thing a newcomer types is a list of what to type, not an error."""
    from cli.main import main
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: asv")
    for name in COMMANDS:
        assert name in out
