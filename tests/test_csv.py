"""Spreadsheets: `rulesdsl import` of a CSV terrain chart into a layer, `export --format csv`."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.interchange.chart_alone import check_alone
from rulesdsl.interchange.csv_chart import Reading, import_layer
from tests.conftest import RULESETS

CHART = """\
feature,label,label fr,walker,ground,hover
bog,Bog,Tourbière,3,impassable,1
scree,Scree,Éboulis,2,2,2
ford,Ford,Gué,2,"1 per 2 in",as clear
"""


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_chart_becomes_a_layer_with_a_value_for_all_then_the_exceptions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "marsh.csv"
    chart.write_text(CHART, "utf-8")
    code, out, _ = run(capsys, "import", str(chart), "--layer", "marsh")
    assert code == 0
    assert out.splitlines() == [
        "layer marsh {",
        '  bog "Bog" fr "Tourbière"   | 3, ground impassable, hover 1',
        '  scree "Scree" fr "Éboulis" | 2',
        '  ford "Ford" fr "Gué"       | 2, ground 1 per 2 in, hover as clear',
        "}",
    ]


def test_import_into_a_ruleset_appends_a_layer_that_compiles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(RULESETS / "heavy_gear.terrain", tmp_path)
    target = tmp_path / "heavy_gear.terrain"
    chart = tmp_path / "marsh.csv"
    chart.write_text(CHART, "utf-8")
    code, _, err = run(capsys, "import", str(chart), "--layer", "marsh", "--into", str(target))
    assert code == 0, err
    compiled = Compiler().compile_file(target)
    assert compiled.ok and compiled.ruleset is not None
    features = {f.id: f for f in compiled.ruleset.features}
    assert features["bog"].layer == "marsh"
    assert features["ford"].costs["walker"].value == 2  # type: ignore[union-attr]
    assert features["ford"].costs["hover"].value == 1  # type: ignore[union-attr]  # as clear


def test_a_cell_that_does_not_parse_names_its_csv_row_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "bad.csv"
    chart.write_text("feature,walker,ground\nmud,2,3 per\n", "utf-8")
    code, out, err = run(capsys, "import", str(chart), "--layer", "mud")
    assert code == 1 and out == ""
    # The caret is where the cell goes wrong: after `per`, a number is missing.
    assert f"{chart}:2:12: error[E001]: row 2, column 3 (ground)" in err
    assert "   2 | mud,2,3 per\n     |            ^" in err


def test_an_unknown_mode_column_is_reported_at_the_header_with_a_suggestion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(RULESETS / "heavy_gear.terrain", tmp_path)
    target = tmp_path / "heavy_gear.terrain"
    before = target.read_text("utf-8")
    chart = tmp_path / "bad.csv"
    chart.write_text("feature,walkr,ground\nmud,2,3\n", "utf-8")
    code, _, err = run(capsys, "import", str(chart), "--layer", "mud", "--into", str(target))
    assert code == 1
    assert f"{chart}:1:9: error[E101]: row 1, column 2: unknown mode or group 'walkr'" in err
    assert "did you mean 'walker'?" in err
    assert target.read_text("utf-8") == before


def test_a_feature_name_that_is_not_a_name_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "bad.csv"
    chart.write_text("feature,walker\n9lives,2\n", "utf-8")
    code, _, err = run(capsys, "import", str(chart), "--layer", "x")
    assert code == 1
    assert f"{chart}:3:1:" not in err and f"{chart}:2:1: error[E001]: row 2, column 1" in err


def test_export_of_a_layer_is_the_value_for_all_then_one_column_per_mode_for_exceptions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "export", "heavy_gear", "--format", "csv", "--table", "terrain")
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == [
        "feature",
        "label",
        "label fr",
        "label de",
        "all",
        "walker",
        "ground",
        "hover",
        "note",
        "note fr",
        "note de",
    ]
    by_id = {r[0]: r for r in rows[1:]}
    assert by_id["soft"][4:8] == ["2", "3", "", ""]
    assert by_id["road"][4:8] == ["1", "", "1 per 2 in", ""]
    assert by_id["very_rough"][4:8] == ["4", "3", "impassable", "impassable"]
    assert by_id["deep_water"][4:8] == ["impassable", "", "", "as clear"]  # `as` kept
    assert by_id["structure"][8].startswith("Some models")


def test_an_exported_layer_imports_back_to_the_same_costs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "export", "heavy_gear", "--format", "csv", "--table", "terrain")
    chart = tmp_path / "terrain.csv"
    chart.write_text(out, "utf-8")
    code, layer, _ = run(capsys, "import", str(chart), "--layer", "terrain", "--one-per-place")
    assert code == 0
    original = (RULESETS / "heavy_gear.terrain").read_text("utf-8")
    start = original.index("layer terrain ")
    end = original.index("}\n", start) + 2
    compiler = Compiler()
    twin = compiler.compile_text(
        original[:start] + layer + original[end:], str(tmp_path / "heavy_gear.terrain"), tmp_path
    )
    base = compiler.compile_file(RULESETS / "heavy_gear.terrain")
    assert twin.ok and twin.ruleset is not None and base.ruleset is not None
    assert {f.id: f.costs for f in twin.ruleset.features} == {
        f.id: f.costs for f in base.ruleset.features
    }


def test_export_of_tables_dice_tables_and_modifiers(capsys: pytest.CaptureFixture[str]) -> None:
    _, flight, _ = run(capsys, "export", "d20_movement", "--format", "csv", "--table", "flight")
    rows = list(csv.reader(io.StringIO(flight)))
    assert rows[0][:8] == [
        "row",
        "label",
        "label fr",
        "perfect",
        "good",
        "average",
        "poor",
        "clumsy",
    ]
    assert rows[5][0] == "turn" and rows[5][4] == "90 deg per 1.5 m"
    _, armour, _ = run(
        capsys, "export", "d20_movement", "--format", "csv", "--table", "armor_speed"
    )
    assert list(csv.reader(io.StringIO(armour)))[1][0::3] == ["6 m", "4.5 m"]
    _, dice, _ = run(
        capsys, "export", "battletech_tacops", "--format", "csv", "--table", "terrain_effects"
    )
    dice_rows = list(csv.reader(io.StringIO(dice)))
    assert dice_rows[0] == ["roll", "result", "label", "label ru", "effects"]
    assert dice_rows[2][:2] == ["8", "fire"] and dice_rows[2][4] == "ignites yes"
    _, cover, _ = run(capsys, "export", "heavy_gear", "--format", "csv", "--table", "cover")
    assert cover.splitlines()[:2] == ["item,all", "full,-2"]


def test_export_of_an_unknown_table_lists_the_tables(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "export", "heavy_gear", "--format", "csv", "--table", "nope")
    assert code == 2
    assert "expected one of terrain, water, concealment_class, setup, concealment, cover" in err


def test_labels_are_escaped_and_rows_after_a_multi_line_cell_keep_their_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "fen.csv"
    chart.write_text(
        'feature,label,walker,source\nbog,"Bog ""wet""\nand deep",3,hg p.2\nfen,Fen,2,hg ]] x\n',
        "utf-8",
    )
    code, out, err = run(capsys, "import", str(chart), "--layer", "fen")
    assert code == 1 and out == ""
    # Row 3 of the sheet is line 4 of the file: the label above holds a line break.
    assert f"{chart}:4:15: error[E001]: row 3, column 4 (source)" in err
    chart.write_text('feature,label,walker\nbog,"Bog ""wet""\nand deep",3\n', "utf-8")
    code, out, _ = run(capsys, "import", str(chart), "--layer", "fen")
    assert code == 0
    assert '  bog "Bog \\"wet\\"\\nand deep" | 3\n' in out
    ruleset = tmp_path / "fen.terrain"
    ruleset.write_text("ruleset fen\nversion 1.0.0\nmode walker\n" + out, "utf-8")
    compiled = Compiler().compile_file(ruleset)
    assert compiled.ok and compiled.ruleset is not None
    assert compiled.ruleset.features[0].info.labels["en"] == 'Bog "wet"\nand deep'


# ---- the same checks as the DSL, and charts that are no CSV (issue 30, item 6) --------------


def test_without_into_a_label_with_a_control_character_is_refused_at_its_character(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # On main this printed the layer (with "\u001b" in it) and exited 0.
    chart = tmp_path / "esc.csv"
    chart.write_text('feature,label,label fr,walker\nbog,"B\x1bog",Tourbi\x00re,3\n', "utf-8")
    code, out, err = run(capsys, "import", str(chart), "--layer", "marsh")
    assert code == 1 and out == ""
    assert f"{chart}:2:7: error[E004]: row 2, column 2 (label): control character '\\x1b'" in err
    assert (
        f"{chart}:2:18: error[E004]: row 2, column 3 (label fr): control character '\\x00'" in err
    )


def test_without_into_a_reserved_name_is_refused_at_its_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "reserved.csv"
    chart.write_text("feature,walker,class\nbog,3,1\nlambda,2,2\n", "utf-8")
    code, out, err = run(capsys, "import", str(chart), "--layer", "marsh")
    assert code == 1 and out == ""
    assert f"{chart}:3:1: error[E103]: row 3, column 1 (feature): 'lambda' cannot name" in err
    assert f"{chart}:1:16: error[E103]: row 1, column 3 (class): 'class' cannot name" in err


def test_without_into_a_negative_cost_is_refused_at_its_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "negative.csv"
    chart.write_text('feature,label,walker,hover\nmud,"Mud, deep",2,-1\n', "utf-8")
    code, out, err = run(capsys, "import", str(chart), "--layer", "marsh")
    assert code == 1 and out == ""
    assert (
        f"{chart}:2:19: error[E213]: row 2, column 4 (hover): 'mud' costs hover a negative" in err
    )
    assert '   2 | mud,"Mud, deep",2,-1\n     |                   ^^' in err


def test_into_a_ruleset_the_checks_point_at_the_chart_not_at_the_ruleset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(RULESETS / "heavy_gear.terrain", tmp_path)
    target = tmp_path / "heavy_gear.terrain"
    before = target.read_text("utf-8")
    chart = tmp_path / "marsh.csv"
    chart.write_text("feature,walker,hover\nbog,3,-2\nsoft,1,1\n", "utf-8")
    code, _, err = run(capsys, "import", str(chart), "--layer", "marsh", "--into", str(target))
    assert code == 1
    assert f"{chart}:2:7: error[E213]: row 2, column 3 (hover): 'bog' costs hover" in err
    assert f"{chart}:3:1: error[E102]: row 3, column 1 (feature): 'soft' is already defined" in err
    assert f"{target} left unchanged" in err
    assert target.read_text("utf-8") == before


def test_names_the_chart_takes_from_its_ruleset_are_checked_only_with_into(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "marsh.csv"
    chart.write_text("feature,walker,hover\nbog,step climb,as clear\n", "utf-8")
    code, out, _ = run(capsys, "import", str(chart), "--layer", "marsh")
    assert code == 0
    assert out.splitlines()[1].split("|")[1].strip() == "step climb, hover as clear"


def test_a_column_given_twice_is_an_error_naming_both_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # On main the second `walker` column won silently.
    chart = tmp_path / "twice.csv"
    chart.write_text("feature,walker,hover,walker\nbog,3,1,4\n", "utf-8")
    code, out, err = run(capsys, "import", str(chart), "--layer", "marsh")
    assert code == 1 and out == ""
    assert f"{chart}:1:22: error[E102]: row 1, column 4: 'walker' is also column 2" in err
    assert f"{chart}:1:9: note: column 2 is 'walker'" in err


def test_a_cell_over_the_size_limit_is_a_diagnostic_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # On main: _csv.Error: field larger than field limit (131072).
    chart = tmp_path / "huge.csv"
    chart.write_text("feature,label,walker\nbog," + "x" * 140_000 + ",3\n", "utf-8")
    code, out, err = run(capsys, "import", str(chart), "--layer", "marsh")
    assert code == 1 and out == ""
    assert f"{chart}:2:5: error[E003]: row 2, column 2: a cell of 140,000 characters" in err
    assert "at most 131,072" in err
    # A cell the chart reader takes is still a label, held to the string limit like any other.
    chart.write_text("feature,label,walker\nbog," + "x" * 131_072 + ",3\n", "utf-8")
    code, out, err = run(capsys, "import", str(chart), "--layer", "marsh")
    assert code == 1 and "error[E007]" in err and "error[E003]" not in err


@pytest.mark.parametrize(
    ("content", "where", "message"),
    [
        (
            'feature,walker\nbog,"3\nfen,2\n',
            "2:5",
            "row 2, column 2: a quoted cell is never closed",
        ),
        ('feature,walker\nbog,"3"x,2\n', "2:8", "row 2, column 2: text after the closing quote"),
        ("feature,walker\nb\x00g,3\n", "2:1", "row 2, column 1 (feature): 'b\\u0000g' is not a"),
    ],
    ids=["unterminated quote", "text after a quote", "NUL byte"],
)
def test_malformed_csv_is_a_diagnostic_at_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, where: str, message: str
) -> None:
    # On main an unterminated quote swallowed the rest of the file and exited 0.
    chart = tmp_path / "bad.csv"
    chart.write_text(content, "utf-8")
    code, out, err = run(capsys, "import", str(chart), "--layer", "marsh")
    assert code == 1 and out == ""
    assert f"{chart}:{where}: error[E001]: {message}" in err


def test_a_chart_that_is_not_utf8_is_a_diagnostic_at_the_first_bad_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # On main: a usage error (exit 2) with no position.
    chart = tmp_path / "latin1.csv"
    # \x81 is no cp1252 character: the file is read as cp1252 (W132) only when it is one
    chart.write_bytes("feature,label,walker\nbog,Tourbière\x81,3\n".encode("latin-1"))
    code, out, err = run(capsys, "import", str(chart), "--layer", "marsh")
    assert code == 1 and out == ""
    assert f"{chart}:2:11: error[E003]: cannot read {chart}: byte 0xE8 is not UTF-8" in err
    assert "save the file as UTF-8" in err


def test_crlf_line_ends_and_a_byte_order_mark_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "excel.csv"
    chart.write_bytes(b"\xef\xbb\xbffeature,walker\r\nbog,3\r\nfen,-1\r\n")
    code, _, err = run(capsys, "import", str(chart), "--layer", "marsh")
    assert code == 1
    assert f"{chart}:3:5: error[E213]: row 3, column 2 (walker)" in err


# ---- CSV injection: export neutralises formulas, import takes the quote off ------------------

FORMULAS = '=HYPERLINK("http://x")', "+1+1", "-1+1", "@SUM(A1)", "\tx", "'=already quoted"


@pytest.mark.parametrize("label", FORMULAS)
def test_export_writes_a_formula_after_a_quote_and_import_takes_it_off(
    label: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ruleset = tmp_path / "sheet.terrain"
    ruleset.write_text(
        "ruleset sheet\nversion 1.0.0\nmode walker\nlayer marsh {\n"
        f'  bog {spelling_string(label)} | 2\n  fen "Fen" | 0\n}}\n',
        "utf-8",
    )
    code, out, _ = run(capsys, "export", str(ruleset), "--format", "csv", "--table", "marsh")
    assert code == 0
    cells = list(csv.reader(io.StringIO(out)))[1]
    assert cells[1] == "'" + label  # a spreadsheet shows it as text
    assert not any(
        c[:1] in ("=", "+", "-", "@", "\t") for row in csv.reader(io.StringIO(out)) for c in row
    )
    chart = tmp_path / "marsh.csv"
    chart.write_text(out, "utf-8")
    code, layer, _ = run(capsys, "import", str(chart), "--layer", "marsh")
    assert code == 0
    # Cells are read without the spaces around them: a leading tab goes too.
    assert layer.splitlines()[1].startswith(f"  bog {spelling_string(label.strip())} ")


def test_a_cell_that_is_only_a_number_is_exported_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "export", "heavy_gear", "--format", "csv", "--table", "cover")
    assert code == 0
    assert out.splitlines()[:2] == ["item,all", "full,-2"]  # -2 is data, not a formula
    from rulesdsl.interchange.chart_export import neutralise

    assert [neutralise(c) for c in ("-2", "+1", "-0.5", "1e3", "-2 in", "=1", "")] == [
        "-2",
        "+1",
        "-0.5",
        "1e3",
        "'-2 in",
        "'=1",
        "",
    ]


def spelling_string(text: str) -> str:
    from rulesdsl import spelling

    return spelling.string(text)


def test_a_layer_name_or_label_from_the_command_line_is_checked_and_named_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "marsh.csv"
    chart.write_text("feature,walker\nbog,3\n", "utf-8")
    code, out, err = run(capsys, "import", str(chart), "--layer", "class")
    assert code == 1 and out == ""
    assert err.startswith("rulesdsl: error[E103]: --layer: 'class' cannot name a layer")
    code, out, err = run(capsys, "import", str(chart), "--layer", "marsh", "--label", "a\x1bb")
    assert code == 1 and out == ""
    assert err.startswith("rulesdsl: error[E004]: --label: control character '\\u001b'")


CSV_PIECES = st.sampled_from(
    [
        "feature",
        "walker",
        "hover",
        "label",
        "fr",
        "all",
        "note",
        "source",
        "bog",
        "class",
        "3",
        "-2",
        "as bog",
        "1 per 2 in",
        "impassable",
        ",",
        '"',
        '""',
        "\n",
        "\r\n",
        "\r",
        "\x00",
        "\x1b",
        "'",
        "'=",
        "=1",
        " ",
        "hg p.2",
        "\u2028",
        "é",
        ";",
        "\t",
        "sep=;\n",
        "1,5",
        "1,500",
        "label fr",
        "note 2",
        "column cost",
        "ignores others",
    ]
)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(pieces=st.lists(CSV_PIECES, max_size=40))
def test_any_text_is_a_chart_or_diagnostics_never_an_exception(pieces: list[str]) -> None:
    compiler = Compiler()
    text = "feature,walker,hover,label\n" + "".join(pieces)
    imported = import_layer(
        text, "fuzz.csv", "marsh", reading=Reading(fragments=compiler.fragments)
    )
    found = imported.diagnostics + check_alone(imported, compiler)
    assert (imported.text is None) == any(d.is_error for d in imported.diagnostics)
    assert all(d.pos is None or d.pos.file == "fuzz.csv" for d in found)
