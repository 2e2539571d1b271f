"""`rulesdsl fmt`: only whitespace changes, tables line up, and it is idempotent."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.interchange.fmt import format_text
from tests.conftest import RULESETS, shared_compiler

MESSY = """ruleset demo "Demo"   # trailing comment
version 1.0.0
units distance in, cost MP
mode walker "Walker"
mode hover "Hover"



layer t "T" {
soft "Soft" | 2, walker 3
        very_rough "Very rough" | 4, hover impassable   # a comment with | and -> inside
   road "Road" | 1
note "A note # not a comment"
}
decision d "D" (x in) {
 x > 10 -> far "Far"
   x > 2 -> near "Near"
 otherwise -> here "Here"
}
"""

EXPECTED = """ruleset demo "Demo"  # trailing comment
version 1.0.0
units distance in, cost MP
mode walker "Walker"
mode hover "Hover"

layer t "T" {
  soft "Soft"             | 2, walker 3
  very_rough "Very rough" | 4, hover impassable  # a comment with | and -> inside
  road "Road"             | 1
      note "A note # not a comment"
}
decision d "D" (x in) {
  x > 10    -> far "Far"
  x > 2     -> near "Near"
  otherwise -> here "Here"
}
"""


def test_tables_line_up_and_blocks_indent() -> None:
    assert format_text(MESSY) == EXPECTED


def test_formatting_is_idempotent() -> None:
    assert format_text(EXPECTED) == EXPECTED


def ir_without_digest(compiler: Compiler, path: Path) -> object:
    compiled = compiler.compile_file(path)
    assert compiled.ruleset is not None
    ancestors = tuple(dataclasses.replace(a, digest="") for a in compiled.ruleset.extends)
    return dataclasses.replace(compiled.ruleset, digest="", extends=ancestors)


def test_formatting_changes_no_meaning(tmp_path: Path) -> None:
    compiler = Compiler()
    for source in sorted(RULESETS.glob("*.terrain")):
        copy = tmp_path / source.name
        copy.write_text(format_text(source.read_text("utf-8")), "utf-8")
        for base in RULESETS.glob("*.terrain"):  # variants need their bases beside them
            if not (tmp_path / base.name).exists():
                (tmp_path / base.name).write_text(base.read_text("utf-8"), "utf-8")
        assert ir_without_digest(compiler, copy) == ir_without_digest(shared_compiler(), source)


def test_bundled_rulesets_are_formatted() -> None:
    assert main(["fmt", "--check", str(RULESETS)]) == 0


def test_a_file_with_syntax_errors_is_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.terrain"
    path.write_text('ruleset bad "Bad"\nmode  a "A" |\n', "utf-8")
    assert main(["fmt", str(path)]) == 1
    assert path.read_text("utf-8") == 'ruleset bad "Bad"\nmode  a "A" |\n'
    assert "error[E001]" in capsys.readouterr().err


def test_check_reports_unformatted_files_without_changing_them(tmp_path: Path) -> None:
    path = tmp_path / "demo.terrain"
    path.write_text(MESSY, "utf-8")
    assert main(["fmt", "--check", str(path)]) == 1
    assert path.read_text("utf-8") == MESSY
    assert main(["fmt", str(path)]) == 0
    assert path.read_text("utf-8") == EXPECTED


# ---- issue 26: YAML rulesets are refused in one line, never read as DSL --------------------


@pytest.mark.parametrize("suffix", [".yaml", ".yml"])
@pytest.mark.parametrize("check", [[], ["--check"]])
def test_fmt_refuses_a_yaml_ruleset_in_one_line_naming_convert(
    suffix: str, check: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    yaml_file = tmp_path / f"d20{suffix}"
    text = (Path(__file__).parent / "data" / "yaml" / "d20_movement.yaml").read_text("utf-8")
    yaml_file.write_text(text, "utf-8")
    messy = tmp_path / "demo.terrain"
    messy.write_text(MESSY, "utf-8")
    assert main(["fmt", *check, str(yaml_file), str(messy)]) == 2
    err = capsys.readouterr().err
    [line] = [row for row in err.splitlines() if str(yaml_file) in row]
    assert "not YAML" in line and f"rulesdsl convert {yaml_file}" in line
    assert "error[" not in err  # no DSL diagnostics for YAML text
    assert yaml_file.read_text("utf-8") == text
    assert messy.read_text("utf-8") == (MESSY if check else EXPECTED)  # the others are done


def test_fmt_refuses_a_file_that_is_not_a_ruleset_without_dsl_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "README.md"
    notes.write_text("# My game\n\nSome notes.\n", "utf-8")
    assert main(["fmt", str(notes)]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [
        f"rulesdsl: error: {notes}: not a .terrain file; fmt lays out rulesets written in the "
        "terrain DSL and leaves other files alone"
    ]
    assert notes.read_text("utf-8") == "# My game\n\nSome notes.\n"


def test_fmt_diff_prints_the_change_and_never_writes_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 42 item 2: like black and ruff, `--diff` shows what would change and writes
    nothing, with or without --check (exit 1 when a file would change, as with --check)."""
    path = tmp_path / "demo.terrain"
    path.write_text(MESSY)
    assert main(["fmt", "--diff", str(path)]) == 1
    assert path.read_text() == MESSY
    out = capsys.readouterr()
    assert "+++ " in out.out and "would reformat" in out.err
    assert main(["fmt", str(path)]) == 0
    assert main(["fmt", "--diff", str(path)]) == 0
    assert capsys.readouterr().out == ""
