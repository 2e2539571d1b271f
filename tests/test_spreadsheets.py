"""Spreadsheets as people save them (issue 26): French Excel's CSV (semicolons, a byte-order
mark, decimal commas, cp1252), UTF-16 text, .xlsx; `import --into` updating a layer or table
in place; export keeping everything, so that export then import changes nothing."""

from __future__ import annotations

import builtins
import csv
import io
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.ir.serial import to_data
from tests.conftest import RULESETS

CHARTS = Path(__file__).resolve().parent / "data" / "charts"
ALL = sorted(RULESETS.glob("*.terrain"))


def codes(err: str) -> list[str]:
    """The codes of the diagnostics printed, in order."""
    return re.findall(r"(?:error|warning)\[(\w+)\]", err)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the bundled rulesets (variants find their bases beside them)."""
    for path in ALL:
        shutil.copy(path, tmp_path)
    return tmp_path


def _restate_walker_on_soft_ground(target: Path) -> None:
    """The charts make soft ground 3.5 MP an inch for walkers: as any author changing that cost
    must (E270 otherwise, issue 27), the copy restates the worked example that asks it."""
    text = target.read_text("utf-8")
    stated = "move_cost(walker, soft) = 3 MP\n"
    assert text.count(stated) == 1
    target.write_text(text.replace(stated, "move_cost(walker, soft) = 3.5 MP\n"), "utf-8")


# ---- the fixtures are what Excel writes ------------------------------------------------------


def test_the_french_excel_fixtures_are_as_excel_saves_them() -> None:
    utf8 = (CHARTS / "terrain_fr.csv").read_bytes()
    cp1252 = (CHARTS / "terrain_fr_cp1252.csv").read_bytes()
    assert utf8.startswith(b"\xef\xbb\xbffeature;label;label fr;all;")
    assert utf8.count(b"\r\n") == 11 and b'"A ""deep"" bog:\nhovers' in utf8
    assert b";3,5;" in utf8
    assert cp1252 == utf8[3:].decode("utf-8").encode("cp1252")
    assert b"D\xe9gag\xe9" in cp1252  # é in cp1252: not UTF-8
    assert (CHARTS / "terrain_unicode.txt").read_bytes()[:4] == b"\xff\xfef\x00"


# ---- French Excel: semicolons, a byte-order mark, decimal commas, cp1252 ---------------------


def _soft_and_bog(target: Path) -> None:
    rs = Compiler().compile_file(target).ruleset
    assert rs is not None
    features = {f.id: f for f in rs.features}
    assert features["soft"].costs["walker"].value == 3.5  # type: ignore[union-attr]
    assert features["bog"].info.labels == {"en": "Bog", "fr": "Tourbière"}
    assert features["bog"].info.notes[0]["en"] == 'A "deep" bog:\nhovers cross it as clear.'
    assert features["bog"].costs["hover"].value == 1  # type: ignore[union-attr]  # as clear


def test_a_chart_saved_by_french_excel_updates_its_layer_in_place(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # On main: 14 errors like "'clear;Clear;Dégagé;1;1;1…' is not a feature name".
    target = project / "heavy_gear.terrain"
    _restate_walker_on_soft_ground(target)
    before = target.read_text("utf-8").splitlines(keepends=True)
    code, out, err = run(
        capsys,
        "import",
        str(CHARTS / "terrain_fr.csv"),
        "--layer",
        "terrain",
        "--into",
        str(target),
    )
    assert code == 0, err
    # The change, as `rulesdsl diff` shows it.
    assert "~ Soft (sand, snow, mud), Walker: 3 -> 3.5 MP per inch  [soft.walker]" in out
    assert "+ terrain added to Terrain: Bog:" in out and out.endswith("1 rules, 1 additive\n")
    assert "updated layer terrain in" in err and "1 changed, 1 added, 0 removed" in err
    after = target.read_text("utf-8").splitlines(keepends=True)
    # One line edited where it stands, one row (and its note) added; every other line as it was.
    changed = [i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b]
    assert [before[i].split("|")[0].split()[0] for i in changed[:1]] == ["soft"]
    assert after[changed[0]].rstrip().endswith("| 2, walker 3.5")
    assert len(after) == len(before) + 2
    bog = next(i for i, line in enumerate(after) if line.lstrip().startswith("bog "))
    assert [line for i, line in enumerate(after) if i not in (changed[0], bog, bog + 1)] == [
        line for i, line in enumerate(before) if i != changed[0]
    ]
    # The new row's `|` stands under the block's last row's (the row above and its note).
    assert after[bog] == (
        '  bog "Bog" fr "Tourbière"' + " " * 40 + "| 3, ground impassable, hover as clear\n"
    )
    assert after[bog].index("|") == after[bog - 2].index("|")
    _soft_and_bog(target)


def test_a_cp1252_chart_is_read_as_cp1252_with_a_warning(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 42.3: Excel's plain "CSV" on Windows reads without --encoding, said once."""
    target = project / "heavy_gear.terrain"
    _restate_walker_on_soft_ground(target)
    chart = CHARTS / "terrain_fr_cp1252.csv"
    code, out, err = run(capsys, "import", str(chart), "--layer", "terrain")
    assert code == 0 and "Dégagé" in out, err
    assert codes(err) == ["W132"]
    assert (
        f"{chart}:2:20: warning[W132]: {chart} is not UTF-8 (byte 0xE9): read as cp1252 "
        "(Windows Western European"
    ) in err
    code, _, err = run(
        capsys,
        "import",
        str(chart),
        "--layer",
        "terrain",
        "--into",
        str(target),
        "--encoding",
        "cp1252",
    )
    assert code == 0 and "W132" not in err, err
    _soft_and_bog(target)
    # The same file as from the UTF-8 chart.
    shutil.copy(RULESETS / "heavy_gear.terrain", project / "twin.terrain")
    twin = project / "twin.terrain"
    _restate_walker_on_soft_ground(twin)
    assert (
        main(["import", str(CHARTS / "terrain_fr.csv"), "--layer", "terrain", "--into", str(twin)])
        == 0
    )
    assert twin.read_bytes() == target.read_bytes()


def test_a_chart_that_changes_a_worked_examples_answer_is_written_and_the_example_reported(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The chart is the truth for the costs; the worked examples then say what changed for
    # players (issue 27): the file is updated, and each example to restate is an error at its
    # line with its new answer, exit 1 (until restated, the build refuses the ruleset).
    target = project / "heavy_gear.terrain"
    code, out, err = run(
        capsys,
        "import",
        str(CHARTS / "terrain_fr.csv"),
        "--layer",
        "terrain",
        "--into",
        str(target),
    )
    assert code == 1
    assert "updated layer terrain in" in err and "1 changed, 1 added, 0 removed" in err
    assert "error[E270]: example 'walker_on_soft_ground': move_cost(walker, soft) is 3.5 MP" in err
    assert "1 worked example answer(s) above are no longer what the rules give" in err
    assert "Walker: 3 -> 3.5 MP per inch" in out
    assert "| 2, walker 3.5" in target.read_text("utf-8")
    [e270] = [d for d in Compiler().compile_file(target).diagnostics if d.is_error]
    assert e270.code == "E270"


def test_excel_unicode_text_is_utf16_with_tabs(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = project / "heavy_gear.terrain"
    _restate_walker_on_soft_ground(target)
    chart = CHARTS / "terrain_unicode.txt"
    code, _, err = run(capsys, "import", str(chart), "--layer", "terrain", "--into", str(target))
    assert code == 0, err
    _soft_and_bog(target)


def test_an_unknown_encoding_or_locale_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "c.csv"
    chart.write_text("feature,walker\nbog,2\n", "utf-8")
    code, _, err = run(capsys, "import", str(chart), "--layer", "m", "--encoding", "klingon")
    assert code == 2 and "--encoding: unknown encoding 'klingon'" in err
    code, _, err = run(capsys, "import", str(chart), "--layer", "m", "--locale", "xx_YY")
    assert code == 2 and "--locale: unknown locale 'xx_YY'" in err


@pytest.mark.parametrize(
    ("content", "delimiter"),
    [
        ("feature,walker,hover\nbog,2,3\n", ","),
        ("feature;walker;hover\nbog;2;3\n", ";"),
        ("feature\twalker\thover\nbog\t2\t3\n", "\t"),
        ("sep=;\nfeature;walker;hover\nbog;2;3\n", ";"),
        ('feature;walker;hover\n"bog, wet";2;3\n', ";"),
    ],
    ids=["comma", "semicolon", "tab", "excel sep line", "comma inside a cell"],
)
def test_the_delimiter_is_the_one_the_chart_uses(content: str, delimiter: str) -> None:
    from rulesdsl.interchange.chart_sheet import Sheet

    sheet = Sheet(content, "c.csv")
    assert sheet.delimiter == delimiter
    assert [c.text for c in sheet.rows[0]] == ["feature", "walker", "hover"]
    assert len(sheet.rows) == 2 and len(sheet.rows[1]) == 3


def test_a_sep_line_keeps_every_position_in_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "c.csv"
    chart.write_text("sep=;\nfeature;walker\nbog;-2\n", "utf-8")
    code, _, err = run(capsys, "import", str(chart), "--layer", "marsh")
    assert (
        code == 1 and f"{chart}:3:5: error[E213]: row 2, column 2 (walker)" in err
    )  # as Excel counts


def test_decimal_commas_are_read_from_a_semicolon_chart_or_a_quoted_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # On main, "1,5" gave `unexpected ','`.
    chart = tmp_path / "c.csv"
    chart.write_text('feature,walker,hover\nbog,"1,5",2\n', "utf-8")
    code, out, err = run(capsys, "import", str(chart), "--layer", "marsh")
    assert code == 0, err
    assert "bog | 1.5, hover 2" in out
    chart.write_text("feature;walker;hover\nbog;0,25;1 per 1,5 in\n", "utf-8")
    code, out, err = run(capsys, "import", str(chart), "--layer", "marsh")
    assert code == 0, err
    assert "bog | 0.25, hover 1 per 1.5 in" in out


def test_a_comma_that_may_group_thousands_needs_a_locale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "c.csv"
    chart.write_text('feature,walker,hover\nbog,"1,500",2\n', "utf-8")
    code, out, err = run(capsys, "import", str(chart), "--layer", "marsh")
    assert code == 1 and out == ""
    assert f"{chart}:2:6: error[E131]: row 2, column 2: '1,500' may be a decimal comma" in err
    assert codes(err) == ["E131"]
    assert "--locale" in err
    code, out, _ = run(capsys, "import", str(chart), "--layer", "marsh", "--locale", "fr")
    assert code == 0 and "bog | 1.500, hover 2" in out
    code, out, err = run(capsys, "import", str(chart), "--layer", "marsh", "--locale", "en")
    assert code == 0 and "bog | 1500, hover 2" in out, err


def test_quoted_cells_hold_line_breaks_and_doubled_quotes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "c.csv"
    chart.write_bytes(
        b'feature;label;walker;note\r\nbog;"Bog\nwet";3;"He said ""no""\nthen left"\r\n'
        b"fen;Fen;x;\r\n"
    )
    code, _, err = run(capsys, "import", str(chart), "--layer", "marsh")
    assert code == 1
    assert f"{chart}:5:9: error[E201]: row 3, column 3 (walker)" in err
    chart.write_bytes(
        b'feature;label;walker;note\r\nbog;"Bog\nwet";3;"He said ""no""\nthen left"\r\n'
    )
    code, out, err = run(capsys, "import", str(chart), "--layer", "marsh")
    assert code == 0, err
    assert 'bog "Bog\\nwet" | 3\n' in out and 'note "He said \\"no\\"\\nthen left"' in out


# ---- a mode column is never read as a language -----------------------------------------------


def test_a_mode_column_named_like_no_language_keeps_its_costs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # On main, `hq` was read as a language, and its costs vanished.
    chart = tmp_path / "c.csv"
    chart.write_text("feature,label,walker,hq\nbog,Bog,2,3\n", "utf-8")
    code, out, err = run(capsys, "import", str(chart), "--layer", "marsh")
    assert code == 0, err
    assert 'bog "Bog" | 2, hq 3' in out


@pytest.mark.parametrize(
    ("cells", "read"),
    [
        (("Tourbière", "Fagne"), 'bog "Bog" fr "Tourbière" | 2'),
        (("3", "impassable"), 'bog "Bog" | 3, walker 2'),
        (("1.5", "as bog"), 'fen "Fen" | as bog, walker 3'),
    ],
)
def test_a_bare_language_code_header_is_decided_by_its_cells(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cells: tuple[str, str], read: str
) -> None:
    """Issue 42.3: words are labels in that language, costs a mode's."""
    chart = tmp_path / "c.csv"
    chart.write_text(f"feature,label,fr,walker\nbog,Bog,{cells[0]},2\nfen,Fen,{cells[1]},3\n")
    code, out, err = run(capsys, "import", str(chart), "--layer", "marsh")
    assert (code, err) == (0, ""), err
    assert read in out


def test_a_bare_language_code_header_over_words_and_costs_is_ambiguous(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "c.csv"
    chart.write_text("feature,label,fr,walker\nbog,Bog,Tourbière,2\nfen,Fen,3,3\n", "utf-8")
    code, out, err = run(capsys, "import", str(chart), "--layer", "marsh")
    assert code == 1 and out == ""
    assert f"{chart}:1:15: error[E130]: row 1, column 3: 'fr' is a language code" in err
    assert "write the header 'label fr'" in err
    assert codes(err) == ["E130"]  # one error at the header, none per cell


def test_with_a_ruleset_a_declared_language_header_still_reads_as_labels(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = project / "heavy_gear.terrain"
    chart = project / "c.csv"
    chart.write_text("feature,label,fr,walker,hover\nbog,Bog,Tourbière,2,1\n", "utf-8")
    code, _, err = run(capsys, "import", str(chart), "--layer", "marsh", "--into", str(target))
    assert code == 0, err
    rs = Compiler().compile_file(target).ruleset
    assert rs is not None
    bog = next(f for f in rs.features if f.id == "bog")
    assert bog.info.labels == {"en": "Bog", "fr": "Tourbière"}


def test_a_mode_named_in_a_one_mode_cell_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "c.csv"
    chart.write_text("feature,all,walker,hover\nbog,2,hover 3,1\n", "utf-8")
    code, _, err = run(capsys, "import", str(chart), "--layer", "marsh")
    assert code == 1 and codes(err) == ["E132"]
    assert f"{chart}:2:7: error[E132]: row 2, column 3 (walker): 'hover' names a mode" in err


# ---- --into: edit in place, add, remove, report -------------------------------------------------

SMALL = """\
ruleset small "Small"
version 1.0.0
mode walker "Walker"
mode hover "Hover"

# The marsh: kept by hand.
layer marsh "Marsh" {
  bog "Bog"   | 3, hover 1   # soft ground
  fen "Fen"   | 2
  mire "Mire" | 4  [note_book p.3]
}

layer other {
  stone "Stone" | 1
}
book note_book "Notes"
"""


def test_into_updates_changed_rows_adds_new_ones_and_removes_missing_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "small.terrain"
    target.write_text(SMALL, "utf-8")
    chart = tmp_path / "marsh.csv"
    chart.write_text(
        "feature,label,all,walker,hover\nbog,Bog,3,,1\nfen,Fen,2,,2\nsump,Sump,5,,\n", "utf-8"
    )
    code, out, err = run(capsys, "import", str(chart), "--layer", "marsh", "--into", str(target))
    assert code == 0, err
    assert f"{target}:10: removed row 'mire': it is not in the chart" in err
    assert "1 changed, 1 added, 1 removed" in err
    assert "- " in out and "mire" in out and "sump" in out.lower()
    assert target.read_text("utf-8") == SMALL.replace(
        '  fen "Fen"   | 2\n  mire "Mire" | 4  [note_book p.3]\n',
        '  fen "Fen"   | 2, hover 2\n  sump "Sump" | 5\n',  # `|` where it stood
    )


def test_the_block_follows_the_sheets_order_and_keeps_its_comments_in_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "small.terrain"
    target.write_text(SMALL, "utf-8")
    chart = tmp_path / "marsh.csv"
    chart.write_text(
        "feature,label,all,hover\nnew0,N0,1,\nfen,Fen,2,\nsump,Sump,5,\nmire,Mire,4,\n"
        "bog,Bog,3,1\n",
        "utf-8",
    )
    code, _, err = run(capsys, "import", str(chart), "--layer", "marsh", "--into", str(target))
    assert code == 0, err
    assert "0 changed, 2 added, 0 removed, 3 moved" in err
    assert target.read_text("utf-8") == SMALL.replace(
        '  bog "Bog"   | 3, hover 1   # soft ground\n  fen "Fen"   | 2\n'
        '  mire "Mire" | 4  [note_book p.3]\n',
        '  new0 "N0"   | 1\n  fen "Fen"   | 2\n  sump "Sump" | 5\n'
        '  mire "Mire" | 4  [note_book p.3]\n  bog "Bog"   | 3, hover 1   # soft ground\n',
    )
    rs = Compiler().compile_file(target).ruleset
    assert rs is not None
    assert next(x for x in rs.layers if x.id == "marsh").features == (
        "new0",
        "fen",
        "sump",
        "mire",
        "bog",
    )


def test_a_chart_of_costs_only_keeps_the_labels_notes_and_source_of_its_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "small.terrain"
    target.write_text(SMALL, "utf-8")
    chart = tmp_path / "marsh.csv"
    chart.write_text("feature,all,hover\nbog,3,1\nfen,2,\nmire,5,\n", "utf-8")
    code, _, err = run(capsys, "import", str(chart), "--layer", "marsh", "--into", str(target))
    assert code == 0, err
    assert target.read_text("utf-8") == SMALL.replace(
        '  mire "Mire" | 4  [note_book p.3]', '  mire "Mire" | 5 [note_book p.3]'
    )


def test_dry_run_prints_the_change_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "small.terrain"
    target.write_text(SMALL, "utf-8")
    chart = tmp_path / "marsh.csv"
    chart.write_text("feature,all\nbog,3\nfen,2\nmire,5\n", "utf-8")
    code, out, err = run(
        capsys, "import", str(chart), "--layer", "marsh", "--into", str(target), "--dry-run"
    )
    assert code == 0, err
    assert "mire" in out and "--dry-run" in err
    assert target.read_text("utf-8") == SMALL


def test_a_chart_that_breaks_the_ruleset_leaves_it_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "small.terrain"
    target.write_text(SMALL + "exclude bog with fen\n", "utf-8")
    chart = tmp_path / "marsh.csv"
    chart.write_text("feature,all\nbog,3\nmire,-1\n", "utf-8")
    code, _, err = run(capsys, "import", str(chart), "--layer", "marsh", "--into", str(target))
    assert code == 1
    assert f"{chart}:3:6: error[E213]: row 3, column 2 (all)" in err
    assert "unknown feature or factor 'fen'" in err
    assert f"{target} left unchanged" in err
    assert target.read_text("utf-8") == SMALL + "exclude bog with fen\n"


def test_a_column_the_layer_does_not_have_is_reported_at_its_header(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = project / "heavy_gear.terrain"
    chart = project / "c.csv"
    chart.write_text("feature,all,column bogus\nsoft,2,1\n", "utf-8")
    code, _, err = run(capsys, "import", str(chart), "--layer", "terrain", "--into", str(target))
    assert code == 1 and codes(err) == ["E101"]
    assert f"{chart}:1:13: error[E101]: the chart gives column 'bogus', which layer" in err


def test_into_updates_a_plain_table(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = project / "d20_movement.terrain"
    code, out, _ = run(capsys, "export", str(target), "--format", "csv", "--table", "flight")
    rows = list(csv.reader(io.StringIO(out)))
    turn = next(r for r in rows if r[0] == "turn")
    turn[rows[0].index("poor")] = "45 deg per 3 m"  # a cell no worked example asks about
    chart = project / "flight.csv"
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    chart.write_text(buffer.getvalue(), "utf-8")
    code, out, err = run(capsys, "import", str(chart), "--table", "flight", "--into", str(target))
    assert code == 0, err
    assert "1 changed, 0 added, 0 removed" in err and "flight" in out
    rs = Compiler().compile_file(target).ruleset
    assert rs is not None
    flight = next(t for t in rs.tables if t.id == "flight")
    cells = next(r for r in flight.rows if r.key == "turn").cells
    assert "3" in repr(cells[3])  # poor


def test_a_variant_keeps_inherited_rows_and_refuses_to_change_them(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = project / "battletech_tacops_desert.terrain"
    before = target.read_bytes()
    _, out, _ = run(capsys, "export", str(target), "--format", "csv", "--table", "weather")
    rows = list(csv.reader(io.StringIO(out)))
    chart = project / "weather.csv"
    # A row of the base changed: E133, nothing written.
    changed = [list(r) for r in rows]
    changed[1][rows[0].index("all")] = "7"
    buffer = io.StringIO()
    csv.writer(buffer).writerows(changed)
    chart.write_text(buffer.getvalue(), "utf-8")
    code, _, err = run(capsys, "import", str(chart), "--layer", "weather", "--into", str(target))
    assert code == 1 and codes(err) == ["E133"] and "comes from the base" in err
    assert target.read_bytes() == before
    # A row of the base left out: kept, with a warning.
    buffer = io.StringIO()
    csv.writer(buffer).writerows([rows[0], *rows[2:]])
    chart.write_text(buffer.getvalue(), "utf-8")
    code, _, err = run(capsys, "import", str(chart), "--layer", "weather", "--into", str(target))
    assert code == 0 and codes(err) == ["W130"] and f"`remove {rows[1][0]}`" in err
    assert target.read_bytes() == before


# ---- export then import, on every bundled ruleset ------------------------------------------------


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
@pytest.mark.parametrize("locale", ["", "fr"], ids=["csv", "french-excel"])
def test_every_layer_and_table_exported_then_imported_changes_nothing(
    path: Path, locale: str, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Each layer and plain table is exported (as is, or for French Excel: `;`, decimal commas,
    # a byte-order mark) and imported back into the ruleset: the file is byte for byte the
    # same, so its IR is too (sources, notes, every column and `as` kept); and so is every
    # other ruleset of the project (a variant's base, which its IR holds, is not written to).
    from rulesdsl.interchange.chart_export import table_names

    target = project / path.name
    before = target.read_bytes()
    project_before = {p.name: p.read_bytes() for p in project.glob("*.terrain")}
    rs = Compiler().compile_file(target).ruleset
    assert rs is not None
    layers = {x.id for x in rs.layers}
    names = [n for n in table_names(rs) if n in layers or n in {t.id for t in rs.tables}]
    assert names
    for name in names:
        chart = project / f"{name}.csv"
        extra = ["--locale", locale] if locale else []
        assert (
            main(
                [
                    "export",
                    str(target),
                    "--format",
                    "csv",
                    "--table",
                    name,
                    "-o",
                    str(chart),
                    *extra,
                ]
            )
            == 0
        )
        kind = "--layer" if name in layers else "--table"
        code, _, err = run(capsys, "import", str(chart), kind, name, "--into", str(target))
        assert code == 0, err
        assert "is the same as the chart: left unchanged" in err, err
        assert target.read_bytes() == before
    assert {p.name: p.read_bytes() for p in project.glob("*.terrain")} == project_before


def test_an_exported_layer_with_sources_notes_columns_and_as_imports_alone_to_its_block(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Without --into, the printed block says what the original block says.
    code, out, _ = run(
        capsys, "export", "battletech_tacops", "--format", "csv", "--table", "gravel"
    )
    assert code == 0
    header = next(csv.reader(io.StringIO(out)))
    assert header[-1] == "ignores others" and "column to_hit" in header and "source" in header
    chart = tmp_path / "gravel.csv"
    chart.write_text(out, "utf-8")
    code, block, err = run(capsys, "import", str(chart), "--layer", "gravel")
    assert code == 0, err  # `megamek`, `to_hit`: names only the ruleset knows (--into checks)
    lines = block.splitlines()
    assert (
        lines[1] == "  columns cost, to_hit, piloting, los, bog_down"
    )  # los: a pile's own sight value; bog_down: the roll due on entering (issue 24)
    assert "|  | 1, large_vehicle 0 | 0 | 0, mech no, large_vehicle no" in lines[2]
    assert lines[2].endswith('airship no [to "Gravel piles"]')
    assert lines[3].startswith('      note for large_vehicle "Reading: large vehicles pay +1 MP')
    assert lines[4].startswith('      note for mech "Reading: a Mech stands 2 levels')
    assert lines[4].endswith(" ignores others")


# ---- formulas --------------------------------------------------------------------------------


def test_export_neutralises_formula_cells_but_not_negative_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ruleset = tmp_path / "f.terrain"
    ruleset.write_text(
        'ruleset f\nversion 1.0.0\nmode walker\nbook b "B"\nlayer marsh {\n'
        '  bog "=HYPERLINK(\\"x\\")" | 2 [b "@SUM(A1)"]\n    note "+1 and -1"\n'
        '  fen "Fen" | 0, walker 1\n}\n',
        "utf-8",
    )
    code, out, _ = run(capsys, "export", str(ruleset), "--format", "csv", "--table", "marsh")
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[1][1] == '\'=HYPERLINK("x")' and rows[1][-1] == "'+1 and -1"
    assert rows[1][-2] == 'b "@SUM(A1)"'  # a source starts with its book
    chart = tmp_path / "marsh.csv"
    chart.write_text(out, "utf-8")
    before = ruleset.read_bytes()
    code, _, err = run(capsys, "import", str(chart), "--layer", "marsh", "--into", str(ruleset))
    assert code == 0 and "left unchanged" in err and ruleset.read_bytes() == before


# ---- .xlsx ------------------------------------------------------------------------------------


def test_an_xlsx_made_by_openpyxl_imports_its_layer_sheet(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("openpyxl")
    target = project / "heavy_gear.terrain"
    code, out, err = run(
        capsys, "import", str(CHARTS / "marsh.xlsx"), "--layer", "marsh", "--into", str(target)
    )
    assert code == 0, err
    assert "+ terrain added" in out
    rs = Compiler().compile_file(target).ruleset
    assert rs is not None
    features = {f.id: f for f in rs.features}
    assert features["bog"].costs["hover"].value == 1.5  # type: ignore[union-attr]
    assert features["fen"].costs["walker"].value == 2.5  # type: ignore[union-attr]
    assert features["fen"].costs["ground"].value == 2  # type: ignore[union-attr]
    assert features["bog"].info.source is not None and features["bog"].info.source.page == "p.12"


def test_an_xlsx_without_the_layers_sheet_lists_its_sheets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("openpyxl")
    code, _, err = run(capsys, "import", str(CHARTS / "marsh.xlsx"), "--layer", "fen")
    assert code == 1 and codes(err) == ["E101"]
    assert "has no sheet 'fen': its sheets are notes, marsh" in err


def test_xlsx_export_then_import_changes_nothing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    target = project / "battletech_tacops.terrain"
    before = target.read_bytes()
    book = project / "bt.xlsx"
    code, _, err = run(capsys, "export", str(target), "--format", "xlsx", "-o", str(book))
    assert code == 0, err
    names = openpyxl.load_workbook(book, read_only=True).sheetnames
    assert names[:2] == ["base", "industrial"] and "terrain_factor" in names
    again = project / "bt2.xlsx"
    assert main(["export", str(target), "--format", "xlsx", "-o", str(again)]) == 0
    assert again.read_bytes() == book.read_bytes()  # deterministic
    for name in names:
        kind = "--table" if name == "terrain_factor" else "--layer"
        code, _, err = run(capsys, "import", str(book), kind, name, "--into", str(target))
        assert code == 0 and "left unchanged" in err, err
    assert target.read_bytes() == before


def test_xlsx_export_writes_formula_like_cells_as_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    ruleset = tmp_path / "f.terrain"
    ruleset.write_text(
        'ruleset f\nversion 1.0.0\nmode walker\nlayer marsh {\n  bog "=1+1" | 2\n}\n', "utf-8"
    )
    book = tmp_path / "f.xlsx"
    assert main(["export", str(ruleset), "--format", "xlsx", "-o", str(book)]) == 0
    sheet = openpyxl.load_workbook(book)["marsh"]
    assert (sheet["B2"].value, sheet["B2"].data_type) == ("=1+1", "s")  # text, not a formula
    assert (sheet["C2"].value, sheet["C2"].data_type) == (2, "n")  # a number stays a number


def test_without_openpyxl_xlsx_is_read_and_export_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = builtins.__import__

    def no_openpyxl(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "openpyxl" or name.startswith("openpyxl."):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    import importlib

    real_module = importlib.import_module

    def no_openpyxl_module(name: str, package: str | None = None) -> Any:
        if name == "openpyxl" or name.startswith("openpyxl."):
            raise ImportError(name)
        return real_module(name, package)

    monkeypatch.setattr(builtins, "__import__", no_openpyxl)
    monkeypatch.setattr(importlib, "import_module", no_openpyxl_module)
    code, out, err = run(capsys, "import", str(CHARTS / "marsh.xlsx"), "--layer", "marsh")
    assert code == 0 and out.startswith("layer marsh {"), err  # reading needs no extra
    code, _, err = run(
        capsys, "export", "heavy_gear", "--format", "xlsx", "-o", str(tmp_path / "x.xlsx")
    )
    assert code == 2 and "pip install 'rulesdsl[xlsx]'" in err


def test_a_file_that_is_not_a_workbook_is_a_diagnostic(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("openpyxl")
    book = tmp_path / "fake.xlsx"
    book.write_bytes(b"PK\x03\x04 not really a zip")
    code, _, err = run(capsys, "import", str(book), "--layer", "marsh")
    assert code == 1
    assert f"{book}:1:1: error[E003]: cannot read {book}: it is not an .xlsx workbook" in err


BASES = [p for p in ALL if "\nextends " not in p.read_text("utf-8")]
"""The bundled rulesets that extend nothing: each block holds all its rows itself."""


@pytest.mark.parametrize("path", BASES, ids=lambda p: p.stem)
def test_a_chart_alone_says_everything_its_block_says(path: Path) -> None:
    # Stricter than the round trip through --into (which keeps what a chart has no column
    # for): each block's rows are replaced by the rows read from its exported chart alone,
    # and the ruleset compiles to the same layers, features and tables.
    import dataclasses

    from rulesdsl.frontends import syntax as s
    from rulesdsl.interchange.chart_columns import cell_keys, layer_columns
    from rulesdsl.interchange.chart_export import export_csv
    from rulesdsl.interchange.csv_chart import chart_row_node, import_layer, import_table

    compiler = Compiler()
    original = compiler.compile_file(path)
    parsed, _ = compiler.parse_file(path)
    assert original.ruleset is not None and parsed is not None
    rs = original.ruleset
    known = cell_keys(rs)
    statements = list(parsed.statements)
    for i, block in enumerate(statements):
        if not isinstance(block, s.LayerDecl | s.TableDecl):
            continue
        name = block.item.name.text
        text = export_csv(rs, name)
        assert text is not None
        chart = str(path.with_suffix(f".{name}.csv"))
        if isinstance(block, s.LayerDecl):
            columns = layer_columns(rs)
            imported = import_layer(
                text, chart, name, known=known, languages=rs.languages, columns=columns
            )
            order = list(next(x for x in rs.layers if x.id == name).columns)
        else:
            table = next(t for t in rs.tables if t.id == name)
            order = [c.id for c in table.columns] or ["value"]
            imported = import_table(text, chart, known=known, languages=rs.languages, columns=order)
        assert not [d for d in imported.diagnostics if d.is_error], imported.diagnostics
        assert imported.has >= {"label"} and len(imported.rows) == len(block.rows)
        rows = tuple(chart_row_node(r, order) for r in imported.rows)
        statements[i] = dataclasses.replace(block, rows=rows)
    twin = compiler.compile_source(
        dataclasses.replace(parsed, statements=tuple(statements)), path.parent
    )
    assert twin.ok and twin.ruleset is not None, twin.diagnostics
    for key in ("layers", "features", "tables"):
        assert _no_empty_cells(to_data(twin.ruleset)[key]) == _no_empty_cells(to_data(rs)[key])


def _no_empty_cells(data: Any) -> Any:
    """IR data without a feature's empty cells: an empty cell (`| 0 | |`) and one left out
    (`| 0`) say the same, and a chart cannot tell them apart."""
    if isinstance(data, list):
        return [_no_empty_cells(x) for x in data]
    if isinstance(data, dict):
        if "cells" in data and isinstance(data["cells"], dict):
            empty = {"default": None, "exceptions": {}, "pairs": [], "states": {}, "along": {}}
            data = {**data, "cells": {k: v for k, v in data["cells"].items() if v != empty}}
        return {k: _no_empty_cells(v) for k, v in data.items()}
    return data


def test_decimal_commas_are_read_outside_quoted_strings_only() -> None:
    from rulesdsl.interchange.chart_export import with_decimal_comma
    from rulesdsl.interchange.csv_chart import _decimal

    assert _decimal('1,5, walker "a 1,5 b" 2,5', True) == '1.5, walker "a 1,5 b" 2.5'
    assert _decimal('1,500 "1,500"', None) == '1500 "1,500"'
    assert with_decimal_comma([['1.5 "x 1.5"', "1.5"]], {0}) == [['1,5 "x 1.5"', "1.5"]]


def test_a_chart_over_the_file_limit_is_refused_never_cut_short(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # read_bytes stops one byte past the limit; the import once read that much and went on
    # with a chart cut in the middle of a row.
    chart = project / "big.csv"
    row = "clear,Clear,1\n"
    chart.write_text("feature,label,all\n" + row * (2 * 1024 * 1024 // len(row) + 1), "utf-8")
    code, _, err = run(capsys, "import", str(chart), "--layer", "terrain")
    assert code == 1
    assert "error[E006]: the file is larger than the 2 MiB limit of a chart" in err
