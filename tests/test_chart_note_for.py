"""Charts carry whom a note is for (`note for MODE "..."`, issue 23): a `note for` column after
each note's language columns, written by `export` where some note of the block is for some
unit types only, read back by `import` (alone or `--into`)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from rulesdsl.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _gravel_chart(capsys: pytest.CaptureFixture[str]) -> list[list[str]]:
    code, out, err = run(
        capsys, "export", "battletech_tacops", "--format", "csv", "--table", "gravel"
    )
    assert code == 0, err
    return list(csv.reader(io.StringIO(out)))


def test_an_exported_chart_says_whom_each_note_is_for(capsys: pytest.CaptureFixture[str]) -> None:
    rows = _gravel_chart(capsys)
    header = rows[0]
    # each note: its languages, then whom it is for
    assert header[header.index("note") : header.index("note 2")] == ["note", "note ru", "note for"]
    assert "note 2 for" in header and "note 3 for" in header
    scopes = {row[0]: row[header.index("note for")] for row in rows[1:]}
    assert scopes["gravel_pile_1"] == "large_vehicle"
    assert rows[2][header.index("note 2 for")] == "wige"


def test_an_imported_chart_keeps_whom_a_note_is_for(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    chart = tmp_path / "gravel.csv"
    with chart.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(_gravel_chart(capsys))
    code, block, err = run(capsys, "import", str(chart), "--layer", "gravel")
    assert code == 0, err
    assert '      note for large_vehicle "Reading: large vehicles pay' in block
    assert '      note for wige "Reading: WiGEs are barred' in block


def test_a_note_for_cell_that_names_no_unit_type_is_an_error_at_its_cell(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rows = _gravel_chart(capsys)
    column = rows[0].index("note for")
    rows[1][column] = "large vehicle"  # a space: not a name
    chart = tmp_path / "gravel.csv"
    with chart.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)
    code, _, err = run(capsys, "import", str(chart), "--layer", "gravel")
    assert code == 1
    where = chart.read_text("utf-8").splitlines()[1].index(",large vehicle,") + 2
    assert f"gravel.csv:2:{where}: error[E001]: row 2, column {column + 1} (note for): " in err
    assert "'large vehicle' is not a unit type or keyword's name" in err
    assert "1 error" in err
