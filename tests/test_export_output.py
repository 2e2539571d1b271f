"""`export -o` and `i18n extract -o` write through the verbs' one document writer: a path that
cannot be written is one line and exit status 2, never a traceback; `-o -` is standard output;
a file is written whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesdsl.commands.cli import main
from tests.conftest import RULESETS

HEAVY_GEAR = str(RULESETS / "heavy_gear.terrain")


@pytest.mark.parametrize(
    "more",
    [
        ["--format", "json"],
        ["--format", "yaml"],
        ["--examples"],
        ["--format", "csv", "--table", "terrain"],
    ],
)
def test_export_to_an_unwritable_path_is_one_line_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], more: list[str]
) -> None:
    assert main(["export", HEAVY_GEAR, *more, "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"rulesdsl: error: cannot write {tmp_path}: is a folder" in err
    assert "Traceback" not in err
    missing = tmp_path / "no" / "such" / "folder.json"
    assert main(["export", HEAVY_GEAR, *more, "-o", str(missing)]) == 2
    err = capsys.readouterr().err
    assert f"rulesdsl: error: cannot write {missing}: No such file or directory" in err
    assert list(tmp_path.iterdir()) == []


def test_export_to_dash_is_standard_output_and_to_a_file_the_same_bytes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", HEAVY_GEAR, "--format", "json", "-o", "-"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out)["id"] == "heavy_gear"
    target = tmp_path / "heavy_gear.json"
    assert main(["export", HEAVY_GEAR, "--format", "json", "-o", str(target)]) == 0
    assert capsys.readouterr().out == ""
    assert target.read_text("utf-8") == out


def test_i18n_extract_to_an_unwritable_path_is_one_line_and_to_dash_is_standard_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["i18n", "extract", HEAVY_GEAR, "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"rulesdsl: error: cannot write {tmp_path}: is a folder" in err
    assert "Traceback" not in err and list(tmp_path.iterdir()) == []
    assert main(["i18n", "extract", HEAVY_GEAR, "-o", "-"]) == 0
    out = capsys.readouterr().out
    assert 'msgid ""' in out
    target = tmp_path / "heavy_gear.pot"
    assert main(["i18n", "extract", HEAVY_GEAR, "-o", str(target)]) == 0
    assert "wrote" in capsys.readouterr().err
    assert target.read_text("utf-8") == out
