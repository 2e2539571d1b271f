"""Issue 42 item 8: the first command on a fresh clone. generated/ is committed, so the build
has nothing to write: it says generated/ is already current, and README says so and what to
open first (files that exist)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesdsl.commands.cli import main
from tests.conftest import ROOT


def test_a_build_with_nothing_to_write_says_generated_is_already_current(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("rulesdsl.builder.build.sheet_outputs", lambda rs: {})
    monkeypatch.setattr("rulesdsl.builder.build.card_outputs", lambda rs: {})
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rulesets").mkdir()
    (tmp_path / "rulesets" / "demo.terrain").write_text(
        'ruleset demo "Demo"\nversion 1.0.0\nmode walker "Walker"\n', "utf-8"
    )
    assert main(["build"]) == 0
    assert "already current" not in capsys.readouterr().err
    assert main(["build"]) == 0
    err = capsys.readouterr().err
    assert "generated is already current" in err and "0 files written" not in err


def test_readme_says_what_the_first_build_prints_and_what_to_open_first() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    setup = readme.split("## Set up", 1)[1].split("Install and run the tests", 1)[0]
    assert "already current" in setup
    opened = re.findall(r"`(generated/[^`]+)`", setup)
    assert opened and all((ROOT / path).exists() for path in opened), opened
