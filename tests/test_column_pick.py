"""A decision's outcome that picks a results table's column (issue 40, item 7, "rules that
feed rules"): `dice penetration : 1d6 by gun_class` whose columns are categories, and a
decision `gun_class` that gives outcomes. The module takes the decision's answer as the
column, in Python and JavaScript; the outcomes must be the columns (E430), and a decision
that gives a number cannot name a category (E431); the sheet says which decision picks the
column; `diff` grades the link; a house rule that adds an outcome no column has is E430."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulesdsl import ir, semantics
from rulesdsl.codegen import plan as module_plan
from rulesdsl.compiler import Compiler
from tests import js_queries, js_queries_feeds, test_js_target
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
    expected = [js_queries.ask_python(python, q) for q in queries]
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
        (EXTRA, [("E430", 5, 3)]),
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
