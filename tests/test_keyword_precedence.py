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
edition 2026.12
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


RUINS = 'layer t "T" {\n  ruins "Ruins" | 2, vehicle impassable\n}\n'


def test_the_sheet_gives_the_higher_keyword_the_value_for_everyone_in_every_language(
    tmp_path: Path,
) -> None:
    from rulesdsl.commands.cli import main

    source = tmp_path / "demo.terrain"
    source.write_text(HEADER.replace("units", "languages en fr ru de\nunits") + RUINS, "utf-8")
    impassable = {"en": "impassable", "fr": "infranchissable", "ru": "непроходимо", "de": "unpas"}
    for lang, word in impassable.items():
        target = tmp_path / f"demo.{lang}.md"
        assert (
            main(["sheet", str(source), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
        )
        # columns Jetbike, Tank: the jetbike flies over the ruins at 2, the tank cannot enter
        row = next(line for line in target.read_text("utf-8").splitlines() if "Ruins" in line)
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert cells[1] == "2" and word in cells[2], (lang, row)


def test_w262_through_the_yaml_front_end_points_into_the_scalar(
    compiler: Compiler, tmp_path: Path
) -> None:
    text = """\
ruleset: demo
label: Demo
version: 1.0.0
edition: 2026.12
units: {distance: in, cost: MP}
groups: {fly: Fly, vehicle: Vehicle}
modes:
  jetbike: {label: Jetbike, keywords: [vehicle, fly]}
precedence: [[fly, vehicle]]
layers:
  terrain:
    rows:
      ruins: 'vehicle 3'
"""
    compiled = compile_snippet(compiler, text, tmp_path, "demo.yaml")
    [diag] = [d for d in compiled.diagnostics if d.pos is not None]
    assert diag.pos is not None
    assert (diag.code, diag.pos.line, diag.pos.column) == ("W262", 13, 15)


def test_diff_grades_the_value_for_everyone_as_the_higher_keywords_answer(
    compiler: Compiler,
) -> None:
    from rulesdsl.versions.diff import diff

    old = compile_snippet(compiler, HEADER + RUINS).ruleset
    new = compile_snippet(compiler, HEADER + RUINS.replace("| 2,", "| 3,")).ruleset
    assert old is not None and new is not None
    changes = [(c.level, c.path, c.old, c.new) for c in diff(old, new).changes]
    assert changes == [("rules", "ruins.jetbike", "2", "3")]  # the jetbike's, as a flyer


def test_a_house_rule_gives_the_higher_keyword_a_value_of_its_own(
    compiler: Compiler, tmp_path: Path
) -> None:
    (tmp_path / "demo.terrain").write_text(HEADER + RUINS, "utf-8")
    house = 'ruleset house "House"\nversion 1.0.0\nextends demo@^1.0\noverride ruins.fly | 1\n'
    compiled = compile_snippet(compiler, house, tmp_path, "house.terrain")
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    module = import_rendered(compiled.ruleset, tmp_path, "precedence_house")
    assert module.move_cost("jetbike", "ruins") == 1
    assert module.move_cost("tank", "ruins") == module.IMPASSABLE
