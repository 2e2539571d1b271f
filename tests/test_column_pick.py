"""A decision's outcome that picks a results table's column (issue 40, item 7, "rules that
feed rules"): `dice penetration : 1d6 by gun_class` whose columns are categories, and a
decision `gun_class` that gives outcomes. The module takes the decision's answer as the
column, in Python and JavaScript; the outcomes must be the columns (E430), and a decision
that gives a number cannot name a category (E431); the sheet says which decision picks the
column; `diff` grades the link; a house rule that adds an outcome no column has is E430."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdsl import ir, semantics
from rulesdsl.compiler import Compiler
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
