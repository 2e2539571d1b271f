"""Issue 25: a ruleset that compiled before `precedence` existed (the first-declared group won
a cell both of a mode's groups gave a value in) fails with E232 now. The hint gives the exact
line that keeps the old answer, and `rulesdsl fmt --fix` adds it: atomically, saying what it
added, and only saying so with --check."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from tests.conftest import compile_snippet, import_rendered

OLD = """\
ruleset keywords "Keywords"
version 1.0.0
units distance in, cost MP
group fly "Fly"
group vehicle "Vehicle"
mode walker "Walker"
mode jetbike "Jetbike" : vehicle, fly
    note "Jetbikes skim over the ground."

layer terrain "Terrain" {
  clear "Clear" | 1
  woods "Woods" | 2, vehicle 3, fly 1
}
"""
HINT = (
    "add the line: precedence fly, vehicle ('fly' wins, as the first-declared group did before "
    "`precedence`; `rulesdsl fmt --fix` adds it), or `precedence vehicle, fly`, or give "
    "'jetbike' a value of its own"
)


def test_e232_on_a_keyword_cell_hints_the_exact_line_to_add(
    compiler: Compiler, tmp_path: Path
) -> None:
    compiled = compile_snippet(compiler, OLD, tmp_path, "keywords.terrain")
    assert [
        (d.code, d.message, d.pos.line, d.pos.column, d.hint)
        for d in compiled.diagnostics
        if d.pos is not None
    ] == [
        (
            "E232",
            "the cost of 'woods' is ambiguous for 'jetbike': its groups 'fly' and 'vehicle' "
            "both give a value",
            12,
            19,
            HINT,
        )
    ]  # and nothing else: no follow-on error


def test_the_yaml_hint_names_the_precedence_entry(compiler: Compiler, tmp_path: Path) -> None:
    text = """\
ruleset: keywords
label: Keywords
version: 1.0.0
units: {distance: in, cost: MP}
groups: {fly: Fly, vehicle: Vehicle}
modes:
  walker: Walker
  jetbike: {label: Jetbike, keywords: [vehicle, fly]}
layers:
  terrain:
    rows:
      woods: '2, vehicle 3, fly 1'
"""
    compiled = compile_snippet(compiler, text, tmp_path, "keywords.yaml")
    [(code, hint)] = [(d.code, d.hint) for d in compiled.diagnostics]
    assert code == "E232" and hint is not None
    assert hint.startswith("add [fly, vehicle] to `precedence:` ('fly' wins")


def test_fmt_fix_adds_the_line_atomically_says_so_and_keeps_the_old_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], compiler: Compiler
) -> None:
    path = tmp_path / "keywords.terrain"
    path.write_text(OLD, "utf-8")
    assert main(["fmt", "--fix", "--check", str(path)]) == 1  # --check: says, writes nothing
    err = capsys.readouterr().err
    assert f"{path}:9: would add `precedence fly, vehicle` (fixes E232 at 12:19)" in err
    assert f"would reformat {path}" in err
    assert path.read_text("utf-8") == OLD
    assert main(["fmt", "--fix", str(path)]) == 0
    err = capsys.readouterr().err
    assert f"{path}:9: added `precedence fly, vehicle` (fixes E232 at 12:19)" in err
    fixed = path.read_text("utf-8")
    assert fixed.splitlines()[7:9] == [
        '    note "Jetbikes skim over the ground."',
        "precedence fly, vehicle",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keywords.terrain"]  # no temp left
    compiled = Compiler().compile_file(path)
    assert compiled.diagnostics == [] and compiled.ruleset is not None
    module = import_rendered(compiled.ruleset, tmp_path, "keywords_fixed")
    assert module.move_cost("jetbike", "woods") == 1  # fly's value, as before precedence
    assert main(["fmt", "--fix", "--check", str(path)]) == 0  # nothing left to fix
    assert capsys.readouterr().err == ""


def test_fmt_fix_adds_one_line_for_many_cells_and_leaves_a_clean_file_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "keywords.terrain"
    two = OLD.replace("}\n", '  mud "Mud" | 2, vehicle 4, fly 1\n}\n')
    path.write_text(two, "utf-8")
    assert main(["fmt", "--fix", str(path)]) == 0
    err = capsys.readouterr().err
    assert "added `precedence fly, vehicle` (fixes E232 at 12:19, E232 at 13:15)" in err
    assert path.read_text("utf-8").count("precedence fly, vehicle") == 1
    clean = tmp_path / "clean.terrain"
    clean.write_text(OLD.replace("vehicle 3, fly 1", "vehicle 3"), "utf-8")
    assert main(["fmt", "--fix", "--check", str(clean)]) == 0
    assert capsys.readouterr().err == ""


def test_fmt_fix_takes_no_standard_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fmt", "--fix", "-"]) == 2
    assert "--fix changes files" in capsys.readouterr().err


def test_the_language_server_offers_the_same_line_as_a_quick_fix(
    compiler: Compiler, tmp_path: Path
) -> None:
    from rulesdsl.editor.lsp_actions import fixes

    [diag] = compile_snippet(compiler, OLD, tmp_path, "keywords.terrain").diagnostics
    assert diag.hint is not None and diag.pos is not None
    lines = OLD.splitlines()
    [fix] = fixes("E232", diag.hint, lines, diag.pos.line - 1, diag.pos.column - 1, 30)
    assert fix.title == "Add `precedence fly, vehicle`" and fix.preferred
    [edit] = fix.edits
    assert (edit.line, edit.start, edit.end_line, edit.end) == (8, 0, 8, 0)
    assert edit.text == "precedence fly, vehicle\n"
    assert fixes("E232", diag.hint, [*lines, "precedence fly, vehicle"], 11, 18, 30) == []
