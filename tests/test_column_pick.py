"""A decision's outcome that picks a results table's column (issue 40, item 7, "rules that
feed rules"): `dice penetration : 1d6 by gun_class` whose columns are categories, and a
decision `gun_class` that gives outcomes. The module takes the decision's answer as the
column, in Python and JavaScript; the outcomes must be the columns (E430), and a decision
that gives a number cannot name a category (E431); the sheet says which decision picks the
column; `diff` grades the link; a house rule that adds an outcome no column has is E430."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir, semantics
from rulesdsl.codegen import plan as module_plan
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.versions import diff as semantic
from tests import js_queries, js_queries_feeds, test_js_target, typescript
from tests.conftest import compile_snippet, import_rendered
from tests.test_result_categories import GUNS, HEADER, HEADER_LINES
from tests.test_sight_and_results import located

GUN_CLASS = """decision gun_class "Gun class" fr "Classe de canon" (calibre mm) {
  calibre < 40 -> light "Light gun" fr "Canon léger"
  calibre < 80 -> medium "Medium gun" fr "Canon moyen"
  otherwise    -> heavy "Heavy gun" fr "Canon lourd"
}
"""


def _ruleset(compiler: Compiler, body: str = GUN_CLASS + GUNS) -> ir.Ruleset:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


def test_the_decisions_answer_picks_the_column_as_the_semantics_says(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = _ruleset(compiler)
    table = rs.results_tables[0]
    assert semantics.column_decision(rs, table) is rs.decisions[0]
    m = import_rendered(rs, tmp_path, "column_pick_module")
    for calibre in (20, 40, 60, 80, 120):
        picked = m.gun_class(calibre=calibre)
        for total in range(0, 8):
            got = m.roll("penetration", total, column=picked)
            assert got.column == picked.id
            assert got.id == semantics.result(table, total, picked.id)
            assert got == m.roll("penetration", total, column=picked.id)
    assert m.roll("penetration", 3, column=m.gun_class(calibre=120)).id == "hit"
    assert m.roll("penetration", 3, column=m.gun_class(calibre=60)).id == "bounce"


@pytest.fixture(scope="module")
def node() -> str:
    return test_js_target._needed("node")


def test_the_javascript_module_takes_the_decisions_answer_as_python_does(
    compiler: Compiler, node: str, tmp_path: Path
) -> None:
    rs = _ruleset(compiler)
    plan = module_plan.build(rs)
    assert plan.data.results_tables[0].picked_by == "gun_class"
    python = import_rendered(rs, tmp_path, "column_pick_js")
    module = test_js_target.write_package(plan, tmp_path / "column_pick")
    queries = list(js_queries_feeds.column_pick_queries(random.Random(40), plan))
    assert len(queries) == 300
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(module, queries)
    answers = {e["detail"][0] for e in expected if "answer" in e}
    assert answers == {"light", "medium", "heavy"}  # every column picked by an answer
    assert any("error" in e for e in expected)
    pairs = zip(queries, expected, got, strict=True)
    assert [(q, e, g) for q, e, g in pairs if not js_queries.same(e, g)][:5] == []


def test_a_table_no_decision_picks_still_refuses_an_outcome_for_its_column(
    compiler: Compiler, tmp_path: Path
) -> None:
    other = GUN_CLASS.replace("decision gun_class", "decision calibre_class")
    rs = _ruleset(compiler, other + GUNS)
    assert semantics.column_decision(rs, rs.results_tables[0]) is None
    m = import_rendered(rs, tmp_path, "column_pick_unlinked")
    with pytest.raises(m.InvalidArgument, match="its columns are categories"):
        m.roll("penetration", 3, column=m.calibre_class(calibre=120))


UNPICKED = (
    GUNS.replace("dice penetration", "dice ricochet")
    .replace("long_range", "far")
    .replace("by gun_class", "by calibre")
)


def test_a_decisions_answer_for_a_table_no_decision_picks_is_refused_in_both_modules(
    compiler: Compiler, node: str, tmp_path: Path
) -> None:
    rs = _ruleset(compiler, GUN_CLASS + GUNS + UNPICKED)
    plan = module_plan.build(rs)
    assert [t.picked_by for t in plan.data.results_tables] == ["gun_class", None]
    python = import_rendered(rs, tmp_path, "column_pick_two")
    with pytest.raises(python.InvalidArgument, match="no decision picks it"):
        python.roll("ricochet", 3, column=python.gun_class(calibre=120))
    assert python.roll("ricochet", 3, column="heavy").id == "hit"
    module = test_js_target.write_package(plan, tmp_path / "two")
    asked = [
        {
            "function": "roll",
            "args": [t, 3],
            "kwargs": {},
            "column_of": ["gun_class", {"calibre": c}],
        }
        for t in ("penetration", "ricochet")
        for c in (20, 120)
    ]
    expected = js_queries.ask_python_all(python, asked)
    assert [e.get("error") for e in expected] == [None, None, "InvalidArgument", "InvalidArgument"]
    got = js_queries.ask_node(module, asked)
    assert [g.get("error") for g in got] == [e.get("error") for e in expected]
    assert [g.get("answer") for g in got] == [e.get("answer") for e in expected]
    said = [x.get("message", "").split("; got")[0] for x in (*got, *expected)]  # the repr differs
    assert said[:4] == said[4:]


CONSUMER = """import { roll, gun_class } from "./demo.js";
const hit: "bounce" | "hit" = roll("penetration", 3, { column: gun_class({ calibre: 120 }) }).id;
const named: string = roll("penetration", 3, { column: "heavy" }).column;
console.log(hit, named);
"""


@typescript.TSC
def test_the_declarations_type_check_a_decisions_answer_as_the_column(
    compiler: Compiler, node: str, tmp_path: Path, pytestconfig: Any
) -> None:
    test_js_target.write_package(module_plan.build(_ruleset(compiler)), tmp_path)
    (tmp_path / "consumer.ts").write_text(CONSUMER, "utf-8")
    options = typescript.TSC_STRICT
    done = typescript.tsc(pytestconfig, [*options, "consumer.ts"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


EXTRA = GUN_CLASS.replace(
    '  otherwise    -> heavy "Heavy gun" fr "Canon lourd"\n',
    '  calibre < 150 -> heavy\n  otherwise    -> huge "Huge gun" fr "Canon énorme"\n',
)
MISSING = GUN_CLASS.replace("-> light", "-> medium").replace(' "Light gun" fr "Canon léger"', "")
NUMBER = """decision gun_class "Gun class" (calibre mm) {
  calibre < 40 -> light "Light gun" = calibre
  otherwise    -> heavy "Heavy gun" = calibre
}
"""


@pytest.mark.parametrize(
    ("decision", "found"),
    [
        (EXTRA, [("E430", 5, 19)]),
        (MISSING, [("E430", 8, 10)]),
        (NUMBER, [("E431", 5, 58)]),
    ],
    ids=["an-outcome-no-column-has", "a-column-no-outcome-gives", "a-decision-giving-a-number"],
)
def test_misuse_of_a_decision_picking_the_column_is_located(
    compiler: Compiler, decision: str, found: list[tuple[str, int, int]]
) -> None:
    located_here = located(compiler, HEADER + decision + GUNS)
    assert located_here == [(c, HEADER_LINES + line, col) for c, line, col in found]


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "The column is the outcome of Gun class."),
        ("fr", "La colonne est donnée par Classe de canon."),
        ("de", "Die Spalte ergibt sich aus Gun class."),
        ("ru", "Столбец определяется правилом «Gun class»."),
    ],
)
def test_the_sheet_says_which_decision_picks_the_column(
    tmp_path: Path, lang: str, said: str
) -> None:
    ruleset = tmp_path / "demo.terrain"
    ruleset.write_text(HEADER + GUN_CLASS + GUNS, "utf-8")
    target = tmp_path / f"demo.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    assert said in target.read_text("utf-8")
    ruleset.write_text(HEADER + GUNS, "utf-8")  # no decision picks it: nothing said
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    assert said not in target.read_text("utf-8")


def test_diff_grades_a_decision_that_starts_or_stops_picking_the_column(
    compiler: Compiler,
) -> None:
    caller, picked = _ruleset(compiler, GUNS), _ruleset(compiler)
    found = [(c.level, c.path, c.message) for c in semantic.diff(caller, picked).changes]
    said = "Penetration: column named by the caller -> Gun class"
    assert ("additive", "penetration.column", said) in found
    found = [(c.level, c.path, c.message) for c in semantic.diff(picked, caller).changes]
    said = "Penetration: column named by Gun class -> the caller"
    assert ("breaking", "penetration.column", said) in found


def _house(tmp_path: Path, body: str) -> tuple[ir.Ruleset | None, list[tuple[str, int, int]]]:
    (tmp_path / "demo.terrain").write_text(HEADER + GUN_CLASS + GUNS, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text('ruleset house "House"\nversion 1.0.0\nextends demo@^1.0\n' + body, "utf-8")
    compiled = Compiler().compile_file(house)
    errors = [
        (d.code, d.pos.line, d.pos.column) for d in compiled.diagnostics if d.is_error and d.pos
    ]
    return compiled.ruleset, errors


def test_a_house_rule_moves_a_calibre_to_another_column_and_is_checked(
    tmp_path: Path,
) -> None:
    rs, errors = _house(tmp_path, "override gun_class.medium: calibre < 100 -> medium\n")
    assert rs is not None and errors == []
    m = import_rendered(rs, tmp_path, "column_pick_house")
    assert m.roll("penetration", 3, column=m.gun_class(calibre=90)).column == "medium"
    _, errors = _house(tmp_path, "override gun_class.medium: calibre < 100 -> huge\n")
    assert [e[:2] for e in errors] == [("E430", 3), ("E430", 4)]  # medium lost, huge new


def test_the_yaml_form_picks_the_column_and_is_checked(compiler: Compiler, tmp_path: Path) -> None:
    source, errors = Parser().parse(HEADER + GUN_CLASS + GUNS, "guns.terrain")
    assert source is not None and errors == []
    yaml_text = to_yaml(source)
    assert "by: gun_class" in yaml_text
    (tmp_path / "guns.yaml").write_text(yaml_text, "utf-8")
    compiled = compiler.compile_file(tmp_path / "guns.yaml")
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    assert semantics.column_decision(compiled.ruleset, compiled.ruleset.results_tables[0])
    assert to_terrain(yaml_text).count("by gun_class") == 1
    (tmp_path / "bad.yaml").write_text(yaml_text.replace("then: heavy", "then: huge"), "utf-8")
    bad = compiler.compile_file(tmp_path / "bad.yaml")
    assert [d.code for d in bad.diagnostics if d.is_error] == ["E430", "E430"]
    assert all(d.pos is not None and d.pos.line > 1 for d in bad.diagnostics if d.is_error)


def test_the_language_guide_example_answers_as_it_says(compiler: Compiler, tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    section = doc[doc.index("### A decision that picks the column") :]
    start = section.index("```terrain\n") + len("```terrain\n")
    snippet = section[start : section.index("```", start)]
    m = import_rendered(_ruleset(compiler, snippet), tmp_path, "column_pick_docs")
    assert m.roll("penetration", 3, column=m.gun_class(calibre=120)).id == "hit"
    assert m.roll("penetration", 3, column=m.gun_class(calibre=60)).id == "bounce"
    for shown in (
        "column=gun_class(calibre=120))` is `hit`",
        "column=gun_class(calibre=60))` is `bounce`",
        '"The column is the outcome of Gun class."',
        "`Penetration: column named by the caller -> Gun class`",
    ):
        assert shown in doc
