"""Keyword precedence without traps (issue 25, item 7): a keyword that a cell does not name
stands for the cell's value for everyone, so a unit's keyword that comes first by `precedence`
wins with that value over a lower keyword the cell names; where the cell has no value for
everyone, the lower keyword's value is taken and W262 says so."""

from __future__ import annotations

from pathlib import Path

from rulesdsl import semantics
from rulesdsl.compiler import Compiler
from tests.conftest import compile_snippet, import_rendered

HEADER = """ruleset demo "Demo"
version 1.0.0
units distance in, cost MP
group fly "Fly"
group vehicle "Vehicle"
mode jetbike "Jetbike" : vehicle, fly
mode tank "Tank" : vehicle
precedence fly, vehicle
"""
LINES = HEADER.count("\n")


def test_a_higher_keyword_the_cell_does_not_name_takes_the_value_for_everyone(
    compiler: Compiler, tmp_path: Path
) -> None:
    body = 'layer t "T" {\n  ruins "Ruins" | 2, vehicle impassable\n}\n'
    compiled = compile_snippet(compiler, HEADER + body, tmp_path)
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    module = import_rendered(compiled.ruleset, tmp_path, "precedence_everyone")
    assert module.move_cost("jetbike", "ruins") == 2  # a flyer's cost
    assert module.move_cost("tank", "ruins") == module.IMPASSABLE
    cell = compiled.ruleset.features[0].cells["cost"]
    assert semantics.written_cost(cell, "jetbike", compiled.ruleset.groups, [["fly", "vehicle"]])
    assert not [d for d in compiled.diagnostics if d.code == "W262"]


def test_the_rule_holds_for_modifiers_by_mode_and_place_states(
    compiler: Compiler, tmp_path: Path
) -> None:
    body = (
        'modifier speed "Speed" by mode {\n  fast "Fast" | +1, vehicle +2\n}\n'
        'layer t "T" {\n  marsh "Marsh" | 2, vehicle 3 must stop\n}\n'
    )
    compiled = compile_snippet(compiler, HEADER + body, tmp_path)
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    module = import_rendered(compiled.ruleset, tmp_path, "precedence_modifier")
    assert module.modifier("speed", "fast", mode="jetbike") == 1
    assert module.modifier("speed", "fast", mode="tank") == 2
    assert module.must_stop("jetbike", "marsh") is False
    assert module.must_stop("tank", "marsh") is True


def test_a_cell_with_no_value_for_everyone_warns_w262(compiler: Compiler, tmp_path: Path) -> None:
    body = 'layer t "T" {\n  ruins "Ruins" | vehicle 3\n}\n'
    compiled = compile_snippet(compiler, HEADER + body, tmp_path)
    assert compiled.ok and compiled.ruleset is not None
    [diag] = [d for d in compiled.diagnostics if d.code == "W262"]
    assert diag.pos is not None and not diag.is_error
    assert (diag.pos.line - LINES, diag.pos.column) == (2, 19)
    assert "'jetbike'" in diag.message and "'vehicle'" in diag.message
    assert diag.hint is not None and "fly <value>" in diag.hint
    module = import_rendered(compiled.ruleset, tmp_path, "precedence_w262")
    assert module.move_cost("jetbike", "ruins") == 3  # vehicle's, as the warning says


def test_a_modifier_cell_with_no_value_for_everyone_warns_w262(
    compiler: Compiler, tmp_path: Path
) -> None:
    body = 'modifier speed "Speed" by mode {\n  fast "Fast" | vehicle +2\n}\n'
    compiled = compile_snippet(compiler, HEADER + body, tmp_path)
    [diag] = [d for d in compiled.diagnostics if d.code == "W262"]
    assert diag.pos is not None
    assert (diag.pos.line - LINES, diag.pos.column) == (2, 17)


def test_naming_the_higher_keyword_silences_w262(compiler: Compiler, tmp_path: Path) -> None:
    body = 'layer t "T" {\n  ruins "Ruins" | vehicle 3, fly 1\n}\n'
    compiled = compile_snippet(compiler, HEADER + body, tmp_path)
    assert not [d for d in compiled.diagnostics if d.code == "W262"]


def test_without_precedence_nothing_changes(compiler: Compiler, tmp_path: Path) -> None:
    text = HEADER.replace("precedence fly, vehicle\n", "")
    body = 'layer t "T" {\n  ruins "Ruins" | 2, vehicle 3\n}\n'
    compiled = compile_snippet(compiler, text + body, tmp_path)
    assert compiled.ok and compiled.ruleset is not None
    module = import_rendered(compiled.ruleset, tmp_path, "precedence_none")
    assert module.move_cost("jetbike", "ruins") == 3
