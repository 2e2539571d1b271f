"""`rulesdsl`'s parser lists every verb wherever argparse may show them, though a command line
with a verb makes only that verb's sub-parser (issue 44: the others were three quarters of
the parser's making, which every command paid)."""

from __future__ import annotations

import pytest

from rulesdsl.commands import VERBS
from rulesdsl.commands.cli import lists_verbs, main


@pytest.mark.parametrize(
    "argv", [["--help"], ["-h", "check"], ["--he", "build", "--check"], ["--help", "chekc"]]
)
def test_the_help_before_a_verb_lists_every_verb(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert all(f"    {verb} " in out for verb in VERBS), out


def test_a_misspelt_verb_is_told_every_verb(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chekc"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'chekc'" in err
    assert all(f"'{verb}'" in err for verb in VERBS), err


def test_only_a_command_line_that_cannot_show_the_verbs_goes_without_them() -> None:
    assert not lists_verbs(["check", "a.terrain", "--format", "json"])
    assert not lists_verbs(["build", "--check", "-j", "2"])
    assert lists_verbs([]) and lists_verbs(["chekc"]) and lists_verbs(["-h", "check"])
