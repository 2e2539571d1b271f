"""Results tables whose columns are categories (issue 40, item 7: "results tables whose
columns are categories (gun class), not numeric bounds"): a column with no bound is named by
the caller; the module answers as the reference semantics says, refuses an unknown category
(UnknownName), a value of the input and a shift (InvalidArgument); misuse is E327/E328 at
its place; the YAML form, the sheet's column heads, `diff` grading, the house-rule path and
the JavaScript module's answers and errors."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from rulesdsl import ir, semantics
from rulesdsl.codegen import plan as module_plan
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.versions import diff as semantic
from tests import js_queries, js_queries_categories, test_js_target
from tests.conftest import compile_snippet, import_rendered
from tests.test_sight_and_results import located

HEADER = (
    'ruleset demo "Demo"\nversion 1.0.0\nlanguages en fr\nunits distance hex, cost MP\n'
    'mode foot "Foot"\n'
)
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


@pytest.mark.parametrize(
    ("lang", "heads"),
    [
        ("en", "| Light | Medium | Heavy |"),
        ("fr", "| Léger | Moyen | Lourd |"),
        ("de", "| Light | Medium | Heavy |"),
        ("ru", "| Light | Medium | Heavy |"),
    ],
)
def test_the_sheet_heads_the_columns_with_the_categories(
    tmp_path: Path, lang: str, heads: str
) -> None:
    ruleset = tmp_path / "demo.terrain"
    ruleset.write_text(HEADER + GUNS, "utf-8")
    target = tmp_path / f"demo.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    text = target.read_text("utf-8")
    assert text.count(heads) == 2  # the results grid and the chances per column
    assert "Light (" not in text and "Léger (" not in text


def test_diff_grades_bounds_turned_categories_as_breaking(compiler: Compiler) -> None:
    bounded = (
        GUNS.replace('fr "Léger"', 'fr "Léger" up to 1')
        .replace('fr "Moyen"', 'fr "Moyen" up to 2')
        .replace('fr "Lourd"', 'fr "Lourd" above 2')
    )
    old, new = _ruleset(compiler, bounded), _ruleset(compiler)
    found = [(c.level, c.path, c.message) for c in semantic.diff(old, new).changes]
    assert (
        "breaking",
        "penetration.light",
        "Penetration, column Light: up to 1 -> a category",
    ) in found
    assert len(found) == 3


def test_diff_lists_a_new_category_column(compiler: Compiler) -> None:
    wider = GUNS.replace(
        'column heavy "Heavy" fr "Lourd"\n',
        'column heavy "Heavy" fr "Lourd"\n  column superheavy "Super-heavy" fr "Très lourd"\n',
    )
    for row in ("| hit\n", "| bounce\n"):
        wider = wider.replace(row, row[:-1] + " | hit\n")
    changes = semantic.diff(_ruleset(compiler), _ruleset(compiler, wider)).changes
    assert ("added", "penetration.superheavy") in [(c.action, c.path) for c in changes]


def _house(tmp_path: Path, body: str) -> tuple[ir.Ruleset | None, list[tuple[str, int, int]]]:
    (tmp_path / "demo.terrain").write_text(HEADER + GUNS, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text('ruleset house "House"\nversion 1.0.0\nextends demo@^1.0\n' + body, "utf-8")
    compiled = Compiler().compile_file(house)
    errors = [
        (d.code, d.pos.line, d.pos.column) for d in compiled.diagnostics if d.is_error and d.pos
    ]
    return compiled.ruleset, errors


def test_a_house_rule_adds_a_modifier_and_a_natural_roll_to_a_category_table(
    tmp_path: Path,
) -> None:
    rs, errors = _house(
        tmp_path,
        "dice penetration : 1d6 by gun_class {\n"
        '  modifier ambush "Ambush" +1\n  natural 1 bounce\n}\n'
        "override penetration.hit | damage 1\n",
    )
    assert rs is not None and errors == []
    table = rs.results_tables[0]
    assert [m.id for m in table.modifiers] == ["long_range", "ambush"]
    assert semantics.result(table, 5, "light", 1) == "bounce"
    assert semantics.result(table, 4, "light", None) == "bounce"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (
            'dice penetration : 1d6 by gun_class {\n  modifier flank "Flank" shift right 1\n}\n',
            "E328",
        ),
        ("dice penetration : 1d6 by gun_class round down {\n}\n", "E327"),
    ],
    ids=["shift", "rounding"],
)
def test_a_house_rule_cannot_shift_or_round_categories(
    tmp_path: Path, body: str, code: str
) -> None:
    _, errors = _house(tmp_path, body)
    assert [e[0] for e in errors] == [code]
    assert errors[0][1] in (4, 5)


@pytest.fixture(scope="module")
def node() -> str:
    return test_js_target._needed("node")


def test_js_module_gives_the_same_answers_and_errors_as_python(
    compiler: Compiler, node: str, tmp_path: Path
) -> None:
    rs = _ruleset(compiler)
    plan = module_plan.build(rs)
    python = import_rendered(rs, tmp_path, "categories_js")
    module = test_js_target.write_package(plan, tmp_path / "categories")
    queries = list(js_queries_categories.category_queries(random.Random(40), plan))
    assert len(queries) == 400
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(module, queries)
    errors = {
        e["error"][0] if isinstance(e["error"], list) else str(e["error"])[:20]
        for e in expected
        if "error" in e
    }
    assert any("answer" in e for e in expected) and len(errors) >= 2, errors
    pairs = zip(queries, expected, got, strict=True)
    assert [(q, e, g) for q, e, g in pairs if not js_queries.same(e, g)][:5] == []


def test_the_language_guide_example_answers_as_it_says(compiler: Compiler, tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    start = doc.index('```terrain\ndice penetration "Penetration"')
    snippet = doc[start + len("```terrain\n") : doc.index("```", start + 10)]
    m = import_rendered(_ruleset(compiler, snippet), tmp_path, "categories_docs")
    assert m.roll("penetration", 3, column="heavy").id == "hit"
    assert m.roll("penetration", 3, column="medium").id == "bounce"
    assert m.RESULTS_TABLES["penetration"].chances["heavy"]["hit"] == Fraction(5, 6)
    for error, column in ((m.UnknownName, "huge"), (m.InvalidArgument, 2)):
        with pytest.raises(error):
            m.roll("penetration", 3, column=column)
    for shown in (
        '`roll("penetration", 3, column="heavy")` is `hit`',
        '`roll("penetration", 3, column="medium")` is `bounce`',
        '`RESULTS_TABLES["penetration"].chances["heavy"]["hit"]` is\n  `Fraction(5, 6)`',
        "`column Light: up\n  to 1 -> a category`",
    ):
        assert shown in doc


def test_a_decisions_outcome_id_names_a_category_column(compiler: Compiler, tmp_path: Path) -> None:
    decision = (
        'decision gun_class "Gun class" (calibre mm) {\n'
        '  calibre < 40 -> light "Light gun"\n'
        '  calibre < 80 -> medium "Medium gun"\n'
        '  otherwise    -> heavy "Heavy gun"\n}\n'
    )
    m = import_rendered(_ruleset(compiler, decision + GUNS), tmp_path, "categories_decided")
    assert m.roll("penetration", 3, column=m.gun_class(calibre=120).id).id == "hit"
    assert m.roll("penetration", 3, column=m.gun_class(calibre=60).id).id == "bounce"
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    assert "column=gun_class(calibre=120))` is `hit`" in doc  # the outcome itself works too
