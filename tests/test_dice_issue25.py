"""Issue 25, items 2, 3 and 5: natural rolls on every dice table, outcomes that carry data,
results-table columns chosen by a value with units and a declared rounding, the chance of each
outcome per column, and the E303 gap reported once with the row to add."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from rulesdsl import ir
from rulesdsl.compiler import Compiler
from tests.conftest import compile_snippet, import_rendered

HEADER = """ruleset demo "Demo"
version 1.0.0
units distance hex, cost MP
mode foot "Foot"
"""
LINES = HEADER.count("\n")


def found(compiler: Compiler, body: str) -> list[tuple[str, int, int]]:
    compiled = compile_snippet(compiler, HEADER + body)
    return [
        (d.code, d.pos.line - LINES, d.pos.column)
        for d in compiled.diagnostics
        if d.pos is not None
    ]


def messages(compiler: Compiler, body: str) -> list[tuple[str, str, str | None]]:
    compiled = compile_snippet(compiler, HEADER + body)
    return [(d.code, d.message, d.hint) for d in compiled.diagnostics]


def module(compiler: Compiler, tmp_path: Path, body: str) -> ModuleType:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok, [(d.code, d.message) for d in compiled.diagnostics]
    assert compiled.ruleset is not None
    return load(compiled.ruleset, tmp_path)


def load(ruleset: ir.Ruleset, tmp_path: Path) -> ModuleType:
    return import_rendered(ruleset, tmp_path, f"dice25_{abs(hash(str(tmp_path)))}_{ruleset.id}")


# ---- E303: a gap is reported once, naming the totals and the row to add ---------------------

SIX_COLUMNS = """dice cc "Close combat" : 1d6 by odds {
  modifier night "Night" -1
  column cc_1_4 "1:4" up to 0.25
  column cc_1_2 "1:2" up to 0.5
  column cc_1_1 "1:1" up to 1
  column cc_2_1 "2:1" up to 2
  column cc_3_1 "3:1" up to 3
  column cc_4_1 "4:1" above 3
  outcome ae "Attacker eliminated"
  outcome de "Defender eliminated"
  1  | ae | ae | ae | ae | ae | de
  2  | ae | ae | ae | ae | de | de
  3  | ae | ae | ae | de | de | de
  4  | ae | ae | de | de | de | de
  5  | ae | de | de | de | de | de
  6+ | de | de | de | de | de | de
}
"""


def test_a_gap_a_modifier_opens_is_reported_once_for_all_columns(compiler: Compiler) -> None:
    """Was six E303s, one per column, hinting to open-end a row already open."""
    assert found(compiler, SIX_COLUMNS) == [("E303", 1, 6)]
    ((_, message, hint),) = messages(compiler, SIX_COLUMNS)
    assert message == "with its modifiers the roll reaches total 0, which no row covers"
    assert hint == (
        "write the row `1` as `1-`, or add `0- | OUTCOME | OUTCOME | OUTCOME | OUTCOME | "
        "OUTCOME | OUTCOME`"
    )


def test_a_gap_in_the_plain_totals_is_reported_once_with_the_row_to_add(
    compiler: Compiler,
) -> None:
    body = SIX_COLUMNS.replace("  3  | ae | ae | ae | de | de | de\n", "")
    assert found(compiler, body) == [("E301", 1, 6)]
    ((_, message, hint),) = messages(compiler, body)
    assert message == "total 3 of 1d6 is in no row"
    assert hint == "add the row `3 | OUTCOME | OUTCOME | OUTCOME | OUTCOME | OUTCOME | OUTCOME`"
