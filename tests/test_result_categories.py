"""Results tables whose columns are categories (issue 40, item 7: "results tables whose
columns are categories (gun class), not numeric bounds"): a column with no bound is named by
the caller; the module answers as the reference semantics says, refuses an unknown category
(UnknownName), a value of the input and a shift (InvalidArgument); misuse is E327/E328 at
its place; the YAML form, the sheet's column heads, `diff` grading, the house-rule path and
the JavaScript module's answers and errors."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulesdsl import ir, semantics
from rulesdsl.codegen import plan as module_plan
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.printed import sheets
from rulesdsl.versions import diff as semantic
from tests import js_queries, js_queries_categories, test_js_target
from tests.conftest import compile_snippet, import_rendered
from tests.test_sight_and_results import located

HEADER = 'ruleset demo "Demo"\nversion 1.0.0\nlanguages en fr\nunits distance hex, cost MP\nmode foot "Foot"\n'
HEADER_LINES = HEADER.count("\n")

GUNS = """dice penetration "Penetration" fr "Pénétration" : 1d6 by gun_class {
  modifier long_range "Long range" fr "Longue portée" -1
  column light "Light" fr "Léger"
  column medium "Medium" fr "Moyen"
  column heavy "Heavy" fr "Lourd"
  outcome bounce "Bounces" fr "Ricoche"
  outcome hit "Penetrates" fr "Pénètre"
  natural 6 hit
  1-   | bounce | bounce | bounce
  2-3  | bounce | bounce | hit
  4    | bounce | hit    | hit
  5+   | hit    | hit    | hit
}
"""


def _ruleset(compiler: Compiler, body: str = GUNS) -> ir.Ruleset:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


def test_the_module_answers_each_category_as_the_semantics_says(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = _ruleset(compiler)
    m = import_rendered(rs, tmp_path, "categories_module")
    table = rs.results_tables[0]
    assert [c.bound for c in table.columns] == ["category"] * 3
    asked = 0
    for column in ("light", "medium", "heavy"):
        for total in range(-1, 8):
            for natural in (None, 1, 6):
                got = m.roll("penetration", total, column=column, natural=natural)
                assert got.id == semantics.result(table, total, column, natural), (column, total)
                assert got.column == column
                asked += 1
    assert asked == 81
    assert m.roll("penetration", 3, column="heavy").id == "hit"
    assert m.roll("penetration", 3, column="medium").id == "bounce"


def test_an_unknown_category_is_unknown_name(compiler: Compiler, tmp_path: Path) -> None:
    m = import_rendered(_ruleset(compiler), tmp_path, "categories_unknown")
    with pytest.raises(m.UnknownName, match="'huge'"):
        m.roll("penetration", 3, column="huge")


@pytest.mark.parametrize("value", [2, 2.5, (3, 1)])
def test_a_value_for_a_category_column_is_refused(
    compiler: Compiler, tmp_path: Path, value: object
) -> None:
    m = import_rendered(_ruleset(compiler), tmp_path, f"categories_value_{len(str(value))}")
    with pytest.raises(m.InvalidArgument, match="its columns are categories"):
        m.roll("penetration", 3, column=value)
    assert semantics.result_column(_ruleset(compiler).results_tables[0], 2) is None


def test_a_callers_shift_of_a_category_is_refused(compiler: Compiler, tmp_path: Path) -> None:
    m = import_rendered(_ruleset(compiler), tmp_path, "categories_shift")
    with pytest.raises(m.InvalidArgument, match="cannot move along categories"):
        m.roll("penetration", 3, column="light", shift=1)


def test_the_chances_per_category_count_the_natural_roll(
    compiler: Compiler, tmp_path: Path
) -> None:
    m = import_rendered(_ruleset(compiler), tmp_path, "categories_chances")
    chances = m.RESULTS_TABLES["penetration"].chances
    assert (chances["light"]["hit"], chances["medium"]["hit"], chances["heavy"]["hit"]) == (
        pytest.approx(1 / 3),
        pytest.approx(1 / 2),
        pytest.approx(5 / 6),
    )
    assert m.RESULTS_TABLES["penetration"].chances_with["long_range"]["heavy"]["hit"] == (
        pytest.approx(2 / 3)
    )


MIXED = GUNS.replace('column medium "Medium" fr "Moyen"', 'column medium "Medium" up to 2')
ROUNDED = GUNS.replace("by gun_class {", "by gun_class round down {")
SHIFTED = GUNS.replace('"Long range" fr "Longue portée" -1', '"Long range" shift left 1')


@pytest.mark.parametrize(
    ("body", "code", "line", "column"),
    [(MIXED, "E327", 4, 26), (ROUNDED, "E327", 1, 74), (SHIFTED, "E328", 2, 12)],
    ids=["bounded-among-categories", "rounding", "shift"],
)
def test_misuse_of_category_columns_is_reported_at_its_place(
    compiler: Compiler, body: str, code: str, line: int, column: int
) -> None:
    assert located(compiler, HEADER + body) == [(code, HEADER_LINES + line, column)]


def test_yaml_round_trip_keeps_categories(compiler: Compiler, tmp_path: Path) -> None:
    source, errors = Parser().parse(HEADER + GUNS, "guns.terrain")
    assert source is not None and errors == []
    yaml_text = to_yaml(source)
    assert "light: {label: Light" in yaml_text and "upto" not in yaml_text
    back = to_terrain(yaml_text)
    assert '  column light "Light" fr "Léger"\n' in back
    (tmp_path / "guns.yaml").write_text(yaml_text, "utf-8")
    (tmp_path / "back.terrain").write_text(back, "utf-8")
    for path in (tmp_path / "guns.yaml", tmp_path / "back.terrain"):
        compiled = compiler.compile_file(path)
        assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
        assert compiled.ruleset.results_tables == _ruleset(compiler).results_tables
