"""Workbooks as attackers and careless programs write them (issue 45: 1, 3, 4, 5) and as
designers lay them out (issue 42, item 3), through `rulesdsl import` as a user runs it. Each
workbook is written here byte by byte (dev/workbooks.py: zip + XML) or by openpyxl."""

from __future__ import annotations

import re
import shutil
import subprocess
import tracemalloc
from pathlib import Path

import pytest

from dev.workbooks import Cell, Raw, big_shared_strings, ods, xlsx
from rulesdsl.commands.cli import main
from rulesdsl.interchange import zipped_xml

HEADER: list[Cell] = ["feature", "label", "walker", "hover"]
BOG: list[Cell] = ["bog", "Bog", 2, 1]
FEN: list[Cell] = ["fen", "Fen", 3, "impassable"]
LAYER = 'layer marsh {\n  bog "Bog" | 2, hover 1\n  fen "Fen" | 3, hover impassable\n}\n'


def run(capsys: pytest.CaptureFixture[str], path: Path, *more: str) -> tuple[int, str, str]:
    code = main(["import", str(path), "--layer", "marsh", *more])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def chart(tmp_path: Path, data: bytes, suffix: str = ".xlsx") -> Path:
    path = tmp_path / f"marsh{suffix}"
    path.write_bytes(data)
    return path


def test_a_plain_workbook_reads_as_its_csv_would(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, chart(tmp_path, xlsx([HEADER, BOG, FEN])))
    assert (code, out) == (0, LAYER), err


# ---- issue 45, item 1: a far cell ---------------------------------------------------------


def test_a_far_cell_is_refused_by_its_address_without_walking_to_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    far = Raw('<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>')
    path = chart(tmp_path, xlsx([HEADER, BOG, FEN, far]))  # 1.5 KB
    assert path.stat().st_size < 2000
    code, out, err = run(capsys, path)
    assert code == 1 and out == ""
    assert f"{path}:1048576:16384: error[E003]: cannot read {path}: cell XFD1048576 is past" in err
    assert "clear what lies past the chart" in err


def test_a_far_empty_cell_is_no_cell(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    far = Raw('<row r="1048576"><c r="XFD1048576" s="1"/></row>')
    code, out, err = run(capsys, chart(tmp_path, xlsx([HEADER, BOG, FEN, far])))
    assert (code, out) == (0, LAYER), err


def test_a_sheet_wider_than_a_chart_may_be_is_refused_at_the_row_that_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Cells within the last row and column, each far to the right: the chart they make would
    be 5 MB of commas; refused at the row where it passes the size a CSV chart may have."""
    rows = [HEADER, BOG, FEN] + [
        Raw(f'<row r="{r}"><c r="ALL{r}"><v>1</v></c></row>') for r in range(4, 5000)
    ]
    code, _, err = run(capsys, chart(tmp_path, xlsx(rows)))
    assert code == 1
    assert re.search(r"the sheet as a chart is over 2,097,152 characters by row \d+", err)


# ---- issue 45, item 3: a stale <dimension> ----------------------------------------------------


def test_a_stale_dimension_does_not_cut_the_chart_short(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = chart(tmp_path, xlsx([HEADER, BOG, FEN], dimension="A1:D2"))
    code, out, err = run(capsys, path)
    assert (code, out) == (0, LAYER), err


# ---- issue 45, item 4 and issue 42, item 3: formulas without their value ---------------------


def test_a_formula_saved_without_its_value_is_refused_at_its_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fen: list[Cell] = ["fen", "Fen", Raw('<c r="C3"><f>1+2</f></c>'), "impassable"]
    path = chart(tmp_path, xlsx([HEADER, BOG, fen]))
    code, out, err = run(capsys, path)
    assert code == 1 and out == ""
    assert (
        f"{path}:3:3: error[E003]: cannot read {path}: cell C3 holds a formula (=1+2) saved "
        "without its value"
    ) in err
    assert "open the workbook in a spreadsheet program" in err


def test_a_formula_with_its_saved_value_reads_as_that_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fen: list[Cell] = [
        "fen",
        Raw('<c r="B3" t="str"><f>"F"&amp;"en"</f><v>Fen</v></c>'),
        Raw('<c r="C3"><f>1+2</f><v>3</v></c>'),
        "impassable",
    ]
    code, out, err = run(capsys, chart(tmp_path, xlsx([HEADER, BOG, fen])))
    assert (code, out) == (0, LAYER), err


def test_an_error_value_is_refused_at_its_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fen: list[Cell] = [
        "fen",
        "Fen",
        Raw('<c r="C3" t="e"><f>1/0</f><v>#DIV/0!</v></c>'),
        "impassable",
    ]
    path = chart(tmp_path, xlsx([HEADER, BOG, fen]))
    code, _, err = run(capsys, path)
    assert code == 1 and f"{path}:3:3: error[E003]" in err and "holds the error #DIV/0!" in err


def test_a_formula_made_by_openpyxl_is_refused_at_its_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """openpyxl writes formulas and never computes them: what a script made, unsaved."""
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "marsh"
    for row in (HEADER, BOG, ["fen", "Fen", "=1+2", "impassable"]):
        sheet.append(row)
    path = tmp_path / "marsh.xlsx"
    book.save(path)
    code, _, err = run(capsys, path)
    assert code == 1 and "cell C3 holds a formula (=1+2) saved without its value" in err


# ---- issue 45, item 5: shared strings ------------------------------------------------------


def test_shared_strings_past_the_bound_are_refused_without_being_held(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = xlsx([HEADER, BOG, FEN], shared=big_shared_strings(40))
    path = chart(tmp_path, data)
    assert path.stat().st_size < 100_000  # 40 MiB of XML in under 100 kB
    tracemalloc.start()
    code, _, err = run(capsys, path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert code == 1 and "its XML is over 32 MiB once decompressed" in err
    assert peak < 8 * 1024 * 1024


def test_a_part_that_lies_about_its_size_is_still_bounded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The zip's directory says 100 bytes; the stream holds 40 MiB: reading stops at the
    size said, and the part is refused as damaged."""
    data = bytearray(xlsx([HEADER, BOG, FEN], shared=big_shared_strings(40)))
    name = b"xl/sharedStrings.xml"
    for at in (m.start() for m in re.finditer(re.escape(name), bytes(data))):
        signature = bytes(data[at - 46 : at - 42])
        if signature == b"PK\x01\x02":  # the central directory's entry: its size field
            data[at - 46 + 24 : at - 46 + 28] = (100).to_bytes(4, "little")
    tracemalloc.start()
    code, _, err = run(capsys, chart(tmp_path, bytes(data)))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert code == 1 and "error[E003]" in err
    assert peak < 8 * 1024 * 1024


def test_a_workbook_read_past_its_time_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reader's clock, set to no time at all: refused at its first chunk, not read on."""
    monkeypatch.setattr(zipped_xml, "MAX_SECONDS", -1.0)
    code, _, err = run(capsys, chart(tmp_path, xlsx([HEADER, BOG, FEN])))
    assert code == 1 and "reading it takes over -1 seconds" in err


def test_a_document_type_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    laughs = (
        '<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY a "aaaaaaaaaa">]>'
        '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        "<si><t>&a;</t></si></sst>"
    )
    code, _, err = run(capsys, chart(tmp_path, xlsx([HEADER, BOG, FEN], shared=laughs.encode())))
    assert code == 1 and "declares a document type" in err


# ---- issue 42, item 3: .ods ------------------------------------------------------------------


def test_an_ods_spreadsheet_is_read_as_its_csv_would(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, chart(tmp_path, ods([HEADER, BOG, FEN]), ".ods"))
    assert (code, out) == (0, LAYER), err


def test_ods_runs_of_empty_rows_and_columns_are_skipped_by_their_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """LibreOffice writes the empty rest of a sheet as one repeated row of repeated cells."""
    empty = Raw(
        '<table:table-row table:number-rows-repeated="1048573">'
        '<table:table-cell table:number-columns-repeated="16384"/></table:table-row>'
    )
    wide: list[Cell] = [*BOG, Raw('<table:table-cell table:number-columns-repeated="16380"/>')]
    code, out, err = run(capsys, chart(tmp_path, ods([HEADER, wide, FEN, empty]), ".ods"))
    assert (code, out) == (0, LAYER), err


def test_an_ods_run_of_full_cells_is_refused_at_its_first_cell_past_the_bound(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    full = Raw(
        '<table:table-row table:number-rows-repeated="1048573">'
        '<table:table-cell table:number-columns-repeated="3" office:value-type="float" '
        'office:value="1"/></table:table-row>'
    )
    path = chart(tmp_path, ods([HEADER, BOG, FEN, full]), ".ods")
    code, _, err = run(capsys, path)
    assert code == 1
    assert (
        f"{path}:100001:1: error[E003]: cannot read {path}: cell A100001 is past the last cell"
    ) in err


def test_an_ods_formula_saved_without_its_value_is_refused_at_its_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fen: list[Cell] = [
        "fen",
        "Fen",
        Raw('<table:table-cell table:formula="of:=1+2"/>'),
        "impassable",
    ]
    path = chart(tmp_path, ods([HEADER, BOG, fen]), ".ods")
    code, _, err = run(capsys, path)
    assert code == 1
    assert f"{path}:3:3: error[E003]: cannot read {path}: cell C3 holds a formula (of:=1+2)" in err


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
@pytest.mark.parametrize("kind", ["ods", "xlsx"])
def test_a_chart_saved_by_libreoffice_is_read_with_its_formulas_values(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "marsh.csv"
    source.write_text("feature,label,walker,hover\nbog,Bog,2,1\nfen,Fen,=1+2,impassable\n")
    subprocess.run(
        [
            "soffice",
            "--headless",
            f"-env:UserInstallation=file://{tmp_path}/profile",
            "--convert-to",
            kind,
            "--outdir",
            str(tmp_path / "out"),
            str(source),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    code, out, err = run(capsys, tmp_path / "out" / f"marsh.{kind}")
    assert (code, out) == (0, LAYER), err


# ---- issue 42, item 3: charts as designers lay them out ----------------------------------------


def test_a_title_row_above_the_header_is_skipped_and_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    title: list[Cell] = ["Marsh (Heavy Gear, p.12)"]
    path = chart(tmp_path, xlsx([title, [], HEADER, BOG, FEN], merges=("A1:D1",)))
    code, out, err = run(capsys, path)
    assert (code, out) == (0, LAYER), err
    assert (
        "warning[W131]: row 1 above the header (row 3): taken as the chart's title, not read"
    ) in err
    assert err.startswith(f"{path}:1:")


def test_a_csv_title_row_and_trailing_empty_columns_are_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As French Excel saves a formatted sheet: a title, then `;` for each empty column."""
    text = (
        "Marsh;;;;;;\r\nfeature;label;walker;hover;;;\r\nbog;Bog;2;1;;;\r\n"
        "fen;Fen;3;impassable;;;\r\n;;;;;;\r\n"
    )
    path = chart(tmp_path, text.encode(), ".csv")
    code, out, err = run(capsys, path)
    assert (code, out) == (0, LAYER), err
    assert "warning[W131]: row 1 above the header (row 2)" in err
    assert re.findall(r"(?:error|warning)\[(\w+)\]", err) == ["W131"]


def test_empty_columns_at_the_end_of_a_csv_chart_are_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "feature;label;walker;hover;;;;\nbog;Bog;2;1;;;;\nfen;Fen;3;impassable;;;;\n"
    code, out, err = run(capsys, chart(tmp_path, text.encode(), ".csv"))
    assert (code, out, err) == (0, LAYER, "")


def test_header_row_names_a_header_below_a_title_of_two_cells(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = chart(tmp_path, xlsx([["Marsh", "v2"], HEADER, BOG, FEN]))
    code, _, err = run(capsys, path)
    assert code == 1 and "'Marsh' is" not in err  # row 1 was taken as the header
    code, out, err = run(capsys, path, "--header-row", "2")
    assert (code, out) == (0, LAYER), err
    code, _, err = run(capsys, path, "--header-row", "9")
    assert code == 1 and "--header-row 9: no row of the chart starts there" in err


def test_a_two_row_header_under_merged_cells_is_read_as_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "feature" over two rows; "label" over "en" and "fr"; "cost" over the modes."""
    rows: list[list[Cell]] = [
        ["Marsh"],
        ["feature", "label", None, "cost", None],
        [None, "en", "fr", "walker", "hover"],
        ["bog", "Bog", "Tourbière", 2, 1],
        ["fen", "Fen", "Fagne", 3, "impassable"],
    ]
    merges = ("A1:E1", "A2:A3", "B2:C2", "D2:E2")
    code, out, err = run(capsys, chart(tmp_path, xlsx(rows, merges=merges)))
    assert code == 0, err
    assert out == (
        'layer marsh {\n  bog "Bog" fr "Tourbière" | 2, hover 1\n'
        '  fen "Fen" fr "Fagne"     | 3, hover impassable\n}\n'
    )


def test_a_merged_header_cell_over_data_rows_keeps_them_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A header cell merged across two columns for looks, data right below: no second
    header row (the row below has its key)."""
    rows: list[list[Cell]] = [
        ["feature", "label", None, "walker", "hover"],
        *([r[0], r[1], None, r[2], r[3]] for r in (BOG, FEN)),
    ]
    code, _, err = run(capsys, chart(tmp_path, xlsx(rows, merges=("B1:C1",))))
    assert code == 1 and "column 3: '' is not a mode name" in err  # the empty header, said


def test_a_binary_workbook_given_as_text_is_never_read_as_cp1252(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An .xls (binary Excel) goes the CSV way: refused at its first byte, not read as text."""
    old = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 60 + "feature\x00Forêt".encode("cp1252")
    path = chart(tmp_path, old, ".xls")
    code, _, err = run(capsys, path)
    assert code == 1 and f"{path}:1:1: error[E003]: cannot read {path}: byte 0xD0" in err
    assert "W132" not in err
