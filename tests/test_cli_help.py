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


def test_verify_imports_only_its_own_command():
    """`asv verify` builds only its own subcommand (issue 23: start-up): the REPL, trio and
    the other commands' modules stay unimported; a fresh interpreter shows it."""
    import subprocess
    import sys

    code = ("import sys\nfrom cli.main import main\nmain(['verify', '/nonexistent/x.asvlog'])\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('prompt_toolkit', 'trio')"
            " or m.startswith(('cli.commands.', 'protocol.node', 'cli.repl', 'cli.netplay'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "['cli.commands.log_tools', 'cli.commands.verify']"
