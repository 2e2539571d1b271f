"""Spreadsheets: `rulesdsl import` of a CSV terrain chart into a layer, `export --format csv`."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest

from rulesdsl.cli import main
from rulesdsl.compiler import Compiler
from tests.conftest import RULESETS

CHART = """\
feature,label,fr,walker,ground,hover
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


def test_export_of_a_layer_is_one_row_per_feature_and_one_column_per_mode(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "export", "heavy_gear", "--format", "csv", "--table", "terrain")
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["feature", "label", "fr", "walker", "ground", "hover"]
    by_id = {r[0]: r for r in rows[1:]}
    assert by_id["soft"][3:] == ["3", "2", "2"]
    assert by_id["road"][3:] == ["1", "1 per 2 in", "1"]
    assert by_id["very_rough"][3:] == ["3", "impassable", "impassable"]


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
    assert rows[0] == ["row", "label", "fr", "perfect", "good", "average", "poor", "clumsy"]
    assert rows[5][0] == "turn" and rows[5][4] == "90 deg per 1.5 m"
    _, armour, _ = run(
        capsys, "export", "d20_movement", "--format", "csv", "--table", "armor_speed"
    )
    assert list(csv.reader(io.StringIO(armour)))[1][0::3] == ["6 m", "4.5 m"]
    _, dice, _ = run(
        capsys, "export", "battletech_tacops", "--format", "csv", "--table", "terrain_effects"
    )
    dice_rows = list(csv.reader(io.StringIO(dice)))
    assert dice_rows[0] == ["roll", "result", "label", "ru", "effects"]
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
