"""Charts carry whom a note is for (`note for MODE "..."`, issue 23): a `note for` column after
each note's language columns, written by `export` where some note of the block is for some
unit types only, read back by `import` (alone or `--into`)."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest

from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from tests.conftest import RULESETS
from tests.test_spreadsheets import CHARTS, _restate_walker_on_soft_ground


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


# ---- charts as Excel saves them (tests/data/charts/make_charts.py) ---------------------------

SAVED_BY_EXCEL = ("terrain_fr_note_for.csv", "terrain_unicode_note_for.txt")
"""heavy_gear's terrain chart with a `note for` column filled in by the player, saved by
French Excel as "CSV UTF-8" (semicolons, a byte-order mark, CRLF, decimal commas) and as
"Texte Unicode" (UTF-16 LE, tabs)."""


def test_the_note_for_fixtures_are_as_excel_saves_them() -> None:
    utf8 = (CHARTS / "terrain_fr_note_for.csv").read_bytes()
    assert utf8.startswith(b"\xef\xbb\xbffeature;label;label fr;all;")
    assert b";note;note fr;note for\r\n" in utf8
    # two unit types in one cell: a comma, which a semicolon chart does not quote
    assert b";ground, hover\r\n" in utf8 and b";walker\r\n" in utf8
    assert b";3,5;" in utf8
    utf16 = (CHARTS / "terrain_unicode_note_for.txt").read_bytes()
    assert utf16[:2] == b"\xff\xfe" and "\tnote for\r\n" in utf16.decode("utf-16")


@pytest.mark.parametrize("chart", SAVED_BY_EXCEL)
def test_a_chart_saved_by_excel_says_whom_each_note_is_for(
    chart: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, block, err = run(capsys, "import", str(CHARTS / chart), "--layer", "terrain")
    assert code == 0, err
    assert '      note for walker "Some models, usually infantry' in block
    assert '      note for ground, hover "Reading: in proportion' in block
    assert '      note for hover "A \\"deep\\" bog:\\nhovers cross it' in block
    # an empty `note for` cell: the note is for everyone
    assert '      note "A model without the right perk' in block


@pytest.mark.parametrize("chart", SAVED_BY_EXCEL)
def test_a_chart_saved_by_excel_updates_whom_the_notes_are_for_in_place(
    chart: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "heavy_gear.terrain"
    shutil.copy(RULESETS / "heavy_gear.terrain", target)
    _restate_walker_on_soft_ground(target)
    code, _, err = run(
        capsys, "import", str(CHARTS / chart), "--layer", "terrain", "--into", str(target)
    )
    assert code == 0, err
    ruleset = Compiler().compile_file(target).ruleset
    assert ruleset is not None
    scopes = {f.id: f.info.note_for for f in ruleset.features if f.info.notes}
    assert scopes["structure"] == (("walker",),)
    assert scopes["road"] == (("ground", "hover"),)
    assert scopes["bog"] == (("hover",),)
    assert scopes["deep_water"] == ()  # its one note is for everyone
